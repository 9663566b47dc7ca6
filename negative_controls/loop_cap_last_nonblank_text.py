"""At the cap, the output is the last non-blank text seen, not the last reply's text.

The open question of CONTRACT.md §16, answered the wrong way: the loop
remembers the last non-blank assistant text of the run, so a last reply
without text yields an earlier "still working" instead of the notice.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-last-nonblank-text",
    provenance="contract",
    bug="the graceful output keeps the last non-blank text seen instead of the last reply's text",
    source="plausible; CONTRACT.md §16 (the last reply, not the last non-blank text)",
    kills=("loop.cap-end-blank",),
    patches=(
        Patch(
            file="loop.py",
            old="        last_text = reply.content\n",
            new='        last_text = reply.content if (reply.content or "").strip() else last_text\n',
        ),
    ),
)
