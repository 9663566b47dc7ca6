"""A server's own upper-case (Gemini-style) schema makes the runtime refuse to work at all.

A runtime that validates every tool's `inputSchema` and raises on a type name
it does not know (`"STRING"`) refuses the whole build or run because of one
server's broken input (Haystack 3.4.1, `haystack/tools/tool.py:133-136`,
reports/precision.md). That fails the repair SHOULD (tp-wire-schema-repair):
the tool is never offered lower-cased. It is not the MUST precondition
`proto.valid-config-builds-and-runs`: a server's broken input is not the
runtime's defect (CONTRACT.md §6 item 13), so the test charges the refusal to
the SHOULD alone.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-invalid-server-schema-refused",
    provenance="public-bug",
    bug="a tool whose inputSchema names an upper-case type is refused (the run fails) instead of repaired",
    source="contracts/CONTRACT.md §6.13 tp-wire-schema-repair; reports/precision.md (Haystack)",
    kills=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="schema.py",
            old="    if isinstance(value, str):\n        return value.lower()\n",
            new=(
                "    if isinstance(value, str):\n"
                "        if value != value.lower():\n"
                "            from .errors import InvalidConfig\n"
                "\n"
                '            raise InvalidConfig(f"unknown JSON Schema type {value!r}")\n'
                "        return value.lower()\n"
            ),
        ),
    ),
    select="test_upper_case_types_of_a_server_are_lowercased",
)
