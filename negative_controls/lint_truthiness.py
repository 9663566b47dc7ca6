"""Lint control: an observation reduced to its truthiness.

Puts one truthiness violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more truthiness finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-truthiness",
    provenance="seed",
    bug="an observation reduced to its truthiness",
    source="seed ru §5 (a weak test gives false confidence)",
    kills=("lint:truthiness:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old="    requests = tp.model_requests()\n",
            new=(
                "    requests = tp.model_requests()\n"
                '    tp.expect("proto.model-settings-from-config", bool(requests), True, '
                'what="some request")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
