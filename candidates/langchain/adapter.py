"""toolproof protocol v1 adapter for LangChain (`create_agent`), on toolproof's adapter kit.

Written from `toolproof init --lang python` (issue 23's new-user trial): the path a LangChain user
takes, `langchain.agents.create_agent` with `langchain_openai.ChatOpenAI` (chat completions, not
streamed) and the tools of `langchain_mcp_adapters.client.MultiServerMCPClient` (streamable HTTP, stdio or
SSE: one connection per CONFIG server, its keys as given), `max_tool_turns` as `ModelCallLimitMiddleware(
run_limit=N)`; with `--profile langchain-anthropic`, `langchain_anthropic.ChatAnthropic` (the
Anthropic Messages API) instead of `ChatOpenAI`. It never validates, dedups, renames or retries on its
own. candidates/langchain/README.md maps every CONFIG key and declaration to the runtime's source
(site-packages file:line).

Run it with the runtime's own Python (LangChain pins `mcp` below toolproof's floor, so it lives in a
venv of its own): `toolproof run --candidate 'cmd:/path/to/runtime/python adapter.py'`. The kit is
`toolproof.adapter` where toolproof is importable; otherwise `toolproof_adapter.py` beside this file
(the copy `toolproof init` writes), else the kit's file of the installed toolproof, by path (the wheel's
`toolproof/adapter.py`, or the checkout's).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

try:  # toolproof installed beside the runtime: its kit
    from toolproof import adapter as kit
except ImportError:  # the runtime's venv of its own: the kit's file, by path
    import importlib.util

    _here = Path(__file__).resolve()
    _file = next(
        path
        for path in (
            _here.with_name("toolproof_adapter.py"),  # beside this file (toolproof init's copy)
            _here.parents[2] / "adapter.py",  # the wheel: toolproof/candidates/langchain/adapter.py
            _here.parents[2] / "toolproof" / "adapter.py",  # the checkout: candidates/langchain/
        )
        if path.is_file()
    )
    _spec = importlib.util.spec_from_file_location("toolproof_adapter", _file)
    assert _spec is not None and _spec.loader is not None
    kit = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = kit
    _spec.loader.exec_module(kit)

NAME = "langchain"
DISTRIBUTIONS = ("langchain", "langgraph", "langchain-openai", "langchain-mcp-adapters")
ANTHROPIC_DISTRIBUTIONS = ("langchain", "langgraph", "langchain-anthropic", "langchain-mcp-adapters")
PROFILES = ("langchain", "langchain-anthropic")
"""The default path (`ChatOpenAI`, chat completions) and `ChatAnthropic` (the Anthropic Messages API)."""
HOMEPAGE = "https://github.com/langchain-ai/langchain"

# Claimed only what LangChain does (PROTOCOL.md §7; README.md says why, with file:line).
CAPABILITIES = [
    "openai.chat",  # ChatOpenAI posts to <base_url>/chat/completions for a non-OpenAI model name
    # toolsets.namespace: not claimed. Two servers' tools of one name are both sent to the model and
    # the ToolNode keeps the last (langgraph/prebuilt/tool_node.py:806): silent shadowing.
    # toolsets.dedup_key: not claimed (no dedup concept): kit.refuse_unclaimed refuses the keys.
    "loop.turn_cap",  # ModelCallLimitMiddleware(run_limit=N): N model calls per run
    # A stdio / sse connection per server (langchain_mcp_adapters/sessions.py:82, :129; opened by
    # _create_stdio_session / _create_sse_session, :213, :275).
    "mcp.stdio",
    "mcp.sse",
    # loop.continuation: not claimed (create_agent inserts no message of its own between steps).
]

# hello.options: `toolproof probe`'s proposal, then the options it could not settle decided from the
# runtime's source (README.md, "Capabilities and options", gives each one's reason with file:line).
OPTIONS: dict[str, Any] = {
    # Tools are listed at build (get_tools), but nothing there checks names: no duplicate is ever
    # reported, so the namespacing pair stays at its defaults (toolsets.namespace is not claimed).
    "duplicate_tool_phase": "run",
    "tool_namespacing": "error",
    # MCP names reach the model unchanged (langchain_mcp_adapters/tools.py:516): neither value.
    "invalid_tool_name": "reject",
    # A result is a list of content blocks (tools.py:268-271) sent as text parts.
    "tool_content": "text_parts",
    "tool_result_pointer": "",
    "multi_block_join": "",
    "tool_result_encoding": "text",
    "error_result_encoding": "text",  # isError: the blocks as an error ToolMessage (tools.py:122-150)
    "error_result_pointer": None,
    "json_tool_text": "verbatim",
    "structured_content": "text",  # structuredContent goes to the artifact only (tools.py:278-281)
    "parameters_strict": False,  # bind_tools(strict=None): inputSchema as served
    # Arguments: langchain_core/output_parsers/openai_tools.py:59-73 (`json.loads(...) or {}`).
    "string_encoded_arguments": "unwrap",  # neither value: the run fails (README)
    "non_object_arguments": "tool_error_message",  # neither value: the run fails (README)
    "invalid_json_arguments": "tool_error_message",  # langchain/agents/factory.py:679-711
    "null_arguments": "empty_object",
    "empty_array_arguments": "empty_object",
    "undeclared_arguments": "forward",
    "unknown_tool": "tool_error_message",
    # An MCP transport failure is re-raised by the ToolNode (langgraph/prebuilt/tool_node.py:405-413).
    "tool_failure": "run_error",
    # ModelCallLimitMiddleware(exit_behavior="end", its default): the run ends, no error
    # (langchain/agents/middleware/model_call_limit.py:131, 186-208); `run_count >= run_limit` is
    # checked before every model call (:191), so 0 and negative values make no model request.
    "turn_cap_end": "graceful",
    "invalid_cap_phase": "build",  # nothing validates run_limit (model_call_limit.py:127-150)
    "zero_max_tool_turns": "no_model_request",
    "negative_max_tool_turns": "no_model_request",
    "turn_cap_final_call": False,
    "turn_cap_final_call_tools": "omit",
    "cap_stop_reason": "reported",  # the middleware's before_model update (Adapter.invoke)
    "turn_cap_notice": None,
    "turn_cap_output": "last_reply",
    # No model-call default: only create_agent's recursion_limit of 9 999 graph steps
    # (factory.py:1902). The contract default is declared; tp-loop-cap-default shows the rest.
    "default_max_tool_turns": 10,
    "continuation": None,
    "runs_per_build": "independent",  # no checkpointer: every ainvoke starts from its input
    "empty_reply": "completes",
    "instruction_role": "system",  # SystemMessage(system_prompt) (factory.py:1053-1059)
    "model_stream": "never",  # ChatOpenAI(streaming=False) (langchain_openai/chat_models/base.py:938)
    "responses_state": "stateless",
    "items_from_done_events": "yes",
    # The OpenAI client's retries back off at most 8 s (openai/_constants.py:14); MCP has none.
    "idle_answer_seconds": 30,
    # A stdio connection's env goes to the mcp SDK's StdioServerParameters (sessions.py:259-264),
    # which merges it over its default allowlist (mcp/client/stdio/__init__.py:127). Each value's
    # `${VAR}` is replaced from the runtime's environment first (sessions.py:248-250, :35-45).
    "stdio_env_inherit": "sdk_allowlist",
    # Header values go to httpx as str, encoded as ASCII (httpx/_models.py:82):
    # a non-ASCII value raises UnicodeEncodeError before the first request, at get_tools() in the
    # build. The nearest declared value; the suite judges the kind and the phase.
    "header_non_ascii": "refused",
    # get_tools() lists every server once, at build (langchain_mcp_adapters/client.py:166-202 ->
    # tools.py:343), and each tool call opens a session of its own that lists nothing: nothing
    # handles notifications/tools/list_changed, the list read at build stays.
    "tool_list_refresh": "never",
    # A connection's session_kwargs reach the SDK's ClientSession (langchain_mcp_adapters/sessions.py:125,
    # :269): CONFIG's tool_timeout_s is its read_timeout_seconds (_connection). Without it no request
    # has a timeout of its own (ClientSession's default None).
    "tool_timeout": "config",
}


ANTHROPIC_OPTIONS: dict[str, Any] = {
    # ChatAnthropic hands api_key and base_url to `anthropic.AsyncClient` (langchain_anthropic/
    # chat_models.py:1752-1757, :1795), and anthropic 2.17.0 sends an api_key as `Authorization:
    # Bearer <key>` (anthropic/_client.py:354-358), not as `x-api-key`.
    "anthropic_key_header": "authorization",
    # A ToolMessage becomes a tool_result whose content is its blocks (langchain_anthropic/chat_models.py:
    # 361-366), formatted again as a message's (:928-937), which drops every text block whose text is
    # empty or whitespace (`if text.strip()`, :862-867): one empty text block and no block at all
    # (tools.py:268-271 gives []) are both sent as `content: []`.
    "anthropic_empty_result": "empty_array",
}
"""What the `langchain-anthropic` profile declares besides OPTIONS (README.md, "The Anthropic profile")."""


def _connection(server: dict[str, Any]) -> dict[str, Any]:
    """One CONFIG server as a `MultiServerMCPClient` connection: its transport spelled as
    langchain-mcp-adapters spells it, and that transport's own keys as given (`StdioConnection`:
    command, args, env, cwd, sessions.py:82-127; `SSEConnection` and `StreamableHttpConnection`: url,
    headers, :129-193)."""
    transport = {"stdio": "stdio", "sse": "sse"}.get(server["type"], "streamable_http")
    keys = ("command", "args", "env", "cwd") if transport == "stdio" else ("url", "headers")
    connection = {"transport": transport} | {key: server[key] for key in keys if key in server}
    if transport == "stdio":
        connection.setdefault("args", [])  # StdioConnection requires args (sessions.py:88)
    if "tool_timeout_s" in server:
        # Every connection's session_kwargs go to the SDK's ClientSession (sessions.py:269, :309, :365),
        # whose read_timeout_seconds bounds each request (mcp 1.x: a timedelta).
        from datetime import timedelta

        connection["session_kwargs"] = {"read_timeout_seconds": timedelta(seconds=server["tool_timeout_s"])}
    return connection


class Adapter(kit.Adapter):
    """The runtime's part of the adapter; the kit does the protocol (toolproof.adapter)."""

    def __init__(self, profile: str = "langchain") -> None:
        super().__init__()
        self.anthropic = profile == "langchain-anthropic"

    def describe(self) -> kit.Response:
        """The hello answer."""
        if self.anthropic:
            capabilities = ["anthropic.messages", *CAPABILITIES[1:]]
            options = {**OPTIONS, **ANTHROPIC_OPTIONS}
            version = kit.version(*ANTHROPIC_DISTRIBUTIONS)
            return kit.hello(f"{NAME} (anthropic)", version, capabilities, options, homepage=HOMEPAGE)
        return kit.hello(NAME, kit.version(*DISTRIBUTIONS), CAPABILITIES, OPTIONS, homepage=HOMEPAGE)

    async def create(self, id: str, config: dict[str, Any]) -> Any:
        """CONFIG -> `create_agent(ChatOpenAI, MCP tools, system_prompt, middleware)` (PROTOCOL.md §5).

        `get_tools()` lists every server's tools here, at build (a fresh MCP session per server, and
        later one per tool call: MultiServerMCPClient keeps none). `max_tool_turns` absent or null:
        no middleware, LangChain's own default applies; any other value is passed on unchanged.
        """
        kit.refuse_unclaimed(config, CAPABILITIES, NAME)
        from langchain.agents import create_agent  # type: ignore[import-not-found, unused-ignore]
        from langchain.agents.middleware import ModelCallLimitMiddleware  # type: ignore[import-not-found, unused-ignore]
        from langchain_mcp_adapters.client import MultiServerMCPClient  # type: ignore[import-not-found, unused-ignore]

        model = _model(config["model"], self.anthropic)
        connections: dict[str, Any] = {}
        for server_id, server in config["mcp_servers"].items():
            connections[server_id] = _connection(server)
        tools = await MultiServerMCPClient(connections).get_tools()
        middleware = []
        if config.get("max_tool_turns") is not None:
            middleware.append(ModelCallLimitMiddleware(run_limit=config["max_tool_turns"]))
        return create_agent(model, tools=tools, system_prompt=config["instruction"], middleware=middleware)

    async def invoke(self, agent: Any, input: str) -> kit.Response:
        """One input through the agent's tool loop: the text of the run's last model reply.

        Streamed as node updates (`stream_mode="updates"`) so that a reply is a message the `model`
        node returned: at the cap, ModelCallLimitMiddleware's before_model node appends an AIMessage
        of its own ("Model call limits exceeded: ...", model_call_limit.py:201-208), which is no reply
        and is how the run says that the cap stopped it.
        """
        from langchain_core.messages import HumanMessage  # type: ignore[import-not-found, unused-ignore]

        reply_text = ""
        capped = False
        async for update in agent.astream({"messages": [HumanMessage(input)]}, stream_mode="updates"):
            for node, delta in update.items():
                if node == "model" and delta:
                    for message in delta.get("messages", []):
                        reply_text = _text(message)
                elif node == CAP_NODE and delta and delta.get("messages"):
                    capped = True
        return kit.run_ok(reply_text, "max_tool_turns" if capped else "completed")

    async def release(self, agent: Any) -> None:
        """Nothing to close: MultiServerMCPClient opens a session per call and keeps none."""

    def rules(self) -> list[kit.Rule]:
        """The runtime's exception types -> error kinds (PROTOCOL.md §4); unmatched: internal.

        - `openai.APIError`: the OpenAI client gave up (after its 2 retries): `model_error`; under the
          Anthropic profile `anthropic.APIError`, the same for the Anthropic client.
        - `GraphRecursionError`: LangGraph's step limit (create_agent sets 9 999 supersteps,
          factory.py:1902), the only bound of a run without a cap: `max_tool_turns`.
        - An MCP transport failure (`httpx.HTTPError` inside the MCP SDK's task group: HTTP 500, a
          dropped connection) or a JSON-RPC error (`McpError`) during a tool call: the ToolNode
          re-raises it (tool_node.py:405-413), the run fails: `tool_error` (`tool_failure: run_error`).
        - Anything else, including the pydantic `ValidationError` a non-object tool-call argument
          raises in `AIMessage(...)` (langchain_openai/chat_models/base.py:255), is untyped: `internal`.
        """
        import httpx  # type: ignore[import-not-found, unused-ignore]
        from langgraph.errors import GraphRecursionError  # type: ignore[import-not-found, unused-ignore]
        from mcp.shared.exceptions import McpError  # type: ignore[attr-defined, unused-ignore]

        if self.anthropic:
            import anthropic  # type: ignore[import-not-found, unused-ignore]

            model_errors: Any = anthropic.APIError
        else:
            import openai  # type: ignore[import-not-found, unused-ignore]

            model_errors = openai.APIError
        return [
            (model_errors, "model_error"),
            (GraphRecursionError, "max_tool_turns"),
            ((httpx.HTTPError, McpError), "tool_error"),
        ]


