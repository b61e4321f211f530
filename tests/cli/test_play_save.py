"""Saves that cannot be trivially doctored (issue 13 items 3 and 4; docs/play.md "Saves").

Resume checks what ``hkmj replay --verify`` checks, plus the key's seal, the record's HMAC chain
and the install's last saved point; the match seed is not readable from the save files.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from tests.cli.conftest import advance

from hkmahjong.cli.main import main
from hkmahjong.cli.tui.game import ParlorGame, SaveError, key_path
from hkmahjong.cli.tui.launch import build_game
from hkmahjong.cli.tui.save import DATA_DIR_ENV, data_dir
from hkmahjong.engine.record import hand_seed, rules_spec
from hkmahjong.rules import get_preset, loads_ruleset, ruleset_to_toml
from hkmahjong.tiles import Tile, Wind


def _saved(tmp_path: Path, seed: str = "save", moves: int = 6) -> tuple[ParlorGame, Path]:
    game = build_game(seed=seed, length="east", opponents="easy")
    advance(game, moves)
    path = tmp_path / "match.jsonl"
    game.save(path)
    return game, path


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _bot_discard(lines: list[str]) -> int:
    """The index of the last bot discard line."""
    for i in range(len(lines) - 1, 0, -1):
        obj = json.loads(lines[i])
        if obj["t"] == "act" and obj["seat"] != "E" and obj["action"].startswith("discard"):
            return i
    raise AssertionError("no bot discard in the save")


def test_an_unedited_save_resumes(tmp_path: Path) -> None:
    """The baseline: a save resumes to the same table, and saving again is accepted again."""
    game, path = _saved(tmp_path)
    resumed = ParlorGame.resume(path)
    assert resumed.table() == game.table()
    advance(resumed, 2)
    resumed.save(path)
    assert ParlorGame.resume(path).table() == resumed.table()


def test_an_edited_bot_move_is_refused_naming_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 3: a bot's ``discard 9s`` edited to another tile is refused at that line, and the
    save is left as it was (nothing can write fresh digests over the edit)."""
    _, path = _saved(tmp_path)
    lines = _lines(path)
    i = _bot_discard(lines)
    obj = json.loads(lines[i])
    tile = obj["action"].split()[1]
    obj["action"] = "discard " + ("2z" if tile != "2z" else "3z")
    lines[i] = json.dumps(obj, separators=(",", ":"))
    _write(path, lines)
    edited = path.read_text(encoding="utf-8")
    with pytest.raises(SaveError, match=rf"line {i + 1}: changed after it was saved"):
        ParlorGame.resume(path)
    assert main(["play", "--resume", str(path), "--lang", "en"]) == 2
    assert f"line {i + 1}" in capsys.readouterr().err
    assert main(["play", "--resume", str(path)]) == 2  # the default language, 繁體
    assert f"第 {i + 1} 行在儲存之後被改過" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == edited


def test_garbage_digests_are_refused_at_the_first_one(tmp_path: Path) -> None:
    """Item 3: every ``ev`` set to garbage: refused at the first line that holds one."""
    _, path = _saved(tmp_path)
    lines = [
        json.dumps({**obj, "ev": "0123456789abcdef"} if "ev" in obj else obj)
        for obj in map(json.loads, _lines(path))
    ]
    _write(path, lines)
    with pytest.raises(SaveError, match="line 2: changed after it was saved"):
        ParlorGame.resume(path)


def test_the_seed_is_not_in_the_save_files(tmp_path: Path) -> None:
    """Item 4: neither file holds the match seed nor the seed of the hand in play."""
    game, path = _saved(tmp_path)
    seeds = [game.match_seed.hex(), hand_seed(game.match_seed, game.hand_index).hex()]
    for text in (path.read_text(encoding="utf-8"), key_path(path).read_text(encoding="utf-8")):
        for seed in seeds:
            assert seed not in text
    key = json.loads(key_path(path).read_text(encoding="utf-8"))
    assert "match_seed" not in key and bytes.fromhex(key["wrapped_seed"]) != game.match_seed


def test_deleting_the_last_moves_is_refused(tmp_path: Path) -> None:
    """Item 4: trailing ``act`` lines deleted (an undo) are refused, though they still replay."""
    _, path = _saved(tmp_path)
    lines = _lines(path)
    _write(path, lines[:-2])
    with pytest.raises(SaveError, match=f"stops at line {len(lines) - 2}, saved with {len(lines)}"):
        ParlorGame.resume(path)


def test_weaker_opponents_in_the_key_are_refused(tmp_path: Path) -> None:
    """Item 4: the bot level edited in the key breaks its seal."""
    _, path = _saved(tmp_path)
    key = json.loads(key_path(path).read_text(encoding="utf-8"))
    key["opponents"] = "normal" if key["opponents"] == "easy" else "easy"
    key_path(path).write_text(json.dumps(key), encoding="utf-8")
    with pytest.raises(SaveError, match="seal does not match"):
        ParlorGame.resume(path)


def test_another_language_in_the_key_is_fine(tmp_path: Path) -> None:
    """The language is a display preference, not sealed (``--lang`` overrides it anyway)."""
    _, path = _saved(tmp_path)
    key = json.loads(key_path(path).read_text(encoding="utf-8"))
    key["lang"] = "en"
    key_path(path).write_text(json.dumps(key), encoding="utf-8")
    assert ParlorGame.resume(path).lang == "en"


