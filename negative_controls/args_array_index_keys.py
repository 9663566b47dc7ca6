"""Array arguments spread into index keys: `[1, "two"]` reaches the tool as `{"0": 1, "1": "two"}`.

JavaScript's `Object.assign({}, args)` or `{...args}` on decoded arguments
that are an array gives an object keyed "0", "1", ...: the tool receives keys
the model never sent, and not the declared `{"value": [...]}`. One line, two
checks: the non-object handling and the invented keys (issue 22 §2: one
finding, charged to args.non-object-per-option).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-array-index-keys",
    provenance="contract",
    bug='array arguments reach the tool spread into index keys {"0": ..., "1": ...} under wrap_value',
    source="CONTRACT.md §7.4 (tp-args-non-object, wrap_value) and §7.7 (tp-args-no-invented-keys)",
    kills=("args.non-object-per-option", "args.no-invented-keys"),
    patches=(
        Patch(
            file="arguments.py",
            old="    if isinstance(value, dict):\n        return value\n",
            new=(
                "    if isinstance(value, dict):\n"
                "        return value\n"
                "    if isinstance(value, list):\n"
                "        return {str(i): item for i, item in enumerate(value)}\n"
            ),
        ),
    ),
)
