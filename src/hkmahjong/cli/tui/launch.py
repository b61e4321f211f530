"""Starting the parlor (開枱): build the game from command-line options or a save file, run the app."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from hkmahjong.cli.tui.game import ParlorGame, length_from_option
from hkmahjong.cli.tui.i18n import save_refusal
from hkmahjong.cli.tui.render import (
    TileRenderer,
    default_tile_style,
    probe_glyph_width,
    use_wide_glyphs,
)
from hkmahjong.cli.tui.save import SaveError
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset, load_ruleset

__all__ = [
    "DATA_DIR_ENV",
    "SAVE_NAME",
    "build_game",
    "claim_timer_for",
    "data_dir",
    "default_save_path",
    "offered_length",
    "play_from_args",
    "run_play_app",
    "tile_renderer",
]

DATA_DIR_ENV = "HKMJ_DATA_DIR"
"""The environment variable that moves the parlor's data directory (saves) elsewhere."""
SAVE_NAME = "hkmj-match.jsonl"


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """資料夾: where the parlor keeps its files — ``$HKMJ_DATA_DIR``, else the XDG data directory.

    ``$XDG_DATA_HOME/hkmahjong`` when that variable holds an absolute path (the XDG base
    directory rule), else ``~/.local/share/hkmahjong``. Nothing is written into the directory
    the command runs in (a checkout stays clean).
    """
    env = os.environ if env is None else env
    explicit = env.get(DATA_DIR_ENV, "")
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "hkmahjong"


def default_save_path(env: Mapping[str, str] | None = None) -> Path:
    """Where ``s`` saves when ``--save`` is not given: ``hkmj-match.jsonl`` in :func:`data_dir`."""
    return data_dir(env) / SAVE_NAME


def offered_length(ruleset: Ruleset, option: str | None) -> str:
    """The match length to play: ``option`` if the ruleset offers it, else its first length.

    A ruleset lists the lengths its tables offer (``[switches] match_lengths``; the parlor's are
    P's practice lengths); ``hkmj rules NAME`` shows them.

    :raises MahjongError: when ``option`` names no length or one the ruleset does not offer.
    """
    offered = ruleset.match_lengths
    if option is None:
        return offered[0]
    offer = (
        f"the {ruleset.name} rules offer {', '.join(offered)} "
        "(a ruleset TOML can list others under [switches] match_lengths)"
    )
    try:
        length = length_from_option(option).value
    except MahjongError:
        raise MahjongError(f"--length {option}: unknown match length {option!r}; {offer}") from None
    if length not in offered:
        raise MahjongError(f"--length {option}: {offer}")
    return length


def tile_renderer(lang: str, style: str = "auto") -> TileRenderer:
    """The renderer for ``--lang`` and ``--tiles`` (``auto``: text on UTF-8 terminals, else ASCII).

    ``glyph`` is honoured only when the terminal answers that it draws a glyph two cells wide.
    """
    if style == "auto":
        style = default_tile_style()
    elif style == "glyph":
        if probe_glyph_width() == 2:
            use_wide_glyphs()
        else:
            print(
                "hkmj play: this terminal does not draw mahjong glyphs at full width; "
                "using text labels instead",
                file=sys.stderr,
            )
            style = "text"
    return TileRenderer(lang, style)


def build_game(
    *,
    rules: str = "parlor",
    length: str = "east",
    opponents: str = "normal",
    seed: str | None = None,
    lang: str = "zh-Hant",
    renderer: TileRenderer | None = None,
) -> ParlorGame:
    """A new parlor game (match, first hand dealt, bots seated).

    :raises MahjongError: for an unknown ruleset, length or opponent level.
    """
    return ParlorGame.new(
        load_ruleset(rules),
        length=length,
        opponents=opponents,
        seed=seed,
        lang=lang,
        renderer=renderer or TileRenderer(lang),
    )


def run_play_app(
    game: ParlorGame,
    *,
    renderer: TileRenderer,
    claim_timer: float | None = None,
    save_path: Path | None = None,
    bot_delay: float = 0.35,
    debug_hints: bool = False,
) -> int:
    """Run the parlor app on ``game`` until the player quits or the match ends."""
    from hkmahjong.cli.tui.app import ParlorApp

    app = ParlorApp(
        game,
        renderer=renderer,
        bot_delay=bot_delay,
        claim_timer=claim_timer,
        save_path=save_path or default_save_path(),
        debug_hints=debug_hints,
    )
    result = app.run()
    return int(result or 0)


def claim_timer_for(option: float | None, game: ParlorGame) -> float | None:
    """The claim timer: ``--claim-timer``, else the ruleset's ``claim_timer`` if it has one."""
    if option is not None:
        return option
    value = getattr(game.ruleset, "claim_timer", None)
    return float(value) if isinstance(value, int | float) and value > 0 else None


def _refusal(exc: SaveError, lang: str, resume: Path) -> SaveError:
    """A refused save in the player's language (the detailed English message under ``en``)."""
    if lang == "en":
        return exc
    text = save_refusal(lang, exc.kind, exc.path or str(resume), exc.line, exc.errno)
    return SaveError(text, kind=exc.kind, path=exc.path, line=exc.line, errno=exc.errno)


def play_from_args(args: argparse.Namespace) -> int:
    """``hkmj play``: a new or resumed match from the parsed options.

    :raises MahjongError: for bad options or a bad save file (main prints it).
    """
    if args.resume is not None:
        try:
            game = ParlorGame.resume(args.resume, lang=args.lang)
        except SaveError as exc:
            raise _refusal(exc, args.lang or "zh-Hant", args.resume) from None
        renderer = tile_renderer(game.lang, args.tiles)
        game.renderer = renderer
        save_path = args.save or args.resume
    else:
        lang = args.lang or "zh-Hant"
        length = offered_length(load_ruleset(args.rules), args.length)
        renderer = tile_renderer(lang, args.tiles)
        game = build_game(
            rules=args.rules,
            length=length,
            opponents=args.opponents,
            seed=args.seed,
            lang=lang,
            renderer=renderer,
        )
        save_path = args.save
    return run_play_app(
        game,
        renderer=renderer,
        claim_timer=claim_timer_for(args.claim_timer, game),
        save_path=save_path,
        bot_delay=args.speed,
        debug_hints=bool(getattr(args, "debug_hints", False)),
    )
