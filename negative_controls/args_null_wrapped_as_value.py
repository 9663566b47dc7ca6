"""Arguments `"null"` wrapped as `{"value": null}` although null_arguments declares empty_object.

The decoder special-cases only blank text and lets JSON null fall through to
the non-object path: under wrap_value the tool receives `{"value": null}`,
not the `{}` the declaration promises.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-null-wrapped-as-value",
    provenance="contract",
    bug='hello declares null_arguments empty_object; arguments "null" reach the tool as {"value": null}',
    source="CONTRACT.md §7.5 (tp-args-null, empty_object)",
    kills=("args.null-per-option",),
    patches=(
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
    ),
)
