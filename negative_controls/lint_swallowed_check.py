"""Lint control: a check whose failure is caught and dropped.

Puts one swallowed-check violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more swallowed-check finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-swallowed-check",
    provenance="seed",
    bug="a check whose failure is caught and dropped",
    source="seed ru §6 (t.Fatal unreachable)",
    kills=("lint:swallowed-check:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old='    outcome = tp.run("hello?", judged=True)  # never built\n',
            new=(
                '    outcome = tp.run("hello?", judged=True)  # never built\n'
                "    try:\n"
                '        tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False}, what="w")\n'
                "    except AssertionError:\n"
                "        pass\n"
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
