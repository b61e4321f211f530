"""hkmj play never crashes: random key presses and clicks; the glyph-width probe on a pty."""

from __future__ import annotations

import asyncio
import os
import pty
import threading
from types import ModuleType

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from hkmahjong.cli.tui.app import ParlorApp
from hkmahjong.cli.tui.launch import build_game
from hkmahjong.cli.tui.render import probe_glyph_width
from hkmahjong.engine.record import GameRecord, verify

KEYS = [
    "left", "right", "enter", "space", "w", "p", "k", "c", "x", "h", "escape",
    "1", "2", "3", "z", "ctrl+x", "tab", "up", "down", "delete",
]  # fmt: skip


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(keys=st.lists(st.sampled_from(KEYS), min_size=5, max_size=60), seed=st.integers(0, 50))
def test_random_keys_never_crash(kit: ModuleType, keys: list[str], seed: int) -> None:
    """Any key sequence leaves the app running and the game consistent (actions replay exactly)."""
    game = build_game(seed=str(seed), length="one", opponents="easy", lang="en")
    app = ParlorApp(game, renderer=game.renderer, bot_delay=0)

    async def run() -> None:
        async with app.run_test() as pilot:
            await kit.settle(pilot)
            for key in keys:
                await pilot.press(key)
                await kit.settle(pilot)
                assert app.is_running
            if app.screen is app.screen_stack[0]:
                await pilot.click("#table")
                await pilot.click("#hand")
                await kit.settle(pilot)
            assert app.is_running

    asyncio.run(run())
    if game.record.complete:
        verify(GameRecord.loads(game.record.dumps()))
    else:
        assert len(game.record.hands) == 1


def _answer(master: int, reply: bytes) -> None:
    buffer = b""
    while not buffer.endswith(b"\x1b[6n"):
        buffer += os.read(master, 64)
    os.write(master, reply)


def test_glyph_probe_reads_the_cursor_report() -> None:
    """--tiles glyph asks the terminal where the cursor went after one glyph (two cells = wide)."""
    for reply, width in ((b"\x1b[5;3R", 2), (b"\x1b[5;2R", 1)):
        master, slave = pty.openpty()
        try:
            helper = threading.Thread(target=_answer, args=(master, reply), daemon=True)
            helper.start()
            assert probe_glyph_width(os.ttyname(slave), timeout=2.0) == width
            helper.join(timeout=2.0)
        finally:
            os.close(master)
            os.close(slave)


def test_glyph_probe_without_a_terminal() -> None:
    """No terminal, or no answer: the probe says None and the parlor keeps text labels."""
    assert probe_glyph_width("/nonexistent/tty") is None
    master, slave = pty.openpty()
    try:
        assert probe_glyph_width(os.ttyname(slave), timeout=0.1) is None
    finally:
        os.close(master)
        os.close(slave)
