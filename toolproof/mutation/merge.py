"""Adding reports up: the merge of disjoint shards, and a `--rerun` merged into the report it re-ran."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from toolproof.mutation.model import FORMAT, KILLED, NO_TESTS, SKIPPED, MutationError
from toolproof.mutation.scores import score, score_all, tally


def _check_shard(path: str, shard: dict[str, Any]) -> None:
    if shard.get("format") != FORMAT:
        raise MutationError(f"{path}: not a {FORMAT} document (format {shard.get('format')!r})")
    recount = tally(shard["mutants"])
    stated = {k: v for k, v in shard["counts"].items() if v}
    if stated != {k: v for k, v in recount.items() if v}:
        raise MutationError(f"{path}: counts {stated} do not match its mutants {recount}")


def merge(shards: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Merge reports made on disjoint shards of the same source; the score is recomputed from the sums."""
    if not shards:
        raise MutationError("merge needs at least one shard")
    first_path, first = shards[0]
    mutants: dict[str, dict[str, Any]] = {}
    owner: dict[str, str] = {}
    for path, shard in shards:
        _check_shard(path, shard)
        for key in ("source", "candidates"):
            if shard[key] != first[key]:
                raise MutationError(
                    f"{path}: {key} {shard[key]!r} differs from {first_path}'s {first[key]!r}"
                )
        for name, record in shard["mutants"].items():
            if name in owner:
                raise MutationError(f"mutant {name} is in two shards: {owner[name]} and {path}")
            owner[name] = path
            mutants[name] = record
    counts = tally(mutants)
    merged = {key: value for key, value in first.items() if key not in ("passes", "mutants")}
    merged.update(
        {
            "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "mutated": sorted({m for _, s in shards for m in s["mutated"]}),
            "score": score(counts),
            "score_all": score_all(counts),
            "counts": counts,
            "duration_s": round(sum(float(s["duration_s"]) for _, s in shards), 1),
            "shards": [
                {"path": p, "mutated": s["mutated"], "duration_s": s["duration_s"], "counts": s["counts"]}
                for p, s in shards
            ],
            "passes": [],
            "mutants": dict(sorted(mutants.items())),
        }
    )
    return merged


# ---------------------------------------------------------------- rerun of the mutants not killed

RERUN_EXCLUDED = (KILLED, NO_TESTS, SKIPPED)


def rerun_names(report: dict[str, Any]) -> list[str]:
    """The mutants a rerun runs again: every one not killed, except those no test reached or skipped."""
    return sorted(n for n, r in report["mutants"].items() if r["status"] not in RERUN_EXCLUDED)


def merge_rerun(full: dict[str, Any], rerun: dict[str, Any]) -> dict[str, Any]:
    """`full` with the records of the mutants `rerun` ran again replaced by the rerun's.

    The rerun must be on the same reference source and mutate the same files, and run exactly the
    mutants `full` did not kill (no tests and skipped aside). Scores and counts are recomputed;
    `runs` and the note say which mutants each run judged, and when.
    """
    for report, what in ((full, "the full report"), (rerun, "the rerun")):
        if report.get("format") != FORMAT:
            raise MutationError(f"{what} is not a {FORMAT} document")
    if rerun["source"]["hash"] != full["source"]["hash"]:
        raise MutationError(
            f"the rerun was made on other reference source ({rerun['source']['hash']}) than the full"
            f" report ({full['source']['hash']})"
        )
    if sorted(rerun["mutated"]) != sorted(full["mutated"]):
        raise MutationError(f"the rerun mutated {rerun['mutated']}, the full report {full['mutated']}")
    wanted = rerun_names(full)
    extra = sorted(set(rerun["mutants"]) - set(wanted))
    if extra or not rerun["mutants"]:
        raise MutationError(f"the rerun ran mutants the full report has not open: {extra or 'none at all'}")
    left = len(wanted) - len(rerun["mutants"])
    mutants = {name: dict(record) for name, record in full["mutants"].items()}
    for name, record in rerun["mutants"].items():
        merged = dict(record)
        merged["full_run_status"] = full["mutants"][name]["status"]
        if merged["status"] == KILLED:
            merged.pop("diff", None)
        elif not merged.get("diff"):
            merged["diff"] = full["mutants"][name].get("diff", "")
        mutants[name] = merged
    counts = tally(mutants)
    kill_codes = Counter(
        str(next(p["exit_code"] for p in m["passes"].values() if p["status"] == KILLED))
        for m in mutants.values()
        if m["status"] == KILLED
    )
    full_runs = full.get("runs") or [
        {
            "run": "full",
            "generated_at": full["generated_at"],
            "mutants_run": len(full["mutants"]),
            "duration_s": full["duration_s"],
            "note": full.get("note", ""),
        }
    ]
    rerun_entry = {
        "run": "rerun",
        "generated_at": rerun["generated_at"],
        "mutants_run": len(rerun["mutants"]),
        "duration_s": rerun["duration_s"],
        "note": rerun.get("note", ""),
    }
    killed_now = sum(1 for r in rerun["mutants"].values() if r["status"] == KILLED)
    note = (f"{full.get('note', '').strip()} " if full.get("note") else "") + (
        f"Rerun {rerun['generated_at']} (`toolproof mutation report --rerun`): "
        + (f"{len(rerun['mutants'])} of the {len(wanted)}" if left else f"the {len(wanted)}")
        + f" mutants the run of {full_runs[-1]['generated_at']} did not kill (no tests aside) were run"
        f" again with the suite as it was then, on the same reference source; it killed {killed_now} of"
        " them. Every other mutant keeps its status from the earlier run."
    )
    merged_report = dict(full)
    merged_report.update(
        {
            "generated_at": rerun["generated_at"],
            "tool": rerun["tool"],
            "score": score(counts),
            "score_all": score_all(counts),
            "counts": counts,
            "kills_by_exit_code": dict(sorted(kill_codes.items())),
            "passes": [
                *({"run": "full", **p} if "run" not in p else p for p in full.get("passes", [])),
                *({"run": "rerun", **p} for p in rerun.get("passes", [])),
            ],
            "runs": [*full_runs, rerun_entry],
            "duration_s": round(sum(float(r["duration_s"]) for r in [*full_runs, rerun_entry]), 1),
            "note": note,
            "mutants": dict(sorted(mutants.items())),
        }
    )
    return merged_report
