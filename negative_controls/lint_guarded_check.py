"""Lint control: a check recorded once per observed request: no request, no check.

Puts one guarded-check violation into a copy of the suite's conformance/test_protocol.py;
`python -m toolproof.lint` over the copy's suite must report it
(one more guarded-check finding in that file than the unpatched copy has).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lint-guarded-check",
    provenance="seed",
    bug="a check recorded once per observed request: no request, no check",
    source="seed ru §6 (a probe whose failing branch can never be reached)",
    kills=("lint:guarded-check:conformance/test_protocol.py",),
    patches=(
        Patch(
            file="conformance/test_protocol.py",
            old="    requests = tp.model_requests()\n",
            new=(
                "    requests = tp.model_requests()\n"
                "    for request in requests:\n"
                '        tp.expect("proto.model-settings-from-config", request.path, '
                '"/v1/chat/completions", what="p")\n'
            ),
        ),
    ),
    target="toolproof",
    runs="lint",
)
