"""The adapter reports every runtime failure as kind internal.

A blanket `except Exception: return internal(...)` flattens the runtime's
errors: invalid_config, duplicate_tool and max_tool_turns all read as "the
adapter broke", and the checks of those rules can no longer tell a runtime
that validates from one that crashes.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-runtime-errors-internal",
    provenance="seed",
    bug="exception_response ignores the runtime's error kind and answers internal",
    source="seed ru §5a (errors flattened on their way out); contracts/PROTOCOL.md (errors)",
    kills=("proto.error-kinds",),
    patches=(
        Patch(
            file="adapter.py",
            old="    if found is not None:\n        return error_response(found.kind, found.message)\n",
            new='    if found is not None:\n        return error_response("internal", found.message)\n',
        ),
    ),
)
