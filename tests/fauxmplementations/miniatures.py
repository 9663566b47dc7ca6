"""In-process (`py:`) fauxmplementations: one factory per misbehaviour of a candidate object."""

from __future__ import annotations

import asyncio
import math
from typing import Any

Response = dict[str, Any]
HELLO: Response = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "miniature", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}


def _internal(message: str) -> Response:
    return {"ok": False, "error": {"kind": "internal", "message": message}}


class SyncCandidate:
    """Well behaved, with plain (sync) methods."""

    def __init__(self) -> None:
        self.built: set[str] = set()

    def hello(self) -> Response:
        return dict(HELLO)

    def build(self, id: str, config: dict[str, Any]) -> Response:
        self.built.add(id)
        return {"ok": True}

    def run(self, id: str, input: str) -> Response:
        if id not in self.built:
            return _internal(f"unknown id: {id}")
        return {"ok": True, "output": f"sync:{input}", "stop_reason": "completed"}

    def close(self, id: str) -> Response:
        if id not in self.built:
            return _internal(f"unknown id: {id}")
        self.built.discard(id)
        return {"ok": True}


class AsyncCandidate:
    """Well behaved, with async methods that keep state on the harness's one event loop."""

    def __init__(self) -> None:
        self.built: dict[str, asyncio.AbstractEventLoop] = {}

    async def hello(self) -> Response:
        return dict(HELLO)

    async def build(self, id: str, config: dict[str, Any]) -> Response:
        self.built[id] = asyncio.get_running_loop()
        return {"ok": True}

    async def run(self, id: str, input: str) -> Response:
        loop = self.built.get(id)
        if loop is None:
            return _internal(f"unknown id: {id}")
        same = loop is asyncio.get_running_loop()
        return {"ok": True, "output": f"async:{input}:same-loop={same}", "stop_reason": "completed"}

    async def close(self, id: str) -> Response:
        if self.built.pop(id, None) is None:
            return _internal(f"unknown id: {id}")
        return {"ok": True}


class RaisingRun(SyncCandidate):
    """run() raises instead of answering with an error dict."""

    def run(self, id: str, input: str) -> Response:
        raise RuntimeError("miniature: run exploded")


class NeverReturningRun(AsyncCandidate):
    """run() never returns (it sleeps forever on the event loop)."""

    async def run(self, id: str, input: str) -> Response:
        await asyncio.sleep(math.inf)
        raise AssertionError("unreachable")


class NonJsonRun(SyncCandidate):
    """run() returns a value that is not JSON (a set where a string belongs)."""

    def run(self, id: str, input: str) -> Response:
        return {"ok": True, "output": {"faux"}, "stop_reason": "completed"}


def sync_candidate() -> SyncCandidate:
    return SyncCandidate()


def async_candidate() -> AsyncCandidate:
    return AsyncCandidate()


def raising_run() -> RaisingRun:
    return RaisingRun()


def never_returning_run() -> NeverReturningRun:
    return NeverReturningRun()


def non_json_run() -> NonJsonRun:
    return NonJsonRun()
