"""健康 ``GET /healthz``: the server answers and its database is reachable and migrated."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel
from sqlalchemy import text

from hkmahjong import __version__
from hkmahjong.server.deps import get_store
from hkmahjong.server.store import Store

__all__ = ["Health", "router"]

router = APIRouter(tags=["health"])


class Health(BaseModel):
    """The server's state: version, database kind and schema revision."""

    status: str
    version: str
    database: str
    revision: str | None
    node: str | None = None
    """Several processes (docs/deploy.md): this process's name in the cluster."""
    tables: int | None = None
    """Several processes: the open tables live in this process now."""
    heap: dict[str, float] | None = None
    """``hkmj serve``'s heap keeper (docs/server.md, *Capacity*): its ticks (young collection
    + freeze) so far, their total and longest milliseconds, the sweeps and the last sweep's
    pause, and its trims (memory given back to the system) with their total and longest
    milliseconds."""


@router.get("/healthz", response_model=Health)
def healthz(request: Request, store: Annotated[Store, Depends(get_store)]) -> Health:
    """Answer when the server runs and its database answers."""
    with store.session() as session:
        session.execute(text("SELECT 1"))
    cluster = getattr(request.app.state, "cluster", None)
    keeper = getattr(request.app.state, "heap", None)
    heap = None
    if keeper is not None and keeper.active:
        last = keeper.sweeps[-1].pause_ms if keeper.sweeps else 0.0
        heap = {
            "ticks": float(keeper.ticks),
            "tick_ms_total": round(keeper.tick_ms_total, 1),
            "tick_ms_max": round(keeper.tick_ms_max, 1),
            "sweeps": float(len(keeper.sweeps)),
            "last_sweep_ms": round(last, 1),
            "trims": float(keeper.trims),
            "trim_ms_total": round(keeper.trim_ms_total, 1),
            "trim_ms_max": round(keeper.trim_ms_max, 1),
        }
    return Health(
        status="ok",
        version=__version__,
        database=store.dialect,
        revision=store.revision(),
        node=None if cluster is None else cluster.owner,
        tables=None if cluster is None else cluster.live_tables(),
        heap=heap,
    )