def _model(model: dict[str, Any], anthropic: bool) -> Any:
    """CONFIG's model as the profile's chat model, pointed at CONFIG's base_url with its key."""
    if anthropic:
        from langchain_anthropic import ChatAnthropic  # type: ignore[import-not-found, unused-ignore]

        # base_url is `anthropic_api_url` (chat_models.py:1423): the client appends /v1/messages.
        return ChatAnthropic(model=model["name"], base_url=model["base_url"], api_key=model["api_key"])
    from langchain_openai import ChatOpenAI  # type: ignore[import-not-found, unused-ignore]

    return ChatOpenAI(model=model["name"], base_url=model["base_url"], api_key=model["api_key"])


def _text(message: Any) -> str:
    """A model reply's text as the model sent it (chat completions: a string)."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        block.get("text", "") for block in content if isinstance(block, dict) and block.get("type") == "text"
    )


CAP_NODE = "ModelCallLimitMiddleware.before_model"


def factory(profile: str = "langchain") -> Adapter:
    """In-process form (`--candidate py:adapter:factory`), where the runtime shares toolproof's env."""
    return Adapter(profile)


def main(argv: list[str] | None = None) -> int:
    """`cmd:` entry point (`[--profile NAME]`): stdout guarded, the adapter, then JSON Lines until EOF."""
    return kit.main(factory, argv, profiles=PROFILES)


if __name__ == "__main__":
    sys.exit(main())
