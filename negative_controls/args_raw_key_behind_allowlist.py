"""An invented `raw` key behind an allowlist: the hollow pass the wrap_names tool closes.

The decoder wraps non-object arguments as `{"raw": v}` (the seed bug), and
the runtime forwards only the properties the tool's inputSchema declares. On
a tool that declares no `raw`, the allowlist strips the invented key and the
tool receives `{}`: no invented key is ever seen. `fidelity/wrap_names`
declares `raw`, so the invented key reaches the recorder and is caught.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-raw-key-behind-allowlist",
    provenance="seed",
    bug='non-object arguments wrapped as {"raw": v}, and only the declared properties are forwarded',
    source="issue 13 §2 (an allowlist hid an invented key); CONTRACT.md §7.7 (tp-args-no-invented-keys)",
    kills=("args.non-object-per-option", "args.no-invented-keys"),
    patches=(
        Patch(
            file="arguments.py",
            old="    return {WRAP_KEY: value}\n",
            new='    return {"raw": value}\n',
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
