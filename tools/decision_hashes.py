"""Hash every bot decision over a fixed set of walls, per preset: a speed-up must not change play.

    .venv/bin/python tools/decision_hashes.py              # print the hashes as JSON
    .venv/bin/python tools/decision_hashes.py --check      # compare with the committed hashes
    .venv/bin/python tools/decision_hashes.py --write      # rewrite the committed hashes

Each line-up (four ``fan``; ``strong`` with three ``fan``) plays walls ``0..walls-1`` of seed
``hash`` in the presets parlor, qingzhang and ml, as ``hkmj arena`` plays a fresh wall (a view
for each seat with more than one legal action, one decision). The time budget is unlimited, so
no decision depends on the clock. The SHA-256 of every (seat, action) in order is the line-up's
hash. The committed file (``tests/bots/data/decision_hashes.json``) was computed at main before
the speed work of issue 16; ``tests/bots/test_decision_hashes.py`` checks the walls it lists.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset

PRESETS = ("parlor", "qingzhang", "ml")
LINEUPS: dict[str, tuple[str, str, str, str]] = {
    "fan": ("fan", "fan", "fan", "fan"),
    "strong": ("strong", "fan", "fan", "fan"),
}
SEED = "hash"
DEFAULT_WALLS = 6
EXPECTED = (
    Path(__file__).resolve().parent.parent / "tests" / "bots" / "data" / "decision_hashes.json"
)


def lineup_hash(preset: str, names: Sequence[str], walls: int, seed: str = SEED) -> str:
    """SHA-256 (hex) of every action of ``names`` over walls ``0..walls-1`` of ``preset``."""
    ruleset = get_preset(preset)
    h = hashlib.sha256()
    for wall in range(walls):
        bots = [
            get_bot(n, seed=f"{seed}:{wall}:{i}", ruleset=ruleset, time_budget=1e9)
            for i, n in enumerate(names)
        ]
        state = HandState.new(ruleset, seed=hand_seed(seed, wall), hand_number=0)
        steps = 0
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            action = legal[0] if len(legal) == 1 else bots[seat].choose(state.view(seat), legal)
            state.apply(seat, action)
            h.update(f"{wall}:{int(seat)}:{action.text};".encode())
            steps += 1
            if steps > 5000:
                raise RuntimeError(f"wall {wall} of {preset} did not end")
    return h.hexdigest()


def all_hashes(walls: int) -> dict[str, str]:
    """``preset/line-up`` -> hash, for every preset and line-up."""
    return {
        f"{preset}/{name}": lineup_hash(preset, names, walls)
        for preset in PRESETS
        for name, names in LINEUPS.items()
    }


def main(argv: list[str] | None = None) -> int:
    """Print, check or write the hashes."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=None, help=f"default {DEFAULT_WALLS}")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="compare with the committed hashes")
    group.add_argument("--write", action="store_true", help="rewrite the committed hashes")
    args = ap.parse_args(argv)
    if args.check:
        expected = json.loads(EXPECTED.read_text())
        got = all_hashes(args.walls or expected["walls"])
        bad = [k for k, v in expected["hashes"].items() if got.get(k) != v]
        for k in bad:
            print(f"DIFFERENT {k}: {got.get(k)} != {expected['hashes'][k]}")
        print("identical" if not bad else f"{len(bad)} line-ups play differently")
        return 1 if bad else 0
    walls = args.walls or DEFAULT_WALLS
    data = {"seed": SEED, "walls": walls, "hashes": all_hashes(walls)}
    text = json.dumps(data, indent=2) + "\n"
    if args.write:
        EXPECTED.parent.mkdir(parents=True, exist_ok=True)
        EXPECTED.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
