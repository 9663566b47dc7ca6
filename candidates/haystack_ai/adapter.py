"""toolproof protocol v1 adapter for Haystack (`haystack-ai` with `mcp-haystack`).

Maps CONFIG onto Haystack's own public objects, the path Haystack's documentation and the MCP
integration's docstrings show: one `MCPToolset(StreamableHttpServerInfo(url, headers))` per server
(`StdioServerInfo`, `SSEServerInfo` for stdio, sse), an `OpenAIChatGenerator(api_key, model,
api_base_url)`, and `Agent(chat_generator, tools, system_prompt, max_agent_steps)`, run with
`agent.run(messages=[ChatMessage.from_user(input)])` (sync, not streamed).
Nothing is validated, renamed, deduplicated or retried here; what Haystack does with CONFIG is what
toolproof judges. README.md (beside this file) says how each key maps and why each option is declared,
with file:line of the runtime's source.

Run it as `python -m toolproof.candidates.haystack_ai.adapter`. The protocol is toolproof's adapter kit
(`toolproof.adapter`, standard library only).
"""

from __future__ import annotations

import sys
from typing import Any, Final

from toolproof import adapter as kit

# Haystack's `max_agent_steps` default (haystack/components/agents/agent.py:430).
HAYSTACK_DEFAULT_MAX_AGENT_STEPS: Final = 100


