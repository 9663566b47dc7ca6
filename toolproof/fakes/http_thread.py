"""Run an ASGI app with uvicorn in a daemon thread, on a socket pre-bound to 127.0.0.1:0.

Binding the socket before uvicorn starts means the port is known at once and
no other process can take it between "pick a port" and "listen" (no race).
Only 127.0.0.1 is ever bound. Every wait has a timeout and failures name the
server.
"""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType
from typing import Final, Self

import uvicorn

from toolproof.fakes._asgi import App, install_drop_log_filter

LOOPBACK: Final = "127.0.0.1"
START_TIMEOUT_S: Final = 5.0
STOP_TIMEOUT_S: Final = 3.0
_GRACEFUL_S: Final = 1
"""uvicorn cancels requests still running this long after stop (e.g. open SSE streams)."""


class ServerThreadError(RuntimeError):
    """A threaded server failed to start or stop in time."""


class ThreadedServer:
    """One uvicorn server in a daemon thread; usable as a context manager."""

    def __init__(
        self,
        app: App,
        name: str,
        *,
        start_timeout: float = START_TIMEOUT_S,
        stop_timeout: float = STOP_TIMEOUT_S,
    ) -> None:
        """Prepare (but do not start) a server for `app`; `name` appears in every error."""
        self.name = name
        self._app = app
        self._start_timeout = start_timeout
        self._stop_timeout = stop_timeout
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._port: int | None = None
        self._exit_reason = "uvicorn returned"

    @property
    def port(self) -> int:
        """The bound TCP port (only after start())."""
        if self._port is None:
            raise ServerThreadError(f"{self.name}: not started")
        return self._port

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT` (only after start())."""
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def running(self) -> bool:
        """True between a successful start() and stop()."""
        return self._thread is not None and self._thread.is_alive() and self._port is not None

    def start(self) -> Self:
        """Bind, start uvicorn and wait until it accepts connections; raise ServerThreadError on timeout."""
        if self._thread is not None:
            raise ServerThreadError(f"{self.name}: already started")
        install_drop_log_filter()
        self._exit_reason = "uvicorn returned"
        # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets whose proto says TCP
        # (accepted sockets inherit it); without it Nagle + delayed ACK add ~40 ms per response.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind((LOOPBACK, 0))
        config = uvicorn.Config(
            self._app,
            log_level="warning",
            access_log=False,
            lifespan="on",
            interface="asgi3",
            http="h11",
            ws="none",
            loop="asyncio",
            proxy_headers=False,
            timeout_graceful_shutdown=_GRACEFUL_S,
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(
            target=self._run, args=(server, sock), name=f"toolproof-{self.name}", daemon=True
        )
        self._server, self._thread, self._socket = server, thread, sock
        thread.start()
        deadline = time.monotonic() + self._start_timeout
        while not server.started:
            if not thread.is_alive():
                self._cleanup_failed_start()
                reason = self._exit_reason
                raise ServerThreadError(f"{self.name}: uvicorn exited during startup: {reason} (see log)")
            if time.monotonic() > deadline:
                self._cleanup_failed_start()
                raise ServerThreadError(f"{self.name}: uvicorn did not start within {self._start_timeout} s")
            time.sleep(0.005)
        self._port = int(sock.getsockname()[1])
        return self

    def _run(self, server: uvicorn.Server, sock: socket.socket) -> None:
        try:
            server.run(sockets=[sock])
        except SystemExit as stop:  # uvicorn exits with code 3 when the app's startup fails
            self._exit_reason = f"uvicorn exited with code {stop.code}"
        except BaseException as error:  # the thread must not die with an unreported error
            self._exit_reason = f"uvicorn raised {error!r}"

    def _cleanup_failed_start(self) -> None:
        server, thread, sock = self._server, self._thread, self._socket
        if server is not None:
            server.should_exit = True
        if thread is not None:
            thread.join(self._stop_timeout)
        if sock is not None:
            sock.close()
        self._server = self._thread = self._socket = None

    def stop(self) -> None:
        """Ask uvicorn to exit and join the thread; raise ServerThreadError if it does not stop in time."""
        server, thread, sock = self._server, self._thread, self._socket
        if server is None or thread is None:
            return
        server.should_exit = True
        thread.join(self._stop_timeout)
        if thread.is_alive():
            server.force_exit = True
            thread.join(1.0)
        if sock is not None:
            sock.close()
        self._server = self._thread = self._socket = None
        self._port = None
        if thread.is_alive():
            raise ServerThreadError(f"{self.name}: uvicorn did not stop within {self._stop_timeout} s")

    def __enter__(self) -> Self:
        """Start the server."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()
