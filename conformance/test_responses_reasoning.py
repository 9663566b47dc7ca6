"""Reasoning items on the Responses API (CONTRACT.md §6e; contracts/requirements/responses_state.yaml).

A reasoning model's response carries a `reasoning` item before its function
call; the API needs it back with the call, as the runtime declares
(`reasoning_replay`): unchanged with its `encrypted_content` (encrypted), by
id from the store (by_id), or not at all, the call then without its item id
(none). The runtime keeps reasoning by the model's name: CONFIG names the
declared `reasoning_model_name`. The view leaves reasoning items out, so no
wire-neutral check reads them; these do. Expected items are written from the
fake's documented shapes (`toolproof.fakes.responses.Reasoned`): the item id
`rs_<token>_<index>`, the encrypted content
`gAAAABtp-<token>-<index>-reasoning-state-opaque`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pytest

from toolproof.fakes import Call, ModelRequest, Reasoned, Text
from toolproof.plugin.scenario import Scenario

from ._calls import FINAL_TEXT, input_items, not_streaming

ROUTE: Final = "stream"
CALL: Final = Call("stream/lookup", '{"q": "Zürich"}')
SUMMARY: Final = ("Looking up Zürich first.", "Then answering.")
JUDGED_KEYS: Final = ("type", "id", "summary", "encrypted_content")
"""What a replayed reasoning item must keep (CONTRACT.md §6e); other keys are the runtime's."""


def replay_not_declared(tp: Scenario, replay: str, *check_ids: str) -> bool:
    """Record not_testable unless `reasoning_replay` is `replay`; True when it is not."""
    declared = tp.option("reasoning_replay")
    if declared == replay:
        return False
    for check_id in check_ids:
        tp.not_testable(check_id, f"declares reasoning_replay {declared}")
    return True


def streaming(tp: Scenario, *check_ids: str) -> bool:
    """Record not_testable for a candidate that streams (the streamed check judges it); True when it does."""
    if tp.option("model_stream") != "always":
        return False
    for check_id in check_ids:
        tp.not_testable(
            check_id, "declares model_stream always: responses.reasoning-from-done judges its replay"
        )
    return True


def run_reasoned(tp: Scenario, reasoned: Reasoned) -> list[ModelRequest]:
    """One run under the reasoning model's name: the reasoned call, then text; its model requests."""
    tp.script(reasoned, Text(FINAL_TEXT))
    config = tp.config({"stream": tp.server(ROUTE)})
    config["model"]["name"] = tp.option("reasoning_model_name")
    tp.build(config)
    tp.run("Look up Zürich, please.", judged=True)
    return tp.model_requests()


def item_before_call(request: ModelRequest, call_id: str, *, resolved: bool) -> Any:
    """The input item right before the function_call `call_id`, its judged keys only; what stands
    there otherwise, in words. `resolved`: in the conversation `request` stands for (stored items
    resolved: what by_id keeps); else in the input as sent (what encrypted replays itself)."""
    items = input_items(request, resolved=resolved)
    for i, item in enumerate(items):
        if (
            isinstance(item, Mapping)
            and item.get("type") == "function_call"
            and item.get("call_id") == call_id
        ):
            before = items[i - 1] if i > 0 else None
            if not isinstance(before, Mapping):
                return "(no item before the call)"
            return {key: before.get(key, "(absent)") for key in JUDGED_KEYS}
    return "(the call is not in the conversation)"


def expect_replayed(tp: Scenario, check_id: str, summary: tuple[str, ...], what: str) -> None:
    """Run `Reasoned(CALL, summary)` and pin the item before the call in the next request."""
    requests = run_reasoned(tp, Reasoned(CALL, summary))
    tp.expect_needed(
        check_id, len(requests), 2, what="model requests of a run answered with a reasoned call, then text"
    )
    tp.expect(
        check_id,
        item_before_call(requests[1], f"call_{tp.token}_0_0", resolved=False),
        {
            "type": "reasoning",
            "id": f"rs_{tp.token}_0",
            "summary": [{"type": "summary_text", "text": text} for text in summary],
            "encrypted_content": f"gAAAABtp-{tp.token}-0-reasoning-state-opaque",
        },
        what=what,
    )


