"""Issue 13 item 7: a flag or field that cannot apply is reported, never silently dropped.

Two tables, each checked to cover every option of ``hkmj score`` and every key / ``special`` word
of a batch line's ``context``: for each, a request in which it cannot apply and the text that
must name it (an ``invalid_context`` message or an error).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from hkmahjong.cli.main import build_parser, main
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.batch import (
    CONTEXT_KEYS,
    HAND_KEYS,
    MELD_KEYS,
    TOP_KEYS,
    BatchRules,
    score_line,
)
from hkmahjong.scoring.context import SPECIAL_FLAGS

HAND14 = "123567p55999s111z"
HAND13 = "123567p5999s111z"
BONUS7 = "123567p5999s111z 1f2f3f4f1g2g3g"
_NK = ("--self-drawn", "--rules", "{NOKONG}")
W1_LAST = 'preset = "parlor"\n[switches]\nlast_tile = "self_drawn_only"\n'

# option -> (arguments after "score", text the outcome must contain); "{F}" = a batch file
CLI_CASES: dict[str, tuple[list[str], str]] = {
    "--jsonl": ([HAND14, "--jsonl", "{F}"], "either a HAND or --jsonl"),
    "--rules-dir": ([HAND14, "--rules-dir", "."], "--rules-dir applies only to --jsonl"),
    "--seat": (["--jsonl", "{F}", "--seat", "S"], "--seat does not apply to --jsonl"),
    "--round": (["--jsonl", "{F}", "--round", "S"], "--round does not apply"),
    "--bonus": (["--jsonl", "{F}", "--bonus", "1f"], "--bonus does not apply"),
    "--winning-tile": ([HAND13, "--winning-tile", "5s"], "--winning-tile does not apply"),
    "--discarder": ([HAND14, "--self-drawn", "--discarder", "E"], "--discarder cannot apply"),
    "--liable": ([HAND14, "--liable", "E"], "--liable cannot apply"),
    "--kong-discarder": ([HAND14, "--kong-discarder", "E"], "--kong-discarder (出槓)"),
    "--co-winner": ([HAND14, "--co-winner", "W"], "--co-winner: 'parlor' plays 截糊"),
    "--balances": ([HAND14, "--balances", "E=1,S=1,W=1,N=1"], "--balances cannot apply"),
    "--liable-half": ([HAND14, "--discarder", "E", "--liable-half"], "--liable-half"),
    "--lang": ([HAND14, "--json", "--lang", "en"], "--lang does not apply to --json"),
    "--json": (["--jsonl", "{F}", "--json"], "--json does not apply"),
    "--self-drawn": (["--jsonl", "{F}", "--self-drawn"], "--self-drawn does not apply"),
    "--last-tile": ([HAND14, "--last-tile", "--rules", "{W1}"], "--last-tile cannot apply"),
    "--kong-replacement": (
        ["(1111p) 567p5999s111z 1f2f3f4f1g2g3g", "--seven-bonus", "--kong-replacement", *_NK],
        "--kong-replacement cannot apply",
    ),
    "--double-kong": (
        ["(1111p) (5555p) 999s111z77s 1f2f3f4f1g2g3g", "--seven-bonus", "--double-kong", *_NK],
        "--double-kong cannot apply",
    ),
    "--bonus-replacement": (
        [HAND14 + " 1f", "--self-drawn", "--bonus-replacement", "--rules", "qingzhang"],
        "--bonus-replacement cannot apply",
    ),
    "--robbing-kong": ([HAND14, "--robbing-kong", "--winning-tile", "9s"], "搶槓 on 9s"),
    "--heavenly": ([HAND14, "--self-drawn", "--heavenly", "--rules", "{NOHEAVEN}"], "--heavenly"),
    "--earthly": ([HAND14, "--seat", "S", "--earthly", "--rules", "{NOHEAVEN}"], "--earthly"),
    "--first-go-around": (
        [HAND14, "--winning-tile", "5s", "--seat", "S", "--round", "S", "--first-go-around"],
        "--first-go-around cannot apply",
    ),
    "--seven-bonus": ([BONUS7, "--seven-bonus", "--discarder", "E"], "--discarder cannot apply"),
    "--eight-bonus": ([HAND13 + " 1f", "--eight-bonus"], "八仙過海 needs all eight"),
    "--early-ready": ([HAND14, "--early-ready"], "--early-ready cannot apply"),
    "--declined-bonus-win": ([HAND14, "--declined-bonus-win"], "--declined-bonus-win cannot"),
    "--kong-first": ([HAND14, "--kong-first"], "--kong-first cannot apply"),
}
ALWAYS_APPLY = {"--rules": "the ruleset: used by one hand and as a batch's default"}


def _score_options() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    score = sub.choices["score"]
    return [
        a.option_strings[-1]
        for a in score._actions
        if a.option_strings and a.option_strings[-1] != "--help"
    ]


def test_cli_table_covers_every_option() -> None:
    """Every option of hkmj score has a case where it cannot apply (or always applies)."""
    options = set(_score_options())
    assert options == set(CLI_CASES) | set(ALWAYS_APPLY), options ^ (
        set(CLI_CASES) | set(ALWAYS_APPLY)
    )


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    batch = tmp_path / "b.jsonl"
    batch.write_text(json.dumps({"hand": HAND14}) + "\n", encoding="utf-8")
    tomls = {
        "W1": W1_LAST,
        "NOKONG": 'preset = "qingzhang"\n[switches]\nbonus_win_kong_replacement = false\n',
        "NOHEAVEN": 'preset = "parlor"\n[fan]\nHEAVENLY = false\nEARTHLY = false\n',
    }
    out = {"F": str(batch)}
    for key, text in tomls.items():
        path = tmp_path / f"{key}.toml"
        path.write_text(text, encoding="utf-8")
        out[key] = str(path)
    return out


@pytest.mark.parametrize("option", sorted(CLI_CASES))
def test_cli_option_that_cannot_apply_is_named(
    option: str, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/calculator.md: a flag that cannot apply is reported, never silently dropped."""
    args, words = CLI_CASES[option]
    argv = ["score", *(a.format(**files) for a in args)]
    main(argv)
    got = capsys.readouterr()
    text = got.out + got.err
    assert words in text, f"{argv}: {text}"
    assert "不成糊" in text or "error" in text, text


