"""Terminal play, third round (issue 45): quitting, saving, resizing, and the replay viewer.

Each test runs the real app headless (Textual's pilot) or the real watch, and
checks what a person meets: a records folder that cannot hold the game, the
quit dialog while bots move, a second Ctrl+Q, a narrow terminal, and a record
replayed from another seat than the person's.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from rummykit.cli import main
from rummykit.record import load_record
from rummykit.tui.app import PlayApp, QuitScreen
from rummykit.tui.setup import make_controller
from rummykit.tui.watch import Watch
from test_tui_app import run_app, screen_text, type_line
from test_tui_play_resume_watch import first_legal

# ------------------------------------------------------------------ 10: --records


def test_play_refuses_a_records_path_that_is_a_file_before_the_game_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def started(self: PlayApp) -> None:  # the guard: the game must not start at all
        raise AssertionError("the game started with a records path that cannot hold it")

    monkeypatch.setattr(PlayApp, "run", started)
    a_file = tmp_path / "records.txt"
    a_file.write_text("not a folder")
    for records in (a_file, a_file / "sub"):
        assert main(["play", "vatikanen", "--records", str(records)]) == 2
        err = capsys.readouterr().err
        assert "--records" in err and str(records) in err and "folder" in err
    assert main(["--lang", "sv", "play", "kontrakt", "--records", str(a_file)]) == 2
    assert "mapp" in capsys.readouterr().err


def test_play_makes_a_missing_records_folder_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PlayApp, "run", lambda self: None)
    folder = tmp_path / "new" / "records"
    assert main(["play", "vatikanen", "--records", str(folder)]) == 0
    assert folder.is_dir() and not list(folder.iterdir())  # nothing left behind


def test_the_quit_dialog_says_when_the_game_could_not_be_saved(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    c = make_controller("vatikanen", players=2, seed=2, records=folder)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(3):
            await type_line(app, pilot, "draw")
        folder.write_text("the folder became a file")  # the disk changed under the game
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        text = app.screen.text
        assert "Nothing has been played yet" not in text
        assert "could not be saved" in text and str(folder) in text
        assert app.save_error is not None

    run_app(c, body, size=(80, 24))


# ------------------------------------------------------------------ 14: Ctrl+Q, resize


def test_ctrl_q_pressed_again_in_the_quit_dialog_quits(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=8, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, "draw")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        dialogs = [s for s in app.screen_stack if isinstance(s, QuitScreen)]
        assert len(dialogs) <= 1
        assert app.return_code is not None or not app.is_running

    run_app(c, body)
    assert len(list(tmp_path.glob("vatikanen-seed8-*.json"))) == 1


def test_the_status_line_is_fitted_again_after_a_resize(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=3, seed=4, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        assert "your turn" in screen_text(app, "#status", width=200)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        status = app.query_one("#status", Static)
        assert status.size.width == 60
        line = screen_text(app, "#status", width=200).rstrip("\n")
        assert "your turn" in line and len(line) <= 60, line

    run_app(c, body, size=(120, 40))


def test_a_60_column_terminal_leaves_the_table_room(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=3, seed=4, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        table = app.query_one("#table-box").content_region.width
        players = app.query_one("#players", Static).content_region.width
        assert table >= 30, (table, players)
        assert players >= 20

    run_app(c, body, size=(60, 20))

    async def wide(app: PlayApp, pilot: Pilot[None]) -> None:  # 80 columns: as before
        assert app.query_one("#players", Static).content_region.width >= 40

    run_app(c, wide, size=(80, 24))


# ------------------------------------------------------------------ 16: bots while asked


def test_bot_moves_made_while_the_quit_dialog_is_open_are_saved(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=3, seed=5, bots="random", records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(20):  # the person's turn first (the bots move at their pace)
            if not c.bot_to_act() and not app._thinking:
                break
            await pilot.pause(0.1)
        await type_line(app, pilot, "draw", fast=True)
        assert c.bot_to_act()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        for _ in range(40):  # the bots play on while the person reads the dialog
            if not c.bot_to_act() and not app._thinking:
                break
            await pilot.pause(0.1)
        await pilot.press("y")
        await pilot.pause()

    run_app(c, body, bot_delay=0.3)
    [path] = tmp_path.glob("vatikanen-seed5-*.json")
    saved = load_record(path)
    game = c.adapter.engine.to_record()
    assert [d.actions for d in saved.deals] == [d.actions for d in game.deals]
    assert len(saved.deals[-1].actions) >= 3  # the person's draw and both bots' moves


# ------------------------------------------------------------------ 12: "You" in the replay


def _log_lines(w: Watch) -> list[str]:
    view = w.view()
    entries = view.get("log")
    assert isinstance(entries, list)
    out = []
    for i, entry in enumerate(entries):
        said = w.adapter.describe(entry, i, view)
        if said is not None:
            out.append(said.plain)
    return out


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_replay_calls_only_the_viewers_own_seat_you(tmp_path: Path, lang: str) -> None:
    c = make_controller("vatikanen", players=2, seed=6, records=tmp_path, lang=lang)
    you = c.adapter.names[0]
    assert you in ("You", "Du")
    while not c.adapter.game_over():
        first_legal(c, 1)
    record = load_record(c.save())
    assert record.players[0] == you  # the record names the person as the terminal did
    other = record.players[1]
    w = Watch(record, seat=1, lang=lang)
    w.go(len(w.steps) - 1)
    shown = w.view()["players"]
    assert isinstance(shown, list)
    assert shown[1] == other and shown[0] != you  # only the viewer's seat is "you"
    end = _log_lines(w)[-1]
    assert shown[0] in end, end
    every = Watch(record, lang=lang)  # every hand: nobody is "you"
    every.go(len(every.steps) - 1)
    assert you not in every.view()["players"]
    assert every.hands()[0][0] == shown[0]
    mine = Watch(record, seat=0, lang=lang)  # the person's own seat stays "you"
    mine.go(len(mine.steps) - 1)
    assert mine.view()["players"][0] == you


def test_the_replay_app_names_the_other_seat_in_its_hand_and_log(tmp_path: Path) -> None:
    from rummykit.tui.watch import WatchApp

    c = make_controller("vatikanen", players=2, seed=6, records=tmp_path)
    first_legal(c, 5)
    record = load_record(c.save())

    async def main_() -> None:
        app = WatchApp(Watch(record, seat=1))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("end")
            await pilot.pause()
            players = screen_text(app, "#players", width=60)
            assert players.lower().count("you") == 1, players  # "Astrid (you)" only

    asyncio.run(main_())
