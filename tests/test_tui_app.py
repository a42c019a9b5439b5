"""Terminal play, headless (Textual's ``run_test`` pilot): both games, end to end.

Each test starts the real app with bots moving at once (``bot_delay=0``),
types into the real command line, and checks the engine and the screen.
pytest-asyncio is not needed: each test runs its coroutine with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Static

from rummykit.bots import make_bot
from rummykit.record import load_record, replay
from rummykit.tui.app import CommandInput, HelpScreen, PlayApp, ScoresScreen
from rummykit.tui.commands import format_kontrakt
from rummykit.tui.controller import Controller
from rummykit.tui.setup import make_controller

SIZE = (120, 40)


def run_app(
    controller: Controller,
    body: Callable[[PlayApp, Pilot[None]], Awaitable[None]],
    *,
    bot_delay: float = 0,
    size: tuple[int, int] = SIZE,
) -> None:
    """Run ``body`` against a headless app for ``controller`` (``bot_delay`` > 0: the
    bots think on a worker thread, as in play)."""

    async def main() -> None:
        app = PlayApp(controller, bot_delay=bot_delay)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(main())


async def type_line(
    app: PlayApp, pilot: Pilot[None], text: str, *, keys: bool = False, fast: bool = False
) -> None:
    """Type ``text`` in the command line (key by key when ``keys``) and press Enter.

    ``fast`` hands the line to the input's submit handler at once, without
    the pilot's key and idle delays (whole games type hundreds of lines).
    """
    box = app.query_one(CommandInput)
    if keys:
        box.value = ""
        await pilot.press(*text)
    else:
        box.value = text
        box.cursor_position = len(text)
    if fast:
        await app.on_input_submitted(Input.Submitted(box, box.value))
        return
    await pilot.press("enter")
    await pilot.pause()


def message(app: PlayApp) -> str:
    return screen_text(app, "#message").strip()


def screen_text(app: App[None], widget: str, width: int | None = None) -> str:
    """The plain text a Static widget shows (``width``: the widget's own, as laid out)."""
    console = Console(width=width or SIZE[0], record=True, file=io.StringIO())
    console.print(app.query_one(widget, Static).content)
    return console.export_text()


def state(controller: Controller) -> tuple[Any, ...]:
    """What a rejected command must leave unchanged."""
    view = controller.real_view()
    return (view["hand"], view["table"], view["turn"], len(view["log"]), view["stock_size"])


# ------------------------------------------------------------------ Vatikanen


def test_vatikanen_legal_play_is_staged_then_confirmed(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=11, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        game = c.adapter.current
        assert game.to_act == 0
        assert "Your turn" in screen_text(app, "#prompt")
        before = state(c)
        await pilot.press("f3")  # hint: the best opening, put in the input line
        await pilot.pause()
        typed = app.query_one(CommandInput).value
        if not typed.startswith("play"):  # no opening in this hand: draw instead
            assert typed == "draw"
            await pilot.press("enter")
            await pilot.pause()
            assert len(game.log) >= 1 and game.log[0].seat == 0
            assert "You drew" in message(app)
            return
        await pilot.press("enter")  # stage it
        await pilot.pause()
        assert c.staged and state(c) == before  # nothing reached the engine
        assert "staged" in message(app)
        assert "your turn" in screen_text(app, "#status")  # still yours until confirmed
        assert "Enter confirms" in screen_text(app, "#prompt")
        await type_line(app, pilot, "undo")
        assert not c.staged and state(c) == before
        await type_line(app, pilot, typed)
        await type_line(app, pilot, "")  # Enter confirms
        assert not c.staged
        assert game.opened(0)
        assert len(game.hand(0)) < 13
        assert game.log[0].seat == 0 and type(game.log[0].action).__name__ == "Play"
        assert "opened with" in message(app)

    run_app(c, body)


def test_V7_vatikanen_illegal_opening_shows_the_rule_and_changes_nothing(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=3, seed=5, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        hand = c.real_view()["hand"]
        by_suit: dict[str, str] = {}
        for card in hand:
            by_suit.setdefault(card[-1], card)
        mixed = list(by_suit.values())[:3]  # three suits: never a run
        assert len(mixed) == 3
        before = state(c)
        await type_line(app, pilot, "play " + " ".join(mixed), keys=True)
        assert message(app).startswith("V7: ")
        assert state(c) == before and not c.staged
        await type_line(app, pilot, "play 7h 8x")
        assert "'8x' is not a card" in message(app)
        await type_line(app, pilot, "pass")
        assert message(app).startswith("V14: ")
        await type_line(app, pilot, "fold")
        assert "unknown command" in message(app)
        assert state(c) == before

    run_app(c, body)


def test_vatikanen_help_sort_and_completion(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=2, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        box = app.query_one("#hand", Static)
        assert "by suit" in str(box.border_title)
        await type_line(app, pilot, "sort")
        assert "by rank" in str(box.border_title)
        card = c.real_view()["hand"][0]
        await pilot.press(*f"play {card[0]}")
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        value = app.query_one(CommandInput).value
        assert value.lower().startswith(f"play {card[0].lower()}") and len(value) == 7

    run_app(c, body)


def test_vatikanen_whole_game_against_bots_saves_a_record_that_replays(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=4, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(400):
            if c.adapter.game_over():
                break
            assert c.adapter.to_act() == 0
            await type_line(app, pilot, "hint", fast=True)  # fills the input: play, draw, pass
            await type_line(app, pilot, app.query_one(CommandInput).value, fast=True)
            if c.staged:
                await type_line(app, pilot, "", fast=True)
        assert c.adapter.game_over()
        path = c.record_path
        assert path is not None and path.exists() and path.parent == tmp_path
        assert str(path) in screen_text(app, "#prompt")
        result = replay(load_record(path))
        assert result.ok, result
        view = c.real_view()
        assert list(result.scores) == view["balances"]
        assert "next game" in screen_text(app, "#prompt")
        # the next game of the session: the deal passes to the left
        await type_line(app, pilot, "next")
        assert c.adapter.current.number == 2 and c.adapter.current.dealer == 0
        assert "game 2" in screen_text(app, "#status")

    run_app(c, body)


def test_vatikanen_quit_saves_the_game_so_far(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=3, seed=8, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await type_line(app, pilot, "draw")
        await type_line(app, pilot, "quit")

    run_app(c, body)
    files = list(tmp_path.glob("vatikanen-seed8-*.json"))
    assert len(files) == 1
    record = load_record(files[0])
    assert replay(record).ok and len(record.deals[0].actions) >= 3


class GatedBot:
    """A real bot that thinks only once the test opens its gate (a slow bot, made exact)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.level = inner.level
        self.asked = threading.Event()
        self.gate = threading.Event()

    def choose(self, view: dict[str, Any]) -> Any:
        self.asked.set()
        assert self.gate.wait(30), "the test never opened the gate"
        return self.inner.choose(view)


class BrokenBot:
    """A bot that fails on every move."""

    level = "broken"

    def choose(self, view: dict[str, Any]) -> Any:
        raise RuntimeError("out of cheese")


async def _until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    for _ in range(400):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting until {what}")


def test_the_screen_stays_alive_while_a_bot_thinks(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=11, records=tmp_path)
    bot = GatedBot(c.adapter.bots[1])
    c.adapter.bots[1] = bot  # type: ignore[assignment]

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        game = c.adapter.current
        assert game.to_act == 0
        await type_line(app, pilot, "draw")
        await _until(pilot, bot.asked.is_set, "the bot is asked")
        # the bot is still thinking, and the person can read the help meanwhile
        await pilot.press("f1")
        await _until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help opens")
        assert game.to_act == 1 and len(game.log) == 1
        await pilot.press("escape")
        bot.gate.set()
        await _until(pilot, lambda: game.to_act == 0, "the bot has moved")
        assert len(game.log) == 2 and game.log[1].seat == 1

    run_app(c, body, bot_delay=0.01)


def test_a_failing_bot_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=11, records=tmp_path)
    c.adapter.bots[1] = BrokenBot()  # type: ignore[assignment]

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        game = c.adapter.current
        await type_line(app, pilot, "draw")
        await _until(pilot, lambda: game.to_act == 0, "a legal move is played for the bot")
        assert game.log[1].seat == 1  # the engine judged the stand-in move
        log = app.query_one("#log", RichLog)
        shown = " ".join(" ".join(line.text.split()) for line in log.lines)  # wrapped lines
        assert "bot failed (RuntimeError: out of cheese)" in shown

    run_app(c, body, bot_delay=0.01)


# ------------------------------------------------------------------ Kontrakt


def test_K7_kontrakt_upcard_offer_and_draw(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=3, seed=21, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        game = c.adapter.engine
        assert game.phase == "upcard_offer" and game.to_act == 0  # seat 0 is förhand
        assert "take it, or decline" in screen_text(app, "#prompt")
        assert "contract: 2 groups" in screen_text(app, "#status")
        before = state(c)
        await type_line(app, pilot, "buy", keys=True)
        assert message(app).startswith("K7: ")
        await type_line(app, pilot, "discard " + c.real_view()["hand"][0])
        assert message(app).startswith("K7: ")
        assert state(c) == before
        await type_line(app, pilot, "decline")
        # the bots answered the offer; förhand now draws from the stock
        assert game.phase == "draw" and game.to_act == 0
        await type_line(app, pilot, "draw discard")
        assert message(app).startswith("K7: ")
        await type_line(app, pilot, "draw")
        assert game.phase == "play" and len(game.hand(0)) == 11
        assert "You drew from the stock" in message(app)
        hand = c.real_view()["hand"]
        await type_line(app, pilot, "layoff " + hand[0] + " on 0")
        assert message(app).startswith("K10: ")
        await type_line(app, pilot, "discard " + hand[0])
        assert game.to_act != 0 or game.phase != "play"
        assert len(game.hand(0)) == 10

    run_app(c, body)


def test_kontrakt_staged_meld_undo_and_discard_confirms(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=2, seed=1, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        game = c.adapter.engine
        for _ in range(200):  # play with the basic bot's choices until a meld is staged
            if game.to_act == 0 and game.phase == "play" and game.deal == 0:
                await pilot.press("f3")
                await pilot.pause()
                typed = app.query_one(CommandInput).value
                if typed.startswith("meld"):
                    break
            await _bot_turn(app, pilot, c)
        else:
            raise AssertionError("no meld came up")
        before = state(c)
        await pilot.press("enter")  # stage the hint's meld
        await pilot.pause()
        assert c.staged and state(c) == before
        assert len(c.view()["table"]) > len(c.real_view()["table"])  # shown, not played
        await type_line(app, pilot, "undo")
        assert not c.staged and state(c) == before
        await type_line(app, pilot, typed)
        assert c.staged
        left = c.view()["hand"]
        await type_line(app, pilot, "discard " + left[0])
        assert not c.staged
        assert any(m.owner == 0 for m in game.table)

    run_app(c, body)


async def _bot_turn(app: PlayApp, pilot: Pilot[None], c: Controller) -> None:
    """Seat 0 plays one command chosen by the basic bot, typed into the command line."""
    if c.adapter.paused():
        await type_line(app, pilot, "", fast=True)
        return
    bot = make_bot("kontrakt", "basic", seed=99)
    action = bot.choose(c.view())
    await type_line(app, pilot, format_kontrakt(action), fast=True)
    assert app.last_reply is not None and app.last_reply.kind != "error", message(app)
    if c.staged:
        await type_line(app, pilot, "", fast=True)


def test_kontrakt_whole_game_of_seven_deals_saves_a_record_that_replays(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=2, seed=3, records=tmp_path)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        game = c.adapter.engine
        seen_pause = False
        for _ in range(3000):
            if game.over:
                break
            if c.adapter.paused() and not seen_pause:
                seen_pause = True
                await pilot.pause()
                assert "is over" in screen_text(app, "#prompt")
                assert "went out" in screen_text(app, "#table") or "nobody" in screen_text(
                    app, "#table"
                )
                end = [e for e in game.view(0)["log"] if e["type"] == "deal_end"][-1]
                if end["table"]:  # the deal's last table stays on screen with the summary
                    assert "The table at the end" in screen_text(app, "#table")
            await _bot_turn(app, pilot, c)
        assert game.over and seen_pause
        path = c.record_path
        assert path is not None and path.exists()
        assert str(path) in screen_text(app, "#prompt")
        result = replay(load_record(path))
        assert result.ok, result
        assert list(result.scores) == game.totals
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        await pilot.press("escape")
        await type_line(app, pilot, "next")  # a new game
        assert c.adapter.engine is not game and c.adapter.engine.deal == 0

    run_app(c, body)


def test_V9_vatikanen_explicit_table_is_staged_and_played(tmp_path: Path) -> None:
    from rummykit.games import vatikanen as v

    c = make_controller("vatikanen", players=2, seed=1, records=tmp_path)
    game = v.VatikanenGame.from_position(["Js 2c", "Kd Kh"], ["Tc Th Th Ts", "7s 8s 9s"])
    c.adapter.session.games[-1] = game  # type: ignore[attr-defined]
    reply = c.submit("play Js | Tc Th | 7s 8s 9s Ts Js")
    assert reply.kind == "error" and reply.text.startswith("V9: ")
    assert not c.staged and len(game.hand(0)) == 2
    reply = c.submit("play Js | Tc Th Th | 7s 8s 9s Ts Js")
    assert reply.kind == "info" and c.staged
    assert c.view()["table"] == [["Tc", "Th", "Th"], ["7s", "8s", "9s", "Ts", "Js"]]
    assert [str(x) for x in game.hand(0)] == ["Js", "2c"]  # not played yet
    assert c.submit("").kind == "done"
    assert game.view(0)["table"] == [["Tc", "Th", "Th"], ["7s", "8s", "9s", "Ts", "Js"]]
    assert game.to_act == 1
