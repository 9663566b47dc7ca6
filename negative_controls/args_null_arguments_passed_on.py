"""Arguments `""` / `"null"` decode to None and the tool gets no arguments object.

The decoder passes JSON null straight to the MCP client, so `tools/call`
carries no `arguments` object (or `null`) instead of `{}`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-null-arguments-passed-on",
    bug='arguments "" and "null" reach the MCP client as None instead of {}',
    source="CONTRACT.md §7.4 (tp-args-empty-null)",
    kills=("args.empty-and-null-give-empty-object",),
    patches=(
        Patch(
            file="arguments.py",
            old="    if value is None:\n        return {}\n",
            new="    if value is None:\n        return value  # type: ignore[no-any-return]\n",
        ),
    ),
)
