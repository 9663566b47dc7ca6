"""toolproof.judge.idle on literal exchanges: when the harness owed a candidate nothing, and for how long.

A run sent at t=100 s that times out at t=104 s, against the fakes' exchanges around it: its
longest quiet stretch (nothing in flight), from the answer that emptied the fakes; never quiet
while one is in flight (a client that leaves only when it is killed was in flight at the timeout);
an MCP GET stream owed nothing once it started; a stretch in the middle of a run counts too; and
what the messages say in each case.
"""

from __future__ import annotations

from toolproof.fakes.activity import ANSWERED, CLIENT_LEFT, DROPPED, STREAM_OPEN, Activity, Exchange, Timing
from toolproof.judge import idle

TOKEN = "0123456789ab"
TIMED_OUT = Timing("run", sent_at=100.0, ended_at=104.0, answered=False)
MODEL = Exchange("model", TOKEN, "POST", f"/{TOKEN}/v1/chat/completions", 100.1, "", 200, 100.2, ANSWERED)
CRASH = Exchange(
    "MCP", TOKEN, "POST", f"/{TOKEN}/mcp/alpha", 100.3, "tools/call crash_http", 500, 100.4, ANSWERED
)


def exchange(
    *, arrived: float, ended: float | None, ending: str = ANSWERED, method: str = "POST"
) -> Exchange:
    return Exchange(
        "MCP", TOKEN, method, f"/{TOKEN}/mcp/alpha", arrived, "tools/call lookup", 200, ended, ending
    )


def test_a_run_hung_after_an_http_500_is_quiet_from_that_answer_to_the_timeout() -> None:
    quiet = idle.quiet(TIMED_OUT, [MODEL, CRASH])
    assert (quiet.idle_since, quiet.in_flight, quiet.last, quiet.answered) == (100.4, (), CRASH, 2)
    assert round(quiet.idle, 6) == 3.6
    assert idle.violates(quiet, 1.0) is True
    assert idle.evidence(quiet, TOKEN, 1.0) == (
        f"run of build {TOKEN} got no answer in 4.0 s; the harness owed nothing for 3.6 s of it, from"
        " +0.4 s (idle_answer_seconds: 1 s)\n"
        "  every model and MCP request was answered then, none in flight; answered while it ran: 2\n"
        f"  the answer before: MCP POST /{TOKEN}/mcp/alpha (tools/call crash_http): answered, HTTP 500,"
        " at +0.4 s"
    )


def test_a_dropped_connection_is_an_answer_the_harness_gave() -> None:
    dropped = Exchange(
        "MCP", TOKEN, "POST", f"/{TOKEN}/mcp/alpha", 100.3, "tools/call crash_close", 0, 100.3, DROPPED
    )
    quiet = idle.quiet(TIMED_OUT, [MODEL, dropped])
    assert (quiet.in_flight, quiet.last, idle.violates(quiet, 1.0)) == ((), dropped, True)
    assert idle.evidence(quiet, TOKEN, 1.0).splitlines()[2] == (
        f"  the answer before: MCP POST /{TOKEN}/mcp/alpha (tools/call crash_close): dropped, no HTTP"
        " response, at +0.3 s"
    )


def test_a_request_in_flight_at_the_timeout_is_no_verdict() -> None:
    waiting = exchange(arrived=100.2, ended=None)  # arrives as the model's answer ends
    quiet = idle.quiet(TIMED_OUT, [MODEL, waiting])
    assert (quiet.in_flight, round(quiet.idle, 6), idle.violates(quiet, 1.0)) == ((waiting,), 0.1, False)
    assert idle.no_verdict(quiet, 1.0, 4.0) == (
        "the harness still owed the candidate an answer when it gave up: MCP POST"
        f" /{TOKEN}/mcp/alpha (tools/call lookup), in flight since +0.2 s"
    )


def test_a_request_ended_only_by_the_kill_was_in_flight_at_the_timeout() -> None:
    # The candidate is killed after the timeout; its connection then leaves: too late to count.
    left = exchange(arrived=100.0, ended=104.7, ending=CLIENT_LEFT)
    quiet = idle.quiet(TIMED_OUT, [left])
    assert (quiet.in_flight, quiet.idle) == ((left,), 0.0)


