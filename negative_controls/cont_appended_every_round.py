"""One more identical continuation message appended every round (seed §2.5).

HomeAgent appended `请根据以上工具结果继续。` at the top of every tool round
whenever the last message came from the assistant or a tool, and never
removed the earlier ones: after N rounds the prompt held N identical copies,
a steady push towards calling output_send__qq again.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="cont-appended-every-round",
    provenance="seed",
    bug="earlier synthetic continuation messages are never removed: one more per tool round",
    source="seed homeagent-qq-output-send-loop §2.5 (internal/agent/core/process.go:77-82)",
    kills=("cont.at-most-one",),
    profile="reference-continuation",
    patches=(
        Patch(
            file="loop.py",
            old="    history[:] = [entry for entry in history if not entry.synthetic]\n",
            new="",
        ),
    ),
)
