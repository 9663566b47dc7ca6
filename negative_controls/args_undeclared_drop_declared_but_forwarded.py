"""undeclared_arguments declared `drop`, but undeclared keys still reach the tool.

"Accepting the value and then ignoring it": the suite asserts the declared
choice, so the drop branch of the check is judged too.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-undeclared-drop-declared-but-forwarded",
    provenance="contract",
    bug="hello declares undeclared_arguments drop; keys the schema does not declare still reach the tool",
    source="CONTRACT.md §7.8 (tp-args-undeclared-keys, drop)",
    kills=("args.undeclared-keys-per-option",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "invalid_json_arguments": "tool_error_message",\n',
            new=(
                '        "invalid_json_arguments": "tool_error_message",\n'
                '        "undeclared_arguments": "drop",\n'
            ),
        ),
    ),
)
