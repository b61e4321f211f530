"""Where parallel work runs: this process, local worker processes (``--jobs``), or Ray.

The arena's hand-sets, ``hkmj sim``'s matches and the env's self-play episodes are independent
pieces of work, each a pure function of its seed. :func:`imap_indexed` runs such a function over a
list of items and yields ``(index, result)`` as each finishes; the callers put the results back in
index order, so what they report never depends on where or in what order the pieces ran.

Backends:

- ``local`` (the default): in this process with ``jobs=1``, else a ``multiprocessing`` pool of
  ``jobs`` processes (fork where the platform has it).
- ``ray``: each item is a Ray task. Without an address a private local Ray instance is started on
  this machine (``num_cpus=jobs``, no dashboard, quiet logs); with ``address`` (``auto`` or
  ``HOST:PORT`` of a ``ray start --head``) the work goes to that cluster, whose nodes must have
  the same hkmahjong installed. Ray stays up until the process ends (or :func:`ray_shutdown`), so
  later runs in the same process reuse it and its warm worker processes. Ray is an optional
  dependency (the ``ray`` extra), imported only when this backend is asked for.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from hkmahjong.errors import MahjongError

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "imap_indexed",
    "ray_available",
    "ray_init",
    "ray_shutdown",
]

BACKENDS = ("local", "ray")
"""The names ``--backend`` accepts."""

RAY_EXTRA = "pip install 'hkmahjong[ray]'"

T = TypeVar("T")
R = TypeVar("R")


class BackendError(MahjongError):
    """A backend that cannot run: an unknown name, Ray not installed, a cluster not reached."""


@dataclass(frozen=True)
class Backend:
    """Where to run: ``name`` (``local`` or ``ray``), ``jobs`` (local processes, or the CPUs of a
    private local Ray instance) and ``address`` (a Ray cluster; ``None``: a local instance)."""

    name: str = "local"
    jobs: int = 1
    address: str | None = None

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise BackendError(
                f"unknown backend {self.name!r}: expected one of {', '.join(BACKENDS)}"
            )
        if self.jobs < 1:
            raise BackendError(f"--jobs must be at least 1, got {self.jobs}")
        if self.address is not None and self.name != "ray":
            raise BackendError("--address names a Ray cluster: it needs --backend ray")

    def workers(self) -> int:
        """How many pieces of work run at once (to size chunks): ``jobs``, or the CPUs of the
        Ray cluster when one is named by address."""
        if self.name == "ray" and self.address is not None:
            ray = _import_ray()
            ray_init(self)
            return max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self.jobs


def ray_available() -> bool:
    """Whether Ray can be imported (the ``ray`` extra is installed)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(
            f"--backend ray needs Ray, which is not installed: {RAY_EXTRA} (the ray extra)"
        ) from None
    return ray


def ray_init(backend: Backend) -> None:
    """Start (or connect to) Ray for ``backend`` unless this process is already connected.

    :raises BackendError: when Ray is not installed or the cluster cannot be reached.
    """
    ray = _import_ray()
    if ray.is_initialized():
        return
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    common: dict[str, Any] = {
        "include_dashboard": False,
        "logging_level": logging.ERROR,
        "log_to_driver": False,
        "configure_logging": True,
    }
    try:
        if backend.address is not None:
            ray.init(address=backend.address, **common)
        else:
            # "local": always a private instance (never a `ray start` cluster found by chance),
            # so two processes on one machine (pytest -n 2) each get their own.
            ray.init(
                address="local",
                num_cpus=backend.jobs,
                object_store_memory=128 * 1024 * 1024,
                **common,
            )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        if backend.address is None:
            raise BackendError(f"cannot start a local Ray instance: {exc}") from None
        hint = ""
        if backend.address != "auto" and os.environ.get("RAY_AUTH_MODE") is None:
            hint = (
                " (a cluster with token authentication needs RAY_AUTH_MODE=token and its token "
                "in ~/.ray/auth_token or RAY_AUTH_TOKEN; docs/bots.md, 'On Ray')"
            )
        raise BackendError(f"cannot reach Ray at {backend.address}: {exc}{hint}") from None


def ray_shutdown() -> None:
    """Disconnect from Ray (stopping a private local instance); nothing if Ray is not running."""
    if "ray" not in sys.modules:
        return
    ray = sys.modules["ray"]
    if ray.is_initialized():
        ray.shutdown()


def imap_indexed(
    fn: Callable[[T], R], items: Sequence[T], backend: Backend | None = None
) -> Iterator[tuple[int, R]]:
    """``(i, fn(items[i]))`` for every item, in the order they finish.

    ``fn`` must be a module-level function and the items picklable (they travel to other
    processes, or to other machines with Ray). An exception raised by ``fn`` is raised here.

    :raises BackendError: when the Ray backend cannot run.
    """
    backend = backend or Backend()
    if backend.name == "ray":
        yield from _ray_imap(fn, items, backend)
    elif backend.jobs == 1 or len(items) <= 1:
        for i, item in enumerate(items):
            yield i, fn(item)
    else:
        ctx = multiprocessing.get_context(_start_method())
        with ctx.Pool(min(backend.jobs, len(items))) as pool:
            yield from pool.imap_unordered(_Indexed(fn), list(enumerate(items)))


def _start_method() -> str:
    """``fork`` (fast: the workers share the parent's loaded tables), except on Windows and in a
    process connected to Ray, whose threads a forked child must not inherit: ``spawn`` there."""
    ray = sys.modules.get("ray")
    if sys.platform == "win32" or (ray is not None and ray.is_initialized()):
        return "spawn"
    return "fork"


class _Indexed:
    """``fn`` applied to the item of an ``(index, item)`` pair, keeping the index (picklable)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __call__(self, pair: tuple[int, Any]) -> tuple[int, Any]:
        return pair[0], self.fn(pair[1])


def _ray_imap(
    fn: Callable[[T], R], items: Sequence[T], backend: Backend
) -> Iterator[tuple[int, R]]:
    ray = _import_ray()
    ray_init(backend)
    task = ray.remote(num_cpus=1, max_retries=0)(fn)
    index = {task.remote(item): i for i, item in enumerate(items)}
    pending = list(index)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield index[ref], ray.get(ref)
    finally:
        for ref in pending:  # an error (or a caller that stopped early): drop the rest
            ray.cancel(ref, force=False)
