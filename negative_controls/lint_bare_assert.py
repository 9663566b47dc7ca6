"""Lint control: a bare assert on an observation: no check is recorded, the report never sees it.

Puts one bare-assert violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more bare-assert finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-bare-assert",
    provenance="contract",
    bug="a bare assert on an observation: no check is recorded, the report never sees it",
    source="HACKING.md standards (verdicts only through tp.expect*)",
    kills=("lint:bare-assert:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old='    outcome = tp.run("hello?", judged=True)  # never built\n',
            new='    outcome = tp.run("hello?", judged=True)  # never built\n'
            '    assert outcome.kind == "internal"\n',
        ),
    ),
    target="toolproof",
    runs="lint",
)
