"""String-encoded arguments are not unwrapped although `unwrap` is declared.

Providers sometimes send the arguments object encoded as a JSON string,
once or several times (seed ru §8 "forms of arguments to survive"). Without
the unwrap step the decoder sees a string and wraps it as a non-object
value: the tool receives `{"value": "<json text>"}` instead of the object.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-string-encoded-not-unwrapped",
    provenance="seed",
    bug="decode_arguments skips the 1-4 level unwrap while hello declares string_encoded_arguments unwrap",
    source="seed ru §8 (double-encoded arguments); upstream-contracts §3",
    kills=("args.string-encoded-levels", "args.string-encoded-any-ijson"),
    patches=(
        Patch(
            file="arguments.py",
            old="    value = unwrap_string_arguments(parse_json_arguments(raw))\n",
            new="    value = parse_json_arguments(raw)\n",
        ),
    ),
)
