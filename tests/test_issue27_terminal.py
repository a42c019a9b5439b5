"""Issue 27, terminal play: each item a new user hit, as a test that failed before the mend.

Tests are named ``test_defect<N>_...`` (the issue's defects), ``test_friction_...``,
``test_resume_...`` and ``test_watch_...``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from rummykit.cli import main
from rummykit.cli.play import quit_note
from rummykit.games import vatikanen as v
from rummykit.record import load_record
from rummykit.tui.app import PlayApp, QuitScreen
from rummykit.tui.controller import Controller
from rummykit.tui.setup import make_controller, resume_controller
from rummykit.tui.watch import Watch, WatchApp
from test_tui_app import run_app, screen_text, type_line


def vatikanen_position(
    tmp_path: Path, hands: list[str], table: list[str] = (), opened: list[bool] | None = None
) -> Controller:
    """A Vatikanen controller whose current game is set up from a position (seat 0 to act)."""
    c = make_controller("vatikanen", players=len(hands), seed=1, records=tmp_path)
    game = v.VatikanenGame.from_position(hands, list(table), opened=opened)
    game.players = c.adapter.session.players  # type: ignore[misc]
    c.adapter.session.games[-1] = game
    return c


def test_defect1_a_second_play_while_a_play_is_staged_says_the_play_is_staged(
    tmp_path: Path,
) -> None:
    c = vatikanen_position(tmp_path, ["7h 8h 9h 2c 5d", "Kc Kd Ks 4s 6s"], opened=[False, False])
    assert c.submit("play 7h 8h 9h").kind == "info" and c.staged
    for again in ("play 2c", "play 7h 8h 9h", "draw"):
        reply = c.submit(again)
        assert reply.kind == "error", again
        assert "staged" in reply.text and "confirm" in reply.text and "undo" in reply.text
        assert "turn" not in reply.text
        assert len(c.staged) == 1 and not c.adapter.current.opened(0)


def test_defect3_vatikanen_table_syntax_is_vatikanen_not_kontrakt(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["7h 8h 9h 2c 5d", "Kc Kd Ks 4s 6s"])
    for text in ("play 3s |", "play 3s | 3s 4s 5s |"):
        reply = c.submit(text)
        assert reply.kind == "error"
        assert "meld 7h" not in reply.text and "play 7h |" in reply.text
    assert (
        "discard Qs" in make_controller("kontrakt", seed=1, records=tmp_path).submit("discard").text
    )


def test_defect4_a_gap_in_a_run_is_named_once_not_an_ace(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["3s 8s Qs 2c 5d", "Kc Kd Ks 4s 6s"], opened=[False, False])
    reply = c.submit("play 3s 8s Qs")
    assert reply.kind == "error"
    assert "ace" not in reply.text and "gap between 3 and 8" in reply.text
    assert reply.text.count("V5") + reply.text.count("V7") == 2  # V7 first play, V5 its reason


def first_legal(c: Controller, moves: int) -> None:
    """Play ``moves`` moves of the real game, each seat taking its first legal action,
    going on between games and deals."""
    for _ in range(moves):
        if c.adapter.paused():
            c.adapter.resume()
            continue
        c.adapter.apply(c.adapter.engine.legal_actions()[0])


def same_game(a: Controller, b: Controller) -> None:
    assert a.real_view() == b.real_view()
    assert a.adapter.engine.to_record().to_json() == b.adapter.engine.to_record().to_json()


def test_resume_carries_a_vatikanen_session_on_exactly_where_it_stopped(tmp_path: Path) -> None:
    for seed in (8, None):
        c = make_controller(
            "vatikanen", players=3, seed=seed, bots="random,greedy", records=tmp_path
        )
        first_legal(c, 7)
        path = c.save()
        state = load_record(path).extra["terminal"]
        assert state["person"] == 0 and state["bots"] == [None, "random", "greedy"]
        resumed = resume_controller(path)
        assert [b.level if b else None for b in resumed.adapter.bots] == [None, "random", "greedy"]
        same_game(c, resumed)
        for _ in range(3):  # on into later games: shuffled as they would have been
            first_legal(c, 150)
            first_legal(resumed, 150)
            same_game(c, resumed)
        assert resumed.adapter.current.number >= 3
        assert resumed.save() == path  # it goes on being saved where it was


def test_resume_carries_a_kontrakt_game_on_exactly_where_it_stopped(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=3, seed=5, records=tmp_path)
    first_legal(c, 60)
    path = c.save()
    resumed = resume_controller(path)
    same_game(c, resumed)
    assert resumed.adapter.paused() == c.adapter.paused()
    for _ in range(4):
        first_legal(c, 120)
        first_legal(resumed, 120)
        same_game(c, resumed)
    assert resumed.adapter.game_obj.deal >= 3


def test_resume_a_kontrakt_game_that_stopped_between_deals_shows_the_deal_summary(
    tmp_path: Path,
) -> None:
    c = make_controller("kontrakt", players=2, seed=5, records=tmp_path)
    while not c.adapter.between_deals:
        first_legal(c, 1)
    resumed = resume_controller(c.save())
    assert resumed.adapter.between_deals and resumed.adapter.paused()
    same_game(c, resumed)


def test_resume_play_command_refuses_options_the_record_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = make_controller("vatikanen", players=2, seed=3, records=tmp_path)
    first_legal(c, 2)
    path = str(c.save())
    assert main(["play", "--resume", path, "--seed", "4"]) == 2
    assert "drop --seed" in capsys.readouterr().err
    assert main(["play", "kontrakt", "--resume", path]) == 2
    assert "is a vatikanen record" in capsys.readouterr().err


def test_resume_quitting_says_how_to_resume() -> None:
    note = quit_note("records/v.json", finished=False)
    assert "rummykit play --resume records/v.json" in note
    assert "--resume" not in quit_note("records/k.json", finished=True)


def test_friction_ctrl_q_asks_and_says_the_game_is_saved_and_how_to_resume(
    tmp_path: Path,
) -> None:
    c = make_controller("vatikanen", players=2, seed=8, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, "draw")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "rummykit play --resume" in app.screen.text and "saved" in app.screen.text
        await pilot.press("n")  # go on playing
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()

    run_app(c, body)
    assert len(list(tmp_path.glob("vatikanen-seed8-*.json"))) == 1


def played_record(tmp_path: Path, game: str, moves: int, players: int = 2) -> Path:
    c = make_controller(game, players=players, seed=6, records=tmp_path)
    first_legal(c, moves)
    return c.adapter.engine.to_record().save(tmp_path / f"{game}-{moves}.json")


def test_watch_steps_through_a_finished_game_forwards_and_back_with_every_hand(
    tmp_path: Path,
) -> None:
    c = make_controller("kontrakt", players=2, seed=6, records=tmp_path)
    while not c.adapter.game_over():
        first_legal(c, 1)
    record = c.adapter.engine.to_record()
    w = Watch(record)
    assert w.finished and w.seat is None and w.illegal is None
    assert len(w.hands()) == 2 and "every hand" in w.note()
    assert w.where().startswith("deal 1 of 7: as dealt")
    w.step(3)
    three = w.view()
    w.step(1)
    w.step(-1)
    assert w.view() == three
    w.deal_step(1)
    assert w.where().startswith("deal 2 of 7: as dealt")
    w.go(len(w.steps) - 1)
    assert w.current.over

    async def body(app: WatchApp, pilot: Pilot[None]) -> None:
        await pilot.press("end")
        await pilot.pause()
        assert "deal 7 of 7" in str(app.query_one("#status", Static).content)
        await pilot.press("home", "right", "right")
        await pilot.pause()
        assert app.watch_.position == 2
        await pilot.press("left")
        await pilot.pause()
        assert app.watch_.position == 1
        await pilot.press("pagedown")
        await pilot.pause()
        assert app.watch_.steps[app.watch_.position].deal == 1
        w = app.watch_
        for i in range(len(w.steps)):  # every deal's end shows that deal whole
            w.go(i)
            if w.deal_over():
                app.redraw()
                table = screen_text(app, "#table")
                assert f"Deal {w.steps[i].deal + 1} of 7 is over" in table

    async def main_() -> None:
        app = WatchApp(Watch(record))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(main_())


def test_watch_an_unfinished_game_shows_one_seats_view_only(tmp_path: Path) -> None:
    path = played_record(tmp_path, "vatikanen", 9)
    record = load_record(path)
    w = Watch(record)
    assert not w.finished and w.seat == 0 and len(w.hands()) == 1
    assert "mid-game" in w.note()
    w.go(len(w.steps) - 1)
    assert w.view()["hand"] == w.current.view(0)["hand"]
    assert Watch(record, seat=1).hands()[0][0] == record.players[1]
    with pytest.raises(ValueError, match="no seat 5"):
        Watch(record, seat=5)


def test_watch_shows_a_record_up_to_its_illegal_action() -> None:
    record = load_record(
        Path(__file__).parent / "records" / "vatikanen" / "illegal_table_no_meld.json"
    )
    w = Watch(record)
    assert w.illegal is not None and "deal 1, action 3" in w.note() and "V9" in w.note()
    assert len(w.steps) == 3


def test_watch_replay_show_runs_the_watch_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, int | None]] = []
    monkeypatch.setattr(
        "rummykit.tui.watch.watch", lambda record, seat: seen.append((record.game, seat)) or 0
    )
    path = played_record(tmp_path, "vatikanen", 4)
    assert main(["replay", str(path), "--show", "--seat", "1"]) == 0
    assert seen == [("vatikanen", 1)]
