"""The run response carries an extra field the protocol does not define.

Adapters like to add what they know ("turns": 3, "usage": {...}). Protocol v1
responses are closed objects: a harness cannot tell an extension from a typo
of a field it needs.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-run-response-extra-field",
    provenance="contract",
    bug='the run response adds "adapter": "toolproof-reference" next to output and stop_reason',
    source="contracts/protocol/commands/run.json (#response, additionalProperties false)",
    kills=("proto.response-schema",),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old='        return {"ok": True, "output": result.output, "stop_reason": result.stop_reason}\n',
            new=(
                '        return {"ok": True, "output": result.output, "stop_reason": result.stop_reason,'
                ' "adapter": "toolproof-reference"}\n'
            ),
        ),
    ),
)
