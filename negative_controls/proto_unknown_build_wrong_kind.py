"""A run on a never-built id is answered with the wrong error kind.

An adapter that maps "no such agent" onto a runtime error kind makes a
harness (or a human) believe the runtime's tool path failed. Protocol v1
reserves `internal` for adapter-level faults.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-unknown-build-wrong-kind",
    provenance="contract",
    bug="run on an unknown build id answers kind tool_error instead of internal",
    source="contracts/PROTOCOL.md (adapter conduct)",
    kills=("proto.unknown-build-id",),
    patches=(
        Patch(
            file="adapter.py",
            old=(
                "        agent = self.agents.get(id)\n        if agent is None:\n"
                '            return error_response("internal", f"unknown id: {json.dumps(id)}")\n'
                "        try:\n            result = await agent.run(input)"
            ),
            new=(
                "        agent = self.agents.get(id)\n        if agent is None:\n"
                '            return error_response("tool_error", f"unknown id: {json.dumps(id)}")\n'
                "        try:\n            result = await agent.run(input)"
            ),
        ),
    ),
)
