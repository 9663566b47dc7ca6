"""toolproof protocol v1 adapter for Microsoft Agent Framework on its default OpenAI path.

The default path of ``agent_framework.openai.OpenAIChatClient`` is the OpenAI Responses API
(agent_framework_openai/_chat_client.py:4560) with a non-streaming ``agent.run``; the adapter
claims ``openai.responses``. Run it as ``python -m toolproof.candidates.agent_framework.adapter``
(or as a script). Only ``store: False`` is set beyond CONFIG: the client stores responses and
chains ``previous_response_id`` by default (README.md of this directory), which the stateless
contract (``responses_state: stateless``) does not judge yet.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback
from importlib import metadata
from typing import IO, Any

WIRE_CAPABILITY = "openai.responses"
LIMIT_FALLBACK_TEXT = "Function invocation limit reached before a final answer could be produced."
"""The runtime's reply when the final call at the cap answers blank (agent_framework/_tools.py:141)."""


def protect_stdout() -> IO[bytes]:
    """Keep a private handle on fd 1 for protocol lines; send everything else to stderr."""
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


def _fail(kind: str, exc: BaseException | str) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": kind, "message": str(exc) or type(exc).__name__}}


def _raised_by(exc: BaseException, function: str) -> bool:
    """True when the innermost frame of exc's traceback is the runtime's function `function`."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].name == function


def _error_kind(exc: BaseException) -> str:
    """Map the runtime's error types to protocol kinds (PROTOCOL.md section 4)."""
    from agent_framework.exceptions import ChatClientException, ToolException  # type: ignore[import-not-found, unused-ignore]

    if isinstance(exc, ChatClientException):
        return "model_error"
    if isinstance(exc, ToolException):
        return "tool_error"
    # The public validation function of the loop limits raises plain ValueError/TypeError
    # (agent_framework/_tools.py:1964 normalize_function_invocation_configuration).
    if isinstance(exc, (ValueError, TypeError)) and _raised_by(
        exc, "normalize_function_invocation_configuration"
    ):
        return "invalid_config"
    return "internal"


class Adapter:
    """The four protocol operations on Agent Framework's own public build path."""

    def __init__(self) -> None:
        self.agents: dict[str, Any] = {}

    def hello(self) -> dict[str, Any]:
        """Declare the runtime, its wire and the options measured on it (README.md here)."""
        return {
            "ok": True,
            "protocol": 1,
            "implementation": {
                "name": "agent-framework",
                "version": f"agent-framework-core {_version('agent-framework-core')}, "
                f"agent-framework-openai {_version('agent-framework-openai')}",
                "language": "python",
                "homepage": "https://github.com/microsoft/agent-framework",
            },
            "capabilities": [WIRE_CAPABILITY, "toolsets.namespace", "loop.turn_cap"],
            # Each option as measured; the runtime's file:line for each is in README.md here.
            "options": {
                "responses_state": "stateless",  # with store=False (build below)
                "model_stream": "never",
                "duplicate_tool_phase": "run",
                "tool_namespacing": "error",
                "invalid_tool_name": "alias",
                "turn_cap_end": "graceful",
                "turn_cap_final_call": True,
                "turn_cap_final_call_tools": "tool_choice_none",
                "cap_stop_reason": "not_exposed",
                "zero_max_tool_turns": "invalid_config",
                "default_max_tool_turns": 40,
                "turn_cap_notice": LIMIT_FALLBACK_TEXT,
                "instruction_role": "instructions",
                "parameters_strict": "closed_root",
                "structured_content": "structured",
            },
        }

    async def build(self, build_id: str, config: dict[str, Any]) -> dict[str, Any]:
        """Translate CONFIG into an OpenAIChatClient, MCPStreamableHTTPTools and an Agent."""
        servers: dict[str, Any] = config.get("mcp_servers") or {}
        # No dedup concept in the runtime: refuse the keys before contacting anything.
        for server in servers.values():
            if server.get("dedup_key") or server.get("dedup_preferred"):
                return _fail("invalid_config", "agent-framework has no dedup_key / dedup_preferred")
        try:
            from agent_framework import Agent, MCPStreamableHTTPTool  # type: ignore[import-not-found, unused-ignore]
            from agent_framework.openai import OpenAIChatClient  # type: ignore[import-not-found, unused-ignore]

            model = config["model"]
            client_kwargs: dict[str, Any] = {}
            if config.get("max_tool_turns") is not None:
                client_kwargs["function_invocation_configuration"] = {
                    "max_iterations": config["max_tool_turns"]
                }
            client = OpenAIChatClient(
                model=model["name"], api_key=model["api_key"], base_url=model["base_url"], **client_kwargs
            )
            tools = [
                MCPStreamableHTTPTool(name=server_id, url=server["url"], static_headers=server.get("headers"))
                for server_id, server in servers.items()
            ]
            agent = Agent(
                client=client,
                instructions=config.get("instruction"),
                tools=tools,
                # The client stores responses and chains previous_response_id by default
                # (agent_framework_openai/_chat_client.py:603 STORES_BY_DEFAULT, :1194).
                default_options={"store": False},
            )
            await agent.open()
        except Exception as exc:  # every runtime error is an answer
            return _fail(_error_kind(exc), exc)
        self.agents[build_id] = agent
        return {"ok": True}

    async def run(self, build_id: str, text: str) -> dict[str, Any]:
        """One input through agent.run; output is the text of the last message of the run."""
        agent = self.agents.get(build_id)
        if agent is None:
            return _fail("internal", f"unknown id: {json.dumps(build_id)}")
        try:
            response = await agent.run(text)
        except Exception as exc:
            return _fail(_error_kind(exc), exc)
        messages = response.messages
        output = messages[-1].text if messages else ""
        return {"ok": True, "output": output, "stop_reason": "completed"}

    async def close(self, build_id: str) -> dict[str, Any]:
        """Close the agent's client and MCP tool contexts."""
        agent = self.agents.pop(build_id, None)
        if agent is None:
            return _fail("internal", f"unknown id: {json.dumps(build_id)}")
        try:
            await agent.close()
        except Exception as exc:
            return _fail(_error_kind(exc), exc)
        return {"ok": True}

    async def handle(self, line: bytes) -> dict[str, Any]:
        """Answer one request line; never raises."""
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "hello":
                if req.get("protocol") != 1:
                    return _fail("internal", f"unsupported protocol {req.get('protocol')!r}")
                return self.hello()
            if op == "build":
                return await self.build(req["id"], req["config"])
            if op == "run":
                return await self.run(req["id"], req["input"])
            if op == "close":
                return await self.close(req["id"])
            return _fail("internal", f"unknown op {json.dumps(op)}")
        except Exception as exc:
            return _fail("internal", exc)


async def serve(proto: IO[bytes]) -> None:
    """JSON Lines loop on one event loop, so MCP sessions live across requests."""
    adapter = Adapter()
    loop = asyncio.get_running_loop()
    stdin = sys.stdin.buffer
    while True:
        line = await loop.run_in_executor(None, stdin.readline)
        if not line:
            break
        if not line.strip():
            continue
        if len(line) > 16 * 1024 * 1024:
            res = _fail("internal", "request line over 16 MiB")
        else:
            res = await adapter.handle(line)
        proto.write(json.dumps(res).encode("ascii") + b"\n")
        proto.flush()
    for build_id in list(adapter.agents):
        await adapter.close(build_id)


def main() -> None:
    """Entry point: guard stdout, then serve until EOF."""
    proto = protect_stdout()
    asyncio.run(serve(proto))


if __name__ == "__main__":
    main()
