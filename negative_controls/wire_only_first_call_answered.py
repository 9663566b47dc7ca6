"""Only the first call of a parallel batch is executed and answered.

Runtimes written for one call per reply ignore the rest of `tool_calls`;
OpenAI then rejects the next request ("tool_call_ids did not have response
messages").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-only-first-call-answered",
    provenance="contract",
    bug="the loop runs and answers reply.tool_calls[0] only",
    source="OpenAI chat-completions contract (every tool_call_id needs a tool message)",
    kills=("wire.tool-call-answered-once", "result.verbatim", "result.no-content-block"),
    # Every test that sends a batch of calls loses all but the first answer.
    collateral=(
        "args.empty-and-blank-give-empty-object",
        "args.invalid-json-not-called",
        "args.non-object-per-option",
        "args.object-arrives",
        "args.string-encoded-any-ijson",
        "args.string-encoded-levels",
        "dedup.isolation-own-query-and-headers",
        "hist.append-only",
        "loop.cap-property",
        "ns.case-distinct-call-own-server",
        "receipt.no-synthesized-status",
    ),
    patches=(
        Patch(
            file="loop.py",
            old="        for call in reply.tool_calls:\n",
            new="        for call in reply.tool_calls[:1]:\n",
        ),
    ),
)
