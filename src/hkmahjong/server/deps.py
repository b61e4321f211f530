"""依賴 FastAPI dependencies shared by the parlor's routes and websockets: settings and store."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store

__all__ = ["get_settings", "get_store"]


def get_settings(conn: HTTPConnection) -> Settings:
    """The running app's :class:`Settings` (works for HTTP requests and websockets)."""
    settings = conn.app.state.settings
    assert isinstance(settings, Settings)
    return settings


def get_store(conn: HTTPConnection) -> Store:
    """The running app's :class:`Store`."""
    store = conn.app.state.store
    assert isinstance(store, Store)
    return store
