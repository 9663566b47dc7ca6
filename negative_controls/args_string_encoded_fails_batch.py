"""String-encoded arguments fail the whole batch before any of its calls runs.

Provenance: issue 12 §2: on a real runtime, a string-encoding defect failed
tp-args-object (args.object-any-ijson) through a Hypothesis example whose one
batch mixed plain and string-encoded arguments: the runtime validated the
whole batch before calling anything, choked on the string-encoded call, and
the plain object never reached the tool either.

What it changes: `decode_arguments` in the reference's arguments.py raises
TypeError (not InvalidArguments, so it escapes as a failure of the run) for
arguments that are JSON text encoded as a JSON string, and the tool loop in
loop.py decodes every call of a batch before running the first one. Killed
by the string-encoded checks; the plain-object checks read runs that carry
only plain objects, so they must not fail.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-string-encoded-fails-batch",
    provenance="contract",
    bug="a string-encoded arguments value raises while the batch is validated: no call of the batch runs",
    source=(
        "issue 12 §2: a string-encoding defect failed tp-args-object through a mixed example; "
        "CONTRACT.md §7.2 (tp-args-string-encoded)"
    ),
    kills=("args.string-encoded-levels", "args.string-encoded-any-ijson"),
    patches=(
        Patch(
            file="arguments.py",
            old="    value = unwrap_string_arguments(parse_json_arguments(raw))\n",
            new=(
                "    value = parse_json_arguments(raw)\n"
                "    if isinstance(value, str) and unwrap_string_arguments(value) != value:\n"
                '        raise TypeError("string-encoded arguments are not supported")\n'
            ),
        ),
        Patch(
            file="loop.py",
            old="        for call in reply.tool_calls:\n",
            new=(
                "        from .arguments import InvalidArguments, decode_arguments\n"
                "\n"
                "        for call in reply.tool_calls:  # the whole batch is validated first\n"
                "            try:\n"
                "                decode_arguments(call.arguments)\n"
                "            except InvalidArguments:\n"
                "                pass\n"
                "        for call in reply.tool_calls:\n"
            ),
        ),
    ),
)
