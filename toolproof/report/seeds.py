"""The report's `draws` object in words: the Hypothesis seeds a run drew from (toolproof.plugin.draws)."""

from __future__ import annotations

from typing import Any


def describe(draws: dict[str, Any]) -> str:
    """The console's first `toolproof` line (and the summary's): the seeds in force, how to repeat
    or vary them, and under --toolproof-explore what the exploration drew from."""
    seed = draws["seed"]
    given = {"option": f"--toolproof-seed {seed}", "ini": f"ini toolproof_seed = {seed}"}
    source = given.get(draws["seed_from"], "the default; --toolproof-seed N varies them")
    tests = draws["drawn_tests"]
    text = f"hypothesis draws: seed {seed} ({source}), in {tests} test{'' if tests == 1 else 's'}"
    if draws["mode"] != "explore":
        return text + "; the same seed repeats every draw"
    return (
        f"{text}; then exploration: seed {draws['explore_seed']}, "
        f"{draws['explore_factor']}x examples ({draws['reproduce']} repeats it); "
        "a failure only the exploration found is labelled explore-only, and no baseline covers it"
    )
