"""null_arguments declared `non_object`, but arguments `"null"` still give the tool `{}`.

"Accepting the value and then ignoring it": under non_object with
wrap_value the tool must receive `{"value": null}`, so the declared branch is
judged too.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-null-non-object-declared-but-empty",
    provenance="contract",
    bug='hello declares null_arguments non_object; arguments "null" still reach the tool as {}',
    source="CONTRACT.md §7.5 (tp-args-null, non_object)",
    kills=("args.null-per-option",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "invalid_json_arguments": "tool_error_message",\n',
            new=(
                '        "invalid_json_arguments": "tool_error_message",\n'
                '        "null_arguments": "non_object",\n'
            ),
        ),
    ),
)
