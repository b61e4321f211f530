"""圖表 a line chart as the numbers an inline SVG needs (the page draws it; no script, no bundler).

:func:`line_chart` turns a series (a player's jade balance after each change) into a polyline in
a fixed view box, stretched to the page's width (the line keeps its width:
``vector-effect: non-scaling-stroke``); the axis labels are HTML beside it, so they stay legible
on a phone. Long series are thinned to at most ``max_points`` points, keeping each bucket's
lowest and highest value (the shape stays, peaks and troughs included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

__all__ = ["LineChart", "line_chart", "thin"]

WIDTH = 600.0
HEIGHT = 200.0


@dataclass(frozen=True)
class LineChart:
    """What the template draws: the view box, the polyline's points, the zero line (if in range)
    and the labels (lowest, highest and last value; first and last time)."""

    width: float
    height: float
    points: str
    """``x,y x,y …`` in the view box."""
    area: str
    """The polygon under the line (to shade it)."""
    zero_y: float | None
    low: int
    high: int
    last: int
    first_at: datetime
    last_at: datetime
    count: int
    """Changes in the series (before thinning)."""


def thin(values: Sequence[int], max_points: int) -> list[int]:
    """At most about ``max_points`` of ``values``, in order: each bucket's lowest and highest,
    always the first and the last.

    >>> thin([0, 5, -3, 2, 8, 1, 4, 0], 6)
    [0, 5, -3, 8, 1, 0]
    """
    n = len(values)
    if n <= max_points or max_points < 4:
        return list(values)
    buckets = max(1, (max_points - 2) // 2)
    inner = values[1:-1]
    size = len(inner) / buckets
    out = [values[0]]
    for b in range(buckets):
        chunk = inner[int(b * size) : int((b + 1) * size)]
        if not chunk:
            continue
        lo = chunk.index(min(chunk))
        hi = chunk.index(max(chunk))
        out.extend(chunk[i] for i in sorted({lo, hi}))
    out.append(values[-1])
    return out


def line_chart(
    values: Sequence[int],
    first_at: datetime | None,
    last_at: datetime | None,
    *,
    max_points: int = 240,
    bounds: tuple[int, int] | None = None,
) -> LineChart | None:
    """The chart of ``values`` (oldest first; the x axis is their order) changed from
    ``first_at`` to ``last_at``; None when there are none. The y axis spans the values, or
    ``bounds`` (low, high) when given — a share in percent keeps its 0–100 scale.

    >>> at = datetime(2026, 12, 7)
    >>> c = line_chart([50, 100], at, at, bounds=(0, 100))
    >>> (c.low, c.high, c.points)
    (0, 100, '0.0,100.0 600.0,8.0')
    """
    if not values or first_at is None or last_at is None:
        return None
    kept = thin(values, max_points)
    low, high = (min(kept), max(kept)) if bounds is None else bounds
    top, bottom = (high, low) if high > low else (high + 1, low - 1)
    pad = 8.0

    def y(v: float) -> float:
        return round(pad + (top - v) / (top - bottom) * (HEIGHT - 2 * pad), 1)

    step = WIDTH / max(1, len(kept) - 1)
    xs = [round(i * step, 1) for i in range(len(kept))] if len(kept) > 1 else [0.0, WIDTH]
    ys = [y(v) for v in kept] if len(kept) > 1 else [y(kept[0])] * 2
    points = " ".join(f"{x},{yy}" for x, yy in zip(xs, ys, strict=True))
    area = f"{xs[0]},{HEIGHT} {points} {xs[-1]},{HEIGHT}"
    zero = y(0) if bottom < 0 < top else None
    return LineChart(
        WIDTH, HEIGHT, points, area, zero, low, high, kept[-1], first_at, last_at, len(values)
    )
