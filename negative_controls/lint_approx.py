"""Lint control: a count compared within a tolerance.

Puts one approx violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more approx finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-approx",
    provenance="contract",
    bug="a count compared within a tolerance",
    source="HACKING.md standards (exact values only)",
    kills=("lint:approx:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old="    requests = tp.model_requests()\n",
            new=(
                "    requests = tp.model_requests()\n"
                '    tp.expect("proto.model-settings-from-config", len(requests) == pytest.approx(1, '
                'abs=1), True, what="n")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
