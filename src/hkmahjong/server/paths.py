"""路徑 the types of the routes' path parameters: an id out of range is a 422 at the door.

A row id is a positive integer that fits the database's ``INTEGER`` (32 bits on PostgreSQL; 64
on SQLite, where a larger one raised ``OverflowError``): anything else is refused before a route
or the store sees it (issue 29, defect 7). ``tests/server/test_route_ids.py`` walks every route
with path parameters.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

__all__ = ["MAX_ROW_ID", "RowId"]

MAX_ROW_ID = 2**31 - 1
"""The largest id a row can have on every database the parlor runs on."""

RowId = Annotated[
    int, Path(ge=1, le=MAX_ROW_ID, description="a row id: 1 to 2147483647", examples=[1])
]
