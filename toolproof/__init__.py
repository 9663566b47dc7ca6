"""toolproof: a conformance suite and contract harness for AI-agent runtimes.

The package root holds constants only; the harness lives in one module per
concern (see HACKING.md).
"""

PROTOCOL_VERSION = 1
CONTRACT_VERSION = 8
__version__ = "0.1.0"

__all__ = ["CONTRACT_VERSION", "PROTOCOL_VERSION", "__version__"]
