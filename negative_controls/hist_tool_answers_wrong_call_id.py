"""Every tool message of a batch answers the batch's first call id.

A loop that keeps "the current call id" outside the per-call loop answers
all calls of a parallel batch with one id: the second call is never
answered and the first is answered twice.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-tool-answers-wrong-call-id",
    provenance="contract",
    bug="each tool message of a batch carries the tool_call_id of the batch's first call",
    source="OpenAI chat-completions contract (tool_call_id pairing)",
    kills=("hist.append-only",),
    patches=(
        Patch(
            file="loop.py",
            old="history.append(tool_message(call.id, await execute_call(call)))",
            new="history.append(tool_message(reply.tool_calls[0].id, await execute_call(call)))",
        ),
    ),
    collateral=(
        "wire.tool-call-answered-once",
        "wire.tool-answers-in-call-order",
        "args.invalid-json-not-called",
        "result.empty",
        "result.verbatim",
        "receipt.no-synthesized-status",
    ),
)
