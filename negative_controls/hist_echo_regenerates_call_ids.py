"""The echo carries the runtime's own call ids instead of the model's.

A runtime that converts replies into its own message type (where the call
id is optional) and back mints fresh ids: its tool messages answer them
consistently, but the model no longer sees the ids it sent.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-echo-regenerates-call-ids",
    provenance="contract",
    bug="echoed tool calls and their tool messages carry runtime-minted ids, not the model's",
    source="CONTRACT.md §9.3 (tp-hist-calls-echoed)",
    kills=("hist.calls-echoed",),
    # Tool messages then answer the runtime's ids, never the calls the model sent:
    # every check that looks for "the tool message for that call" fails too.
    collateral=(
        "args.invalid-json-not-called",
        "err.is-error-not-a-failure",
        "err.tool-failure-connection-dropped",
        "err.tool-failure-http-500",
        "err.unknown-tool-per-option",
        "mcp.stdio-crash-tool-failure",
        "result.empty",
        "result.is-error",
        "result.multi-block",
        "result.structured",
        "result.verbatim",
    ),
    patches=(
        Patch(
            file="messages.py",
            old='        "id": call.id,\n',
            new='        "id": "call_" + __import__("hashlib").sha256(call.id.encode()).hexdigest()[:24],\n',
        ),
        Patch(
            file="messages.py",
            old='{"role": "tool", "tool_call_id": call_id, "content": text}',
            new=(
                '{"role": "tool", "tool_call_id": "call_"'
                ' + __import__("hashlib").sha256(call_id.encode()).hexdigest()[:24], "content": text}'
            ),
        ),
    ),
)
