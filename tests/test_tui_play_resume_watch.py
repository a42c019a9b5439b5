"""Terminal play as a new user meets it: staging and its messages, prompts and panels,
``play --resume`` carrying a game on exactly (``test_resume_...``) and ``replay --show``
stepping through a record (``test_watch_...``).

Each test is something a new user hit, written so that it failed before the mend.
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
from rummykit.tui.app import CommandInput, PlayApp, QuitScreen
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


def test_a_second_play_while_a_play_is_staged_says_the_play_is_staged(
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


def test_vatikanen_table_syntax_is_vatikanen_not_kontrakt(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["7h 8h 9h 2c 5d", "Kc Kd Ks 4s 6s"])
    for text in ("play 3s |", "play 3s | 3s 4s 5s |"):
        reply = c.submit(text)
        assert reply.kind == "error"
        assert "meld 7h" not in reply.text and "play 7h |" in reply.text
    assert (
        "discard Qs" in make_controller("kontrakt", seed=1, records=tmp_path).submit("discard").text
    )


def test_a_gap_in_a_run_is_named_once_not_an_ace(tmp_path: Path) -> None:
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
        c.adapter.apply(c.adapter.engine.suggested_actions()[0])


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


def test_ctrl_q_asks_and_says_the_game_is_saved_and_how_to_resume(
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
    assert w.illegal is not None and "game 1, action 3" in w.note() and "V9" in w.note()
    assert len(w.steps) == 3


def test_watch_replay_show_runs_the_watch_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, int | None, str]] = []
    monkeypatch.setattr(
        "rummykit.tui.watch.watch",
        lambda record, seat, lang: seen.append((record.game, seat, lang)) or 0,
    )
    path = played_record(tmp_path, "vatikanen", 4)
    assert main(["replay", str(path), "--show", "--seat", "1"]) == 0
    assert main(["replay", str(path), "--show", "--seat", "1", "--lang", "sv"]) == 0
    assert seen == [("vatikanen", 1, "en"), ("vatikanen", 1, "sv")]


def kontrakt_position(tmp_path: Path, hand: str, *, deal: int = 1, top: str = "9c") -> Controller:
    """A two-player Kontrakt controller in deal ``deal`` (from 0), the person to play with
    ``hand`` after drawing; the discard pile's top is ``top``."""
    from collections import Counter

    from rummykit.cards import full_deck, parse_cards
    from rummykit.games import kontrakt as k

    c = make_controller("kontrakt", players=2, seed=1, records=tmp_path)
    mine = parse_cards(hand)
    rest = Counter(full_deck(2, 2))
    rest.subtract(mine)
    rest.subtract(parse_cards(top))
    others = sorted((c for c in rest.elements() if not c.is_joker), key=str)
    theirs = others[:10]
    stock = [card for card in rest.elements() if card not in theirs[:0]]
    left = Counter(stock)
    left.subtract(theirs)
    game = k.KontraktGame.from_position(
        k.KontraktPosition(
            [mine, theirs],
            deal=deal,
            dealer=1,
            stock=list(left.elements()),
            discard_pile=parse_cards(top),
            turn=0,
            phase=k.Phase.PLAY if len(mine) == 11 else k.Phase.DRAW,
        ),
        players=c.adapter.names,
        seed=1,
    )
    c.adapter.game_obj = game
    return c


def test_kontrakt_hint_builds_with_the_hand_and_suggests_a_discard(
    tmp_path: Path,
) -> None:
    c = kontrakt_position(tmp_path, "3c 3d 3s 4h 5h * 2h 9c Kd Qs 8d")
    reply = c.submit("hint")
    assert "2♥ ★=3♥ 4♥ 5♥" in reply.text and "★=6♥" not in reply.text  # cards as shown
    assert "2h *:3h 4h 5h" in (reply.prefill or "")  # the command as typed
    assert "then discard" in reply.text
    assert reply.prefill is not None and reply.prefill.startswith("meld 3")
    assert c.submit(reply.prefill).kind == "info"  # the engine takes what the hint says


def test_kontrakt_prompt_shows_a_ten_as_10_not_t(tmp_path: Path) -> None:
    c = kontrakt_position(tmp_path, "3c 3d 3s 4h 5h * 2h 9c Kd Qs", top="Th")
    assert "10♥" in c.prompt() and "T♥" not in c.prompt()


