"""Lint control: at least one model request where the contract says exactly one.

Puts one inexact-comparison violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more inexact-comparison finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-inexact-count",
    provenance="seed",
    bug="at least one model request where the contract says exactly one",
    source="seed ru §5 (the first test counted toolsets, not which one survived)",
    kills=("lint:inexact-comparison:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old="    requests = tp.model_requests()\n",
            new=(
                "    requests = tp.model_requests()\n"
                '    tp.expect("proto.model-settings-from-config", len(requests) >= 1, True, '
                'what="any request")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