# --- batch lines -------------------------------------------------------------------------------
PARLOR = get_preset("parlor")
MULTI = 'preset = "parlor"\n[switches]\nmultiple_winners = true\n'

# key or special word -> (line object, text the output must contain)
BATCH_CASES: dict[str, tuple[dict[str, object], str]] = {
    "seatwind (a typo)": ({"hand": HAND14, "context": {"seatwind": "S"}}, "seatwind: unknown"),
    "self_drawn": (
        {"hand": HAND14, "context": {"self_drawn": True, "special": ["robbing_kong"]}},
        "搶槓",
    ),
    "seat_wind": (
        {"hand": HAND14, "context": {"seat_wind": "S", "winner_seat": "W"}},
        "must agree",
    ),
    "prevailing_wind": ({"hand": HAND14, "context": {"prevailing_wind": "Q"}}, "prevailing"),
    "flowers": ({"hand": HAND14, "context": {"flowers": ["1m"]}}, "not a flower"),
    "special": ({"hand": HAND14, "context": {"special": ["firstgoaround"]}}, "unknown word"),
    "winner_seat": ({"hand": HAND14, "context": {"winner_seat": "X"}}, "winner_seat"),
    "discarder_seat": (
        {"hand": HAND14, "context": {"self_drawn": True, "discarder_seat": "E", "seat_wind": "S"}},
        "context.discarder_seat cannot apply",
    ),
    "liable_seat": ({"hand": HAND14, "context": {"liable_seat": "E"}}, "liable_seat cannot"),
    "kong_discarder_seat": (
        {"hand": HAND14, "context": {"kong_discarder_seat": "E"}},
        "kong_discarder_seat (出槓)",
    ),
    "co_winner_seats": (
        {"hand": HAND14, "context": {"co_winner_seats": ["W"]}, "rules": MULTI},
        "co_winner_seats cannot apply",
    ),
    "balances": (
        {"hand": HAND14, "context": {"balances": {"E": 1, "S": 1, "W": 1, "N": 1}}},
        "balances cannot apply",
    ),
    "liable_half_discard": (
        {"hand": HAND14, "context": {"discarder_seat": "E", "liable_half_discard": True}},
        "liable_half_discard",
    ),
    "last_tile": (
        {"hand": HAND14, "context": {"special": ["last_tile"]}, "rules": W1_LAST},
        "'last_tile' cannot apply",
    ),
    "kong_replacement": (
        {"hand": HAND14, "context": {"special": ["kong_replacement"], "self_drawn": True}},
        "槓上開花 needs a declared kong",
    ),
    "double_kong_replacement": (
        {
            "hand": "(1111p) 567p55999s111z",
            "context": {"special": ["double_kong_replacement"], "self_drawn": True},
        },
        "槓上槓 needs at least two",
    ),
    "bonus_replacement": (
        {
            "hand": HAND14 + " 1f",
            "context": {"special": ["bonus_replacement"], "self_drawn": True},
            "rules": "qingzhang",
        },
        "'bonus_replacement' cannot apply",
    ),
    "robbing_kong": (
        {
            "hand": {"concealed": HAND14, "winning_tile": "9s"},
            "context": {"special": ["robbing_kong"]},
        },
        "搶槓 on 9s",
    ),
    "heavenly": (
        {
            "hand": HAND14,
            "context": {"special": ["heavenly"], "self_drawn": True},
            "rules": 'preset = "parlor"\n[fan]\nHEAVENLY = false',
        },
        "'heavenly' cannot apply",
    ),
    "earthly": (
        {"hand": HAND14, "context": {"special": ["earthly"]}},
        "地糊 is a non-dealer's win",
    ),
    "first_go_around": (
        {"hand": HAND14, "context": {"special": ["first_go_around"], "seat_wind": "S"}},
        "'first_go_around' cannot apply",
    ),
    "seven_bonus": (
        {"hand": BONUS7, "context": {"special": ["seven_bonus"]}},
        "花糊 (seven bonus tiles) is not a win under 'parlor'",
    ),
    "eight_bonus": ({"hand": HAND13 + " 1f", "context": {"special": ["eight_bonus"]}}, "八仙過海"),
    "early_ready": (
        {"hand": HAND14, "context": {"special": ["early_ready"]}},
        "'early_ready' cannot apply",
    ),
    "declined_bonus_win": (
        {"hand": HAND14, "context": {"special": ["declined_bonus_win"]}},
        "'declined_bonus_win' cannot apply",
    ),
    "concealed_kong_before": (
        {"hand": HAND14, "context": {"special": ["concealed_kong_before"]}},
        "'concealed_kong_before' cannot apply",
    ),
    "winning_tile": (
        {
            "hand": {"concealed": BONUS7.split()[0] + BONUS7.split()[1], "winning_tile": "5s"},
            "context": {"special": ["seven_bonus"]},
            "rules": "qingzhang",
        },
        "hand.winning_tile cannot apply",
    ),
    "hand key": ({"hand": {"concealed": HAND14, "winning": "5s"}}, "hand.winning: unknown key"),
    "meld key": (
        {"hand": {"concealed": "5s", "melds": [{"type": "pung", "tiles": "111s", "open": 1}]}},
        "hand.melds[0].open: unknown key",
    ),
    "top key": ({"hand": HAND14, "ruels": "ml"}, "ruels: unknown key"),
}


