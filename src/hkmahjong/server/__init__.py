"""麻雀館 the web parlor's adapters: the FastAPI app, auth, the REST API, the store (SQLAlchemy +
Alembic on SQLite or PostgreSQL), pages and the websocket protocol over :mod:`hkmahjong.parlor`.

Importing this package needs only the standard library (``hkmj`` finds ``cmd_serve`` and
``cmd_admin`` here); the modules that build the app need the ``[server]`` extra. See docs/server.md.
"""

from __future__ import annotations

__all__: list[str] = []
