"""The egress guard: a Python candidate may reach only loopback (CONTRACT.md `tp-proto-endpoints-only`).

Some runtimes try things on their own: a cloud credential lookup, a trace
export, a default endpoint. For a Python candidate the guard patches the
socket layer *before the runtime is imported* and refuses, before any packet
is sent, every connection and DNS lookup outside loopback, and appends one
JSON line per refused attempt to the file named by ``TOOLPROOF_EGRESS_LOG``:

- in-process (``py:``) candidates: installed in the test process at session start;
- ``cmd:`` Python candidates: ``toolproof/connect/_egress_site`` is prepended to
  ``PYTHONPATH`` and its ``sitecustomize.py`` installs the guard at interpreter
  start (chaining to a ``sitecustomize`` the candidate's environment already had).

After each test the harness reads the lines written since the previous test
(``EgressSession.attempts``: an observation; ``toolproof.judge.loopback`` judges it
as ``proto.egress-loopback-only``). For any ``cmd:`` candidate on Linux,
``--toolproof-netns`` also runs it in a network namespace of its own where
loopback is the only way out: a relay carries its connections to the harness's
fakes (``NetnsBridge``), and everything else goes to an observer
(``egress_tun``: a TUN device carrying the default routes, a resolver stub)
that records and refuses each attempt in the same log, whatever language the
candidate is written in. The log says whether the guard or the observer ran;
where neither did, the check is not testable, with the reason.

The guard part of this module is standard library only: ``sitecustomize.py``
loads this file by path into candidate environments that lack toolproof.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import os
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the guard half of this module stays standard library only
    from toolproof.connect.connectables import ConnectSettings

ENV_LOG = "TOOLPROOF_EGRESS_LOG"
SITE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_egress_site")
#: Set on every patched function, so a candidate (or a test) can tell the guard is in place.
MARKER = "__toolproof_egress_guard__"
_INET = (socket.AF_INET, socket.AF_INET6)


def append_line(path: str, line: str) -> None:
    """Append one line in one write (O_APPEND: lines of several processes never interleave)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def is_loopback(host: object) -> bool:
    """127.0.0.0/8, ::1 (also IPv4-mapped), and the name `localhost`; everything else is outside."""
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    name = host.strip("[]").split("%", 1)[0]
    if name.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _is_literal(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    try:
        ipaddress.ip_address(str(host).strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


def _destination(address: object) -> str:
    """`host:port` (IPv6 bracketed) of a socket address tuple."""
    if isinstance(address, tuple) and len(address) >= 2:
        host = address[0].decode() if isinstance(address[0], bytes) else str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
    return repr(address)


class Guard:
    """Patches the socket module; `install()` / `uninstall()` are symmetric and idempotent."""

    def __init__(self, log_path: str) -> None:
        self.log_path = log_path
        self._saved: dict[tuple[Any, str], Any] = {}
        self._lock = threading.Lock()

    @property
    def installed(self) -> bool:
        """Whether this guard's patches are in place."""
        return bool(self._saved)

    def record(self, kind: str, api: str, destination: str) -> None:
        """Append one refused attempt (O_APPEND: lines of several processes never interleave)."""
        line = json.dumps(
            {"event": "refused", "kind": kind, "api": api, "destination": destination, "pid": os.getpid()}
        )
        self._append(line)

    def _append(self, line: str) -> None:
        with self._lock:
            append_line(self.log_path, line)

    def _refuse_connect(self, api: str, destination: str) -> ConnectionRefusedError:
        self.record("connect", api, destination)
        return ConnectionRefusedError(
            errno.ECONNREFUSED,
            f"toolproof egress guard: connection to {destination} refused (only loopback is allowed)",
        )

    def _refuse_lookup(self, api: str, host: object) -> socket.gaierror:
        name = host.decode("ascii", "replace") if isinstance(host, bytes) else str(host)
        self.record("dns", api, name)
        return socket.gaierror(
            socket.EAI_NONAME, f"toolproof egress guard: DNS lookup of {name!r} refused (only loopback)"
        )

    def _patch(self, owner: Any, name: str, make: Callable[[Any], Any]) -> None:
        original = getattr(owner, name)
        replacement = make(original)
        setattr(replacement, MARKER, True)
        self._saved[(owner, name)] = original
        setattr(owner, name, replacement)

    def install(self) -> None:
        """Patch connect/connect_ex/sendto, create_connection and the resolver functions."""
        if self.installed:
            return
        guard = self

        def connect(original: Any) -> Any:
            def guarded_connect(sock: socket.socket, address: Any) -> Any:
                if sock.family in _INET and not is_loopback(address[0]):
                    raise guard._refuse_connect("socket.connect", _destination(address))
                return original(sock, address)

            return guarded_connect

        def connect_ex(original: Any) -> Any:
            def guarded_connect_ex(sock: socket.socket, address: Any) -> Any:
                if sock.family in _INET and not is_loopback(address[0]):
                    guard._refuse_connect("socket.connect_ex", _destination(address))
                    return errno.ECONNREFUSED
                return original(sock, address)

            return guarded_connect_ex

        def sendto(original: Any) -> Any:
            def guarded_sendto(sock: socket.socket, *args: Any) -> Any:
                address = args[-1]
                if sock.family in _INET and isinstance(address, tuple) and not is_loopback(address[0]):
                    raise guard._refuse_connect("socket.sendto", _destination(address))
                return original(sock, *args)

            return guarded_sendto

        def create_connection(original: Any) -> Any:
            def guarded_create_connection(address: Any, *args: Any, **kwargs: Any) -> Any:
                if not is_loopback(address[0]):
                    raise guard._refuse_connect("socket.create_connection", _destination(address))
                return original(address, *args, **kwargs)

            return guarded_create_connection

        def getaddrinfo(original: Any) -> Any:
            def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
                # A literal address needs no lookup: its connect is judged (and recorded) instead.
                # None and "" ask for the local wildcard/loopback addresses: no lookup either.
                if host not in (None, "", b"") and not is_loopback(host) and not _is_literal(host):
                    raise guard._refuse_lookup("socket.getaddrinfo", host)
                return original(host, *args, **kwargs)

            return guarded_getaddrinfo

        def by_name(api: str) -> Callable[[Any], Any]:
            def make(original: Any) -> Any:
                def guarded(host: Any, *args: Any, **kwargs: Any) -> Any:
                    if not is_loopback(host) and not _is_literal(host):
                        raise guard._refuse_lookup(api, host)
                    return original(host, *args, **kwargs)

                return guarded

            return make

        def by_address(original: Any) -> Any:
            def guarded_gethostbyaddr(host: Any) -> Any:
                if not is_loopback(host):
                    raise guard._refuse_lookup("socket.gethostbyaddr", host)
                return original(host)

            return guarded_gethostbyaddr

        self._patch(socket.socket, "connect", connect)
        self._patch(socket.socket, "connect_ex", connect_ex)
        self._patch(socket.socket, "sendto", sendto)
        self._patch(socket, "create_connection", create_connection)
        self._patch(socket, "getaddrinfo", getaddrinfo)
        self._patch(socket, "gethostbyname", by_name("socket.gethostbyname"))
        self._patch(socket, "gethostbyname_ex", by_name("socket.gethostbyname_ex"))
        self._patch(socket, "gethostbyaddr", by_address)
        self._append(json.dumps({"event": "installed", "pid": os.getpid(), "argv": sys.argv[:4]}))

    def uninstall(self) -> None:
        """Restore every patched attribute."""
        for (owner, name), original in reversed(list(self._saved.items())):
            setattr(owner, name, original)
        self._saved.clear()


def install_from_env() -> Guard | None:
    """Install the guard when ``TOOLPROOF_EGRESS_LOG`` names a log (what sitecustomize.py calls)."""
    path = os.environ.get(ENV_LOG)
    if not path:
        return None
    guard = Guard(path)
    guard.install()
    return guard


# -- the harness side: reading the log, what each test left in it ----------------------------------------


class EgressLog:
    """Reads the log incrementally: what was refused since the last read, and who observes attempts."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.offset = 0
        self.guarded = False  # some candidate process installed the guard (a Python candidate)
        self.observed = False  # a --toolproof-netns relay set its observer up
        self.unobserved: str | None = None  # why a relay could not (the last one to say)

    def read_new(self) -> list[dict[str, Any]]:
        """Refused attempts appended since the previous call (complete lines only)."""
        try:
            with open(self.path, "rb") as stream:
                stream.seek(self.offset)
                data = stream.read()
        except FileNotFoundError:
            return []
        complete = data[: data.rfind(b"\n") + 1]
        self.offset += len(complete)
        refused = []
        for raw in complete.splitlines():
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            if event.get("event") == "installed":
                self.guarded = True
            elif event.get("event") == "observing":
                self.observed = True
            elif event.get("event") == "unobserved":
                self.unobserved = str(event.get("reason"))
            elif event.get("event") == "refused":
                refused.append(event)
        return refused


@dataclass(frozen=True)
class Attempts:
    """What one test left in the log: the attempts refused, and whether anything was there to see them.

    An observation only: `toolproof.judge.loopback` turns it into `proto.egress-loopback-only`.
    """

    #: Refused attempts, one log line each (`kind`, `api`, `destination`, and `pid` from the guard).
    refused: list[dict[str, Any]]
    #: The guard (a Python candidate) or the namespace observer was in place.
    observed: bool
    #: The candidate ran under --toolproof-netns.
    netns: bool
    #: Why the namespace observer could not be set up, when it could not.
    unobserved: str | None


class EgressSession:
    """One pytest worker's guard: the log, the in-process guard (py:) or the env (cmd:), the netns."""

    def __init__(self, transport: str, netns: bool, ports: list[int]) -> None:
        import tempfile

        self.transport = transport
        self.netns = netns
        self.directory = tempfile.mkdtemp(prefix="toolproof-egress-")
        self.log = EgressLog(os.path.join(self.directory, "egress.jsonl"))
        self.guard: Guard | None = None
        self.bridge = NetnsBridge(ports, self.directory, log=self.log.path) if netns else None

    def start(self) -> None:
        """Install the in-process guard (py:) or start the namespace bridge (cmd: with netns)."""
        from toolproof.errors import EnvironmentProblem

        if self.transport == "py":
            self.guard = Guard(self.log.path)
            self.guard.install()
        if self.bridge is not None:
            problem = netns_available()
            if problem is not None:
                raise EnvironmentProblem(f"--toolproof-netns is unavailable: {problem}")
            self.bridge.start()

    def env(self, base: dict[str, str]) -> tuple[tuple[str, str], ...]:
        """What a cmd: candidate's environment gets: the log, and the guard's site dir first on PYTHONPATH."""
        rest = base.get("PYTHONPATH", "")
        return ((ENV_LOG, self.log.path), ("PYTHONPATH", SITE_DIR + (os.pathsep + rest if rest else "")))

    def wrap(self, command: str) -> str:
        """The cmd: command line, inside the namespace when --toolproof-netns is on."""
        return self.bridge.wrap(command) if self.bridge is not None else command

    def attempts(self) -> Attempts:
        """The attempts logged since the previous test ended."""
        refused = self.log.read_new()
        log = self.log
        return Attempts(refused, log.guarded or log.observed, self.netns, log.unobserved)

    def stop(self) -> list[dict[str, Any]]:
        """Uninstall, stop the bridge, remove the log; return attempts no test has claimed."""
        import shutil

        leftover = self.log.read_new()
        if self.guard is not None:
            self.guard.uninstall()
        if self.bridge is not None:
            self.bridge.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
        return leftover


def open_session(
    spec: str, settings: ConnectSettings, *, netns: bool, urls: list[str]
) -> tuple[EgressSession, ConnectSettings]:
    """Start one worker's guard for `spec`; return it and the ConnectSettings to start the candidate with.

    `urls` are the fakes' URLs: their ports are what the namespace relay carries.
    """
    import dataclasses
    from urllib.parse import urlsplit

    from toolproof.connect.connectables import resolve
    from toolproof.errors import UsageError

    # In our process (py:, and pipe:'s thread) the guard is installed here; a cmd: subprocess gets the env.
    transport = "cmd" if resolve(spec).startswith("cmd:") else "py"
    if netns and transport == "py":
        raise UsageError(
            "--toolproof-netns applies to cmd: candidates only (an in-process one shares our network)"
        )
    ports = sorted({port for port in (urlsplit(url).port for url in urls) if port is not None})
    session = EgressSession(transport, netns, ports)
    session.start()
    if transport == "py":
        return session, settings
    extra = session.env(dict(os.environ) | dict(settings.env))
    return session, dataclasses.replace(settings, env=(*settings.env, *extra), wrap=session.wrap)


def close_session(session: EgressSession) -> None:
    """Stop the guard; attempts after the last test are shown as a warning (no test can own them)."""
    import warnings

    leftover = session.stop()
    if leftover:
        places = sorted({f"{event.get('kind')} {event.get('destination')}" for event in leftover})
        warnings.warn(
            f"toolproof: the candidate tried to leave loopback after the last test: {'; '.join(places)}",
            stacklevel=1,
        )


# -- --toolproof-netns: a network namespace with only loopback, bridged to the fakes ----------------


def netns_available() -> str | None:
    """None when `unshare -rnm` works here, else why not (shown to the user)."""
    import shutil
    import subprocess

    if not sys.platform.startswith("linux"):
        return f"network namespaces need Linux (this is {sys.platform})"
    if shutil.which("unshare") is None:
        return "the unshare program (util-linux) is not installed"
    try:
        done = subprocess.run(
            ["unshare", "-rnm", "true"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare -rnm failed: {exc}"
    if done.returncode != 0:
        return f"unshare -rnm is not permitted here: {done.stderr.strip() or done.returncode}"
    return None


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock, how in ((target, socket.SHUT_WR), (source, socket.SHUT_RD)):
            try:
                sock.shutdown(how)
            except OSError:
                pass


def _splice(one: socket.socket, other: socket.socket) -> None:
    """Copy both directions until both ends are done, then close both."""
    threads = [
        threading.Thread(target=_pump, args=(one, other), daemon=True),
        threading.Thread(target=_pump, args=(other, one), daemon=True),
    ]
    for thread in threads:
        thread.start()

    def finish() -> None:
        for thread in threads:
            thread.join()
        one.close()
        other.close()

    threading.Thread(target=finish, daemon=True).start()


def _serve(listener: socket.socket, connect: Callable[[], socket.socket], stop: threading.Event) -> None:
    listener.settimeout(0.2)
    while not stop.is_set():
        try:
            accepted, _ = listener.accept()
        except TimeoutError:
            continue
        except OSError:
            return
        accepted.settimeout(None)
        try:
            upstream = connect()
        except OSError:
            accepted.close()
            continue
        _splice(accepted, upstream)


class NetnsBridge:
    """Harness side: one Unix socket per fake port, forwarding to 127.0.0.1:<port> in our namespace.

    With `log`, the relay in the namespace also sets up the observer (``egress_tun``) and
    records there every attempt to leave loopback.
    """

    def __init__(self, ports: list[int], directory: str, log: str | None = None) -> None:
        self.ports = ports
        self.directory = directory
        self.log = log
        self._stop = threading.Event()
        self._listeners: list[socket.socket] = []

    def socket_path(self, port: int) -> str:
        """The Unix socket that stands for 127.0.0.1:`port` inside the namespace."""
        return os.path.join(self.directory, f"{port}.sock")

    def start(self) -> None:
        """Listen on every Unix socket (one thread each)."""
        for port in self.ports:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(self.socket_path(port))
            listener.listen(64)
            self._listeners.append(listener)

            def upstream(port: int = port) -> socket.socket:
                return socket.create_connection(("127.0.0.1", port))

            threading.Thread(target=_serve, args=(listener, upstream, self._stop), daemon=True).start()

    def wrap(self, command: str) -> str:
        """The shell command that runs `command` in a fresh namespace behind the in-namespace relay."""
        import shlex

        maps = " ".join(f"--map {port}={shlex.quote(self.socket_path(port))}" for port in self.ports)
        observe = f" --log {shlex.quote(self.log)}" if self.log is not None else ""
        # -I: the relay ignores PYTHONPATH (no guard of its own) and the user's site.
        # -m: a mount namespace of its own, where the observer's resolv.conf is bind-mounted.
        return (
            f"exec unshare -rnm {shlex.quote(sys.executable)} -I {shlex.quote(os.path.abspath(__file__))}"
            f" netns-relay{observe} {maps} -- {shlex.quote(command)}"
        )

    def stop(self) -> None:
        """Stop accepting; open connections end with their peers."""
        self._stop.set()
        for listener in self._listeners:
            listener.close()


def _observer_module() -> Any:
    """``egress_tun`` loaded by path (the relay runs with -I, outside any package)."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "egress_tun.py")
    spec = importlib.util.spec_from_file_location("_toolproof_egress_tun", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"toolproof's namespace observer not found at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _observe(log: str) -> None:
    """Set up the observer; say in the log whether it observes, and why not when it does not."""
    import tempfile

    def record(kind: str, api: str, destination: str) -> None:
        event = {"event": "refused", "kind": kind, "api": api, "destination": destination}
        append_line(log, json.dumps(event))

    state = tempfile.mkdtemp(prefix="relay-", dir=os.path.dirname(log))
    try:
        problem = _observer_module().setup(record, state)
    except Exception as exc:  # the candidate still runs confined; the check then says why it cannot judge
        problem = f"the namespace observer failed: {exc!r}"
    event = {"event": "observing"} if problem is None else {"event": "unobserved", "reason": problem}
    append_line(log, json.dumps({**event, "pid": os.getpid()}))


def relay_main(argv: list[str]) -> int:
    """Inside the namespace: bring lo up, observe the rest (--log), listen on each fake port, run the
    candidate, exit with it."""
    import subprocess

    split = argv.index("--")
    options, command = argv[:split], argv[split + 1 :]
    maps = [options[i + 1].split("=", 1) for i, item in enumerate(options) if item == "--map"]
    logs = [options[i + 1] for i, item in enumerate(options) if item == "--log"]
    _observer_module().link_up("lo")
    for log in logs:
        _observe(log)
    stop = threading.Event()
    for port, path in maps:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", int(port)))
        listener.listen(64)

        def upstream(path: str = path) -> socket.socket:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            return sock

        threading.Thread(target=_serve, args=(listener, upstream, stop), daemon=True).start()
    child = subprocess.Popen(["/bin/sh", "-c", command[0]])
    try:
        return child.wait()
    except KeyboardInterrupt:
        return 130
    finally:
        stop.set()


if __name__ == "__main__":
    if sys.argv[1:2] == ["netns-relay"]:
        sys.exit(relay_main(sys.argv[2:]))
    sys.exit(f"usage: {sys.argv[0]} netns-relay [--log PATH] --map PORT=SOCKET ... -- COMMAND")
