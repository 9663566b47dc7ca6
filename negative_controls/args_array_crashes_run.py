"""Array arguments crash the run with an untyped error.

A runtime that never type-checks decoded arguments and turns them into keyword
arguments with `dict(args)` fails the whole run on an array (Haystack 3.4.1:
`dict(llm_args)`, `haystack/components/agents/tool_calling.py:302`; the
adapter reports kind `internal`), instead of the declared non-object way. One
line, one failing check (issue 22 §2 and §4): args.non-object-per-option.
The invented-key test, whose batch sends an array too, charges nothing for it:
each of its shapes runs in a build of its own, judged only by the keys the tool
received, so the crash neither blocks that check nor fails its precondition
(tests/precision/test_one_defect_one_finding.py pins this).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-array-crashes-run",
    provenance="public-bug",
    bug="array arguments crash the run (an untyped TypeError from dict(args)) instead of the declared way",
    source="CONTRACT.md §7.3 (tp-args-non-object); reports/precision.md (Haystack, tool_calling.py:302)",
    kills=("args.non-object-per-option",),
    patches=(
        Patch(
            file="arguments.py",
            old="    if isinstance(value, dict):\n        return value\n",
            new=(
                "    if isinstance(value, dict):\n"
                "        return value\n"
                "    if isinstance(value, list):\n"
                "        return dict(value)  # type: ignore[arg-type]\n"
            ),
        ),
    ),
)
