"""toolproof protocol v1 adapter for Haystack (`haystack-ai` with `mcp-haystack`).

Maps CONFIG onto Haystack's own public objects, the path Haystack's documentation and the MCP
integration's docstrings show: one `MCPToolset(StreamableHttpServerInfo(url, headers))` per server, an
`OpenAIChatGenerator(api_key, model, api_base_url)`, and `Agent(chat_generator, tools, system_prompt,
max_agent_steps)`, run with `agent.run(messages=[ChatMessage.from_user(input)])` (sync, not streamed).
Nothing is validated, renamed, deduplicated or retried here; what Haystack does with CONFIG is what
toolproof judges. README.md (beside this file) says how each key maps and why each option is declared,
with file:line of the runtime's source.

Run it as `python -m toolproof.candidates.haystack_ai.adapter` (or as a script, `python adapter.py`).
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from dataclasses import dataclass
from importlib import metadata
from typing import IO, Any, Final

MAX_LINE: Final = 16 * 1024 * 1024
"""Longest request line protocol v1 sends (PROTOCOL.md §2)."""

# Haystack's `max_agent_steps` default (haystack/components/agents/agent.py:430).
HAYSTACK_DEFAULT_MAX_AGENT_STEPS: Final = 100

# Haystack's own validation functions whose untyped ValueError names a contract situation
# (PROTOCOL.md §4: the innermost frame of the traceback tells the case, never the message text).
# `_check_duplicate_tool_names` (haystack/tools/tool.py:366) runs on every Agent step
# (haystack/components/agents/agent.py:1073) before the model is asked.
_VALIDATION_KINDS: Final = {"_check_duplicate_tool_names": "duplicate_tool"}


def protect_stdout() -> IO[bytes]:
    """Keep a private handle on fd 1 for protocol lines; point fd 1 and sys.stdout at stderr, before
    Haystack (or anything it imports) can print (PROTOCOL.md §2)."""
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


class ProtocolError(Exception):
    """A request the adapter answers with an error of a given kind."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def hello_response() -> dict[str, Any]:
    """The hello answer: what Haystack is and does on this path (README.md says why, with file:line)."""
    return {
        "ok": True,
        "protocol": 1,
        "implementation": {
            "name": "haystack",
            "version": f"haystack-ai {metadata.version('haystack-ai')}, "
            f"mcp-haystack {metadata.version('mcp-haystack')}",
            "language": "python",
            "homepage": "https://haystack.deepset.ai",
        },
        "capabilities": ["openai.chat", "toolsets.namespace", "loop.turn_cap", "loop.continuation"],
        "options": {
            # A tool message's content is the JSON of the whole CallToolResult
            # (haystack_integrations/tools/mcp/mcp_tool.py:322): a one-block result's text sits here,
            # every block under /content, and structuredContent beside it. An isError result is no
            # such JSON (mcp_tool.py:319-320): error_result_encoding stays text (README.md).
            "tool_result_pointer": "/content/0/text",
            "tool_result_encoding": "call_tool_result",
            "structured_content": "call_tool_result",
            # The loop ends at max_agent_steps with exit_reason "max_agent_steps", no error
            # (haystack/components/agents/agent.py:1045-1055).
            "turn_cap_end": "graceful",
            "default_max_tool_turns": HAYSTACK_DEFAULT_MAX_AGENT_STEPS,
            # max_agent_steps is a step budget checked before each step and never validated
            # (haystack/components/agents/agent.py:949, :540): 0 and negative values run no step,
            # so no model request; the run ends with exit_reason "max_agent_steps" and no reply.
            "zero_max_tool_turns": "no_model_request",
            "negative_max_tool_turns": "no_model_request",
            # A reply with no tool calls and no text is no exit reason: the loop asks again
            # (haystack/components/agents/agent.py:189-194).
            "empty_reply": "reprompts",
            # Decoded arguments are turned into keyword arguments with dict(...)
            # (haystack/components/agents/tool_calling.py:302): `[]` calls the tool with {}.
            "empty_array_arguments": "empty_object",
        },
    }


@dataclass
class Build:
    """One built agent and what the adapter opened for it."""

    agent: Any  # haystack.components.agents.Agent


def _refuse_unsupported_keys(config: dict[str, Any]) -> None:
    """Haystack has no dedup concept: refuse its keys before anything is contacted (PROTOCOL.md §7)."""
    for server_id, server in config["mcp_servers"].items():
        if server.get("dedup_key") or server.get("dedup_preferred") is True:
            raise ProtocolError(
                "invalid_config",
                f"server {server_id!r}: Haystack has no dedup_key/dedup_preferred (MCPToolset takes none)",
            )


