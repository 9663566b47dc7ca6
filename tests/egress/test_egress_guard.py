"""toolproof.connect.egress: the guard refuses and records every attempt to leave loopback;
loopback goes through.

A tripwire sits *below* the guard in every test: should the guard ever let an
attempt through, the tripwire fails the test instead of sending anything.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolproof.connect import egress
from toolproof.connect.connectables import ConnectSettings
from toolproof.errors import UsageError
from toolproof.judge import loopback

OUTSIDE = ("203.0.113.7", 443)  # TEST-NET-3: documentation only, never routed


class TrippedWire(AssertionError):
    """The guard let an attempt to leave loopback through."""


@pytest.fixture
def tripwire(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the guard: connections and lookups outside loopback raise instead of leaving the machine."""

    def wrap_connect(original: Any) -> Any:
        def connect(sock: socket.socket, address: Any, *args: Any) -> Any:
            if sock.family in (socket.AF_INET, socket.AF_INET6) and not egress.is_loopback(address[0]):
                raise TrippedWire(f"reached the socket layer: {address!r}")
            return original(sock, address, *args)

        return connect

    def wrap_lookup(original: Any) -> Any:
        def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host is not None and not egress.is_loopback(host) and not egress._is_literal(host):
                raise TrippedWire(f"reached the resolver: {host!r}")
            return original(host, *args, **kwargs)

        return lookup

    monkeypatch.setattr(socket.socket, "connect", wrap_connect(socket.socket.connect))
    monkeypatch.setattr(socket.socket, "connect_ex", wrap_connect(socket.socket.connect_ex))
    monkeypatch.setattr(socket, "getaddrinfo", wrap_lookup(socket.getaddrinfo))
    monkeypatch.setattr(socket, "gethostbyname", wrap_lookup(socket.gethostbyname))
    original_sendto = socket.socket.sendto

    def sendto(sock: socket.socket, *args: Any) -> Any:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not egress.is_loopback(args[-1][0]):
            raise TrippedWire(f"reached sendto: {args[-1]!r}")
        return original_sendto(sock, *args)

    monkeypatch.setattr(socket.socket, "sendto", sendto)


@pytest.fixture
def guard(tripwire: None, tmp_path: Path) -> Iterator[egress.Guard]:
    installed = egress.Guard(str(tmp_path / "egress.jsonl"))
    installed.install()
    try:
        yield installed
    finally:
        installed.uninstall()


def logged(guard: egress.Guard) -> list[dict[str, Any]]:
    lines = Path(guard.log_path).read_text(encoding="utf-8").splitlines()
    return [{k: v for k, v in json.loads(line).items() if k not in ("pid", "argv")} for line in lines]


INSTALLED = {"event": "installed"}


def refused(kind: str, api: str, destination: str) -> dict[str, str]:
    return {"event": "refused", "kind": kind, "api": api, "destination": destination}


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.3.2.1", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        ("LocalHost", True),
        (b"127.0.0.1", True),
        ("203.0.113.7", False),
        ("0.0.0.0", False),
        ("::", False),
        ("::ffff:203.0.113.7", False),
        ("localhost.example.com", False),
        ("example.invalid", False),
        ("", False),
        (None, False),
    ],
)
def test_what_counts_as_loopback(host: object, loopback: bool) -> None:
    assert egress.is_loopback(host) is loopback


def test_connections_outside_loopback_are_refused_and_recorded(guard: egress.Guard) -> None:
    with pytest.raises(ConnectionRefusedError, match=r"connection to 203\.0\.113\.7:443 refused"):
        socket.create_connection(OUTSIDE, timeout=1)
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError):
        sock.connect(OUTSIDE)
    with socket.socket(socket.AF_INET6) as sock:
        assert sock.connect_ex(("2001:db8::1", 80, 0, 0)) == 111
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock, pytest.raises(ConnectionRefusedError):
        sock.sendto(b"x", ("203.0.113.7", 53))
    assert logged(guard) == [
        INSTALLED,
        refused("connect", "socket.create_connection", "203.0.113.7:443"),
        refused("connect", "socket.connect", "203.0.113.7:443"),
        refused("connect", "socket.connect_ex", "[2001:db8::1]:80"),
        refused("connect", "socket.sendto", "203.0.113.7:53"),
    ]


def test_dns_lookups_outside_loopback_are_refused_and_recorded(guard: egress.Guard) -> None:
    with pytest.raises(socket.gaierror, match=r"DNS lookup of 'example\.invalid' refused"):
        socket.getaddrinfo("example.invalid", 443)
    with pytest.raises(socket.gaierror):
        socket.gethostbyname("example.invalid")
    with pytest.raises(socket.gaierror):
        socket.gethostbyaddr("203.0.113.7")
    assert logged(guard) == [
        INSTALLED,
        refused("dns", "socket.getaddrinfo", "example.invalid"),
        refused("dns", "socket.gethostbyname", "example.invalid"),
        refused("dns", "socket.gethostbyaddr", "203.0.113.7"),
    ]


