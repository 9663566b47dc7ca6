"""close answers ok but leaves the agent under its id.

The closed build stays reachable: a later run on the id is served by an agent
the harness (or a user) already released, with its MCP sessions and state.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-close-keeps-agent",
    provenance="contract",
    bug="close looks the agent up without removing it, so the id stays live",
    source="contracts/CONTRACT.md §3 tp-proto-unknown-build (live until close)",
    kills=("proto.unknown-build-id",),
    patches=(
        Patch(
            file="adapter.py",
            old=(
                '        """Release the agent built under `id`."""\n'
                "        agent = self.agents.pop(id, None)\n"
            ),
            new=('        """Release the agent built under `id`."""\n        agent = self.agents.get(id)\n'),
        ),
    ),
)
