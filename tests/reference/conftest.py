"""Fixtures of the reference runtime's own tests: loopback fakes, one per session."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from .fakes import McpServers, ModelEndpoint, Served

_tokens = itertools.count(1)


@pytest.fixture(scope="session")
def mcp_servers() -> Iterator[McpServers]:
    servers = McpServers()
    served = Served(servers.app())
    servers.port = served.port
    served.start()
    yield servers
    served.stop()


@pytest.fixture(scope="session")
def model_endpoint() -> Iterator[ModelEndpoint]:
    model = ModelEndpoint()
    served = Served(model.app())
    model.port = served.port
    served.start()
    yield model
    served.stop()


@pytest.fixture
def token() -> str:
    """A fresh token per test: every URL carries it, so recordings never mix."""
    return f"t{next(_tokens)}"


@pytest.fixture
def model(model_endpoint: ModelEndpoint) -> Iterator[ModelEndpoint]:
    model_endpoint.script.clear()
    yield model_endpoint
    model_endpoint.script.clear()


def make_config(
    model: ModelEndpoint, token: str, servers: dict[str, dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    """CONFIG as the suite sends it."""
    return {
        "model": {"base_url": model.base_url(token), "api_key": "sk-test", "name": "test-model"},
        "instruction": "You are a test agent.",
        "mcp_servers": servers,
        **extra,
    }


class InProcessDriver:
    """Drives a `py:` adapter the way the harness does: one long-lived event loop
    in a dedicated thread, every call a separate task on it."""

    def __init__(self, profile: str) -> None:
        from toolproof.candidates.reference.adapter import factory

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.adapter = factory(profile)

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "hello":
            coro = self.adapter.hello()
        elif op == "build":
            coro = self.adapter.build(request["id"], request["config"])
        elif op == "run":
            coro = self.adapter.run(request["id"], request["input"])
        else:
            coro = self.adapter.close(request["id"])
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()


class SubprocessDriver:
    """Drives `python -m toolproof.candidates.reference.adapter` over JSON Lines."""

    def __init__(self, profile: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "toolproof.candidates.reference.adapter", "--profile", profile],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def send_line(self, line: bytes) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        response = self.proc.stdout.readline()
        assert response.endswith(b"\n"), response
        decoded: dict[str, Any] = json.loads(response)
        return decoded

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.send_line(json.dumps(request).encode("utf-8"))

    def stop(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


Driver = InProcessDriver | SubprocessDriver


@pytest.fixture(params=["in-process", "subprocess"])
def driver(request: pytest.FixtureRequest) -> Iterator[Driver]:
    """The reference adapter (profile `reference`) over both protocol transports."""
    started: Driver = (
        InProcessDriver("reference") if request.param == "in-process" else SubprocessDriver("reference")
    )
    yield started
    started.stop()
