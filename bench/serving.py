"""``hkmj serve`` as a child process, for the tests and the benchmarks: started on a free loopback
port, its address read **with a timeout** (a server that hangs before printing it fails the
caller after ``timeout`` seconds instead of blocking it forever), stopped by a signal.

The one home of this for tests/server, tests/ops, the browser tests (tests/web/browser) and
bench/: a thread drains the child's standard output into a queue (so a full pipe can never stall
the server either) and :meth:`Served.readline` waits on that queue with a deadline. Standard
error goes to a log file whose tail is quoted when the server does not start. ``ready`` waits for
a later line too (``metrics:``, ``cluster node``); ``healthy`` waits until the server answers
``/healthz`` — one request, no polling: the socket listens before the address is printed, so the
request waits in its backlog until the application has started.

    with start_serve(data_dir, env={"HKMJ_SECRET": "…"}, healthy=True) as served:
        httpx.get(served.url + "/healthz")
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

ADDRESS_TIMEOUT = 90.0
"""Seconds a server may take to print its address (migrations, a loaded shared machine)."""

STOP_TIMEOUT = 30.0
"""Seconds a server may take to stop after its signal before it is killed."""


class ServeError(AssertionError):
    """The server did not start (no address within the timeout, or it exited first)."""


class Served:
    """A running ``hkmj serve``: its process, its URL (no trailing slash), the lines it printed
    so far (``printed``, stripped) and its standard error file (``log``)."""

    def __init__(
        self,
        proc: subprocess.Popen[str],
        log: Path,
        *,
        timeout: float,
        ready: str = "",
        healthy: bool = False,
        group: bool = False,
        stop_signal: int = signal.SIGINT,
    ) -> None:
        self.proc = proc
        self.stop_signal = stop_signal
        self.log = log
        self.group = group
        self.printed: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert proc.stdout is not None
        self._reader = threading.Thread(
            target=self._drain, args=(proc.stdout,), name=f"serve-stdout-{proc.pid}", daemon=True
        )
        self._reader.start()
        deadline = time.monotonic() + timeout
        self.url = self._address(timeout)
        if ready:
            self._until(ready, deadline)
        if healthy:
            self._healthy(deadline)

    @property
    def stderr(self) -> Path:
        """The file the server's standard error goes to (``log``)."""
        return self.log

    def line(self, start: str) -> str | None:
        """The first line printed so far that starts with ``start``."""
        return next((x for x in self.printed if x.startswith(start)), None)

    def _drain(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self._lines.put(line)
        self._lines.put(None)

    def readline(self, timeout: float) -> str | None:
        """The next line the server printed, or ``None`` at its end or after ``timeout`` s."""
        try:
            line = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)  # the end stays the end for the next reader
        else:
            self.printed.append(line.strip())
        return line

    def _until(self, start: str, deadline: float) -> None:
        if self.line(start) is not None:
            return
        while (line := self.readline(deadline - time.monotonic())) is not None:
            if line.startswith(start):
                return
        self.kill()
        raise ServeError(
            f"hkmj serve printed no line starting {start!r}: {self.printed[-5:]!r}; "
            f"stderr {self.log_tail()!r}"
        )

    def _healthy(self, deadline: float) -> None:
        try:
            left = max(1.0, deadline - time.monotonic())
            with urllib.request.urlopen(self.url + "/healthz", timeout=left) as answer:
                if answer.status == 200:
                    return
                why = f"HTTP {answer.status}"
        except OSError as exc:
            why = repr(exc)
        self.kill()
        raise ServeError(f"{self.url}/healthz did not answer: {why}; stderr {self.log_tail()!r}")

    def _address(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            line = self.readline(deadline - time.monotonic())
            if line is None:
                break
            seen.append(line)
            if "open http" in line:
                return line.split("open ", 1)[1].split()[0].rstrip("/")
        self.kill()
        why = "exited" if self.proc.returncode is not None else f"said nothing in {timeout:.0f} s"
        raise ServeError(
            f"hkmj serve printed no address ({why}, exit {self.proc.returncode}); "
            f"stdout {''.join(seen)[-500:]!r}; stderr {self.log_tail()!r}"
        )

    def log_tail(self, chars: int = 2000) -> str:
        """The end of what the server wrote to standard error."""
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self, sig: int | None = None, timeout: float = STOP_TIMEOUT) -> int | None:
        """Send ``sig`` (default: the ``stop_signal`` it was started with; to the server's whole
        process group when it has one of its own) and wait; kill after ``timeout`` s. The exit
        status (``None``: killed)."""
        sig = self.stop_signal if sig is None else sig
        if self.proc.poll() is None:
            if self.group:
                os.killpg(self.proc.pid, sig)
            else:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
        return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL (the process group too, when it has one of its own) and reap."""
        if self.proc.poll() is None:
            if self.group:
                os.killpg(self.proc.pid, signal.SIGKILL)
            else:
                self.proc.kill()
        self.proc.wait()

    def __enter__(self) -> Served:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def start_serve(
    data_dir: Path | None,
    *extra: str,
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
    timeout: float = ADDRESS_TIMEOUT,
    args: Sequence[str] | None = None,
    hkmj: Sequence[str] = (sys.executable, "-m", "hkmahjong.entry"),
    cwd: Path | None = None,
    ready: str = "",
    healthy: bool = False,
    group: bool = False,
    stop_signal: int = signal.SIGINT,
) -> Served:
    """Start ``hkmj serve --port 0 [--data-dir DATA_DIR] EXTRA…`` with ``os.environ`` plus ``env``
    (a value of ``""`` removes that variable); stderr goes to ``log`` (default: beside the
    data directory, else a temporary file). ``args`` replaces the whole command line after ``hkmj serve``;
    ``hkmj`` is the command (another installation's, say), run in ``cwd``. Then wait, all within
    ``timeout``: for the address, for a line starting with ``ready`` when given, and with
    ``healthy`` until ``/healthz`` answers. ``group``: the server leads a process group of its
    own, and :meth:`Served.stop` signals the whole group (its search workers too).
    ``stop_signal``: what :meth:`Served.stop` sends by default (SIGINT, as Ctrl-C; SIGTERM, as
    an operator's service manager).

    :raises ServeError: no address (or ``ready`` line, or answer) within ``timeout`` seconds, or
        the server exited first.
    """
    full_env = {**os.environ}
    for key, value in (env or {}).items():
        if value == "":
            full_env.pop(key, None)
        else:
            full_env[key] = value
    if args is None:
        args = ["--port", "0"]
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
    command = [*hkmj, "serve", *args, *extra]
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
    if log is None and data_dir is not None and data_dir.parent.is_dir():
        log = data_dir.parent / f"{data_dir.name}-serve.log"
    if log is None:
        fd, name = tempfile.mkstemp(prefix="hkmj-serve-", suffix=".log")
        os.close(fd)
        log = Path(name)
    with log.open("ab") as err:
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=full_env,
            cwd=cwd,
            start_new_session=group,
        )
    return Served(
        proc,
        log,
        timeout=timeout,
        ready=ready,
        healthy=healthy,
        group=group,
        stop_signal=stop_signal,
    )
