"""What the Responses API keeps between requests, per token: stored responses and their items.

The fake endpoint keeps every response it answers (completed, failed or incomplete:
`finished_output`) unless the request said `store: false`, by id, in memory, for
one token (one test), and resolves a later request against what it kept, as the
API does
(`openai/openai-python:src/openai/types/responses/response_create_params.py`:
`previous_response_id`, `store`; the input item `item_reference`):

- `previous_response_id` names a stored response: the conversation it stands for
  is that response's own conversation (what it was sent, resolved, then its
  output items), then the new input. Unknown, or answered under `store: false`:
  400, `previous_response_not_found`. `null` reads as absent (the API's
  default; whether a runtime may send it is a check's question, never the
  fake's);
- an `item_reference` input item is replaced by the stored item of its id; an
  unknown id, or the id of an item of a response not stored: 404 (the API's
  "Item with id '...' not found");
- a `reasoning` input item without `encrypted_content` is the stored item of its
  id (404 the same way when there is none); with it, it stands as sent (what a
  stateless runtime replays);
- an input item carrying the `id` of an item the previous response already
  holds: 400, "Duplicate item found" (vercel/ai#15502);
- on a chained request (any of the above), every `function_call_output` pairs
  with a `function_call` of the resolved conversation by `call_id`, and every
  `function_call` of it has its output: 400 otherwise, with the API's words
  ("No tool call found for function call output with call_id ...", "No tool
  output found for function call ..."; vercel/ai#18537, openai-agents#673).
  A stateless request is never refused for pairing: `responses.call-outputs-
  paired` judges its input as sent, and a refusal would fail every later check
  of the run for that one root cause;
- a replayed `function_call` carrying the item id (`fc_...`) of a call that a
  reasoning item preceded, without that reasoning item before it: 400, "...
  was provided without its required 'reasoning' item" (pydantic-ai PR #2950).

The 404 for an id of a response created under `store: false` (or of its items)
adds the API's hint "Items are not persisted when `store` is set to false ...".
`forget` drops every stored response as the API does when one expires: an id it
dropped gets the plain 404, and its `ChainError.expired` says the request could
not have avoided it. An id of any JSON type is looked up (and not found), and an
`input` that is neither a string nor a list is one item as sent: never a crash.

`conversation` is not kept here: no bundled runtime uses it (CONTRACT.md §6e).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

NOT_FOUND: Final = 404
BAD_REQUEST: Final = 400
UNSTORED_HINT: Final = (
    "Items are not persisted when `store` is set to false. Try again with `store` set to true, or"
    " remove this item from your input."
)
"""What the API adds when the missing item belonged to a response created with `store: false`."""


@dataclass(frozen=True)
class ChainError:
    """A chained request the API would refuse: its status and the API's error body."""

    status: int
    message: str
    param: str | None
    code: str | None
    expired: bool = False
    """The id named was stored once and forgotten (`ResponseStore.forget`): the API's 404 for a
    stored response that expired, which no request can avoid."""

    def body(self) -> dict[str, Any]:
        """The API's error body."""
        return {
            "error": {
                "message": self.message,
                "type": "invalid_request_error",
                "param": self.param,
                "code": self.code,
            }
        }


@dataclass(frozen=True)
class Resolved:
    """A request read against the store: the whole conversation it stands for, or why it cannot be."""

    chained: bool
    """Whether the request leaned on stored state (`previous_response_id`, an `item_reference`, a
    reasoning item by id)."""
    items: list[Any] | None
    """The conversation's input items, stored ones first (None: `error`)."""
    error: ChainError | None = None


