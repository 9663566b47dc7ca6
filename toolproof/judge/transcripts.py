"""Wire transcripts: what a candidate sent the model, normalised so runs compare; and raw traffic.

`--wire-record DIR` writes one JSON file per test; `--wire-compare DIR`
reports drift from such a recording. Drift is documentation, never a
verdict: it is printed and put in the report, and it never fails a run.
Normalisation replaces only what differs by construction between runs
(build tokens, ports); everything the candidate chose stays byte for byte.

`traffic` is the other view, for `--toolproof-dump`: everything the fakes
recorded for one test, not normalised (tokens and ports as they were, so a
dump matches the candidate's own logs), the model's answers included.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolproof.judge.jsondiff import differences

if TYPE_CHECKING:
    from toolproof.fakes.records import Headers, McpRequest, ModelRequest

_PORT = re.compile(r"127\.0\.0\.1:\d+")


def normalise(value: Any, tokens: list[str]) -> Any:
    """Replace build tokens by <token-N> and loopback ports by <port>, recursively."""
    if isinstance(value, str):
        for number, token in enumerate(tokens):
            value = value.replace(token, f"<token-{number}>")
        return _PORT.sub("127.0.0.1:<port>", value)
    if isinstance(value, list):
        return [normalise(v, tokens) for v in value]
    if isinstance(value, dict):
        return {normalise(k, tokens): normalise(v, tokens) for k, v in value.items()}
    return value


def transcript(bodies: list[tuple[str, Any]], tokens: list[str]) -> list[dict[str, Any]]:
    """The model requests of one test, in order: [{"build": n, "body": ...}]."""
    return [{"build": tokens.index(token), "body": normalise(body, tokens)} for token, body in bodies]


def file_for(directory: Path, nodeid: str) -> Path:
    """One file per test, named after its node id."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid.split("::", 1)[-1] if "::" in nodeid else nodeid)
    module = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid.split("::", 1)[0].rsplit("/", 1)[-1])
    return directory / f"{module}__{name}.json"


def record(directory: Path, nodeid: str, data: list[dict[str, Any]]) -> None:
    """Write one test's transcript (stable formatting, keys in wire order)."""
    directory.mkdir(parents=True, exist_ok=True)
    file_for(directory, nodeid).write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def compare(directory: Path, nodeid: str, data: list[dict[str, Any]]) -> list[str]:
    """Drift lines between a recording and this run ([] when identical or not recorded)."""
    path = file_for(directory, nodeid)
    if not path.exists():
        return [f"{nodeid}: no recorded transcript in {directory}"]
    recorded = json.loads(path.read_text(encoding="utf-8"))
    return [f"{nodeid}: {line}" for line in differences(data, recorded, limit=20)]


def _headers(headers: Headers) -> list[list[str]]:
    return [[name, value] for name, value in headers]


def _body(raw: bytes, parsed: Any) -> dict[str, Any]:
    """{"json": ...} when the body is JSON, else {"text": ...} (UTF-8, undecodable bytes replaced)."""
    if parsed is None and raw.strip():
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
    return {"json": parsed} if parsed is not None else {"text": raw.decode("utf-8", "replace")}


def _process(record: McpRequest) -> dict[str, Any] | None:
    """What a stdio server process reported about itself (None over HTTP)."""
    process = record.process
    if process is None:
        return None
    return {"pid": process.pid, "argv": list(process.argv), "cwd": process.cwd, "env": dict(process.env)}


def traffic(model: list[ModelRequest], mcp: list[McpRequest], tokens: list[str]) -> dict[str, Any]:
    """One test's recorded traffic as JSON: the model requests with their answers, the MCP requests.

    `build` is the position of a record's token in `tokens` (the test's builds, in order). The MCP
    servers record each request's HTTP status, not its response body: MCP answers are not here.
    An MCP record says its `transport` (http, sse, stdio); a stdio one also what its server process
    reported (pid, argv, cwd, the variables it was asked to report).
    """
    return {
        "builds": list(tokens),
        "model": [
            {
                "build": tokens.index(r.token),
                "index": r.index,
                "method": r.method,
                "path": r.path,
                "query": r.query,
                "headers": _headers(r.headers),
                "body": _body(r.body, r.json),
                "status": r.status,
                "response": r.response,
                "note": r.note,
            }
            for r in model
        ],
        "mcp": [
            {
                "build": tokens.index(r.token),
                "route": r.route,
                "index": r.index,
                "method": r.method,
                "path": r.path,
                "query": r.query,
                "headers": _headers(r.headers),
                "body": _body(r.body, None),
                "rpc_method": r.rpc_method,
                "status": r.status,
                "transport": r.transport,
                "process": _process(r),
            }
            for r in mcp
        ],
    }
