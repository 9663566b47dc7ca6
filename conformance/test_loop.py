"""The tool loop: how runs end, and the turn cap (contracts/requirements/loop.yaml, CONTRACT.md §11).

Seed: HomeAgent's `core.agent.max_tool_turns` was defined but never read; a
model that kept calling `output_send__qq` (different text each time) ran 80+
tool calls over 30 minutes in one turn. A model that always asks for tools
is `Runaway`; the harness's safety cap (max(64, default + 4) model requests)
answers 400 beyond it, so a runtime that never reads its cap fails fast with
a wrong count instead of hanging.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from toolproof.fakes import Call, Reply, Runaway, Text, ToolCalls
from toolproof.fakes.replies import runaway_arguments
from toolproof.plugin.scenario import ABSENT, Scenario
from toolproof.strategies.loop import FINAL_TEXT, CapCase, cap_cases

from ._calls import role
from ._caps import expect_cap_rejected

FINAL_CALL_REPLY = "final words without tools"
"""The reply to request N+1 for a candidate that declares `turn_cap_final_call` (it offers no tools)."""


def always_tools(tp: Scenario, tool: str, cap: int, *, runs: int = 1) -> tuple[Reply, ...]:
    """A model that asks for `tool` on every request, for `runs` runs capped at `cap`.

    `tool` must declare exactly the runaway arguments ({"channel", "text"}, as
    `alpha/output_send__qq` does): a runtime that validates arguments before calling would
    otherwise never reach the server, and the count would lie; and keys the tool's schema does not
    declare are `tp-args-undeclared-keys`'s (with `echo_text`, a runtime that refuses them failed
    the cap checks for that one cause).

    With `turn_cap_final_call` request N+1 offers no tools, so a tool reply
    could not even be rendered: that request gets a text reply instead.
    """
    if not tp.option("turn_cap_final_call"):
        return (Runaway(tool),)
    one_run: list[Reply] = [*(Call(tool, runaway_arguments(k)) for k in range(cap)), Text(FINAL_CALL_REPLY)]
    return tuple(one_run * runs)


def cap_end(tp: Scenario, output: str) -> dict[str, Any]:
    """The declared end of a run at the cap (`turn_cap_end`), `output` being the graceful one.

    Under `cap_stop_reason: not_exposed` the runtime says nothing that tells a capped run from a
    completed one, so `stop_reason` is not judged: the traffic and the output are.
    """
    if tp.option("turn_cap_end") != "graceful":
        return {"ok": False, "kind": "max_tool_turns"}
    if tp.option("cap_stop_reason") == "not_exposed":
        return {"ok": True, "output": output}
    return {"ok": True, "stop_reason": "max_tool_turns", "output": output}


def cap_end_kinds(tp: Scenario) -> tuple[str, ...]:
    """The error a run stopped at the cap answers under `turn_cap_end: error` (none under graceful)."""
    return () if tp.option("turn_cap_end") == "graceful" else ("max_tool_turns",)


def notice_for(tp: Scenario, cap: int, last_text: str) -> str:
    """The graceful output when the last reply's text is blank (`turn_cap_notice`, {n} = N)."""
    notice = tp.option("turn_cap_notice")
    return last_text if notice is None else str(notice).replace("{n}", str(cap))


def may_call_tools(body: Any) -> bool:
    """The request lets the model call a tool: it offers tools, and its tool_choice is not "none"."""
    return isinstance(body, Mapping) and "tools" in body and body.get("tool_choice") != "none"


def cap_traffic(tp: Scenario, *, final_call: bool = False) -> dict[str, Any]:
    """What reached the fakes: tools/call count, model request statuses, which requests let the model
    call tools, and (final call) how request N+1 withholds them and which calls it answers."""
    observed: dict[str, Any] = {
        "tools/call requests": len(tp.tool_calls_received()),
        "model requests (HTTP status)": [r.status for r in tp.model_requests()],
        "request lets the model call tools": [may_call_tools(r.view) for r in tp.model_requests()],
    }
    if final_call:
        last = tp.model_bodies()[-1] if tp.model_bodies() else {}
        body = last if isinstance(last, Mapping) else {}
        messages = body.get("messages")
        answered = [m.get("tool_call_id") for m in messages or [] if role(m) == "tool"]
        observed["last tool message of request N+1 answers"] = answered[-1:] if answered else []
        observed["request N+1 withholds tools by"] = {
            "tools key": "tools" in body,
            "tool_choice": body.get("tool_choice", "<absent>"),
        }
    return observed


