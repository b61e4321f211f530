"""Every parlor screen speaks one language (issue 13 item 14).

Each screen is rendered at 80×24 through Textual's pilot and read back from its screenshot, in
zh-Hant, zh-Hans and en (the project's three languages, ``render.LANGS``). What is allowed:

- **en**: no CJK character at all (ideographs, CJK punctuation, full-width forms). Tile labels
  are ASCII in English (``5m``, ``E``, ``plum``), so nothing needs an exception.
- **zh-Hant / zh-Hans**: Latin letters only inside these tokens — the key names the key help
  shows (``Enter``, ``Esc``, ``Home``, ``End``, a key letter ``w p k c x h s q``), the command
  ``hkmj replay``, a preset's name (``parlor``: a proper name, as the web parlor shows it) and a
  file path the player typed. And no character of the other Chinese script: the characters that
  differ between the two columns of the i18n table, the tile labels and the fan names.
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType

import pytest

from hkmahjong.cli.tui import i18n
from hkmahjong.cli.tui.app import ParlorApp
from hkmahjong.cli.tui.launch import build_game
from hkmahjong.cli.tui.render import LANGS, TileRenderer
from hkmahjong.cli.tui.replay import ReplayApp, load_frames
from hkmahjong.rules import PRESETS, FanId, get_preset
from hkmahjong.tiles import KINDS, Tile

KEY_TOKENS = {"Enter", "Esc", "Home", "End", "hkmj", "replay", *"wpkcxhsq"}
CJK = re.compile(r"[\u2e80-\u303f\u3040-\u9fff\uf900-\ufaff\uff00-\uffef]")
LATIN = re.compile(r"[A-Za-z]+")


def _script_pairs() -> tuple[set[str], set[str]]:
    """(Traditional-only, Simplified-only) characters, from every pair of strings we show."""
    pairs: list[tuple[str, str]] = [(h, s) for h, s, _ in i18n._WORDS.values()]
    pairs += [(f.zh, f.zh_hans) for f in FanId]
    pairs += [(t.label("zh-Hant"), t.label("zh-Hans")) for t in (*KINDS, *map(Tile, range(34, 42)))]
    trad: set[str] = set()
    simp: set[str] = set()
    for hant, hans in pairs:
        if len(hant) == len(hans):
            for a, b in zip(hant, hans, strict=True):
                if a != b:
                    trad.add(a)
                    simp.add(b)
    all_hant = {c for h, _ in pairs for c in h}
    all_hans = {c for _, s in pairs for c in s}
    return trad - all_hans, simp - all_hant


TRAD_ONLY, SIMP_ONLY = _script_pairs()


def foreign_text(text: str, lang: str, allowed: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """The pieces of ``text`` that are not in ``lang`` (see the module doc for the rule)."""
    if lang == "en":
        return CJK.findall(text)
    tokens = KEY_TOKENS | set(PRESETS) | set(allowed)
    bad = [w for w in LATIN.findall(text) if w not in tokens]
    other = SIMP_ONLY if lang == "zh-Hant" else TRAD_ONLY
    return bad + [c for c in text if c in other]


def test_the_rule_catches_what_it_should() -> None:
    """The checker itself: it flags English in Chinese, Chinese in English, and the other script."""
    assert foreign_text("Save failed", "zh-Hant") == ["Save", "failed"]
    assert foreign_text("discard (full gun, 3 shares)", "zh-Hant")
    assert foreign_text("bonus: 花", "en") == ["花"]
    assert foreign_text("明杠", "zh-Hant") == ["杠"]
    assert foreign_text("明槓", "zh-Hans") == ["槓"]
    assert foreign_text("Enter 下一局  parlor  q", "zh-Hans") == []
    assert foreign_text("Discard 5m  E  plum", "en") == []


def _screen_text(app: object) -> str:
    svg = app.export_screenshot()  # type: ignore[attr-defined]
    parts = re.findall(r">([^<]*)</text>", svg)
    text = html.unescape("".join(parts)).replace("\xa0", " ")
    return text.replace(app.title, "", 1)  # type: ignore[attr-defined]  # the SVG window's title


Step = Callable[[object, ModuleType], Awaitable[None]]


async def _press(pilot: object, kit: ModuleType, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)  # type: ignore[attr-defined]
        await kit.settle(pilot)


def _capture(
    app: ParlorApp, kit: ModuleType, script: list[tuple[str, tuple[str, ...]]]
) -> dict[str, str]:
    shots: dict[str, str] = {}

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await kit.settle(pilot)
            for name, keys in script:
                await _press(pilot, kit, *keys)
                await pilot.pause()
                shots[name] = _screen_text(app)

    asyncio.run(run())
    return shots


@pytest.mark.parametrize("lang", LANGS)
def test_every_parlor_screen_is_in_one_language(kit: ModuleType, tmp_path: Path, lang: str) -> None:
    """Table, prompts, chow choice, hint, save (ok and failed), quit, hand end, match end."""
    blocked = tmp_path / "file"
    blocked.write_text("x", encoding="utf-8")
    save_to = blocked / "s.jsonl"
    shots: dict[str, str] = {}

    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS, lang=lang)
    app = kit.make_app(game, save_path=save_to)
    shots.update(
        _capture(
            app,
            kit,
            [
                ("turn", ()),
                ("hint on a turn", ("h",)),
                ("claim prompt", ("escape", "enter")),
                ("hint on a claim", ("h",)),
                ("failed save", ("escape", "s")),
                ("quit prompt", ("q",)),
                ("after a pung", ("x", "p")),
            ],
        )
    )
    game = kit.scenario_game(kit.CHOW_THREE_WAYS, kit.CHOW_DRAWS, lang=lang)
    shots.update(_capture(kit.make_app(game), kit, [("chow choice", ("enter", "c"))]))
    ruleset = dataclasses.replace(get_preset("parlor"), multiple_winners=True)
    game = kit.scenario_game(kit.DOUBLE_WIN, lang=lang, bots=kit.winning_bots, ruleset=ruleset)
    app = kit.make_app(game)
    shots.update(_capture(app, kit, [("hand end", ("enter",)), ("match end", ("enter",))]))
    assert "hand end" in shots and "match end" in shots
    # The path may be cut off at the screen's edge: any start of one of its words is the path's.
    path_words = {w[:n] for w in LATIN.findall(str(save_to)) for n in range(1, len(w) + 1)}
    for name, text in shots.items():
        assert foreign_text(text, lang, path_words) == [], (name, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_screen_is_in_one_language(kit: ModuleType, tmp_path: Path, lang: str) -> None:
    """hkmj replay --tui: the captions (actions, wins, draws) and the keys line."""
    game = build_game(seed="lang-replay", length="one", opponents="easy", lang=lang)
    while not game.hand_over():
        if game.human_to_act():
            options = game.options()
            game.apply(next(iter(options.discard.values())) if options.discard else options.pass_)
        else:
            game.bot_step()
    game.next_hand()
    path = game.save(tmp_path / "r.jsonl")
    renderer = TileRenderer(lang, "text")
    frames = load_frames(path, renderer)
    app = ReplayApp(frames, renderer)
    texts: list[str] = []

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for i in range(len(frames)):
                if i % 15 == 0 or i >= len(frames) - 2:  # the deal, some turns, the end
                    await pilot.pause()
                    texts.append(_screen_text(app))
                await pilot.press("right")

    asyncio.run(run())
    for text in texts:
        assert foreign_text(text, lang) == [], text
