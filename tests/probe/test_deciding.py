"""How the probe decides an option from its trials (toolproof/tools/probe.py), on literal trials:
a check that fails under every value is set aside only when exactly one value then fits."""

from __future__ import annotations

from toolproof.tools.probe_verdicts import Trial, Verdict, enumerated

BASE = {"turn_cap_end": "error"}


def run(value: str, failed: tuple[str, ...], passed: tuple[str, ...]) -> Trial:
    """One trial of turn_cap_end = `value`."""
    return Trial(
        variant={"turn_cap_end": value},
        failed={check: "message" for check in failed},
        passed=set(passed),
        items=1,
    )


def test_a_value_that_fits_outright_is_proposed_with_what_told_it() -> None:
    runs = [run("graceful", (), ("loop.cap-end-text",)), run("error", ("loop.cap-end-text",), ())]
    assert enumerated("turn_cap_end", runs, BASE) == Verdict(
        "turn_cap_end", "proposed", "graceful", '1 checks pass under it; under "error" loop.cap-end-text fail'
    )


def test_a_check_failing_under_every_value_is_set_aside_and_named() -> None:
    # The runtime has no default cap: loop.cap-default fails whatever turn_cap_end says.
    runs = [
        run("graceful", ("loop.cap-default",), ("loop.cap-end-text",)),
        run("error", ("loop.cap-default", "loop.cap-end-text"), ()),
    ]
    assert enumerated("turn_cap_end", runs, BASE) == Verdict(
        "turn_cap_end",
        "proposed",
        "graceful",
        '1 checks pass under it; under "error" loop.cap-end-text fail; loop.cap-default fail under every'
        " value (not the declaration's doing)",
    )


def test_nothing_is_proposed_when_no_value_fails_a_check_of_its_own() -> None:
    runs = [
        run("graceful", ("loop.cap-end-text",), ("loop.cap-exact",)),
        run("error", ("loop.cap-end-text",), ("loop.cap-exact",)),
    ]
    verdict = enumerated("turn_cap_end", runs, BASE)
    assert (verdict.kind, verdict.value) == ("no-fit", None)
