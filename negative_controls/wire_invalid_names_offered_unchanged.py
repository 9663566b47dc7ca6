"""Invalid MCP tool names are offered to the model unchanged: neither aliased nor refused.

Every bundled runtime but the reference passes a name such as
`balda.control.shutdown` or a 70-character name through as the function name
(reports/precision.md): OpenAI answers such a request with HTTP 400. One line,
two checks: the declared handling (`invalid_tool_name: alias`, here) and the
wire's own name pattern (an invariant), reported as one finding charged to
tp-wire-invalid-tool-name (issue 22 §2; tests/precision/test_one_defect_one_finding.py).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-invalid-names-offered-unchanged",
    provenance="contract",
    bug="an MCP name outside ^[a-zA-Z0-9_-]{1,64}$ is offered as it is, though alias is declared",
    source="CONTRACT.md §6.3 and §6.9 (tp-wire-function-name-pattern, tp-wire-invalid-tool-name)",
    kills=("wire.invalid-name-alias-offered", "wire.function-name-pattern"),
    patches=(
        Patch(
            file="packing.py",
            old="    if is_valid_wire_name(name):\n        return name\n    return alias_wire_name(name)\n",
            new="    return name\n",
        ),
    ),
    select="test_invalid_tool_names_get_a_stable_alias",
)