def test_a_swapped_ruleset_is_refused(tmp_path: Path) -> None:
    """Item 4: the header's rules swapped for a ``min_fan = 0`` table — with or without a
    digest — is refused."""
    _, path = _saved(tmp_path)
    lines = _lines(path)
    header = json.loads(lines[0])
    toml = ruleset_to_toml(get_preset("parlor")).replace("min_fan = 3", "min_fan = 0")
    header["rules"] = {"toml": toml}
    _write(path, [json.dumps(header), *lines[1:]])
    with pytest.raises(SaveError, match="line 1: the rules need a 'digest'"):
        ParlorGame.resume(path)
    header["rules"] = rules_spec(loads_ruleset(toml))
    assert header["rules"]["digest"] != json.loads(lines[0])["rules"]["digest"]
    _write(path, [json.dumps(header), *lines[1:]])
    with pytest.raises(SaveError, match="changed after it was saved"):
        ParlorGame.resume(path)


def test_an_older_copy_of_a_save_is_refused(tmp_path: Path) -> None:
    """Item 4: restoring the files of an earlier save (to undo what followed) is refused."""
    game, path = _saved(tmp_path)
    shutil.copy(path, tmp_path / "old.jsonl")
    shutil.copy(key_path(path), tmp_path / "old.jsonl.key")
    advance(game, 3)
    game.save(path)
    shutil.copy(tmp_path / "old.jsonl", path)
    shutil.copy(tmp_path / "old.jsonl.key", key_path(path))
    with pytest.raises(SaveError, match="an older copy of a save cannot be resumed"):
        ParlorGame.resume(path)


def test_a_save_from_another_install_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is sealed with this install's secret: another data directory cannot open it."""
    _, path = _saved(tmp_path)
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "elsewhere"))
    with pytest.raises(SaveError, match="seal does not match"):
        ParlorGame.resume(path)


def test_the_install_secret_is_private(tmp_path: Path) -> None:
    """The secret lives in the data directory (not next to the save), readable by its owner only."""
    _, path = _saved(tmp_path)
    secret = data_dir() / "install-secret"
    assert secret.parent != path.parent
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(data_dir() / "saves").st_mode) == 0o700


def test_an_illegal_bot_choice_is_an_error(tmp_path: Path) -> None:
    """Item 21: a bot's illegal choice raises instead of being replaced by the first legal action."""
    from hkmahjong.engine import Action, ActionKind
    from hkmahjong.errors import IllegalActionError

    class Cheat:
        def choose(self, view: object, legal: object) -> Action:
            return Action(ActionKind.DISCARD, Tile.RED)

        def __repr__(self) -> str:
            return "Cheat()"

    game = build_game(seed="cheat", length="one", opponents="easy")
    game.bots = {p: Cheat() for p in (1, 2, 3)}
    with pytest.raises(IllegalActionError, match="Cheat"):
        for _ in range(200):
            if game.human_to_act():
                options = game.options()
                game.apply(
                    next(iter(options.discard.values()))
                    if options.mode == "turn"
                    else options.pass_
                )
            else:
                game.bot_step()
    assert game.runner.to_act and Wind.EAST not in game.runner.to_act


def _edit_a_move(path: Path) -> None:
    lines = _lines(path)
    i = _bot_discard(lines)
    obj = json.loads(lines[i])
    obj["action"] = "discard " + ("2z" if obj["action"].split()[1] != "2z" else "3z")
    lines[i] = json.dumps(obj, separators=(",", ":"))
    _write(path, lines)


def _undo(path: Path) -> None:
    _write(path, _lines(path)[:-2])


def _weaker_bots(path: Path) -> None:
    key = json.loads(key_path(path).read_text(encoding="utf-8"))
    key["opponents"] = "normal" if key["opponents"] == "easy" else "easy"
    key_path(path).write_text(json.dumps(key), encoding="utf-8")


def _no_key(path: Path) -> None:
    key_path(path).unlink()


def _garbage_key(path: Path) -> None:
    key_path(path).write_text("{not json", encoding="utf-8")


def _not_a_record(path: Path) -> None:
    path.write_text('{"t": "nonsense"}\n', encoding="utf-8")


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
@pytest.mark.parametrize(
    ("doctor", "kind"),
    [
        (_edit_a_move, "changed"),
        (_undo, "changed"),
        (_weaker_bots, "changed"),
        (_no_key, "unreadable"),
        (_garbage_key, "damaged"),
        (_not_a_record, "record"),
    ],
)
def test_a_refused_save_is_told_in_the_players_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    doctor: object,
    kind: str,
    lang: str,
) -> None:
    """Item 14: every string the player sees is in the chosen language — a refused save too,
    printed before any screen opens (in English the detailed message of the refusal)."""
    from tests.cli.test_play_languages import foreign_text

    _, path = _saved(tmp_path)
    doctor(path)  # type: ignore[operator]
    with pytest.raises(SaveError) as refused:
        ParlorGame.resume(path)
    assert refused.value.kind == kind
    assert main(["play", "--resume", str(path), "--lang", lang]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hkmj: error: ")
    said = err.removeprefix("hkmj: error: ")
    for name in (str(key_path(path)), str(path)):
        said = said.replace(name, "")
    assert foreign_text(said, lang) == [], said
    if lang == "en":
        assert said.strip() and str(refused.value).startswith(err.removeprefix("hkmj: error: ")[:8])
    else:
        assert said.startswith("無法續局" if lang == "zh-Hant" else "无法续局"), said
