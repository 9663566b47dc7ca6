"""`toolproof smoke`: an adapter's protocol conduct alone, before anything is judged."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from toolproof.connect.candidate import Candidate
from toolproof.connect.connectables import ConnectSettings, connect
from toolproof.connect.stdio import unsolicited_message
from toolproof.errors import ToolproofError
from toolproof.fakes import McpServers, ModelEndpoint, Text


@dataclass(frozen=True)
class Step:
    """One smoke step's outcome."""

    name: str
    ok: bool
    detail: str


def _config(model: ModelEndpoint, mcp: McpServers, token: str, wire: str | None) -> dict[str, Any]:
    return {
        "model": {
            "base_url": model.wire_base_url(token, wire),
            "api_key": "conformance-key",
            "name": "conformance-model",
        },
        "instruction": "smoke test",
        "mcp_servers": {"alpha": {"type": "http", "url": mcp.url(token, "alpha")}},
    }


def run_smoke(spec: str, settings: ConnectSettings, out: IO[str]) -> list[Step]:
    """Run the smoke steps against `spec`, printing one line per step; a failed hello or build stops it."""
    steps: list[Step] = []

    def step(name: str, action: Callable[[], str]) -> bool:
        try:
            detail = action()
            steps.append(Step(name, True, detail))
        except (ToolproofError, AssertionError) as exc:
            steps.append(Step(name, False, f"{type(exc).__name__}: {exc}"))
        last = steps[-1]
        out.write(f"{'PASS' if last.ok else 'FAIL'} {name}: {last.detail}\n")
        out.flush()
        return last.ok

    with ModelEndpoint(responses=True, anthropic=True) as model, McpServers() as mcp:
        try:
            candidate = Candidate(connect(spec, settings), timeout=settings.timeout)
        except ToolproofError as exc:
            out.write(f"FAIL start: {exc}\n")
            return [Step("start", False, str(exc))]
        token = secrets.token_hex(6)

        def hello() -> str:
            declared = candidate.hello()
            return f"{dict(declared.implementation)} claims {sorted(declared.capabilities)}"

        def build() -> str:
            outcome = candidate.build(token, _config(model, mcp, token, candidate.hello().wire))
            if not outcome.ok:
                raise AssertionError(
                    f"build of a minimal valid CONFIG failed: {outcome.kind}: {outcome.message}"
                )
            return "ok"

        def run() -> str:
            model.script(token, [Text("smoke: ok")])
            outcome = candidate.run(token, "say ok")
            if (outcome.ok, outcome.output, outcome.stop_reason) != (True, "smoke: ok", "completed"):
                raise AssertionError(f"expected ok/'smoke: ok'/completed, got {outcome.raw}")
            if len(model.requests(token)) != 1:
                raise AssertionError(f"expected 1 model request, saw {len(model.requests(token))}")
            return "one model request, output relayed"

        def close() -> str:
            outcome = candidate.close(token)
            if not outcome.ok:
                raise AssertionError(f"close failed: {outcome.raw}")
            return "ok"

        def unknown_op() -> str:
            response = candidate.raw({"op": "frobnicate", "id": token})
            error = response.get("error") or {}
            if response.get("ok") is not False or error.get("kind") != "internal":
                raise AssertionError(
                    f"an unknown op must be answered with ok:false, kind internal; got {response}"
                )
            return "answered with kind internal"

        def unknown_id() -> str:
            outcome = candidate.run("never-built-" + token, "hi")
            if outcome.ok or outcome.kind != "internal":
                raise AssertionError(
                    f"run on a never-built id must fail with kind internal; got {outcome.raw}"
                )
            return "answered with kind internal"

        def still_alive() -> str:
            generation = candidate.connection.generation
            response = candidate.raw({"op": "hello", "protocol": 1})  # sent for real, not the cached hello
            if response.get("ok") is not True or candidate.connection.generation != generation:
                raise AssertionError(f"the adapter did not keep serving the same process: {response}")
            return "the same adapter process still answers hello"

        later = [
            ("run", run),
            ("close", close),
            ("unknown op", unknown_op),
            ("unknown id", unknown_id),
            ("still alive", still_alive),
        ]
        try:
            # A failed hello or build stops the smoke: the first failure is the one to fix, and the
            # steps after a failed build would only echo it (close: "unknown id" for the agent it never
            # made) or judge the process restarted after a crash instead of the one that failed.
            if step("hello", hello) and step("build", build):
                for name, action in later:
                    step(name, action)
            elif steps[-1].name == "build":
                out.write(f"STOP: the build failed; not run: {', '.join(name for name, _ in later)}\n")
                out.flush()
        finally:
            leftover = candidate.shutdown()
        if leftover:  # read until EOF once stdin closed: every line there is unsolicited
            when = "after the last answer, read once stdin was closed"
            steps.append(Step("end of session", False, unsolicited_message(leftover[0], when)))
            out.write(f"FAIL end of session: {steps[-1].detail}\n")
            out.flush()
    return steps
