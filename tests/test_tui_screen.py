"""The terminal screen at 80x24 with what a person may type: names, long lines, Ctrl+C.

Each test runs the real app headless (Textual's pilot) at a standard 80x24
terminal and checks what the screen shows.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from rummykit.bots import make_bot
from rummykit.tui.app import PlayApp, QuitScreen
from rummykit.tui.kontrakt_play import KontraktAdapter
from rummykit.tui.setup import make_controller
from test_tui_app import run_app, screen_text, type_line

SMALL = (80, 24)
MARKUP_NAME = "[bold red]Eve[/"


def test_a_name_is_shown_as_written_never_read_as_markup(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=2, name=MARKUP_NAME, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        width = app.query_one("#players", Static).content_region.width
        assert MARKUP_NAME in screen_text(app, "#players", width=width)
        await type_line(app, pilot, "draw")  # the log and the message line name the player
        app.action_ask_quit()
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)

    run_app(c, body, size=SMALL)


def test_a_records_folder_is_never_read_as_markup(tmp_path: Path) -> None:
    folder = tmp_path / "[red]records[/"
    c = make_controller("kontrakt", players=2, seed=2, name=MARKUP_NAME, records=folder)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _until_my_turn(app, pilot)
        assert MARKUP_NAME in screen_text(app, "#players", width=60)
        await type_line(
            app, pilot, app.controller.adapter.format(app.controller.adapter.fallback())
        )
        app.action_ask_quit()
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "[red]records[/" in _plain(app.screen.query_one(Static))

    run_app(c, body, size=SMALL)


async def _until_my_turn(app: PlayApp, pilot: Pilot[None]) -> None:
    for _ in range(50):
        if not app.controller.bot_to_act():
            return
        await asyncio.sleep(0.01)


def _plain(widget: Static) -> str:
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def test_names_in_the_score_sheet_and_the_deal_summary_are_never_read_as_markup() -> None:
    """Names come from records too (a resumed game, ``replay --show``)."""
    import io

    from rich.console import Console

    adapter = KontraktAdapter(["Anna", "[/]Bo"], [None, make_bot("kontrakt", "basic", 1)], seed=1)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(adapter.scores_panel(adapter.engine.view(0)))
    console.print(adapter.players_panel(adapter.engine.view(0)))
    assert console.export_text().count("[/]Bo") == 2
