"""What `toolproof probe` knows of each option beyond contracts/options.yaml: when it matters, which
values are tried together, which one to prefer when two fit, which tests tell its values apart, and
the question to answer where no scenario can."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolproof.judge.contract_files import load_yaml

FROM_SOURCE: dict[str, str] = {
    "idle_answer_seconds": "How long, at most, does the runtime sit with a build, run or close pending"
    " and every model and MCP request it made already answered (its longest retry back-off or"
    " shutdown), in seconds (1 to 300)?",
    "tool_timeout": "How long does the runtime wait for a tools/call answer before it abandons the call:"
    " the server's CONFIG tool_timeout_s mapped onto its per-server timeout (config), a fixed number"
    " of seconds, or as long as the tool takes (none)?",
    "reasoning_model_name": "Under which model name does the runtime treat the model as a reasoning"
    " model (keep and replay its reasoning items)?",
}
"""Options no scenario tells apart through the protocol, and the question their value answers."""


QUESTIONS: dict[str, str] = {
    "tool_result_pointer": 'Where in a role "tool" message does the tool\'s text sit: the whole content'
    ' (""), or a JSON pointer into a JSON document (e.g. /output)?',
    "error_result_pointer": "Where does the text of an isError result sit in its tool message: as"
    " tool_result_pointer says (null), or at a JSON pointer of its own (e.g. /error)?",
    "multi_block_join": "Which literal string joins the text blocks of a multi-block tool result?",
    "turn_cap_notice": "What does a run stopped at the cap answer when the last reply's text is blank"
    " (null: that blank text; a string, with {n} for the cap)?",
    "default_max_tool_turns": "Which cap applies when max_tool_turns is absent or null?",
    "continuation": "Does the runtime insert a synthetic user message after tool rounds (null: never;"
    " else its exact text)?",
    "anthropic_empty_placeholder": "Which text does the runtime send on the Messages API in place of a"
    " tool result whose text is empty?",
}
"""The question for a free-form option whose value the traffic did not show."""


@dataclass(frozen=True)
class Condition:
    """When an option means something: a test of the other options' values, and its words."""

    holds: Callable[[Mapping[str, Any]], bool]
    text: str


RELEVANT_WHEN: dict[str, Condition] = {
    "turn_cap_final_call_tools": Condition(
        lambda o: o["turn_cap_final_call"] is True, "turn_cap_final_call true"
    ),
    "cap_stop_reason": Condition(lambda o: o["turn_cap_end"] == "graceful", "turn_cap_end graceful"),
    "turn_cap_notice": Condition(lambda o: o["turn_cap_end"] == "graceful", "turn_cap_end graceful"),
    "turn_cap_output": Condition(
        lambda o: o["turn_cap_end"] == "graceful" and o["turn_cap_final_call"] is False,
        "turn_cap_end graceful and turn_cap_final_call false",
    ),
    "multi_block_join": Condition(lambda o: o["tool_result_encoding"] == "text", "tool_result_encoding text"),
    "error_result_pointer": Condition(
        lambda o: o["error_result_encoding"] == "text", "error_result_encoding text"
    ),
    "items_from_done_events": Condition(lambda o: o["model_stream"] == "always", "model_stream always"),
    "anthropic_empty_placeholder": Condition(
        lambda o: o["anthropic_empty_result"] == "placeholder", "anthropic_empty_result placeholder"
    ),
    "duplicate_tool_phase": Condition(
        lambda o: o["tool_namespacing"] == "error" or o["invalid_tool_name"] == "reject",
        "tool_namespacing error or invalid_tool_name reject",
    ),
}
"""Options that mean something only under other options' values (contracts/options.yaml says which)."""


JOINT: dict[str, tuple[Any, str]] = {
    "turn_cap_final_call": (True, "turn_cap_final_call_tools"),
    "turn_cap_end": ("graceful", "cap_stop_reason"),
}
"""An option whose value makes another one matter: that value is tried with each of the other's."""


STRICTER: dict[str, Any] = {
    "json_tool_text": "verbatim",  # reserialised accepts any JSON-equal text, verbatim only the bytes
    "cap_stop_reason": "reported",  # not_exposed leaves stop_reason unjudged at the cap
}
"""Where one value judges a subset of what another judges: when both fit, the runtime meets the
stricter one, which is proposed (the other would only hide a later change)."""


CLAIM_NEEDED: dict[str, str] = {
    "responses_state": "openai.responses",
    "items_from_done_events": "openai.responses",
    "reasoning_replay": "openai.responses",
    "reasoning_model_name": "openai.responses",
    "anthropic_key_header": "anthropic.messages",
    "anthropic_empty_result": "anthropic.messages",
    "anthropic_empty_placeholder": "anthropic.messages",
    "binary_result_chat": "openai.chat",
    "binary_result_responses": "openai.responses",
}
"""Options that mean something only on one wire (read by the invariants, or by a test of every wire
that reads the one of its candidate's wire)."""


HARNESS_READ: dict[str, tuple[str, ...]] = {
    # Read by the per-request invariants (every test), not by a test body: one plain test shows them.
    "model_stream": ("test_loop.py::test_text_reply_completes_the_run",),
    "responses_state": ("test_loop.py::test_text_reply_completes_the_run",),
}


TELLING: dict[str, tuple[str, ...]] = {
    # The plainest tests that read turn_cap_end judge only the count of tool turns, the same under
    # either value; this one judges how the run ends.
    "turn_cap_end": ("test_loop.py::test_cap_end_keeps_the_last_reply_text",),
}
"""Tests to try first for an option, where the plainest ones that read it do not tell its values apart."""


def listed_values(option: str) -> list[Any] | None:
    """An option's listed values (a boolean's: false, true); None for a free-form one."""
    spec = load_yaml("options.yaml")["options"][option]
    if spec.get("type") == "boolean":
        return [False, True]
    return list(spec["values"]) if "values" in spec else None
