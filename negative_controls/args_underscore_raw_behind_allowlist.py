"""An invented `_raw` key behind an allowlist: what the `rawkeys` tool is there to catch.

The decoder wraps non-object arguments as `{"_raw": v}`, and the runtime
forwards only the properties the tool's inputSchema declares. On
`fidelity/wrap_names` (plain identifiers only: `raw`, `value`,
`INVALID_JSON`) the allowlist strips `_raw` and no invented key is seen;
`rawkeys/wrap_names` declares `_raw`, so the second run of
`args.no-invented-keys` sees it reach the tool.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-underscore-raw-behind-allowlist",
    provenance="contract",
    bug='non-object arguments wrapped as {"_raw": v}, and only the declared properties are forwarded',
    source="issue 22 §4 (`_raw` on a tool of its own); CONTRACT.md §7.7 (tp-args-no-invented-keys)",
    kills=("args.non-object-per-option", "args.no-invented-keys"),
    # The allowlist drops undeclared keys too, under the reference's declared forward.
    collateral=("args.undeclared-keys-per-option",),
    patches=(
        Patch(
            file="arguments.py",
            old="    return {WRAP_KEY: value}\n",
            new='    return {"_raw": value}\n',
        ),
        Patch(
            file="calls.py",
            old="        arguments = decode_arguments(call.arguments)\n",
            new=(
                "        arguments = decode_arguments(call.arguments)\n"
                '        declared = tool.parameters.get("properties") or {}\n'
                "        arguments = {k: v for k, v in arguments.items() if k in declared}\n"
            ),
        ),
    ),
)