def hello_response() -> kit.Response:
    """The hello answer: what Haystack is and does on this path (README.md says why, with file:line)."""
    return kit.hello(
        "haystack",
        kit.version("haystack-ai", "mcp-haystack"),
        ["openai.chat", "toolsets.namespace", "loop.turn_cap", "loop.continuation", "mcp.stdio", "mcp.sse"],
        {
            # StdioClient hands its env to the mcp SDK's StdioServerParameters as it is
            # (haystack_integrations/tools/mcp/mcp_tool.py:487), which merges it over its default
            # allowlist (mcp/client/stdio.py:129).
            "stdio_env_inherit": "sdk_allowlist",
            # Header values go to httpx2 as str, encoded as ASCII (httpx2/_models.py:98): a
            # non-ASCII value raises UnicodeEncodeError before the first request; measured, the
            # build succeeds and the run fails (internal). Neither value holds; the nearest is
            # declared and the suite judges the rest.
            "header_non_ascii": "refused",
            # MCPToolset lists its tools once, at warm_up (haystack_integrations/tools/mcp/
            # mcp_toolset.py:262-275, guarded by _warmup_called), which the Agent's first run calls;
            # nothing handles notifications/tools/list_changed: the list read then stays.
            "tool_list_refresh": "never",
            # MCPToolset(invocation_timeout=...) bounds each tool call with asyncio.wait_for
            # (haystack_integrations/tools/mcp/mcp_toolset.py:200, :313; default 30 s): CONFIG's
            # tool_timeout_s is mapped onto it (_timeout).
            "tool_timeout": "config",
            # The same invocation_timeout (30 s unless CONFIG says otherwise) bounds a wait on a
            # tools/call nobody will answer (an SSE POST that failed: the mcp SDK leaves the request
            # pending, mcp/client/sse.py:142): Haystack answers within it, so its bound on a quiet
            # stretch is that timeout, with 5 s for the step after it (measured 30.0-30.3 s).
            "idle_answer_seconds": 35,
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
        homepage="https://haystack.deepset.ai",
    )


def _refuse_unsupported_keys(config: dict[str, Any]) -> None:
    """Refuse, before anything is contacted (PROTOCOL.md §7), what Haystack has no place for: the dedup
    keys (no dedup concept), and a stdio server's `cwd` (`StdioServerInfo` takes command, args and env
    only, haystack_integrations/tools/mcp/mcp_tool.py:887-931, and StdioClient starts the process in
    the runtime's own directory, :487)."""
    for server_id, server in config["mcp_servers"].items():
        if server.get("dedup_key") or server.get("dedup_preferred") is True:
            raise kit.Fail(
                "invalid_config",
                f"server {server_id!r}: Haystack has no dedup_key/dedup_preferred (MCPToolset takes none)",
            )
        if server["type"] == "stdio" and "cwd" in server:
            raise kit.Fail("invalid_config", f"server {server_id!r}: Haystack's StdioServerInfo has no cwd")


def _timeout(server: dict[str, Any]) -> dict[str, Any]:
    """MCPToolset's invocation_timeout from CONFIG's tool_timeout_s (none given: its default)."""
    return {"invocation_timeout": server["tool_timeout_s"]} if "tool_timeout_s" in server else {}


def _server_info(server: dict[str, Any]) -> Any:
    """One CONFIG server as the integration's `MCPServerInfo` of its transport: `StdioServerInfo(command,
    args, env)` (mcp_tool.py:887), `SSEServerInfo(url, headers)` (:698) or `StreamableHttpServerInfo(url,
    headers)` (:804)."""
    from haystack_integrations.tools.mcp import (  # type: ignore[import-not-found, unused-ignore]
        SSEServerInfo,
        StdioServerInfo,
        StreamableHttpServerInfo,
    )

    if server["type"] == "stdio":
        return StdioServerInfo(command=server["command"], args=server.get("args"), env=server.get("env"))
    info_class = SSEServerInfo if server["type"] == "sse" else StreamableHttpServerInfo
    return info_class(url=server["url"], headers=server.get("headers"))


def build_agent(config: dict[str, Any]) -> Any:
    """CONFIG -> Haystack's own objects, key by key; Haystack validates and connects (at its first run)."""
    # The runtime is imported only here and in run_agent, after the kit's stdout guard (and it is not
    # installed where toolproof is linted: its names are Any there).
    from haystack.components.agents import Agent  # type: ignore[import-not-found, unused-ignore]
    from haystack.components.generators.chat import (  # type: ignore[import-not-found, unused-ignore]
        OpenAIChatGenerator,
    )
    from haystack.utils import Secret  # type: ignore[import-not-found, unused-ignore]
    from haystack_integrations.tools.mcp import MCPToolset  # type: ignore[import-not-found, unused-ignore]

    _refuse_unsupported_keys(config)
    model = config["model"]
    generator = OpenAIChatGenerator(
        api_key=Secret.from_token(model["api_key"]),
        model=model["name"],
        api_base_url=model["base_url"],
    )
    toolsets = [
        # CONFIG's tool_timeout_s is the toolset's invocation_timeout (mcp_toolset.py:200, :313).
        MCPToolset(server_info=_server_info(server), **_timeout(server))
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


def run_agent(agent: Any, text: str) -> kit.Response:
    """One input through Haystack's tool loop; the stop reason is Haystack's own `exit_reason`."""
    from haystack.dataclasses import ChatMessage  # type: ignore[import-not-found, unused-ignore]

    result = agent.run(messages=[ChatMessage.from_user(text)])
    capped = result.get("exit_reason") == "max_agent_steps"
    return kit.run_ok(
        _last_reply_text(result.get("messages") or []), "max_tool_turns" if capped else "completed"
    )


def error_rules() -> list[kit.Rule]:
    """The protocol error kind of a runtime exception, by its type (PROTOCOL.md §4)."""
    import openai

    return [
        # Haystack passes the OpenAI client's own errors on after the client's retries
        # (haystack/components/generators/chat/openai.py:215-226, max_retries 5 by default).
        (openai.APIError, "model_error"),
        # Haystack's own validation function whose untyped ValueError names a contract situation
        # (PROTOCOL.md §4: the innermost frame of the traceback tells the case, never the message text).
        # `_check_duplicate_tool_names` (haystack/tools/tool.py:366) runs on every Agent step
        # (haystack/components/agents/agent.py:1073) before the model is asked.
        (
            lambda e: isinstance(e, ValueError) and kit.raised_in(e, "_check_duplicate_tool_names"),
            "duplicate_tool",
        ),
    ]


class Adapter(kit.Adapter):
    """The runtime's part (sync: Haystack's agent.run); the kit does the protocol."""

    def describe(self) -> kit.Response:
        """The hello answer."""
        return hello_response()

    def create(self, id: str, config: dict[str, Any]) -> Any:
        """CONFIG -> Haystack's Agent."""
        return build_agent(config)

    def invoke(self, agent: Any, input: str) -> kit.Response:
        """One input through Haystack's tool loop."""
        return run_agent(agent, input)

    def release(self, agent: Any) -> None:
        """Close the agent (its MCP toolsets)."""
        agent.close()

    def rules(self) -> list[kit.Rule]:
        """The runtime's error table."""
        return error_rules()


def factory() -> Adapter:
    """In-process (`py:candidates.haystack_ai.adapter:factory`), where the runtime shares the env."""
    return Adapter()


def main(argv: list[str] | None = None) -> int:
    """Entry point: serve protocol v1 on stdin and the private stdout handle."""
    return kit.main(factory, argv, prog="python -m candidates.haystack_ai.adapter")


if __name__ == "__main__":
    sys.exit(main())