@dataclass
class ResponseStore:
    """The responses one token's requests were answered with, and which of them the API keeps."""

    conversations: dict[str, list[Any]] = field(default_factory=dict)
    """A stored response's id -> its conversation: what it was sent (resolved), then its output."""
    items: dict[str, Any] = field(default_factory=dict)
    """Every item id of a stored response -> the item."""
    unstored: set[str] = field(default_factory=set)
    """The ids of responses answered under `store: false`, and of their items."""
    reasoning_of: dict[str, str] = field(default_factory=dict)
    """A function call's item id (`fc_...`) -> the id of the reasoning item that preceded it."""
    expired: set[str] = field(default_factory=set)
    """The ids of the responses `forget` dropped, and of their items (stored once: no `store` hint)."""

    def forget(self) -> None:
        """Drop every stored response (as the API does when a stored response expires)."""
        self.expired.update(self.conversations)
        self.expired.update(self.items)
        self.conversations.clear()
        self.items.clear()

    def resolve(self, body: Mapping[str, Any]) -> Resolved:
        """The conversation `body` stands for (module docstring), or the API's refusal."""
        base: list[Any] = []
        chained = False
        previous = body.get("previous_response_id")
        if previous is not None:
            chained = True
            if not isinstance(previous, str) or previous not in self.conversations:
                why = f"Previous response with id '{previous}' not found."
                named = previous if isinstance(previous, str) else None
                if named in self.unstored:
                    why += f" {UNSTORED_HINT}"
                gone = ChainError(
                    BAD_REQUEST,  # the API answers an unknown previous response 400, an unknown item 404
                    why,
                    "previous_response_id",
                    "previous_response_not_found",
                    expired=named in self.expired,
                )
                return Resolved(True, None, gone)
            base = list(self.conversations[previous])
        given = body.get("input")
        # An input of another type is one item as sent (never its keys): the request schema judges it.
        new = (
            [{"role": "user", "content": given}]
            if isinstance(given, str)
            else list(given)
            if isinstance(given, list)
            else ([] if given is None else [given])
        )
        held = {item["id"] for item in base if isinstance(item, Mapping) and isinstance(item.get("id"), str)}
        resolved: list[Any] = []
        for item in new:
            if not isinstance(item, Mapping):
                resolved.append(item)
                continue
            kind, item_id = item.get("type"), item.get("id")
            if isinstance(item_id, str) and item_id in held:
                why = (
                    f"Duplicate item found with id {item_id}. Remove duplicate items from your input"
                    " and try again."
                )
                return Resolved(True, None, ChainError(BAD_REQUEST, why, "input", None))
            by_id = kind == "item_reference" or (
                kind == "reasoning" and item.get("encrypted_content") is None
            )
            if by_id:
                chained = True
                if not isinstance(item_id, str) or item_id not in self.items:
                    return Resolved(True, None, self._not_found(item_id))
                resolved.append(self.items[item_id])
                continue
            resolved.append(item)
        items = base + resolved
        if chained:
            unpaired = _unpaired(items)
            if unpaired is not None:
                return Resolved(True, None, unpaired)
        orphan = self._orphaned_call(items)
        if orphan is not None:
            return Resolved(chained, None, orphan)
        return Resolved(chained, items)

    def keep(
        self, body: Mapping[str, Any], items: Sequence[Any], response_id: str, output: Sequence[Any]
    ) -> None:
        """Remember an answered response (`items`: what it was sent, resolved), unless `store: false`."""
        before = None
        for item in output:
            if not isinstance(item, Mapping):
                continue
            if item.get("type") == "reasoning":
                before = item.get("id")
            elif item.get("type") == "function_call" and isinstance(before, str):
                self.reasoning_of[str(item.get("id"))] = before
        ids = [item["id"] for item in output if isinstance(item, Mapping) and isinstance(item.get("id"), str)]
        if body.get("store") is False:
            self.unstored.add(response_id)
            self.unstored.update(ids)
            return
        self.conversations[response_id] = [*items, *output]
        for item in [*items, *output]:
            if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                self.items[item["id"]] = item

    def _not_found(self, item_id: Any) -> ChainError:
        why = f"Item with id '{item_id}' not found."
        named = item_id if isinstance(item_id, str) else None
        if named in self.unstored:
            why += f" {UNSTORED_HINT}"
        return ChainError(NOT_FOUND, why, "input", None, expired=named in self.expired)

    def _orphaned_call(self, items: Sequence[Any]) -> ChainError | None:
        for i, item in enumerate(items):
            if not (isinstance(item, Mapping) and item.get("type") == "function_call"):
                continue
            reasoning = self.reasoning_of.get(str(item.get("id")))
            if reasoning is None:
                continue
            earlier = [
                other.get("id")
                for other in items[:i]
                if isinstance(other, Mapping) and other.get("type") == "reasoning"
            ]
            if reasoning not in earlier:
                why = (
                    f"Item '{item.get('id')}' of type 'function_call' was provided without its required"
                    f" 'reasoning' item: '{reasoning}'."
                )
                return ChainError(BAD_REQUEST, why, "input", None)
        return None


def _unpaired(items: Sequence[Any]) -> ChainError | None:
    typed = [item for item in items if isinstance(item, Mapping)]
    calls = [item.get("call_id") for item in typed if item.get("type") == "function_call"]
    outputs = [item.get("call_id") for item in typed if item.get("type") == "function_call_output"]
    for call_id in outputs:
        if call_id not in calls:
            why = f"No tool call found for function call output with call_id {call_id}."
            return ChainError(BAD_REQUEST, why, "input", None)
    for call_id in calls:
        if call_id not in outputs:
            return ChainError(
                BAD_REQUEST, f"No tool output found for function call {call_id}.", "input", None
            )
    return None


ENDED: Final = ("completed", "failed", "incomplete")
"""The statuses of a response the API has created, and so stores (unless `store: false`)."""


def finished_output(payload: Any) -> list[Any] | None:
    """The output items of an answered response (a `response` object, or the events of a stream
    ending `response.completed`, `.failed` or `.incomplete`), None when no response was created (an
    error body, a stream broken off before its end).

    A response that ended failed or incomplete is a response all the same: the API stores it, and
    a later request may name it (whether the runtime should have taken its calls is
    tp-resp-terminal-failure's question, judged once). A stream's `response.completed` with
    `output: []` stands for the items of its `response.output_item.done` events (`DoneEventsOnly`),
    as the API's item lifecycle does.
    """
    if isinstance(payload, Mapping):
        if payload.get("object") == "response" and payload.get("status") in ENDED:
            return list(payload.get("output") or [])
        return None
    if not isinstance(payload, list) or not payload:
        return None
    last = payload[-1]
    ends = tuple(f"response.{status}" for status in ENDED)
    if not (isinstance(last, Mapping) and last.get("type") in ends):
        return None
    output = list(last["response"].get("output") or [])
    if output:
        return output
    return [
        e["item"] for e in payload if isinstance(e, Mapping) and e.get("type") == "response.output_item.done"
    ]
