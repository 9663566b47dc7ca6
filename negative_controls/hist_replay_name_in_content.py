"""A replayed assistant message gets the agent's `name`, and the name is written into its content too.

The published schema's optional participant `name` may be added on replay (contracts/sources.md
openai-message-name: no history check compares it); what was said may not change. This runtime
labels every stored assistant message it replays with `name` and also prefixes its content with
`reference: `, so the model sees words its assistant never said (tp-hist-append-only within a run,
tp-hist-runs-per-build across runs).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-replay-name-in-content",
    provenance="contract",
    bug="replayed assistant messages carry name and their content is prefixed with that name",
    source="CONTRACT.md §9 (an optional name is not compared, content is): §9.2, §9.5",
    kills=("hist.append-only", "hist.runs-per-build", "hist.runs-per-build-textless-reply"),
    patches=(
        Patch(
            file="messages.py",
            old=(
                '    """The `messages` array of a chat-completions request."""\n'
                "    return [entry.message for entry in history]\n"
            ),
            new=(
                '    """The `messages` array of a chat-completions request."""\n'
                "    rendered = [dict(entry.message) for entry in history]\n"
                '    replayed = [i for i, m in enumerate(rendered) if m["role"] == "assistant"][:-1]\n'
                "    for i in replayed:\n"
                '        said = rendered[i].get("content") or ""\n'
                '        rendered[i].update(name="reference", content=f"reference: {said}")\n'
                "    return rendered\n"
            ),
        ),
    ),
)
