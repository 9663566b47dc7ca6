"""`py:` candidates: a factory's object driven on one long-lived event loop.

The candidate's methods may be sync or async. They run on a dedicated loop
thread so that an async runtime can keep state across calls. An in-process
candidate cannot be interrupted: after a timeout the session is aborted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import inspect
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from toolproof.connect.protocol import encode
from toolproof.errors import CandidateStartError, CandidateTimeout, ProtocolViolation, SessionAborted

_ARGS: dict[str, tuple[str, ...]] = {
    "hello": (),
    "build": ("id", "config"),
    "run": ("id", "input"),
    "close": ("id",),
}


def load_factory(target: str) -> Callable[[], Any]:
    """Import `package.module:factory` (importlib, so mutation tools can trampoline it)."""
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise CandidateStartError(f"py: spec must be 'package.module:factory', got {target!r}")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise CandidateStartError(f"cannot import {module_name!r}: {exc!r}") from exc
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise CandidateStartError(f"{module_name!r} has no callable {attr!r}")
    return factory  # type: ignore[no-any-return]


def origin_of(target: str) -> str:
    """The file the factory's module was loaded from (reports show it; controls verify it)."""
    module = importlib.import_module(target.partition(":")[0])
    return str(getattr(module, "__file__", "") or "")


class InProcessConnection:
    """Drive a `py:` candidate object; requests are dispatched to its methods."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.transport = "py"
        self.generation = 0
        self._aborted: str | None = None
        # Import first: a bad spec must not leave a loop thread running behind the error.
        factory = load_factory(target)
        self.origin = origin_of(target)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="toolproof-candidate", daemon=True
        )
        self._thread.start()
        try:
            self._impl = self._call_on_loop(factory, (), timeout=60.0)
        except CandidateTimeout as exc:
            self.close()
            raise CandidateStartError(f"factory {target!r} did not return within 60 s") from exc
        except ProtocolViolation as exc:
            self.close()
            raise CandidateStartError(str(exc)) from exc

    def _call_on_loop(self, func: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> Any:
        async def invoke() -> Any:
            result = func(*args)
            if inspect.isawaitable(result):
                result = await result
            return result

        sent_at = time.monotonic()
        future = asyncio.run_coroutine_threadsafe(invoke(), self._loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            at = time.monotonic()
            future.cancel()
            name = getattr(func, "__name__", "factory")
            self._aborted = f"{self.target} {name}() did not return within {timeout:g} s"
            raise CandidateTimeout(
                self._aborted + "; an in-process candidate cannot be interrupted, so the session is aborted"
                " (run untrusted candidates as cmd:)",
                op=name if name in _ARGS else None,
                sent_at=sent_at,
                at=at,
            ) from None
        except Exception as exc:
            name = getattr(func, "__name__", "factory")
            raise ProtocolViolation(f"{self.target}: {name}() raised {exc!r}") from exc

    def request(self, message: dict[str, Any], timeout: float) -> tuple[Any, str]:
        """Call the method named by `op` with the message's arguments."""
        if self._aborted is not None:
            raise SessionAborted(f"session aborted earlier: {self._aborted}")
        op = message.get("op")
        if op not in _ARGS:
            # An in-process object has no way to receive an unknown op: answer as an adapter would.
            response: Any = {"ok": False, "error": {"kind": "internal", "message": f"unknown op {op!r}"}}
            return response, encode(response)
        method = getattr(self._impl, str(op), None)
        if not callable(method):
            raise ProtocolViolation(f"{self.target}: candidate object has no method {op}()")
        args = tuple(message[name] for name in _ARGS[str(op)])
        # A deep copy through JSON: the candidate must not share objects with the harness.
        args = tuple(json.loads(json.dumps(a)) for a in args)
        response = self._call_on_loop(method, args, timeout)
        try:
            line = encode(response)
        except (TypeError, ValueError) as exc:
            raise ProtocolViolation(
                f"{self.target}: {op}() returned a value that is not JSON: {exc}"
            ) from exc
        return json.loads(line), line

    def close(self) -> None:
        """Stop the loop thread (pending candidate work is abandoned)."""
        if self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self._loop.close()

    def end_input(self, grace: float) -> list[str]:
        """Close (as `close`): an in-process candidate answers by return value, it writes no lines."""
        self.close()
        return []

    def begin_scope(self, scope: str) -> None:
        """In-process candidates share our stderr: nothing to scope."""

    def scope_stderr(self, scope: str | None) -> str | None:
        """None: an in-process candidate writes to the harness's own stderr."""
        return None

    def discard(self) -> None:
        """Nothing to restart in-process: the object stays as it is."""

    def diagnostics(self) -> str:
        """In-process candidates share our stderr; nothing separate to show."""
        return self._aborted or ""
