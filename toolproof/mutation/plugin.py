"""The pytest plugin of the mutation passes (`-p toolproof.mutation.plugin`): what exit status mutmut sees."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

import pytest

from toolproof.judge.catalog import load_catalog

SUSPICIOUS = 35
"""mutmut's exit code for "suspicious": not killed, in the denominator, reviewed."""


def mutant_exit_status(status: int, results: Iterable[Any]) -> int:
    """The exit status mutmut should see for one mutant's run.

    A kill is a contract verdict: exit 1 only when a MUST check failed on its own verdict side
    (a harness-side failure, e.g. a vacuous scenario, is no verdict), and a harness error (4),
    which would make mutmut abort, is reported as suspicious. Exit 3 (the candidate crashed,
    broke protocol v1 or timed out) stays a kill: the suite did tell the mutant apart.
    """
    if status == 4:
        return SUSPICIOUS
    if status == 1 and not any(
        r.status == "fail" and r.side == load_catalog().check(r.check).side and r.level == "MUST"
        for r in results
    ):
        return SUSPICIOUS
    return status


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, None, None]:
    """Loaded only by the mutation passes (`-p toolproof.mutation.plugin`): see mutant_exit_status."""
    result = yield
    from toolproof.plugin.session import STATE

    state = session.config.stash.get(STATE, None)
    if state is not None and not session.config.option.collectonly:
        session.exitstatus = mutant_exit_status(int(session.exitstatus), state.results)
    return result