def test_an_mcp_get_stream_is_owed_nothing_once_it_started() -> None:
    stream = exchange(arrived=100.05, ended=100.06, ending=STREAM_OPEN, method="GET")
    quiet = idle.quiet(TIMED_OUT, [stream, CRASH])
    assert (quiet.in_flight, quiet.last, quiet.idle_since) == ((), CRASH, 100.4)


def test_quiet_too_briefly_is_no_verdict_and_says_how_long() -> None:
    slow = exchange(arrived=100.0, ended=103.5)  # a tool the harness took 3.5 s to answer
    quiet = idle.quiet(TIMED_OUT, [slow])
    assert (round(quiet.idle, 6), idle.violates(quiet, 1.0), quiet.last) == (0.5, False, slow)
    assert idle.no_verdict(quiet, 1.0, 4.0) == (
        "the harness owed nothing for at most 0.5 s at a stretch (idle_answer_seconds: 1 s)"
    )


def test_a_bound_not_below_the_timeout_cannot_show_a_hang() -> None:
    quiet = idle.quiet(TIMED_OUT, [MODEL, CRASH])
    assert idle.violates(quiet, 30.0) is False
    assert idle.no_verdict(quiet, 30.0, 4.0) == (
        "the declared idle_answer_seconds (30 s) is not below the request timeout (4 s), so the harness"
        " cannot show a hang"
    )


def test_nothing_asked_of_the_harness_is_quiet_from_the_request_on() -> None:
    earlier = exchange(arrived=90.0, ended=90.5)  # another request's traffic, answered before this one
    quiet = idle.quiet(TIMED_OUT, [earlier])
    assert (quiet.idle_since, quiet.last, quiet.answered, quiet.idle) == (100.0, None, 0, 4.0)
    assert idle.evidence(quiet, TOKEN, 1.0) == (
        f"run of build {TOKEN} got no answer in 4.0 s; the harness owed nothing for 4.0 s of it, from"
        " +0.0 s (idle_answer_seconds: 1 s)\n"
        "  every model and MCP request was answered then, none in flight; answered while it ran: 0"
    )


def test_an_answer_long_after_the_harness_went_quiet_breaks_the_bound_too() -> None:
    answered = Timing("run", sent_at=100.0, ended_at=140.0, answered=True)
    quiet = idle.quiet(answered, [MODEL, CRASH])
    assert (round(quiet.idle, 6), idle.violates(quiet, 30.0), idle.violates(quiet, 40.0)) == (
        39.6,
        True,
        False,
    )
    assert idle.evidence(quiet, TOKEN, 30.0).splitlines()[0] == (
        f"run of build {TOKEN} was answered after 40.0 s; the harness owed nothing for 39.6 s of it, from"
        " +0.4 s (idle_answer_seconds: 30 s)"
    )


def test_a_quiet_stretch_in_the_middle_of_a_run_counts_though_the_run_then_went_on() -> None:
    # After the 500 the runtime sat 2.5 s with nothing asked, then asked the model again and answered.
    answered = Timing("run", sent_at=100.0, ended_at=103.0, answered=True)
    again = Exchange(
        "model", TOKEN, "POST", f"/{TOKEN}/v1/chat/completions", 102.9, "", 200, 102.95, ANSWERED
    )
    quiet = idle.quiet(answered, [MODEL, CRASH, again])
    assert (quiet.idle_since, round(quiet.idle, 6), quiet.last, quiet.answered) == (100.4, 2.5, CRASH, 3)
    assert (idle.violates(quiet, 1.0), idle.violates(quiet, 3.0)) == (True, False)


def test_activity_keeps_the_first_end_and_forgets_only_what_ended() -> None:
    activity = Activity("MCP")
    done = activity.arrive(TOKEN, "POST", f"/{TOKEN}/mcp/alpha")
    open_ = activity.arrive(TOKEN, "GET", f"/{TOKEN}/mcp/alpha")
    activity.describe(done, "tools/list")
    activity.status(done, 200)
    activity.end(done, ANSWERED)
    activity.end(done, DROPPED)  # the first end counts
    activity.forget(TOKEN)
    held = activity.exchanges()
    assert [(e.method, e.ended_at) for e in held] == [("GET", None)]
    activity.end(open_, STREAM_OPEN)
    activity.forget(TOKEN)
    assert activity.exchanges() == []
    assert (done.what, done.status, done.ending) == ("tools/list", 200, ANSWERED)
