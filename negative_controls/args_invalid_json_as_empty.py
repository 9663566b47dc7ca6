"""Invalid JSON arguments are swallowed and the tool is called with `{}`.

The common `try: json.loads(raw) except: args = {}` fallback: the tool runs
with no arguments at all instead of the call being answered (or failing the
run) as invalid_json_arguments declares.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-invalid-json-as-empty",
    provenance="contract",
    bug="arguments that are not JSON are decoded as {} and the tool is called",
    source="CONTRACT.md §7.6 (tp-args-invalid-json)",
    kills=("args.invalid-json-not-called",),
    patches=(
        Patch(
            file="arguments.py",
            old="        raise InvalidArguments(str(exc)) from None\n",
            new="        return None\n",
        ),
    ),
)
