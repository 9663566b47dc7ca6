"""A declared `empty_reply: reprompts` that asks again but keeps the empty output.

The runtime re-prompts after a reply without tool calls whose text is "", records
the answer in the history, and still returns the empty reply's text: the answer the
re-prompt was for never becomes the run's output.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-reprompt-output-stays-empty",
    provenance="contract",
    bug="declared empty_reply reprompts: the re-prompt is sent, but the output stays the empty reply's text",
    source="plausible; CONTRACT.md tp-loop-completed (empty_reply)",
    kills=("loop.completed-empty-output", "hist.runs-per-build-textless-reply"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "runs_per_build": "conversation",\n',
            new='        "runs_per_build": "conversation",\n        "empty_reply": "reprompts",\n',
        ),
        Patch(
            file="loop.py",
            old=(
                "        if not reply.tool_calls:\n"
                '            return RunResult(reply.content or "", "completed")\n'
            ),
            new=(
                "        if not reply.tool_calls:\n"
                "            if not reply.content:\n"
                '                history.append(HistoryEntry({"role": "user", "content": "Answer."}))\n'
                "                again = await ask_model(request_messages(history))\n"
                "                history.append(assistant_message(again))\n"
                '            return RunResult(reply.content or "", "completed")\n'
            ),
        ),
    ),
)
