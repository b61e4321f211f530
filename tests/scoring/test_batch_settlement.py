"""Optional batch settlement fields: co_winner_seats (一炮多響), kong_discarder_seat (出槓), balances.

docs/rules.md §9 (several winners, each paid separately; bankrupt cap) and §6 (出槓, W2/C); the same
fields as CLI flags (--co-winner, --kong-discarder, --balances).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.rules import Ruleset
from hkmahjong.rules.payment import ExposedKongPayment, GunScheme
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.batch import score_line

PARLOR = get_preset("parlor")
# W1/W2 一炮多響 with 半銃 (P "common parlor rule") and W2/C 出槓 paid as a discard
MULTI = replace(
    PARLOR,
    name="multi",
    multiple_winners=True,
    payment=replace(
        PARLOR.payment, gun=GunScheme.HALF_GUN, exposed_kong=ExposedKongPayment.AS_DISCARD
    ),
)
ALL_CHOWS = {"concealed": "123m456p789s234m55s"}  # 平糊 門前清 無花 = 3 fan, share 4 (P)


def _score(obj: dict[str, object], rules: Ruleset = PARLOR) -> dict[str, object]:
    return score_line(json.dumps(obj), 1, rules, get_preset)


def _settlement(out: dict[str, object]) -> dict[str, int]:
    assert "error" not in out, out
    payment = out["payment"]
    assert isinstance(payment, dict)
    settlement = payment["settlement"]
    assert isinstance(settlement, dict)
    assert sum(settlement.values()) == 0
    return settlement


def test_co_winner_pays_nothing_under_half_gun() -> None:
    """docs/rules.md §9 一炮多響 (W1/W2): each win paid separately; a co-winner pays no share."""
    ctx = {"winner_seat": "S", "discarder_seat": "E", "co_winner_seats": ["W"]}
    out = _score({"id": "a", "hand": ALL_CHOWS, "context": ctx}, MULTI)
    assert _settlement(out) == {"E": -8, "S": 12, "W": 0, "N": -4}
    alone = _score({"id": "b", "hand": ALL_CHOWS, "context": ctx | {"co_winner_seats": []}}, MULTI)
    assert _settlement(alone) == {"E": -8, "S": 16, "W": -4, "N": -4}


def test_co_winners_refused_under_head_bump() -> None:
    """docs/rules.md §6 截糊 (P): the parlor has one winner per discard unless a kong is robbed."""
    ctx = {"winner_seat": "S", "discarder_seat": "E", "co_winner_seats": ["W"]}
    out = _score({"id": "a", "hand": ALL_CHOWS, "context": ctx})
    assert "multiple_winners" in str(out["error"])
    robbed = _score({"id": "b", "hand": ALL_CHOWS, "context": ctx | {"special": ["robbing_kong"]}})
    # W1 fn.7 / W2: several robbers are all paid by the declarer (full gun: 3 shares of 8)
    assert _settlement(robbed) == {"E": -24, "S": 24, "W": 0, "N": 0}


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("co_winner_seats", "W", "expected a list"),
        ("co_winner_seats", ["Q"], "co_winner_seats[0]"),
        ("co_winner_seats", ["S"], "winner S itself"),
        ("co_winner_seats", ["E"], "discarder E"),
        ("balances", {"E": 5}, "missing seat"),
        ("balances", {"E": 1.5, "S": 0, "W": 0, "N": 0}, "balances.E"),
        ("kong_discarder_seat", "N", "kong replacement"),
    ],
)
def test_bad_settlement_fields(field: str, value: object, words: str) -> None:
    """docs/calculator.md, *Batches*: a malformed line gives an error naming the field; nothing crashes."""
    ctx = {"winner_seat": "S", "discarder_seat": "E", field: value}
    out = _score({"id": "x", "hand": ALL_CHOWS, "context": ctx}, MULTI)
    assert words in str(out.get("error")), out


def test_kong_discarder_pays_as_discarder() -> None:
    """docs/rules.md §6 出槓 (W2, C): a win on an exposed kong's replacement is paid by its feeder."""
    hand = {"concealed": "123m456p789s55s", "melds": [{"type": "kong", "tiles": "2222p"}]}
    ctx = {
        "self_drawn": True,
        "special": ["kong_replacement"],
        "winner_seat": "S",
        "kong_discarder_seat": "N",
    }
    out = _score({"id": "k", "hand": hand, "context": ctx}, MULTI)
    assert out["total_fan"] == 3  # 自摸 槓上開花 無花
    assert _settlement(out) == {"E": -4, "S": 16, "W": -4, "N": -8}
    plain = _score({"id": "k", "hand": hand, "context": ctx}, PARLOR)  # exposed_kong off (P)
    assert _settlement(plain) == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_balances_cap_a_bankrupt_payer() -> None:
    """docs/rules.md §9 'until bankrupt' matches (P): a payer pays what it holds; still zero-sum."""
    ctx = {"self_drawn": True, "winner_seat": "S", "balances": {"E": 3, "S": 0, "W": 100, "N": 0}}
    out = _score({"id": "b", "hand": ALL_CHOWS, "context": ctx})
    assert out["total_fan"] == 4
    assert _settlement(out) == {"E": -3, "S": 11, "W": -8, "N": 0}


def test_cli_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same fields as flags: --co-winner, --kong-discarder, --balances (docs/rules.md §9, §6)."""
    toml = tmp_path / "multi.toml"
    toml.write_text(
        'preset = "parlor"\n[switches]\nmultiple_winners = true\n'
        '[payment]\ngun = "half_gun"\nexposed_kong = "as_discard"\n',
        encoding="utf-8",
    )
    args = ["score", "123m456p789s234m55s", "--seat", "S", "--discarder", "E"]
    assert main([*args, "--co-winner", "W", "--rules", str(toml), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["payment"]["settlement"] == {"E": -8, "S": 12, "W": 0, "N": -4}
    hand = ["score", "123m456p789s55s [2222p]", "--seat", "S", "--self-drawn"]
    assert main([*hand, "--kong-replacement", "--kong-discarder", "N", "--rules", str(toml)]) == 0
    assert "結算 settlement: 東 E -4, 南 S +16, 西 W -4, 北 N -8" in capsys.readouterr().out
    bal = ["--balances", "E=3,S=0,W=100,N=0"]
    assert main(["score", "123m456p789s234m55s", "--seat", "S", "--self-drawn", *bal]) == 0
    assert "破產" in capsys.readouterr().out


def test_winner_seat_is_the_seat_wind() -> None:
    """docs/calculator.md, *Batches* 'winner at its seat wind'; docs/rules.md §2 a seat is named by its wind.

    W2 正統 正花: 2f/2g are South's own bonus tiles, so winner_seat S alone scores them.
    """
    hand = {"concealed": "123m456p789s234m55s"}
    ctx = {"winner_seat": "S", "discarder_seat": "E", "flowers": ["2f", "3g"]}
    out = _score({"id": "w", "hand": hand, "context": ctx})
    assert {i["id"]: i["fan"] for i in out["items"]}["SEAT_BONUS"] == 1  # type: ignore[index,union-attr]
    clash = _score({"id": "c", "hand": hand, "context": ctx | {"seat_wind": "W"}})
    assert "must agree" in str(clash["error"])
