"""Whitespace-only arguments are taken as invalid JSON, not as no arguments.

Only the empty string is special-cased: `json.loads("   ")` fails, so a call
whose arguments are JSON whitespace alone is answered as invalid arguments
and the tool is never called (public fixes take both as `{}`: gwenflow #123,
windmill #7615).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-whitespace-not-empty-object",
    provenance="public-bug",
    bug='arguments made only of JSON whitespace ("   ", "\\t\\n\\r ") are invalid JSON instead of {}',
    source="CONTRACT.md §7.4 (tp-args-empty-blank)",
    kills=("args.empty-and-blank-give-empty-object",),
    patches=(
        Patch(
            file="arguments.py",
            old='    if raw.strip(JSON_WHITESPACE) == "":\n',
            new='    if raw == "":\n',
        ),
    ),
)
