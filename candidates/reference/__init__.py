"""The toolproof reference runtime: the suite's known-good candidate.

Pipeline: config parse -> validate -> hydrate -> dedup -> MCP toolsets ->
tool packing -> OpenAI chat completions -> tool loop. Each rule lives in
exactly one named function so negative controls can re-insert a historical
bug with a one-line textual patch.
"""

__version__ = "0.1.0"
