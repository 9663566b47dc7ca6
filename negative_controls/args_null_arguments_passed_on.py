"""Arguments `""`, blank or `"null"` decode to None and the tool gets no arguments object.

The decoder passes JSON null straight to the MCP client, so `tools/call`
carries no `arguments` object (or `null`) instead of `{}`: the MCP schema
wants an object there (a public bug: picoclaw #2600, `arguments: null`).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-null-arguments-passed-on",
    bug='arguments "", blank and "null" reach the MCP client as None instead of {}',
    source="CONTRACT.md §7.4 (tp-args-empty-blank), §7.5 (tp-args-null)",
    kills=("args.empty-and-blank-give-empty-object", "args.null-per-option"),
    patches=(
        Patch(
            file="arguments.py",
            old="    if value is None:\n        return {}\n",
            new="    if value is None:\n        return value  # type: ignore[no-any-return]\n",
        ),
    ),
)
