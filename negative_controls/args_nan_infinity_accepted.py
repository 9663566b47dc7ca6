"""Arguments holding `NaN`, `Infinity` or `-Infinity` are decoded and the tool is called.

Python's `json.loads` (and other lenient parsers) accept these tokens, which
are not JSON (RFC 8259 §6): the call should be answered as invalid
arguments, but the tool runs with a value no JSON peer can read back.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-nan-infinity-accepted",
    provenance="contract",
    bug="the arguments parser accepts NaN, Infinity and -Infinity, so such arguments reach the tool",
    source="CONTRACT.md §7.6 (tp-args-invalid-json)",
    kills=("args.invalid-json-not-called",),
    patches=(
        Patch(
            file="arguments.py",
            old="    return json.loads(text, parse_constant=_reject_constant)\n",
            new="    return json.loads(text)\n",
        ),
    ),
)
