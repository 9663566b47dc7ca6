"""Lint control: a suite test importing the reference's internals (the seed's bypass of Build()).

Puts one candidate-import violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more candidate-import finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-candidate-import",
    provenance="seed",
    bug="a suite test importing the reference's internals (the seed's unit test that bypassed Build())",
    source="seed ru §5a (a test of hostedToolsets directly, not through factory.Build)",
    kills=("lint:candidate-import:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old="from toolproof.fakes import Text\n",
            new=(
                "from toolproof.fakes import Text\nfrom candidates.reference import adapter  # noqa: F401\n"
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