#: How request N+1 withholds tools, per declared `turn_cap_final_call_tools`: it omits them (and
#: so tool_choice, which the API allows only beside tools), or keeps them with tool_choice "none"
#: (OpenAI: the model "will not call any tool").
WITHHELD: dict[str, dict[str, Any]] = {
    "omit": {"tools key": False, "tool_choice": "<absent>"},
    "tool_choice_none": {"tools key": True, "tool_choice": "none"},
}


def expected_cap_traffic(tp: Scenario, cap: int) -> dict[str, Any]:
    """N tools/call and N model requests (all letting the model call tools), plus one that does not if
    declared."""
    final = 1 if tp.option("turn_cap_final_call") else 0
    withheld = {"request N+1 withholds tools by": WITHHELD[str(tp.option("turn_cap_final_call_tools"))]}
    return {
        "tools/call requests": cap,
        "model requests (HTTP status)": [200] * (cap + final),
        "request lets the model call tools": [True] * cap + [False] * final,
        **(withheld if final else {}),
    }


def batch_call_id(tp: Scenario, request_index: int) -> str:
    """The id of the first tool call the harness sent in its reply to one model request."""
    message = tp.model_requests()[request_index].message or {}
    return str(message["tool_calls"][0]["id"])


def expect_cap_exact(tp: Scenario, check_id: str, cap: int, what: str) -> None:
    """Record `check_id` on the traffic of a run capped at `cap` by a model that always asks for tools."""
    expected = expected_cap_traffic(tp, cap)
    if not tp.option("turn_cap_final_call"):
        tp.expect(check_id, cap_traffic(tp), expected, what=what)
        return
    # Request N+1 carries the tool messages of batch N (the reply to request N).
    try:
        batch_n = [batch_call_id(tp, cap - 1)]
    except (IndexError, KeyError, TypeError):
        batch_n = ["<no tool call answered request N>"]
    expected["last tool message of request N+1 answers"] = batch_n
    tp.expect(check_id, cap_traffic(tp, final_call=True), expected, what=what)


