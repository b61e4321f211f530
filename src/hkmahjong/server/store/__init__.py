"""倉 the parlor's storage: SQLAlchemy models, the Alembic migrations (shipped with the package and
applied at start) and the SQL implementations of :mod:`hkmahjong.parlor`'s ports."""

from __future__ import annotations

from hkmahjong.server.store.db import Store, make_engine
from hkmahjong.server.store.models import Base

__all__ = ["Base", "Store", "make_engine"]
