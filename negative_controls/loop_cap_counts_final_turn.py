"""The turn cap counts model turns, the final reply's included: N-1 batches run.

Provenance: issue 12 §2: on a real runtime the project had never adapted, a
turn-cap defect failed tp-err-model-retry (its run then set max_tool_turns 2
for one tool round: a cap one batch short ended it). The defect is modelled
as the usual shape of a "request limit" used as the tool-turn cap: N model
requests in all, the one that would get the final reply included, so the
run stops after batch N-1.

What it changes: `turn_cap_reached` in the reference's loop.py stops once
`batches_done + 1 >= N` instead of `batches_done >= N`. Killed by the checks
of the cap's count and of the run's end at the cap (the graceful output is
the text of reply N-1). Not by the retry check (err.model-retry-same-request):
its two tool rounds stay within an explicitly set cap of 4.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-counts-final-turn",
    provenance="contract",
    bug="turn_cap_reached stops at batches_done + 1 >= N (the final reply's turn counted): N-1 batches run",
    source="issue 12 §2: a turn-cap defect failed tp-err-model-retry; CONTRACT.md §11 (tp-loop-cap-exact)",
    kills=(
        "loop.cap-exact",
        "loop.cap-property",
        "loop.cap-end-text",
        "loop.cap-end-blank",
        "loop.cap-default",
        "loop.cap-per-run",
    ),
    patches=(
        Patch(
            file="loop.py",
            old="batches_done >= max_tool_turns",
            new="batches_done + 1 >= max_tool_turns",
        ),
    ),
)
