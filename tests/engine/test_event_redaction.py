"""Event redaction (``Event.for_seat`` / ``Event.public``) built without ``dataclasses.replace``
must be exactly the replace-built copy, for every field the dataclass has."""

from __future__ import annotations

from dataclasses import fields, replace

from hkmahjong.engine.events import Event, EventKind, Visibility, _redacted_detail
from hkmahjong.tiles import Tile, Wind


def test_redaction_keeps_every_field_but_the_hidden_tiles() -> None:
    names = [f.name for f in fields(Event)]
    # A new field must be carried over by Event._redacted too (then add it here).
    assert names == ["kind", "seat", "tile", "tiles", "meld", "source", "detail", "visibility"]
    for kind in (EventKind.DRAW, EventKind.DEAL):
        ev = Event(
            kind, Wind.SOUTH, Tile(5), (Tile(1), Tile(2)), None, Wind.EAST, "head",
            Visibility.SEAT,
        )  # fmt: skip
        want = replace(ev, tile=None, tiles=(), detail=_redacted_detail(ev))
        assert ev.for_seat(Wind.WEST) == want
        assert ev.public() == want
        assert ev.for_seat(Wind.SOUTH) is ev