def test_asyncio_connections_go_through_the_guard(guard: egress.Guard) -> None:
    async def attempts() -> list[str]:
        seen = []
        for host in ("example.invalid", "203.0.113.7"):
            try:
                await asyncio.open_connection(host, 443)
            except OSError as exc:
                seen.append(type(exc).__name__)
        return seen

    assert asyncio.run(attempts()) == ["gaierror", "ConnectionRefusedError"]
    assert logged(guard)[1:] == [
        refused("dns", "socket.getaddrinfo", "example.invalid"),
        refused("connect", "socket.connect", "203.0.113.7:443"),
    ]


def test_loopback_goes_through_untouched(guard: egress.Guard) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        for host in ("127.0.0.1", "localhost"):
            with socket.create_connection((host, port), timeout=5):
                pass
        assert socket.getaddrinfo("localhost", port, type=socket.SOCK_STREAM)
    assert logged(guard) == [INSTALLED]


def test_uninstall_restores_every_function(tripwire: None, tmp_path: Path) -> None:
    before = (socket.socket.connect, socket.create_connection, socket.getaddrinfo, socket.gethostbyaddr)
    installed = egress.Guard(str(tmp_path / "log"))
    installed.install()
    assert getattr(socket.getaddrinfo, egress.MARKER) is True
    installed.uninstall()
    assert (
        socket.socket.connect,
        socket.create_connection,
        socket.getaddrinfo,
        socket.gethostbyaddr,
    ) == before


def test_the_log_is_read_per_test_and_the_verdict_names_each_destination(tmp_path: Path) -> None:
    path = tmp_path / "egress.jsonl"
    log = egress.EgressLog(str(path))
    assert log.read_new() == []
    assert loopback.verdict([], log.guarded, netns=False) == (
        "not_testable",
        "the egress guard is not loaded in this candidate (not Python?): "
        "run it with --toolproof-netns (Linux) to record its attempts whatever its language",
    )
    writer = egress.Guard(str(path))
    writer._append(json.dumps({"event": "installed", "pid": 7}))
    writer.record("connect", "socket.connect", "203.0.113.7:443")
    writer.record("connect", "socket.connect", "203.0.113.7:443")
    writer.record("dns", "socket.getaddrinfo", "example.invalid")
    with path.open("a", encoding="utf-8") as stream:
        stream.write('{"event": "refused", "kind": "dns"')  # a line still being written: read next time
    first = log.read_new()
    assert log.guarded is True
    status, message = loopback.verdict(first, log.guarded, netns=False)
    pid = os.getpid()
    assert (status, message) == (
        "fail",
        "refused attempts to leave loopback: "
        f"connect 203.0.113.7:443 (socket.connect, pid {pid}); "
        f"dns example.invalid (socket.getaddrinfo, pid {pid})",
    )
    with path.open("a", encoding="utf-8") as stream:
        stream.write(', "api": "x", "destination": "late.invalid", "pid": 1}\n')
    assert [event["destination"] for event in log.read_new()] == ["late.invalid"]
    assert loopback.verdict(log.read_new(), log.guarded, netns=False) == (
        "pass",
        "no connection or DNS lookup outside loopback",
    )


def test_the_namespace_observer_is_read_from_the_log_and_named_when_it_cannot_observe(tmp_path: Path) -> None:
    path = tmp_path / "egress.jsonl"
    log = egress.EgressLog(str(path))
    reason = "the TUN device cannot be set up ([Errno 13] Permission denied: '/dev/net/tun')"
    egress.append_line(str(path), json.dumps({"event": "unobserved", "reason": reason, "pid": 9}))
    assert log.read_new() == []
    assert (log.guarded, log.observed, log.unobserved) == (False, False, reason)
    assert loopback.verdict([], log.observed, netns=True, unobserved=log.unobserved) == (
        "not_testable",
        "the egress guard is not loaded in this candidate (not Python?): its traffic was confined to "
        "loopback by --toolproof-netns, but attempts cannot be recorded: the TUN device cannot be set up "
        "([Errno 13] Permission denied: '/dev/net/tun')",
    )
    egress.append_line(str(path), json.dumps({"event": "observing", "pid": 9}))
    seen = {"event": "refused", "kind": "connect", "api": "TCP SYN seen in the namespace"}
    egress.append_line(str(path), json.dumps({**seen, "destination": "203.0.113.7:443"}))
    egress.append_line(str(path), json.dumps({**seen, "destination": "203.0.113.7:443"}))
    refused = log.read_new()
    assert log.observed is True
    assert loopback.verdict(refused, log.observed, netns=True) == (
        "fail",
        "refused attempts to leave loopback: connect 203.0.113.7:443 (TCP SYN seen in the namespace)",
    )
    assert loopback.verdict(log.read_new(), log.observed, netns=True) == (
        "pass",
        "no connection or DNS lookup outside loopback",
    )


SHADOWED = """
import os
print("chained sitecustomize ran", flush=True)
"""
PROBE = """
import socket, sitecustomize
print("guarded" if getattr(socket.getaddrinfo, "__toolproof_egress_guard__", False) else "unguarded")
print(sitecustomize.__file__)
"""