@pytest.mark.checks("responses.reasoning-replayed")
@pytest.mark.capability("openai.responses")
def test_reasoning_is_replayed_unchanged_before_its_call(tp: Scenario) -> None:
    """Asked for with include, the encrypted content comes back with the item, unchanged, right
    before its call (upstream-resp-store-false-reasoning: never asked for, the item was looked up
    in a store that kept nothing)."""
    check = "responses.reasoning-replayed"
    if replay_not_declared(tp, "encrypted", check) or streaming(tp, check):
        return
    expect_replayed(tp, check, (), "the item before the call in the request after the reasoned response")


@pytest.mark.checks("responses.reasoning-kept-with-summary")
@pytest.mark.capability("openai.responses")
def test_reasoning_with_a_summary_keeps_its_encrypted_content(tp: Scenario) -> None:
    """A reasoning item with two summary parts is replayed with them and its encrypted content
    (upstream-resp-summary-drops-encrypted: the content was dropped when summaries were present)."""
    check = "responses.reasoning-kept-with-summary"
    if replay_not_declared(tp, "encrypted", check) or streaming(tp, check):
        return
    expect_replayed(tp, check, SUMMARY, "the item before the call, its reasoning summarised in two parts")


@pytest.mark.checks("responses.reasoning-from-done")
@pytest.mark.capability("openai.responses")
def test_streamed_reasoning_is_the_finished_item(tp: Scenario) -> None:
    """Streamed, the reasoning item's `output_item.added` carries half its encrypted content and no
    summary; the replayed item is the finished one, whole."""
    check = "responses.reasoning-from-done"
    if replay_not_declared(tp, "encrypted", check) or not_streaming(tp, check):
        return
    expect_replayed(tp, check, SUMMARY, "the item before the call after a streamed reasoned response")


@pytest.mark.checks("responses.reasoning-by-id")
@pytest.mark.capability("openai.responses")
def test_stored_reasoning_stands_before_its_call(tp: Scenario) -> None:
    """Under by_id the reasoning item stays stored: the conversation the next request stands for
    (its previous response, its references or its items by id, resolved) holds it right before its
    call, and the request never sends it whole with its encrypted content."""
    check = "responses.reasoning-by-id"
    if replay_not_declared(tp, "by_id", check):
        return
    requests = run_reasoned(tp, Reasoned(CALL))
    tp.expect_needed(
        check, len(requests), 2, what="model requests of a run answered with a reasoned call, then text"
    )
    before = item_before_call(requests[1], f"call_{tp.token}_0_0", resolved=True)
    tp.expect(
        check,
        {key: before.get(key) for key in ("type", "id")} if isinstance(before, Mapping) else before,
        {"type": "reasoning", "id": f"rs_{tp.token}_0"},
        what="the item before the call in the conversation the next request stands for",
    )
    # By id, never whole: an item sent back with its encrypted content is `encrypted`'s replay,
    # which the resolved conversation cannot tell from a stored one.
    tp.expect(
        check,
        [
            item.get("id")
            for item in input_items(requests[1])
            if isinstance(item, Mapping) and item.get("type") == "reasoning" and "encrypted_content" in item
        ],
        [],
        what="reasoning items the next request sends whole, with their encrypted content (declared by_id)",
    )


@pytest.mark.checks("responses.reasoning-none-unbound")
@pytest.mark.capability("openai.responses")
def test_dropped_reasoning_leaves_no_call_item_id(tp: Scenario) -> None:
    """Under none, the call a reasoning item preceded is sent back without its item id: with it,
    the API wants the reasoning item too (upstream-resp-reasoning-dropped-id-kept); and the
    reasoning is dropped indeed: no stored chain holds it either."""
    check = "responses.reasoning-none-unbound"
    if replay_not_declared(tp, "none", check):
        return
    requests = run_reasoned(tp, Reasoned(CALL))
    tp.expect_needed(
        check, len(requests), 2, what="model requests of a run answered with a reasoned call, then text"
    )
    tp.expect(
        check,
        [
            item.get("id")
            for item in input_items(requests[1])
            if isinstance(item, Mapping) and item.get("type") == "function_call" and "id" in item
        ],
        [],
        what="item ids of the function calls sent back after a reasoned call whose reasoning was dropped",
    )
    tp.expect(
        check,
        [
            item.get("id")
            for item in input_items(requests[1], resolved=True)
            if isinstance(item, Mapping) and item.get("type") == "reasoning"
        ],
        [],
        what="reasoning items in the conversation the next request stands for (declared none: dropped)",
    )