# -- tp-loop-completed ---------------------------------------------------------------


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("model.*")
def test_text_reply_completes_the_run(tp: Scenario) -> None:
    tp.script(Call("alpha/lookup", '{"q": "weather"}'), Text("  The answer is 42.\n"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    outcome = tp.run("What is the answer?", judged=True)
    tp.expect_outcome(
        "loop.completed-output",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": "  The answer is 42.\n"},
        what="a tool round, then a text reply",
    )


SECOND_ANSWER: Final = "second answer"
"""The reply to the one re-prompt after an empty reply (`empty_reply: reprompts`)."""


@pytest.mark.checks("loop.completed-empty-output")
@pytest.mark.capability("model.*")
def test_textless_reply_completes_the_run_with_empty_output(tp: Scenario) -> None:
    """A reply whose text is "" (§2: the text of `content` "") and no calls, as `empty_reply` declares:
    `completes`, the output is "", nothing invented; `reprompts`, exactly one more request, whose
    reply's text is the output (what the re-prompt holds is silent)."""
    what = "a tool round, then a reply without tool calls whose content is the empty string"
    if tp.option("empty_reply") == "reprompts":
        # A third reply is scripted so a runtime asking twice shows as a count and an output, not
        # as an exhausted script.
        tp.script(
            Call("alpha/lookup", '{"q": "weather"}'), Text(""), Text(SECOND_ANSWER), Text("third answer")
        )
        tp.build(tp.config({"alpha": tp.server("alpha")}))
        outcome = tp.run("Say nothing when done.", judged=True)
        tp.expect_outcome(
            "loop.completed-empty-output",
            outcome,
            {"ok": True, "stop_reason": "completed", "output": SECOND_ANSWER},
            what=f"{what} (declared empty_reply reprompts), then {SECOND_ANSWER!r}",
        )
        tp.expect(
            "loop.completed-empty-output",
            len(tp.model_requests()),
            3,
            what=f"{what} (declared empty_reply reprompts): model requests (tool, empty reply, re-prompt)",
        )
        return
    tp.script(Call("alpha/lookup", '{"q": "weather"}'), Text(""))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    outcome = tp.run("Say nothing when done.", judged=True)
    tp.expect_outcome(
        "loop.completed-empty-output",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": ""},
        what=what,
    )


# -- tp-loop-cap-exact ---------------------------------------------------------------


@pytest.mark.parametrize("cap", [3, 1], ids=["qq-cap3", "qq-cap1"])
@pytest.mark.checks("loop.cap-exact")
@pytest.mark.capability("loop.turn_cap")
def test_runaway_model_gets_exactly_n_batches(tp: Scenario, cap: int) -> None:
    """Seed: output_send__qq called with a different text every ~10 s, never capped."""
    tool = "alpha/output_send__qq"
    tp.script(*always_tools(tp, tool, cap))
    tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=cap))
    tp.run("Send the user a greeting on qq.", may_fail_with=cap_end_kinds(tp))
    expect_cap_exact(
        tp, "loop.cap-exact", cap, what=f"max_tool_turns {cap}, a model that always calls {tool}"
    )


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    # Each example is a whole build and run: shrinking a failure would cost minutes.
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=cap_cases())
@pytest.mark.checks("loop.cap-property")
@pytest.mark.capability("loop.turn_cap")
def test_cap_counts_batches_for_any_cap_and_script(tp: Scenario, case: CapCase) -> None:
    """Cap N, a model that stops after K tool replies: min(K, N) batches; completes iff K < N."""
    build = tp.sibling()  # one fresh build per example
    final_call = bool(tp.option("turn_cap_final_call"))
    reached = case.stops_after >= case.cap
    # Request N+1 of a final-call candidate offers no tools: it gets the text reply.
    batches = case.batches[: case.cap] if final_call and reached else case.batches
    build.script(*batches, Text(FINAL_TEXT))
    build.build(build.config({"alpha": build.server("alpha")}, max_tool_turns=case.cap))
    outcome = build.run("Keep the user posted on qq.", judged=True)
    done = min(case.stops_after, case.cap)
    # How the run ended, not its output: the output at the cap is tp-loop-cap-end's (the cap-end
    # checks), and a completed run's is tp-loop-completed's. This check counts.
    end = {key: value for key, value in cap_end(tp, "").items() if key != "output"}
    expected: dict[str, Any] = {
        "tools/call requests": sum(len(b.calls) for b in case.batches[:done]),
        "model requests": done + 1 if not reached or final_call else done,
        "end": end if reached else {"ok": True, "stop_reason": "completed"},
    }
    observed = {
        "tools/call requests": len(build.tool_calls_received()),
        "model requests": len(build.model_requests()),
        "end": {key: getattr(outcome, key) for key in expected["end"]},
    }
    build.expect(
        "loop.cap-property",
        observed,
        expected,
        what=f"max_tool_turns {case.cap}, the model stops after {case.stops_after} tool replies",
    )


# -- tp-loop-cap-end -----------------------------------------------------------------


def say(text: str | None, k: int) -> ToolCalls:
    """A tool reply with `text` beside one lookup call (arguments differ per k)."""
    return ToolCalls((Call("alpha/lookup", f'{{"q": "step {k}"}}'),), text=text)


def outputs_tool_results(tp: Scenario) -> bool:
    """A graceful stop without a final call outputs batch N's tool results (`turn_cap_output`)."""
    return tp.option("turn_cap_output") == "tool_results" and not tp.option("turn_cap_final_call")


# Batch 2 of the cap-end scenarios under `turn_cap_output: tool_results`: two calls, so the join
# and the call order are pinned (alpha/lookup answers "alpha:<q>").
LAST_BATCH = (Call("alpha/lookup", '{"q": "step 2"}'), Call("alpha/lookup", '{"q": "step 2b"}'))
LAST_BATCH_OUTPUT = "alpha:step 2\nalpha:step 2b"


@pytest.mark.checks("loop.cap-end-text")
@pytest.mark.capability("loop.turn_cap")
def test_cap_end_keeps_the_last_reply_text(tp: Scenario) -> None:
    """Graceful: the last reply's text (not blank) is the output, or batch N's tool results as
    declared; error: kind max_tool_turns."""
    replies = [say(f"still working {k}", k) for k in (1, 2, 3, 4)]
    if tp.option("turn_cap_final_call"):
        tp.script(*replies[:2], Text("wrapping up"))
        expected = cap_end(tp, "wrapping up")
    elif outputs_tool_results(tp):
        tp.script(replies[0], ToolCalls(LAST_BATCH, text="still working 2"), *replies[2:])
        expected = cap_end(tp, LAST_BATCH_OUTPUT)
    else:
        tp.script(*replies)
        expected = cap_end(tp, "still working 2")
    tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=2))
    outcome = tp.run("Look three things up.", judged=True)
    tp.expect_outcome(
        "loop.cap-end-text", outcome, expected, what="max_tool_turns 2, every reply says 'still working k'"
    )


