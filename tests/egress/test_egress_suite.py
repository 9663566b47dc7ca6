"""`proto.egress-loopback-only` end to end: a miniature that tries to leave loopback fails the check.

Each run is a pytester subprocess of a one-test suite. Its conftest puts a
tripwire under the guard before the session starts (should the guard let an
in-process attempt through, the tripwire raises instead of sending); the cmd:
miniature only tries while the guard's marker is present, and runs in a
network namespace with only loopback wherever this machine allows one. A
Node miniature (no guard can load in it) tries only inside the namespace's
observer, which records and refuses its attempts whatever its language.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from toolproof.connect import egress
from toolproof.report import exitcodes

MINIATURE = Path(__file__).resolve().parent / "egress_miniature.py"
NODE_MINIATURE = MINIATURE.with_suffix(".mjs")
CHECK = "proto.egress-loopback-only"
RUN_TIMEOUT = 120.0

CONFTEST = """
import socket

from toolproof.connect.egress import _is_literal, is_loopback


class TrippedWire(AssertionError):
    pass


def _connect(original):
    def connect(sock, address, *args):
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback(address[0]):
            raise TrippedWire(f"the guard let a connection through: {address!r}")
        return original(sock, address, *args)
    return connect


def _lookup(original):
    def lookup(host, *args, **kwargs):
        if host is not None and not is_loopback(host) and not _is_literal(host):
            raise TrippedWire(f"the guard let a lookup through: {host!r}")
        return original(host, *args, **kwargs)
    return lookup


# Installed at conftest import, before the session fixture installs the guard on top of it.
socket.socket.connect = _connect(socket.socket.connect)
socket.socket.connect_ex = _connect(socket.socket.connect_ex)
socket.getaddrinfo = _lookup(socket.getaddrinfo)
"""

SUITE = """
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_unknown_id(tp):
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="unbuilt")
"""

REFUSED = (
    "refused attempts to leave loopback: "
    "connect 203.0.113.7:443 (socket.create_connection, pid N); "
    "dns example.invalid (socket.getaddrinfo, pid N)"
)


def run_suite(pytester: pytest.Pytester, *args: str) -> tuple[int, dict[str, Any]]:
    """Run the one-test suite; (exit status, the egress check's report row with pids masked)."""
    pytester.makeconftest(CONFTEST)
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_small=SUITE)
    shutil.copy(MINIATURE, pytester.path / "egress_miniature.py")
    shutil.copy(NODE_MINIATURE, pytester.path / "egress_miniature.mjs")
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "toolproof.plugin",
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        "--report-json",
        str(report),
        *args,
        timeout=RUN_TIMEOUT,
    )
    rows = {row["id"]: row for row in json.loads(report.read_text(encoding="utf-8"))["checks"]}
    row = rows[CHECK]
    masked = {
        "status": row["status"],
        "side": row["side"],
        "invariant": row["invariant"],
        "message": re.sub(r"pid \d+", "pid N", row["message"]),
    }
    return int(result.ret), masked


def failing(message: str) -> dict[str, Any]:
    return {"status": "fail", "side": "candidate", "invariant": True, "message": message}


def test_an_in_process_candidate_leaving_loopback_fails_the_check(pytester: pytest.Pytester) -> None:
    status, row = run_suite(pytester, "--candidate", "py:egress_miniature:factory")
    assert (status, row) == (exitcodes.CHECK_FAILED, failing(REFUSED))


def test_an_in_process_candidate_staying_on_loopback_passes_it(pytester: pytest.Pytester) -> None:
    status, row = run_suite(pytester, "--candidate", "py:egress_miniature:polite")
    assert (status, row) == (
        exitcodes.OK,
        {
            "status": "pass",
            "side": "candidate",
            "invariant": True,
            "message": "no connection or DNS lookup outside loopback",
        },
    )


NETNS = [] if egress.netns_available() else ["--toolproof-netns"]


def test_a_cmd_python_candidate_leaving_loopback_fails_the_check(pytester: pytest.Pytester) -> None:
    status, row = run_suite(pytester, "--candidate", "cmd:{python} egress_miniature.py", *NETNS)
    assert (status, row) == (exitcodes.CHECK_FAILED, failing(REFUSED))


def test_a_candidate_without_the_guard_is_not_testable(pytester: pytest.Pytester) -> None:
    # -I ignores PYTHONPATH: the guard cannot load, as in a candidate written in another language.
    status, row = run_suite(pytester, "--candidate", "cmd:{python} -I egress_miniature.py --polite")
    assert status == exitcodes.OK
    assert row == {
        "status": "not_testable",
        "side": "candidate",
        "invariant": True,
        "message": "the egress guard is not loaded in this candidate (not Python?): "
        "run it with --toolproof-netns (Linux) to record its attempts whatever its language",
    }


def observer_problem() -> str | None:
    """None when --toolproof-netns can observe here, else why not (the relay's own answer)."""
    if egress.netns_available() is not None:
        return f"no network namespace: {egress.netns_available()}"
    with tempfile.TemporaryDirectory() as directory:
        log = Path(directory) / "egress.jsonl"
        command = egress.NetnsBridge([], directory, log=str(log)).wrap("true")
        subprocess.run(["/bin/sh", "-c", command], timeout=60, check=True)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return None if events[0]["event"] == "observing" else str(events[0]["reason"])


OBSERVER = observer_problem()
needs_observer = pytest.mark.skipif(OBSERVER is not None, reason=f"no namespace observer: {OBSERVER}")
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@needs_observer
def test_under_netns_a_candidate_without_the_guard_is_observed_and_passes(pytester: pytest.Pytester) -> None:
    status, row = run_suite(
        pytester, "--candidate", "cmd:{python} -I egress_miniature.py --polite", "--toolproof-netns"
    )
    assert (status, row) == (
        exitcodes.OK,
        {
            "status": "pass",
            "side": "candidate",
            "invariant": True,
            "message": "no connection or DNS lookup outside loopback",
        },
    )


@needs_observer
@needs_node
def test_under_netns_a_node_candidate_leaving_loopback_fails_the_check(pytester: pytest.Pytester) -> None:
    status, row = run_suite(pytester, "--candidate", "cmd:node egress_miniature.mjs", "--toolproof-netns")
    assert (status, row) == (
        exitcodes.CHECK_FAILED,
        failing(
            "refused attempts to leave loopback: "
            "udp 198.51.100.9:8125 (UDP datagram seen in the namespace); "
            "connect 203.0.113.7:443 (TCP SYN seen in the namespace); "
            "dns example.invalid (system resolver, seen in the namespace)"
        ),
    )


@needs_observer
@needs_node
def test_under_netns_a_node_candidate_on_loopback_passes_it(pytester: pytest.Pytester) -> None:
    status, row = run_suite(
        pytester, "--candidate", "cmd:node egress_miniature.mjs --polite", "--toolproof-netns"
    )
    assert (status, row) == (
        exitcodes.OK,
        {
            "status": "pass",
            "side": "candidate",
            "invariant": True,
            "message": "no connection or DNS lookup outside loopback",
        },
    )
