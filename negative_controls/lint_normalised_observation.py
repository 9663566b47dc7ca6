"""Lint control: the observed kind lower-cased and stripped before comparing.

Puts one normalised-observation violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more normalised-observation finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-normalised-observation",
    provenance="seed",
    bug="the observed kind lower-cased and stripped before comparing",
    source="seed ru §5a (strings.TrimSpace(key) on the comparison)",
    kills=("lint:normalised-observation:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old='    outcome = tp.run("hello?", judged=True)  # never built\n',
            new=(
                '    outcome = tp.run("hello?", judged=True)  # never built\n'
                '    tp.expect("proto.unknown-build-id", str(outcome.kind).strip().lower(), '
                '"internal", what="k")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
