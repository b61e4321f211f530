"""The cost of reading a client frame (``parlor.protocol.parse_client``) on the hot path.

Every ``act`` a player sends goes through ``parse_client``; its hardening (the size and nesting
bound before ``json.loads``, no NaN/Infinity, no duplicate keys, bounded integers, no lone
surrogates or control characters, nothing raised but ``ProtocolError``) must cost next to
nothing on a normal frame. Measured in the same run against two references: ``json.loads``
alone, and the unhardened reader (``json.loads`` + the same field checks, as before issue 29).

    .venv/bin/python bench/bench_parse_client.py            # ~20 s
"""

from __future__ import annotations

import argparse
import json
import timeit
from typing import Any

from hkmahjong.engine.actions import Action
from hkmahjong.parlor import protocol as proto

FRAMES = {
    "act": '{"t":"act","action":"discard 5p","v":1234,"id":"c17"}',
    "act claim": '{"t":"act","action":"chow 345p","v":57,"id":"c18"}',
    "ping": '{"t":"ping"}',
    "hello": '{"t":"hello","proto":1,"epoch":"a1b2c3d4","since":42}',
    "id of brackets": '{"t":"act","action":"pung","v":1,"id":"' + "[" * 60 + '"}',
}
"""Normal frames; the last has more brackets than the cheap bound allows, so it takes the exact
(linear) nesting scan."""
HOSTILE = {
    "nested 1000": "[" * 1000 + "]" * 1000,
    "duplicate keys": '{"t":"ping","t":"ping"}',
    "4000 digits": '{"t":"hello","proto":' + "9" * 4000 + "}",
}


def unhardened(frame: str) -> Any:
    """The reader before issue 29: ``json.loads`` and the field checks (the reference)."""
    obj = json.loads(frame)
    spec = proto._FIELDS[obj["t"]]
    for key in obj:
        if key != "t" and key not in spec:
            raise ValueError(key)
    for key, (types, _required) in spec.items():
        if key in obj:
            value = obj[key]
            if isinstance(value, bool) or not isinstance(value, types):
                raise ValueError(key)
            if isinstance(value, int) and not 0 <= value < 2**53:
                raise ValueError(key)
            if isinstance(value, str) and len(value) > proto.MAX_ID_CHARS:
                raise ValueError(key)
    if obj["t"] == "act":
        return proto.Act(Action.from_text(obj["action"]), obj["v"], obj.get("id"))
    return obj


def per_call(fn: Any, arg: Any, number: int, repeat: int = 100) -> float:
    """The best of ``repeat`` short runs, in microseconds a call (the minimum is what the code
    costs; a loaded machine only adds to it)."""
    return min(timeit.repeat(lambda: fn(arg), number=number, repeat=repeat)) / number * 1e6


def refused(frame: str) -> None:
    try:
        proto.parse_client(frame)
    except proto.ProtocolError:
        return
    raise AssertionError("a hostile frame was accepted")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=1000, help="calls per run (100 runs)")
    args = parser.parse_args()
    print(f"{'frame':16s} {'json.loads':>11s} {'unhardened':>11s} {'parse_client':>13s} ratio")
    for name, frame in FRAMES.items():
        base = per_call(json.loads, frame, args.number)
        old = per_call(unhardened, frame, args.number)
        new = per_call(proto.parse_client, frame, args.number)
        print(f"{name:16s} {base:9.2f}us {old:9.2f}us {new:11.2f}us {new / old:5.2f}x")
    print("\nhostile frames (refused with ProtocolError):")
    for name, frame in HOSTILE.items():
        print(f"{name:16s} {per_call(refused, frame, max(1, args.number // 20)):9.2f}us")


if __name__ == "__main__":
    main()
