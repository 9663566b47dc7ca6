"""Lint control: the test computes its expected value with a copy of the algorithm (selectScopedOnly).

Puts one oracle-expression violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more oracle-expression finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-copied-oracle",
    provenance="seed",
    bug="the test computes its expected value with a copy of the algorithm (selectScopedOnly)",
    source="seed ru §4a P2 and §5 (selectScopedOnly copied the hostedToolsets loop)",
    kills=("lint:oracle-expression:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old='@pytest.mark.checks("proto.unknown-build-id")\ndef test_run_on_unknown_build_id',
            new=(
                "def expected_models(config):\n"
                "    names = []\n"
                '    for key, value in sorted(config["model"].items()):\n'
                '        if key == "name":\n'
                "            names.append(value)\n"
                "    return names\n"
                "\n"
                "\n"
                '@pytest.mark.checks("proto.unknown-build-id")\ndef test_run_on_unknown_build_id'
            ),
        ),
        Patch(
            file="conformance/test_protocol.py",
            old="    requests = tp.model_requests()\n",
            new=(
                "    requests = tp.model_requests()\n"
                "    config = tp.config({})\n"
                '    tp.expect("proto.model-settings-from-config", '
                '[r.json["model"] for r in requests], expected_models(config), what="m")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