def test_no_you_deals_no_yous_turn_and_no_1_cards(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=2, records=tmp_path)
    while not c.adapter.paused():
        first_legal(c, 1)
    text = c.adapter.resume()
    assert "You deals" not in text and "The dealer is" in text
    view = c.real_view()
    view["turn"] = 0
    assert "You's" not in c.adapter.status(view).plain
    k = make_controller("kontrakt", players=2, seed=2, records=tmp_path)
    reply = k.submit("draw")  # not your turn yet: the upcard is offered first
    assert "You's" not in reply.text
    spec_game = v.VatikanenGame(["You", "Astrid"], seed=4)
    try:
        spec_game.verify(v.Draw(1))
    except ValueError as exc:
        assert "You's" not in str(exc) and "the player to act is You" in str(exc)


def test_hint_prefill_is_selected_so_typing_replaces_it(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["2c 5d 9h Ks", "Kc Kd Ks 4s 6s"], opened=[False, False])

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("f3")
        await pilot.pause()
        box = app.query_one(CommandInput)
        assert box.value == "draw" and box.selected_text == "draw"
        await pilot.press(*"play 2c")
        await pilot.pause()
        assert box.value == "play 2c"  # not "drawplay 2c"

    run_app(c, body)


def test_an_error_is_cleared_when_the_turn_changes(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=11, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, "play Ks Ks Ks Ks")
        assert app.last_reply is not None and app.last_reply.kind == "error"
        assert "V4" in screen_text(app, "#message")
        c.adapter.apply(v.Draw(0))  # the turn passes, and the bot plays
        app.schedule_bots()
        app.refresh_game()
        assert screen_text(app, "#message").strip() == ""

    run_app(c, body)


def test_a_staged_play_shows_as_staged_in_the_players_panel(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["7h 8h 9h 2c 5d", "Kc Kd Ks 4s 6s"], opened=[False, False])

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, "play 7h 8h 9h")
        assert c.staged
        you = next(line for line in screen_text(app, "#players").splitlines() if "You" in line)
        assert "staged" in you and "5→2" in you and "yes" not in you
        await type_line(app, pilot, "")  # confirmed: now it counts
        you = next(line for line in screen_text(app, "#players").splitlines() if "You" in line)
        assert "yes" in you and "staged" not in you

    run_app(c, body)


def test_kontrakt_deal_over_screen_shows_the_ended_deal_whole(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=2, seed=5, records=tmp_path)
    while not c.adapter.between_deals:
        first_legal(c, 1)
    end = [e for e in c.real_view()["log"] if e["type"] == "deal_end"][-1]

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        assert "Deal 1 of 7 is over" in screen_text(app, "#table")
        status = screen_text(app, "#status")
        assert "deal 1 of 7" in status and "2 groups" in status
        hand = app.query_one("#hand", Static)
        assert "when the deal ended" in str(hand.border_title)
        assert sorted(app.controller.adapter.ended_hand(c.real_view()) or []) == sorted(
            end["hands"][0]
        )
        players = screen_text(app, "#players")
        assert str(end["totals"][1]) in players
        await type_line(app, pilot, "")  # go on: now the next deal is shown
        assert "deal 2 of 7" in screen_text(app, "#status")
        assert "Your hand: 10 cards" in str(app.query_one("#hand", Static).border_title)

    run_app(c, body)


def test_the_players_panel_fits_a_standard_80x24_terminal(tmp_path: Path) -> None:
    for game, columns in (("vatikanen", ("cards", "opened", "balance")), ("kontrakt", ("laid",))):
        c = make_controller(game, players=4, seed=3, bots="random", records=tmp_path)

        async def body(
            app: PlayApp, pilot: Pilot[None], columns: tuple[str, ...] = columns
        ) -> None:
            width = app.query_one("#players", Static).content_region.width
            lines = screen_text(app, "#players", width=width).splitlines()
            head = lines[0]
            for column in ("player", "cards", *columns):
                assert column in head
            for name in ("Astrid", "Bo", "Cilla"):
                line = next(x for x in lines if name in x)
                assert "random" in line  # the bot's level on the name's line

        run_app(c, body, size=(80, 24))