@pytest.mark.parametrize(
    ("replies", "last_text"),
    [
        ((say("still working 1", 1), Runaway("alpha/output_send__qq")), ""),
        ((say("still working 1", 1), say(" \n\t ", 2), Runaway("alpha/output_send__qq")), " \n\t "),
    ],
    ids=["no-text", "whitespace-text"],
)
@pytest.mark.checks("loop.cap-end-blank")
@pytest.mark.capability("loop.turn_cap")
def test_cap_end_with_blank_last_reply_gives_the_notice(
    tp: Scenario, replies: tuple[Reply, ...], last_text: str
) -> None:
    """The last reply's text decides, not the last non-blank text seen: blank -> the notice (or
    batch N's tool results, as declared)."""
    output = notice_for(tp, 2, last_text)
    if tp.option("turn_cap_final_call"):
        tp.script(say("still working 1", 1), say("still working 2", 2), Text(last_text))
    elif outputs_tool_results(tp):
        tp.script(
            say("still working 1", 1),
            ToolCalls(LAST_BATCH, text=last_text or None),
            Runaway("alpha/output_send__qq"),
        )
        output = LAST_BATCH_OUTPUT
    else:
        tp.script(*replies)
    tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=2))
    outcome = tp.run("Look two things up.", judged=True)
    tp.expect_outcome(
        "loop.cap-end-blank",
        outcome,
        cap_end(tp, output),
        what=f"max_tool_turns 2: reply 1 says 'still working 1', the last reply's text is {last_text!r}",
    )


# -- tp-loop-cap-default, tp-loop-cap-zero-unlimited, tp-loop-cap-invalid ---------------


@pytest.mark.parametrize("value", [ABSENT, None], ids=["absent", "null"])
@pytest.mark.checks("loop.cap-default")
@pytest.mark.capability("loop.turn_cap")
def test_absent_or_null_cap_is_the_declared_default(tp: Scenario, value: Any) -> None:
    default = int(tp.option("default_max_tool_turns"))
    tp.script(*always_tools(tp, "alpha/output_send__qq", default))
    tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=value))
    tp.run("Send the user a greeting on qq.", may_fail_with=cap_end_kinds(tp))
    shown = "absent" if value is ABSENT else "null"
    expect_cap_exact(
        tp, "loop.cap-default", default, what=f"max_tool_turns {shown}, declared default {default}"
    )


QQ: Final = "alpha/output_send__qq"
"""The runaway tool: it declares exactly the runaway arguments (see `always_tools`)."""

UNRUN_TEXT: Final = "Sending the greeting on qq now."
"""The text beside the one call a cap read as "do not run tools automatically" returns unrun."""


def expect_default_cap_reading(tp: Scenario, check_id: str, value: int, declared: str) -> None:
    """A cap `value` read as "not set" (declared `default_cap`): exactly `default_max_tool_turns`,
    as `tp-loop-cap-default` counts it, and the run ends as it does at that cap."""
    default = int(tp.option("default_max_tool_turns"))
    what = f"max_tool_turns {value} (declared {declared} default_cap), declared default {default}"
    tp.script(*always_tools(tp, QQ, default))
    build = tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=value), judged=True)
    tp.expect_outcome(check_id, build, {"ok": True}, what=f"build with {what}")
    outcome = tp.run("Send the user a greeting on qq.", judged=True)
    # How the run ended, not its output (the output at the cap is tp-loop-cap-end's).
    end = {field: ended for field, ended in cap_end(tp, "").items() if field != "output"}
    tp.expect_outcome(check_id, outcome, end, what=f"{what}: how the run ended (at the cap)")
    expect_cap_exact(tp, check_id, default, what=f"{what}, a model that always calls {QQ}")


