"""Lint control: an observed kind accepted as any of two kinds.

Puts one tolerant-membership violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more tolerant-membership finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-tolerant-membership",
    provenance="seed",
    bug="an observed kind accepted as any of two kinds",
    source="seed ru §8 (tolerant assert = missing check)",
    kills=("lint:tolerant-membership:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old='    outcome = tp.run("hello?", judged=True)  # never built\n',
            new=(
                '    outcome = tp.run("hello?", judged=True)  # never built\n'
                '    tp.expect("proto.unknown-build-id", outcome.kind in ("internal", '
                '"invalid_config"), True, what="k")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
