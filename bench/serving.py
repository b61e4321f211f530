"""``hkmj serve`` as a child process, for the tests and the benchmarks: started on a free loopback
port, its address read **with a timeout** (a server that hangs before printing it fails the
caller after ``timeout`` seconds instead of blocking it forever), stopped by a signal.

One home for what tests/server, tests/web and bench/ used to copy: a thread drains the child's
standard output into a queue (so a full pipe can never stall the server either) and
:meth:`Served.readline` waits on that queue with a deadline. Standard error goes to a log file
whose tail is quoted when the server does not start.

    with start_serve(data_dir, env={"HKMJ_SECRET": "…"}) as served:
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
    """A running ``hkmj serve``: its process, its URL (no trailing slash) and its output lines."""

    def __init__(self, proc: subprocess.Popen[str], log: Path, *, timeout: float) -> None:
        self.proc = proc
        self.log = log
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert proc.stdout is not None
        self._reader = threading.Thread(
            target=self._drain, args=(proc.stdout,), name=f"serve-stdout-{proc.pid}", daemon=True
        )
        self._reader.start()
        self.url = self._address(timeout)

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
        return line

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

    def stop(self, sig: int = signal.SIGINT, timeout: float = STOP_TIMEOUT) -> int | None:
        """Send ``sig`` and wait; kill after ``timeout`` s. The exit status (``None``: killed)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
        return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL and reap."""
        if self.proc.poll() is None:
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
) -> Served:
    """Start ``hkmj serve --port 0 [--data-dir DATA_DIR] EXTRA…`` with ``os.environ`` plus ``env``
    (a value of ``""`` removes that variable); stderr goes to ``log`` (default: beside the
    data directory, else a temporary file). ``args`` replaces the whole command line after ``hkmj serve``.

    :raises ServeError: no address within ``timeout`` seconds, or the server exited first.
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
    command = [sys.executable, "-m", "hkmahjong.entry", "serve", *args, *extra]
    if log is None and data_dir is not None and data_dir.parent.is_dir():
        log = data_dir.parent / f"{data_dir.name}-serve.log"
    if log is None:
        fd, name = tempfile.mkstemp(prefix="hkmj-serve-", suffix=".log")
        os.close(fd)
        log = Path(name)
    with log.open("ab") as err:
        proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=err, text=True, env=full_env
        )
    return Served(proc, log, timeout=timeout)
