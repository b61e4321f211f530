"""Starting the parlor (開枱): build the game from command-line options or a save file, run the app."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hkmahjong.cli.tui.game import ParlorGame
from hkmahjong.cli.tui.render import (
    TileRenderer,
    default_tile_style,
    probe_glyph_width,
    use_wide_glyphs,
)
from hkmahjong.errors import MahjongError
from hkmahjong.rules import load_ruleset

__all__ = ["build_game", "claim_timer_for", "play_from_args", "run_play_app", "tile_renderer"]

DEFAULT_SAVE = Path("hkmj-match.jsonl")


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
) -> int:
    """Run the parlor app on ``game`` until the player quits or the match ends."""
    from hkmahjong.cli.tui.app import ParlorApp

    app = ParlorApp(
        game,
        renderer=renderer,
        bot_delay=bot_delay,
        claim_timer=claim_timer,
        save_path=save_path or DEFAULT_SAVE,
    )
    result = app.run()
    return int(result or 0)


def claim_timer_for(option: float | None, game: ParlorGame) -> float | None:
    """The claim timer: ``--claim-timer``, else the ruleset's ``claim_timer`` if it has one."""
    if option is not None:
        return option
    value = getattr(game.ruleset, "claim_timer", None)
    return float(value) if isinstance(value, int | float) and value > 0 else None


def play_from_args(args: argparse.Namespace) -> int:
    """``hkmj play``: a new or resumed match from the parsed options.

    :raises MahjongError: for bad options or a bad save file (main prints it).
    """
    if args.claim_timer is not None and args.claim_timer <= 0:
        raise MahjongError(
            f"--claim-timer must be a positive number of seconds, not {args.claim_timer}"
        )
    if args.resume is not None:
        game = ParlorGame.resume(args.resume, lang=args.lang)
        renderer = tile_renderer(game.lang, args.tiles)
        game.renderer = renderer
        save_path = args.save or args.resume
    else:
        lang = args.lang or "zh-Hant"
        renderer = tile_renderer(lang, args.tiles)
        game = build_game(
            rules=args.rules,
            length=args.length,
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
        bot_delay=max(0.0, args.speed),
    )
