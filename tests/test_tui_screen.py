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


LONG = "x" * 3000


def test_a_long_unknown_command_is_cut_and_named_unknown(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=2, records=tmp_path)
    for line in (LONG, "play " + LONG, "draw " + LONG, "play 7h | " + "7" * 300):
        reply = c.submit(line)
        assert reply.kind == "error" and len(reply.text) < 160, line[:20]
    assert "unknown command" in c.submit(LONG).text

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, LONG)
        message = app.query_one("#message", Static)
        assert message.size.height <= 3 and "unknown command" in screen_text(app, "#message")

    run_app(c, body, size=SMALL)


def _status(app: PlayApp) -> str:
    return screen_text(app, "#status", width=200).rstrip("\n")


def test_the_status_line_fits_80_columns_in_every_deal_and_both_languages(
    tmp_path: Path,
) -> None:
    for lang in ("en", "sv"):
        c = make_controller("kontrakt", players=8, seed=1, records=tmp_path, lang=lang)

        async def body(app: PlayApp, pilot: Pilot[None]) -> None:
            adapter = app.controller.adapter
            for deal in range(7):
                adapter.engine._s.number = deal  # type: ignore[attr-defined]
                app.refresh_game()
                line = _status(app)
                assert len(line) <= 80, line
                assert (
                    f"{deal + 1}/7" in line
                    or f"{deal + 1} of 7" in line
                    or (f"{deal + 1} av 7" in line)
                )
                assert "…" not in line, line  # it fits by saying less, not by cutting

        run_app(c, body, size=SMALL)


def test_ctrl_c_asks_to_quit_and_a_second_ctrl_c_quits_saving_the_game(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=2, records=tmp_path, lang="sv")

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, "draw")
        await type_line(app, pilot, "hint")  # a hint's command is selected in the input
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen)
        await pilot.press("ctrl+c")
        await pilot.pause()
        await pilot.press("j")  # Swedish: ja
        await pilot.pause()
        assert app.saved_path is not None and Path(app.saved_path).exists()
        assert app.return_code is not None or not app.is_running

    run_app(c, body, size=SMALL)


def test_the_hand_title_fits_80_columns_by_saying_less(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=3, records=tmp_path, lang="sv")

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        title = str(app.query_one("#hand", Static).border_title)
        assert title == "Din hand: 13 kort, efter färg"

    run_app(c, body, size=SMALL)

    async def wide(app: PlayApp, pilot: Pilot[None]) -> None:
        title = str(app.query_one("#hand", Static).border_title)
        assert title == "Din hand: 13 kort, efter färg (F2 sorterar)"

    run_app(c, wide, size=(120, 40))
