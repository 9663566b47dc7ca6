"""A request line that is not JSON is answered with kind invalid_config instead of internal.

The adapter reports its own parse failure as if the runtime had rejected a
CONFIG: a harness (or a user's tooling) reading the kind blames the wrong
side. Only a wire carries a malformed line, so this control runs over cmd:.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-malformed-line-wrong-kind",
    provenance="contract",
    bug="the stdio adapter answers a line that is not JSON with kind invalid_config",
    source="contracts/PROTOCOL.md §3, §4 (internal for a malformed request)",
    kills=("proto.malformed-request",),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old='            return error_response("internal", f"malformed request: {exc}")\n',
            new='            return error_response("invalid_config", f"malformed request: {exc}")\n',
        ),
    ),
    select="test_a_line_that_is_not_json_gets_internal_and_the_adapter_keeps_serving",
)