def expect_no_tool_runs_reading(tp: Scenario, check_id: str, value: int, declared: str) -> None:
    """A cap `value` read as "do not run tools automatically" (declared `no_tool_runs`): exactly one
    model request, no tools/call, and the run answers ok, stop_reason max_tool_turns (its last reply
    still asks for tools: PROTOCOL.md, run), the reply's text as output."""
    what = f"max_tool_turns {value} (declared {declared} no_tool_runs), a model that always calls {QQ}"
    tp.script(ToolCalls((Call(QQ, runaway_arguments(0)),), text=UNRUN_TEXT), Runaway(QQ))
    build = tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=value), judged=True)
    tp.expect_outcome(check_id, build, {"ok": True}, what=f"build with {what}")
    outcome = tp.run("Send the user a greeting on qq.", judged=True)
    tp.expect_outcome(
        check_id,
        outcome,
        {"ok": True, "stop_reason": "max_tool_turns", "output": UNRUN_TEXT},
        what=f"{what}: the run, its one reply's calls returned unrun",
    )
    tp.expect(
        check_id,
        {
            "tools/call requests": len(tp.tool_calls_received()),
            "model requests (HTTP status)": [r.status for r in tp.model_requests()],
        },
        {"tools/call requests": 0, "model requests (HTTP status)": [200]},
        what=f"{what}: traffic",
    )


def expect_no_model_request_reading(tp: Scenario, check_id: str, value: int, declared: str) -> None:
    """A cap `value` that leaves no model request to make (declared `no_model_request`: a step budget
    checked before each step, Haystack's `max_agent_steps`): the build succeeds, the run makes no
    model request and no tools/call, and answers ok with stop_reason max_tool_turns (the cap, not a
    reply, ended it) and output "" (the run has no reply: PROTOCOL.md, run).

    The silence is the observation, so a sibling build with `max_tool_turns: 1` must first reach
    the model (a precondition): the candidate asks this harness's model when its cap allows it."""
    what = f"max_tool_turns {value} (declared {declared} no_model_request), a model that always calls {QQ}"
    allowed = tp.sibling()
    allowed.script(Text("one request allowed"))
    allowed.build(allowed.config({"alpha": allowed.server("alpha")}, max_tool_turns=1))
    allowed.run("Send the user a greeting on qq.")
    tp.script(Runaway(QQ))
    build = tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=value), judged=True)
    tp.expect_outcome(check_id, build, {"ok": True}, what=f"build with {what}")
    outcome = tp.run("Send the user a greeting on qq.", judged=True, asks_model=False)
    tp.expect_outcome(
        check_id,
        outcome,
        {"ok": True, "stop_reason": "max_tool_turns", "output": ""},
        what=f"{what}: the run, stopped by its cap before any model request",
    )
    tp.expect(
        check_id,
        {
            "tools/call requests": len(tp.tool_calls_received()),
            "model requests (HTTP status)": [r.status for r in tp.model_requests()],
        },
        {"tools/call requests": 0, "model requests (HTTP status)": []},
        what=f"{what}: traffic",
    )


BELOW_ONE_READINGS: Final = {
    "default_cap": expect_default_cap_reading,
    "no_tool_runs": expect_no_tool_runs_reading,
    "no_model_request": expect_no_model_request_reading,
}
"""The declared readings of a cap below 1 that build and run (`zero_max_tool_turns`,
`negative_max_tool_turns`), each with the one behaviour it names."""


@pytest.mark.checks("loop.cap-zero-unlimited")
@pytest.mark.capability("loop.turn_cap")
def test_zero_cap_is_unlimited(tp: Scenario) -> None:
    """`max_tool_turns: 0` as declared (`zero_max_tool_turns`): no cap (`unlimited`); `invalid_config`
    in the declared phase (a runtime without an unlimited setting); the declared default cap
    (`default_cap`: 0 read as not set); one model request whose calls are returned unrun
    (`no_tool_runs`); or no model request at all (`no_model_request`)."""
    reading = tp.option("zero_max_tool_turns")
    if reading in BELOW_ONE_READINGS:
        BELOW_ONE_READINGS[reading](tp, "loop.cap-zero-unlimited", 0, "zero_max_tool_turns")
        return
    rounds = int(tp.option("default_max_tool_turns")) + 1
    tp.script(*(Call("alpha/lookup", f'{{"q": "round {k}"}}') for k in range(rounds)), Text("all done"))
    if reading == "invalid_config":
        config = tp.config({"alpha": tp.server("alpha")}, max_tool_turns=0)
        expect_cap_rejected(
            tp, "loop.cap-zero-unlimited", config, what="max_tool_turns 0 (declared zero_max_tool_turns)"
        )
        return
    build = tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=0), judged=True)
    tp.expect_outcome(
        "loop.cap-zero-unlimited",
        build,
        {"ok": True},
        what="build with max_tool_turns 0 (declared zero_max_tool_turns unlimited)",
    )
    outcome = tp.run("Look everything up.", judged=True)
    what = f"max_tool_turns 0, the model stops after {rounds} tool replies (declared default + 1)"
    tp.expect_outcome(
        "loop.cap-zero-unlimited",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": "all done"},
        what=what,
    )
    tp.expect("loop.cap-zero-unlimited", len(tp.tool_calls_received()), rounds, what=f"{what}: tools/call")


