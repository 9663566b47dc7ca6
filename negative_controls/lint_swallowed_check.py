"""Lint control: a check whose failure is caught and dropped.

Puts one swallowed-check violation into a copy of conformance/suite/test_protocol.py;
`python -m conformance.lint` over the copy's suite must report it
(one more swallowed-check finding in that file than the unpatched copy has).
"""

from negative_controls.base import Control, Patch

CONTROL = Control(
    name="lint-swallowed-check",
    bug="a check whose failure is caught and dropped",
    source="seed ru §6 (t.Fatal unreachable)",
    kills=("lint:swallowed-check:suite/test_protocol.py",),
    patches=(
        Patch(
            file="suite/test_protocol.py",
            old='    outcome = tp.run("hello?")  # never built\n',
            new=(
                '    outcome = tp.run("hello?")  # never built\n'
                "    try:\n"
                '        tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False}, what="w")\n'
                "    except AssertionError:\n"
                "        pass\n"
            ),
        ),
    ),
    target="conformance",
    runs="lint",
)
