"""settle_hand, the one settlement: several wins of one discard, liable co-winners, bad inputs.

docs/rules.md §6 一炮多響 (W1/W2), §9 半銃 / 全銃, §10 包牌 (P "独自支付"; C 落地 half discard), and the
calculator's ``liable_half_discard`` / ``--liable-half`` that expose C's half-discard liability.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.rules.payment import GunScheme
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.batch import score_line
from hkmahjong.scoring.payment import (
    FalseWinClaim,
    PaymentError,
    WinClaim,
    settle_false_win,
    settle_hand,
    settle_win_fan,
)
from hkmahjong.tiles import Wind

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PARLOR = get_preset("parlor")
HALF = replace(PARLOR, payment=replace(PARLOR.payment, gun=GunScheme.HALF_GUN))


def test_wins_of_one_discard_are_each_others_co_winners() -> None:
    """docs/rules.md §9 半銃: S (3 fan, share 4) and W (6 fan, share 16) win on E's discard; the
    discarder pays two shares to each, the bystander N one share to each, and S and W nothing to
    each other (the decision in docs/payment.md)."""
    wins = [WinClaim(W, 6, discarder=E), WinClaim(S, 3, discarder=E)]
    s = settle_hand(wins, HALF)
    assert s.as_json() == {"E": -(8 + 32), "S": 8 + 4, "W": 32 + 16, "N": -(4 + 16)}
    assert [line.payee for line in s.lines] == [S, S, W, W]  # in turn order after the discarder
    one_at_a_time = [
        settle_win_fan(
            c.fan,
            False,
            winner=c.winner,
            discarder=E,
            self_drawn=False,
            payment=HALF.payment,
            min_fan=HALF.min_fan,
            limit=HALF.limit,
            co_winners=[o.winner for o in wins if o is not c],
        )
        for c in wins
    ]
    assert s.as_json() == (one_at_a_time[0] + one_at_a_time[1]).as_json()


def test_a_liable_co_winner_pays_nothing() -> None:
    """docs/rules.md §10 包牌 with 一炮多響: N is liable for S's hand but also won on the discard; a seat
    that won this hand pays no one, so S's win is paid as if nobody were liable *(decision)*."""
    wins = [WinClaim(S, 3, liable=N, discarder=E), WinClaim(N, 3, discarder=E)]
    s = settle_hand(wins, HALF)
    assert s.as_json() == {"E": -16, "S": 8 + 4, "W": -8, "N": 8 + 4}
    assert all(line.payer in (E, W) for line in s.lines)


def test_wins_and_false_wins_share_one_balance_cap() -> None:
    """P 打至有人破產: a payer pays what it holds; a later false win finds what is left."""
    balances = {E: 10, S: 0, W: 0, N: 30}
    s = settle_hand(
        [WinClaim(S, 3, discarder=E)],
        PARLOR,
        false_wins=[FalseWinClaim(E, self_drawn=True)],
        balances=balances,
    )
    assert s.as_json() == {"E": -10, "S": 10, "W": 0, "N": 0}
    alone = settle_false_win(E, PARLOR, self_drawn=True, balances=balances)
    assert alone.as_json() == {"E": -10, "S": 10, "W": 0, "N": 0}


@pytest.mark.parametrize(
    ("wins", "message"),
    [
        ([WinClaim(S, 3, discarder=E), WinClaim(W, 3, discarder=N)], "one discard"),
        ([WinClaim(S, 3), WinClaim(W, 3)], "one discard"),
        ([WinClaim(S, 3, discarder=E), WinClaim(S, 4, discarder=E)], "wins twice"),
        ([WinClaim(S, 3, discarder=E, co_winners=frozenset({E}))], "discarder E cannot"),
        ([WinClaim(S, 3, co_winners=frozenset({W}))], "self-draw has no co-winners"),
        (
            [WinClaim(S, 3, discarder=E, robbed_kong=True), WinClaim(W, 3, discarder=E)],
            "all rob the kong or none",
        ),
    ],
)
def test_wins_that_cannot_be_one_hand_are_refused(wins: list[WinClaim], message: str) -> None:
    """docs/rules.md §6: several wins in a hand are one discard's (or one robbed kong's)."""
    with pytest.raises(PaymentError, match=message):
        settle_hand(wins, HALF)


# --- C 落地: the liable seat pays half of the discard, in the calculator too -------------------------
LANDED = replace(PARLOR, payment=replace(PARLOR.payment, landed=True, landed_half_discard=True))
ALL_CHOWS = {"concealed": "123m456p789s234m55s"}  # 平糊 門前清 無花 = 3 fan, share 4 (P)


def test_batch_liable_half_discard() -> None:
    """C "亦需要包出銃者一半分數": N pays half of E's 12 (full gun, 3 shares), E the rest."""
    ctx = {"winner_seat": "S", "discarder_seat": "E", "liable_seat": "N"}
    line = json.dumps({"id": 1, "hand": ALL_CHOWS, "context": ctx | {"liable_half_discard": True}})
    out = score_line(line, 1, LANDED, get_preset)
    assert out["payment"]["settlement"] == {"E": -6, "S": 12, "W": 0, "N": -6}
    whole = score_line(
        json.dumps({"id": 2, "hand": ALL_CHOWS, "context": ctx}), 1, LANDED, get_preset
    )
    assert whole["payment"]["settlement"] == {"E": 0, "S": 12, "W": 0, "N": -12}


@pytest.mark.parametrize(
    "ctx",
    [
        {"winner_seat": "S", "discarder_seat": "E"},
        {"winner_seat": "S", "self_drawn": True, "liable_seat": "N"},
    ],
)
def test_batch_liable_half_discard_needs_a_liable_seat_and_a_discard(
    ctx: dict[str, object],
) -> None:
    """A flag that cannot apply is an error naming it (docs/calculator.md)."""
    line = json.dumps({"id": 1, "hand": ALL_CHOWS, "context": ctx | {"liable_half_discard": True}})
    out = score_line(line, 1, LANDED, get_preset)
    assert "liable_half_discard" in out["error"]


def test_cli_liable_half(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``hkmj score --liable N --liable-half``: the same settlement as the batch line."""
    toml = "preset = 'parlor'\n[payment]\nlanded = true\nlanded_half_discard = true\n"
    path = str(tmp_path / "landed.toml")
    (tmp_path / "landed.toml").write_text(toml, encoding="utf-8")
    args = ["score", "123m456p789s234m55s", "--seat", "S", "--discarder", "E", "--liable", "N"]
    assert main([*args, "--liable-half", "--rules", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["payment"]["settlement"] == {"E": -6, "S": 12, "W": 0, "N": -6}
    assert main(["score", "123m456p789s234m55s", "--seat", "S", "--liable-half"]) != 0
    assert "--liable-half" in capsys.readouterr().err
