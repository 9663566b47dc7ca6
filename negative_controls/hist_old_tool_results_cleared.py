"""Older tool results are rewritten in later requests ("tool result clearing").

To save tokens the runtime replaces the content of tool messages that are
no longer the latest round with a placeholder: history is edited behind
the model's back instead of only growing.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-old-tool-results-cleared",
    provenance="contract",
    bug="tool messages before the last assistant message are sent with their content replaced",
    source="CONTRACT.md §9.2 (tp-hist-append-only)",
    kills=("hist.append-only",),
    patches=(
        Patch(
            file="messages.py",
            old="    return [entry.message for entry in history]\n",
            new=(
                '    last = max((i for i, e in enumerate(history) if e.role == "assistant"), default=-1)\n'
                "    return [\n"
                '        {**entry.message, "content": "[cleared]"}\n'
                '        if entry.role == "tool" and i < last\n'
                "        else entry.message\n"
                "        for i, entry in enumerate(history)\n"
                "    ]\n"
            ),
        ),
    ),
    collateral=("hist.runs-per-build", "receipt.ok-verbatim"),
)
