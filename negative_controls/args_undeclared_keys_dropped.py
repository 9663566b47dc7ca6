"""Keys the tool's inputSchema does not declare are dropped although undeclared_arguments is forward.

A runtime that builds its argument model from the schema's `properties`
(an allowlist) forwards only declared keys: the tool does not receive the
undeclared ones the model sent, while hello declares they are forwarded.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-undeclared-keys-dropped",
    provenance="contract",
    bug="hello declares undeclared_arguments forward; keys the inputSchema does not declare are dropped",
    source="CONTRACT.md §7.8 (tp-args-undeclared-keys, forward)",
    kills=("args.undeclared-keys-per-option",),
    patches=(
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