def test_sitecustomize_installs_the_guard_and_chains_to_the_one_it_shadows(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sitecustomize.py").write_text(SHADOWED, encoding="utf-8")
    log = tmp_path / "egress.jsonl"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([egress.SITE_DIR, str(theirs)]),
        egress.ENV_LOG: str(log),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines() == [
        "chained sitecustomize ran",
        "guarded",
        str(theirs / "sitecustomize.py"),
    ]
    assert [json.loads(line)["event"] for line in log.read_text(encoding="utf-8").splitlines()] == [
        "installed"
    ]


def test_without_the_log_variable_sitecustomize_installs_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != egress.ENV_LOG}
    env["PYTHONPATH"] = egress.SITE_DIR
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines()[0] == "unguarded"


def test_netns_for_an_in_process_candidate_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--toolproof-netns applies to cmd: candidates only"):
        egress.open_session("reference", ConnectSettings(), netns=True, urls=[])


NETNS = egress.netns_available()
INSIDE = """
import socket, sys
with open("/proc/net/dev") as dev:
    interfaces = sorted(line.split(":")[0].strip() for line in dev.readlines()[2:])
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5) as sock:
    sock.sendall(b"ping")
    print(interfaces, sock.recv(16).decode(), flush=True)
"""
# Run with -I (no guard): only the namespace observer can see these attempts.
OUTSIDE_ATTEMPTS = """
import socket
with open("/etc/resolv.conf") as conf:
    print(conf.read().strip())
for family, address in ((socket.AF_INET, ("203.0.113.7", 443)), (socket.AF_INET6, ("2001:db8::7", 80))):
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        print(sock.connect_ex(address) == 111)  # ECONNREFUSED: the observer's RST
try:
    socket.getaddrinfo("analytics.example", 443)
except socket.gaierror as exc:
    print(exc.errno == socket.EAI_NONAME)  # the stub's NXDOMAIN
"""


def answer_once(server: socket.socket) -> None:
    conn, _ = server.accept()
    with conn:
        conn.sendall(b"pong:" + conn.recv(16))


@pytest.mark.skipif(NETNS is not None, reason=f"no network namespace here: {NETNS}")
def test_netns_has_only_loopback_and_reaches_the_harness_port_through_the_bridge(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        threading.Thread(target=answer_once, args=(server,), daemon=True).start()
        bridge = egress.NetnsBridge([port], str(tmp_path))
        bridge.start()
        try:
            script = tmp_path / "inside.py"
            script.write_text(INSIDE, encoding="utf-8")
            command = bridge.wrap(f"{sys.executable} {script} {port}")
            done = subprocess.run(
                ["/bin/sh", "-c", command], capture_output=True, text=True, timeout=60, check=False
            )
        finally:
            bridge.stop()
    assert (done.returncode, done.stdout) == (0, "['lo'] pong:ping\n"), done.stderr


@pytest.mark.skipif(NETNS is not None, reason=f"no network namespace here: {NETNS}")
def test_the_observer_records_and_refuses_what_leaves_loopback_and_the_bridge_still_works(
    tmp_path: Path,
) -> None:
    log = tmp_path / "egress.jsonl"
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        threading.Thread(target=answer_once, args=(server,), daemon=True).start()
        bridge = egress.NetnsBridge([port], str(tmp_path), log=str(log))
        bridge.start()
        try:
            (tmp_path / "inside.py").write_text(INSIDE, encoding="utf-8")
            (tmp_path / "outside.py").write_text(OUTSIDE_ATTEMPTS, encoding="utf-8")
            python = f"{sys.executable} -I"
            command = bridge.wrap(f"{python} {tmp_path}/inside.py {port} && {python} {tmp_path}/outside.py")
            done = subprocess.run(
                ["/bin/sh", "-c", command], capture_output=True, text=True, timeout=60, check=False
            )
        finally:
            bridge.stop()
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    if events[0]["event"] == "unobserved":
        pytest.skip(f"no namespace observer here: {events[0]['reason']}")
    assert (done.returncode, done.stdout) == (
        0,
        "['lo', 'tpegress0'] pong:ping\nnameserver 127.0.0.1\nTrue\nTrue\nTrue\n",
    ), done.stderr
    unique: list[dict[str, Any]] = []  # glibc asks A and AAAA: the same name twice
    for event in ({k: v for k, v in event.items() if k != "pid"} for event in events):
        if event not in unique:
            unique.append(event)
    assert unique == [
        {"event": "observing"},
        {
            "event": "refused",
            "kind": "connect",
            "api": "TCP SYN seen in the namespace",
            "destination": "203.0.113.7:443",
        },
        {
            "event": "refused",
            "kind": "connect",
            "api": "TCP SYN seen in the namespace",
            "destination": "[2001:db8::7]:80",
        },
        {
            "event": "refused",
            "kind": "dns",
            "api": "system resolver, seen in the namespace",
            "destination": "analytics.example",
        },
    ]
