"""環境變數 (environment numbers): one parser for the parlor's numeric ``HKMJ_*`` variables.

Every such setting is read the same way: its text, a whole number or a number of seconds in a
range (optionally 0 for "off"), and one kind of error naming the variable, what it held and what
is allowed (issue 32 item 3; before, each module parsed its own and raised one of three errors).
That error is a :class:`SettingsError`, the one error of every setting (the server's
``hkmahjong.server.settings`` tree raises it too), so ``hkmj serve`` reports any of them alike.

>>> env_number("HKMJ_X", "5", low=1, high=10, env={})
5
>>> env_number("HKMJ_X", "5", low=0.5, high=10, env={"HKMJ_X": "0.25"}, seconds=True)
Traceback (most recent call last):
...
hkmahjong.parlor.environ.EnvNumberError: HKMJ_X='0.25': expected seconds from 0.5 to 10
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

from hkmahjong.errors import MahjongError

__all__ = ["EnvNumberError", "SettingsError", "env_number"]


class SettingsError(MahjongError):
    """A setting that cannot be used (a ``ValueError``): names the setting or the environment
    variable, what it held and what is allowed."""


class EnvNumberError(SettingsError):
    """A numeric environment variable that does not hold an allowed number."""


def env_number(
    name: str,
    default: str,
    *,
    low: float,
    high: float,
    seconds: bool = False,
    zero_off: bool = False,
    hint: str = "",
    env: Mapping[str, str] | None = None,
) -> float:
    """``name``'s value from ``env`` (default ``os.environ``; ``default`` when unset): a whole
    number from ``low`` to ``high``, or with ``seconds`` any finite number of seconds in that
    range; ``zero_off`` also allows 0 (off). An ``int`` for whole numbers.

    :raises EnvNumberError: naming the variable, its text and the range allowed.
    """
    text = (os.environ if env is None else env).get(name, default)
    what = "seconds" if seconds else "a whole number"
    allowed = f"{'0 (off) or ' if zero_off else ''}{what} from {low:g} to {high:g}"
    try:
        value: float = float(text) if seconds else int(text)
    except ValueError:
        value = math.nan
    if not (zero_off and value == 0) and not low <= value <= high:
        raise EnvNumberError(f"{name}={text!r}: expected {allowed}{hint}")
    return value
