"""Lint control: the seed's tolerant assert, the kind passes in either spelling.

Puts one tolerant-alternatives violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more tolerant-alternatives finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-seed-object-or-object",
    provenance="seed",
    bug='the seed\'s tolerant assert: the kind passes in either spelling (`!= "OBJECT" && != "object"`)',
    source="seed ru §8 (TestOpenAIToolsFromConfig_WithParameters)",
    kills=(
        "lint:tolerant-alternatives:conformance/test_protocol.py",
        "lint:bare-assert:conformance/test_protocol.py",
    ),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old='    outcome = tp.run("hello?", judged=True)  # never built\n',
            new=(
                '    outcome = tp.run("hello?", judged=True)  # never built\n'
                '    if outcome.kind != "INTERNAL" and outcome.kind != "internal":\n'
                '        pytest.fail(f"kind is {outcome.kind}")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