def build_agent(config: dict[str, Any]) -> Any:
    """CONFIG -> Haystack's own objects, key by key; Haystack validates and connects (at its first run)."""
    # The runtime is imported only here and in run_agent, after protect_stdout (and it is not
    # installed where toolproof is linted: its names are Any there).
    from haystack.components.agents import Agent  # type: ignore[import-not-found, unused-ignore]
    from haystack.components.generators.chat import (  # type: ignore[import-not-found, unused-ignore]
        OpenAIChatGenerator,
    )
    from haystack.utils import Secret  # type: ignore[import-not-found, unused-ignore]
    from haystack_integrations.tools.mcp import (  # type: ignore[import-not-found, unused-ignore]
        MCPToolset,
        StreamableHttpServerInfo,
    )

    _refuse_unsupported_keys(config)
    model = config["model"]
    generator = OpenAIChatGenerator(
        api_key=Secret.from_token(model["api_key"]),
        model=model["name"],
        api_base_url=model["base_url"],
    )
    toolsets = [
        MCPToolset(server_info=StreamableHttpServerInfo(url=server["url"], headers=server.get("headers")))
        for server in config["mcp_servers"].values()
    ]
    kwargs: dict[str, Any] = {}
    if config.get("max_tool_turns") is not None:
        # Passed on unchanged: max_agent_steps counts model calls, the final text reply included
        # (agent.py:460-462), so N means N requests that may ask for tools.
        kwargs["max_agent_steps"] = config["max_tool_turns"]
    return Agent(
        chat_generator=generator,
        tools=list(toolsets),
        system_prompt=config["instruction"],
        **kwargs,
    )


def _last_reply_text(messages: list[Any]) -> str:
    """The text of the run's last assistant message (at the cap, `last_message` is a tool message)."""
    from haystack.dataclasses import ChatRole  # type: ignore[import-not-found, unused-ignore]

    for message in reversed(messages):
        if message.is_from(ChatRole.ASSISTANT):
            return message.text or ""
    return ""


def run_agent(agent: Any, text: str) -> dict[str, Any]:
    """One input through Haystack's tool loop; the stop reason is Haystack's own `exit_reason`."""
    from haystack.dataclasses import ChatMessage  # type: ignore[import-not-found, unused-ignore]

    result = agent.run(messages=[ChatMessage.from_user(text)])
    capped = result.get("exit_reason") == "max_agent_steps"
    return {
        "ok": True,
        "output": _last_reply_text(result.get("messages") or []),
        "stop_reason": "max_tool_turns" if capped else "completed",
    }


def kind_of(error: BaseException) -> str:
    """The protocol error kind of a runtime exception, by its type (PROTOCOL.md §4)."""
    import openai

    if isinstance(error, ProtocolError):
        return error.kind
    if isinstance(error, openai.APIError):
        # Haystack passes the OpenAI client's own errors on after the client's retries
        # (haystack/components/generators/chat/openai.py:215-226, max_retries 5 by default).
        return "model_error"
    if isinstance(error, ValueError):
        frames = traceback.extract_tb(error.__traceback__)
        if frames and frames[-1].name in _VALIDATION_KINDS:
            return _VALIDATION_KINDS[frames[-1].name]
    return "internal"


def _error(kind: str, error: BaseException | str) -> dict[str, Any]:
    message = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return {"ok": False, "error": {"kind": kind, "message": message or kind}}


class Adapter:
    """The protocol's four requests over a table of live builds."""

    def __init__(self) -> None:
        self.builds: dict[str, Build] = {}

    def handle(self, request: Any) -> dict[str, Any]:
        """Answer one request; never raises."""
        try:
            return self._dispatch(request)
        except BaseException as error:  # an adapter fault is an answer, never a crash
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            traceback.print_exc(file=sys.stderr)
            return _error(kind_of(error), error)

    def _dispatch(self, request: Any) -> dict[str, Any]:
        if not isinstance(request, dict):
            return _error("internal", "a request must be a JSON object")
        op = request.get("op")
        if op == "hello":
            if request.get("protocol") != 1:
                return _error("internal", f"unsupported protocol {request.get('protocol')!r}")
            return hello_response()
        if op == "build":
            agent = build_agent(request["config"])
            self.builds[request["id"]] = Build(agent=agent)
            return {"ok": True}
        if op == "run":
            return run_agent(self._live(request.get("id")).agent, request["input"])
        if op == "close":
            build = self._live(request.get("id"))
            del self.builds[request["id"]]
            build.agent.close()
            return {"ok": True}
        return _error("internal", f"unknown op {op!r}")

    def _live(self, build_id: Any) -> Build:
        build = self.builds.get(build_id) if isinstance(build_id, str) else None
        if build is None:
            raise ProtocolError("internal", f"unknown id {build_id!r}")
        return build

    def close_all(self) -> None:
        """Close every live build (end of session)."""
        for build_id in list(self.builds):
            build = self.builds.pop(build_id)
            try:
                build.agent.close()
            except Exception:
                traceback.print_exc(file=sys.stderr)


def _write(proto: IO[bytes], response: dict[str, Any]) -> None:
    proto.write(json.dumps(response, ensure_ascii=True).encode("ascii") + b"\n")
    proto.flush()


def serve(stdin: IO[bytes], proto: IO[bytes], adapter: Adapter) -> None:
    """One request line in, one response line out, in order, until EOF."""
    try:
        while True:
            line = stdin.readline(MAX_LINE + 2)
            if not line:
                break
            if len(line) > MAX_LINE + 1:
                if not line.endswith(b"\n"):
                    stdin.readline()  # drop the rest of the oversized line
                _write(proto, _error("internal", "request line over 16 MiB"))
                continue
            if not line.strip():
                continue
            try:
                request = json.loads(line)
            except ValueError as error:
                _write(proto, _error("internal", f"request is not JSON: {error}"))
                continue
            _write(proto, adapter.handle(request))
    finally:
        adapter.close_all()


def main() -> None:
    """Entry point: serve protocol v1 on stdin and the private stdout handle."""
    proto = protect_stdout()
    serve(sys.stdin.buffer, proto, Adapter())


if __name__ == "__main__":
    main()
