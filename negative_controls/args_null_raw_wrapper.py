"""Non-object arguments, `null` included, wrapped as `{"raw": v}` under null_arguments non_object.

The old decoder's `{"raw": ...}` fallback (seed ru §8 P2-b) in a runtime that
declares null_arguments non_object: arguments `null` reach the tool as
`{"raw": null}` and every other non-object as `{"raw": v}`, never the declared
`{"value": v}`. One line, three checks (issue 22 §2: one finding, charged to
args.non-object-per-option).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-null-raw-wrapper",
    provenance="seed",
    bug='null_arguments non_object declared; null and every non-object reach the tool as {"raw": v}',
    source="seed ru §8 P2-b; CONTRACT.md §7.4 (tp-args-non-object) and §7.5 (tp-args-null, non_object)",
    kills=("args.non-object-per-option", "args.null-per-option", "args.no-invented-keys"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "invalid_json_arguments": "tool_error_message",\n',
            new=(
                '        "invalid_json_arguments": "tool_error_message",\n'
                '        "null_arguments": "non_object",\n'
            ),
        ),
        Patch(
            file="arguments.py",
            old="    value = unwrap_string_arguments(parse_json_arguments(raw))\n    if value is None:\n",
            new=(
                '    if raw.strip(JSON_WHITESPACE) == "":\n'
                "        return {}\n"
                "    value = unwrap_string_arguments(parse_json_arguments(raw))\n"
                "    if False:\n"
            ),
        ),
        Patch(
            file="arguments.py",
            old="    return {WRAP_KEY: value}\n",
            new='    return {"raw": value}\n',
        ),
    ),
)
