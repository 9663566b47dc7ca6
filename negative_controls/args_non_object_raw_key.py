"""Non-object arguments wrapped under an invented `raw` key (seed ru §8 P2-b).

The old decoder fell back to `{"raw": ...}` when the arguments did not decode
to an object: the tool received a key the model never sent and none of the
arguments it expected.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-non-object-raw-key",
    provenance="seed",
    bug='a non-object argument value (array, number, bool, string) reaches the tool as {"raw": v}',
    source="seed ru §8 P2-b; upstream-contracts §3 (arguments)",
    kills=("args.non-object-per-option", "args.no-invented-keys"),
    patches=(
        Patch(
            file="arguments.py",
            old="    return {WRAP_KEY: value}\n",
            new='    return {"raw": value}\n',
        ),
    ),
)
