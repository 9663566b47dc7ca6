"""Object arguments lose every null-valued key on the way to the tool.

A runtime that re-serialises the decoded arguments with `exclude_none`
(pydantic) or through structs tagged `omitempty` (Go) drops every key whose
value is null, at any depth: the tool no longer receives the object the
model sent.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-nulls-dropped",
    provenance="contract",
    bug="keys whose value is null are dropped from object arguments, at every depth",
    source="CONTRACT.md §7.1 (tp-args-object)",
    kills=("args.object-arrives", "args.object-any-ijson", "args.string-encoded-any-ijson"),
    patches=(
        Patch(
            file="arguments.py",
            old="    if isinstance(value, dict):\n        return value\n",
            new=(
                "    if isinstance(value, dict):\n"
                "        def drop(v: Any) -> Any:\n"
                "            if isinstance(v, dict):\n"
                "                return {k: drop(x) for k, x in v.items() if x is not None}\n"
                "            return [drop(x) for x in v] if isinstance(v, list) else v\n"
                "        return drop(value)  # type: ignore[no-any-return]\n"
            ),
        ),
    ),
    collateral=(
        "args.string-encoded-levels",
        "args.string-encoded-any-ijson",
        "args.undeclared-keys-per-option",
        "args.odd-keys-arrive",
    ),
)