@pytest.mark.parametrize("value", [-1, 1.5, True, "3"], ids=["negative", "non-integer", "boolean", "string"])
@pytest.mark.checks("loop.cap-invalid")
@pytest.mark.capability("loop.turn_cap")
def test_invalid_cap_fails_the_build(tp: Scenario, value: Any) -> None:
    """Rejected with invalid_config in the declared `invalid_cap_phase` (build, or the first run).

    -1 too, whatever `negative_max_tool_turns` declares: a runtime that reads it as its default cap,
    as "no automatic tool runs" or as no model request at all is bounded (the MUST holds), and its
    missing validation is this SHOULD's finding."""
    tp.script(Text("never asked"))
    config = tp.config({"alpha": tp.server("alpha")}, max_tool_turns=value)
    expect_cap_rejected(tp, "loop.cap-invalid", config, what=f"max_tool_turns {value!r}")


@pytest.mark.checks("loop.cap-negative-not-run")
@pytest.mark.capability("loop.turn_cap")
def test_negative_cap_never_runs_the_loop(tp: Scenario) -> None:
    """Seed: a cap that never fires leaves the loop unbounded. -1 as `negative_max_tool_turns`
    declares: `rejected`, the build or (declared `invalid_cap_phase: run`) the first run fails
    before any model request, the kind being loop.cap-invalid's; `default_cap`, exactly the
    declared default cap; `no_tool_runs`, one model request and no tools/call; `no_model_request`,
    no model request and no tools/call."""
    reading = tp.option("negative_max_tool_turns")
    if reading in BELOW_ONE_READINGS:
        BELOW_ONE_READINGS[reading](tp, "loop.cap-negative-not-run", -1, "negative_max_tool_turns")
        return
    tp.script(Text("never asked"))
    config = tp.config({"alpha": tp.server("alpha")}, max_tool_turns=-1)
    expect_cap_rejected(tp, "loop.cap-negative-not-run", config, what="max_tool_turns -1", any_kind=True)


# -- tp-loop-cap-per-run --------------------------------------------------------------


@pytest.mark.checks("loop.cap-per-run")
@pytest.mark.capability("loop.turn_cap")
def test_every_run_gets_the_cap_again(tp: Scenario) -> None:
    cap = 2
    tp.script(*always_tools(tp, "alpha/output_send__qq", cap, runs=2))
    tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=cap))
    per_run = []
    for text in ("First task.", "Second task."):
        calls, requests = len(tp.tool_calls_received()), len(tp.model_requests())
        tp.run(text, may_fail_with=cap_end_kinds(tp))
        per_run.append(
            {
                "tools/call requests": len(tp.tool_calls_received()) - calls,
                "model requests": len(tp.model_requests()) - requests,
            }
        )
    final = 1 if tp.option("turn_cap_final_call") else 0
    tp.expect(
        "loop.cap-per-run",
        per_run,
        [{"tools/call requests": cap, "model requests": cap + final}] * 2,
        what=f"two runs on one build with max_tool_turns {cap}, a model that always asks for tools",
    )


# -- tp-loop-unsupported-rejected -----------------------------------------------------


@pytest.mark.checks("loop.unsupported-rejected")
def test_runtime_without_a_cap_rejects_max_tool_turns(tp: Scenario) -> None:
    """Seed: a max_tool_turns key that nothing read. A runtime without a cap must say so."""
    if "loop.turn_cap" in tp.declared.capabilities:
        tp.not_testable(
            "loop.unsupported-rejected", "applies only to candidates that do not claim loop.turn_cap"
        )
        return
    tp.script(Text("never asked"))
    outcome = tp.build(tp.config({"alpha": tp.server("alpha")}, max_tool_turns=3), judged=True)
    tp.expect_outcome(
        "loop.unsupported-rejected",
        outcome,
        {"ok": False, "kind": "invalid_config"},
        what="build with max_tool_turns 3 on a candidate that does not claim loop.turn_cap",
    )
