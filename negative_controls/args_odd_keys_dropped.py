"""Argument keys that are not identifiers are dropped on the way to the tool.

A runtime that passes the decoded arguments as keyword arguments, or through
a model class whose fields must be identifiers, silently loses every key
that is not one: `""`, `" leading"`, `"with space"`, `"$ref"`, `"0"`,
`"a.b"`... The tool no longer receives the object the model sent.

Kills `args.odd-keys-arrive` alone: the plain-keyed objects of the other
argument checks (`fidelity`) keep every key.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-odd-keys-dropped",
    provenance="contract",
    bug="top-level argument keys that are not Python identifiers are dropped before the call",
    source="issue 22 §4 (odd property names); CONTRACT.md §7.1 (tp-args-object)",
    kills=("args.odd-keys-arrive",),
    patches=(
        Patch(
            file="arguments.py",
            old="    if isinstance(value, dict):\n        return value\n",
            new=(
                "    if isinstance(value, dict):\n"
                "        return {k: v for k, v in value.items() if k.isidentifier()}\n"
            ),
        ),
    ),
)