def test_batch_table_covers_every_key_and_word() -> None:
    """Every context key and special word of docs/calculator.md, *Batches* (and ours) has a case."""
    assert set(CONTEXT_KEYS) | set(SPECIAL_FLAGS) | {"winning_tile"} <= set(BATCH_CASES)
    assert set(TOP_KEYS) and set(HAND_KEYS) and set(MELD_KEYS)


@pytest.mark.parametrize("key", sorted(BATCH_CASES))
def test_batch_field_that_cannot_apply_is_named(key: str) -> None:
    """A line whose field cannot apply is invalid_context or an error naming it."""
    obj, words = BATCH_CASES[key]
    out = score_line(json.dumps(obj), 1, PARLOR, BatchRules())
    text = str(out.get("error") or out.get("message"))
    assert words in text, f"{key}: {out}"
    assert out.get("valid_win") is not True


def test_applicable_flags_still_score() -> None:
    """The checks refuse only what cannot apply: the issue's hands score where they can."""
    ok = [
        (
            {
                "hand": HAND14,
                "context": {"special": ["first_go_around"], "seat_wind": "S", "self_drawn": True},
            },
            "HUMAN",
        ),
        ({"hand": HAND14, "context": {"special": ["last_tile"]}}, "LAST_DISCARD"),
        ({"hand": HAND14, "context": {"special": ["heavenly"], "self_drawn": True}}, "HEAVENLY"),
        ({"hand": HAND14, "context": {"discarder_seat": "S", "liable_seat": "W"}}, "SEAT_WIND"),
    ]
    for obj, fan in ok:
        out = score_line(json.dumps(obj), 1, PARLOR, BatchRules())
        ids = [i["id"] for i in out["items"]]  # type: ignore[index, union-attr]
        assert fan in ids, out
