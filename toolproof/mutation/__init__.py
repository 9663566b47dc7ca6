"""Mutation testing of the reference with the suite: report, freshness check, shard merge.

`toolproof mutation report` copies the project to a scratch directory, runs
mutmut there (one pass per bundled profile: later passes re-run only the
mutants no earlier pass killed, because some code paths - continuation,
prefix namespacing - are only exercised under their own profile) and writes
`reports/mutation.json` + `reports/mutation.md`. `toolproof mutation check`
(cheap, no mutmut) fails when that report was made on other reference source,
scores below the threshold in pyproject.toml, or has a mutant that is not
killed and not reviewed in `reports/mutation-review.md`. `toolproof mutation
merge` adds up reports made on disjoint shards (one per source file in CI).

Three scores. The raw score (mutmut's): killed / (total - no_tests - skipped),
where `no_tests` counts only mutants no test reached (mutmut exit 33); a
mutant whose run ended with toolproof's exit 5 ("nothing was judged") is
counted as `not judged`, in the denominator, never as "no tests" (mutmut's own
label for exit 5). Timeouts, suspicious runs and segfaults are in the
denominator and not killed. The reviewed score (the textbook one, which the
gate uses): killed / (total - no_tests - skipped - equivalent), where
`equivalent` counts the mutants in the raw denominator, not killed, whose
review verdict is `equivalent` (no correct-or-incorrect difference the
contract can see). The score over all mutants: killed / total, where nothing
leaves the denominator (no tests, skipped and equivalent mutants count as not
killed): how much of the reference the suite reaches and judges.

The passes (`[tool.toolproof.mutation] candidates`) are bundled profiles
in-process (`reference`), or a profile behind its adapter's JSON Lines loop on
a thread over pipes (`reference-pipe`, toolproof.connect.pipe), which is how
mutmut reaches the adapter's protocol layer (`passes.pass_spec`).

`toolproof mutation report --rerun REPORT` re-runs only the mutants REPORT did
not kill (not the no-tests ones) with the current suite, on the same reference
source, and writes the merged report (both runs' dates in it).

One module per job: `passes` (one mutmut pass in a scratch copy), `run` (the
passes of a report run, the report document), `review` (parsing
mutation-review.md), `scores` (counts, both scores, the check), `merge`
(shards, `--rerun`), `render` (mutation.md), `cli`, `settings` (pyproject
table, source hash), `model` (statuses, names, MutationError). `plugin` is
the pytest plugin of the mutation passes, loaded only by them with
`-p toolproof.mutation.plugin`: this package registers no hooks.
"""

from __future__ import annotations

from toolproof.mutation.cli import add_arguments, main
from toolproof.mutation.merge import merge, merge_rerun, rerun_names
from toolproof.mutation.model import MutationError, _status, diff_key, function_of
from toolproof.mutation.passes import (
    PassResult,
    mutmut_config,
    parse_results,
    pass_spec,
    widen_session_functions,
)
from toolproof.mutation.plugin import mutant_exit_status
from toolproof.mutation.render import render_markdown
from toolproof.mutation.review import parse_review, review_skeleton
from toolproof.mutation.run import combine_passes, mutated_source_hash
from toolproof.mutation.scores import check, reviewed_score, score, score_all, score_lines, tally
from toolproof.mutation.settings import relative_source, source_files, source_hash

# What the command line (toolproof.tools.cli) and tests/mutation use as `mutation.X`. Not the
# plugin's hook: `-p toolproof.mutation` would register nothing (tests/mutation guard both).
__all__ = [
    "MutationError",
    "PassResult",
    "_status",
    "add_arguments",
    "check",
    "combine_passes",
    "diff_key",
    "function_of",
    "main",
    "merge",
    "merge_rerun",
    "mutant_exit_status",
    "mutated_source_hash",
    "mutmut_config",
    "parse_results",
    "parse_review",
    "pass_spec",
    "relative_source",
    "render_markdown",
    "rerun_names",
    "review_skeleton",
    "reviewed_score",
    "score",
    "score_all",
    "score_lines",
    "source_files",
    "source_hash",
    "tally",
    "widen_session_functions",
]
