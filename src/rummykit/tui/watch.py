"""Watching a record in the terminal: ``rummykit replay FILE --show``.

:class:`Watch` steps through a record, forwards and back, without Textual:
position 0 is the first deal as dealt, each later position one action more,
through every deal of the record. Each position's game is rebuilt through the
game interface (:meth:`rummykit.games.GameSpec.from_record` at the start of a
deal, then one :meth:`~rummykit.game.Game.apply` per action, every step
remembered), so what is shown is what the engine says. A record with an
illegal action is shown up to it, and the message says which rule it breaks.

Who sees what (RULES.md's invariants): a finished game's record shows every
seat's hand; an unfinished one shows one seat's view (``--seat``, default 0),
as that player saw the game. :class:`WatchApp` draws it with the game's own
terminal adapter (players, table, log), the keys: → or n next, ← or p back,
PgDn / PgUp the next / previous deal, Home / End, q quits. Everything is said
in ``lang`` (``sv`` or ``en``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from rummykit import games
from rummykit.errors import MessageError, message_of
from rummykit.game import Game
from rummykit.i18n import DEFAULT, LANGUAGES, N_, translate
from rummykit.record import GameRecord, IllegalAction
from rummykit.tui.app import translate_bindings, translate_commands
from rummykit.tui.controller import GameAdapter
from rummykit.tui.render import hand_text

__all__ = ["Watch", "WatchApp", "watch"]


@dataclass(frozen=True, slots=True)
class Step:
    """One position of the record: deal ``deal`` (from 0) after ``done`` of its actions."""

    deal: int
    done: int


def seat_names(players: list[str], viewer: int | None, lang: str = DEFAULT) -> list[str]:
    """The names the watch shows: the record's, except that "You" (or "Du") names only the
    viewer's own seat. A terminal record names the person "You", as the screen called
    them; watched from another seat (or every hand at once) that seat is "Seat 0".

    >>> seat_names(["You", "Astrid"], 1), seat_names(["You", "Astrid"], 0)
    (['Seat 0', 'Astrid'], ['You', 'Astrid'])
    >>> seat_names(["Du", "Astrid"], None, "sv")
    ['Plats 0', 'Astrid']
    """
    yous = {translate("You", language) for language in LANGUAGES}
    return [
        translate("Seat {seat}", lang, seat=s) if name in yous and s != viewer else name
        for s, name in enumerate(players)
    ]


class Watch:
    """A record's positions, each game rebuilt on demand and remembered.

    ``seat`` is whose view is shown; None shows every hand, which only a
    finished game's record may (ValueError otherwise, or for no such seat).
    Only the watched seat is called "you" (:func:`seat_names`).
    """

    def __init__(self, record: GameRecord, seat: int | None = None, lang: str = DEFAULT) -> None:
        given = record
        record = replace(record, players=tuple(seat_names(list(record.players), seat or 0, lang)))
        self.record = record
        self.lang = lang
        self.spec = games.get(record.game)
        n = len(record.players)
        if not record.deals:
            raise MessageError(N_("the record holds no deal to show"))
        if seat is not None and not 0 <= seat < n:
            raise MessageError(
                N_("there is no seat {seat}: the seats are 0 to {last}"), seat=seat, last=n - 1
            )
        self.steps: list[Step] = []
        self.illegal: IllegalAction | None = None
        self._games: dict[int, Game] = {}
        self._build_steps()
        self.finished = self.illegal is None and self.game(len(self.steps) - 1).over
        if seat is None and not self.finished:
            seat = 0  # an unfinished game: one player's view, never every hand
        names = tuple(seat_names(list(given.players), seat, lang))
        if names != record.players:  # every hand: nobody is "you", seat 0 included
            self.record = record = replace(record, players=names)
            self._games = {}  # rebuilt on demand with those names
        self.seat = seat
        self.position = 0
        adapter = self.spec.terminal_adapter()(list(record.players), [None] * n, seed=0)
        assert isinstance(adapter, GameAdapter)
        adapter.seat = -1 if seat is None else seat  # -1: nobody is "you"
        adapter.lang = lang
        self.adapter = adapter

    def _build_steps(self) -> None:
        """Every position up to the end, or up to the first illegal action."""
        for k, deal in enumerate(self.record.deals):
            for j in range(len(deal.actions) + 1):
                self.steps.append(Step(k, j))
                if j == len(deal.actions):
                    break
                try:
                    self.game(len(self.steps))  # the game after this action
                except IllegalAction as exc:
                    self.illegal = exc
                    return
                except ValueError as exc:  # RuleError, ActionError
                    rule = getattr(exc, "rule", self.spec.turn_rule)
                    self.illegal = IllegalAction(k, j, rule, message_of(exc))
                    return

    def game(self, index: int) -> Game:
        """The game at position ``index`` (or, while the steps are built, one beyond)."""
        cached = self._games.get(index)
        if cached is not None:
            return cached
        step = self.steps[index] if index < len(self.steps) else None
        if step is None:  # one action beyond the last step built
            last = self.steps[index - 1]
            game = self.game(index - 1).copy()
            raw = self.record.deals[last.deal].actions[last.done]
            game.apply(self.spec.action_from_json(raw))
        elif step.done == 0:
            deals = self.record.deals
            start = (*deals[: step.deal], replace(deals[step.deal], actions=()))
            game = self.spec.from_record(replace(self.record, deals=start, result=None))
        else:
            game = self.game(index - 1).copy()
            raw = self.record.deals[step.deal].actions[step.done - 1]
            game.apply(self.spec.action_from_json(raw))
        self._games[index] = game
        return game

    # ------------------------------------------------------------ moving

    def go(self, index: int) -> None:
        """Go to position ``index`` (kept within the record)."""
        self.position = max(0, min(len(self.steps) - 1, index))

    def step(self, by: int) -> None:
        """Go ``by`` positions on (back when negative)."""
        self.go(self.position + by)

    def deal_step(self, by: int) -> None:
        """Go to the start of the next (``by`` 1) or this or the previous deal (-1)."""
        here = self.steps[self.position]
        if by > 0:
            later = [i for i, s in enumerate(self.steps) if s.deal > here.deal]
            self.go(later[0] if later else len(self.steps) - 1)
            return
        start = next(i for i, s in enumerate(self.steps) if s.deal == here.deal)
        if self.position > start:
            self.go(start)
        elif here.deal > 0:
            self.go(next(i for i, s in enumerate(self.steps) if s.deal == here.deal - 1))

    # ------------------------------------------------------------ what is shown

    @property
    def current(self) -> Game:
        """The game at the current position."""
        return self.game(self.position)

    def view(self) -> Mapping[str, object]:
        """The view shown: the seat's, or a spectator's when every hand is shown."""
        game = self.current
        return game.spectator_view() if self.seat is None else game.view(self.seat)

    def hands(self) -> list[tuple[str, list[str]]]:
        """The hands shown: every seat's (a finished game), or the watched seat's."""
        game = self.current
        seats = range(game.n_players) if self.seat is None else [self.seat]
        out = []
        for s in seats:
            hand = game.view(s).get("hand")
            out.append((game.players[s], [str(c) for c in hand] if isinstance(hand, list) else []))
        return out

    def deal_over(self) -> bool:
        """True at the last position of a deal that a later deal follows (its end is shown)."""
        here = self.steps[self.position]
        last = len(self.record.deals[here.deal].actions)
        return here.done == last and here.deal + 1 < len(self.record.deals)

    def says(self, key: str) -> str:
        """The message ``key`` of :data:`WORDS` for this record's game: a Vatikanen
        record's deals are the games of a session, so it says game, not deal."""
        return WORDS[key][1 if self.spec.parts_are_games else 0]

    def where(self) -> str:
        """Where in the record the current position is, counted from 1 for people."""
        here = self.steps[self.position]
        deals = len(self.record.deals)
        total = len(self.record.deals[here.deal].actions)
        if here.done == 0:
            return self._(self.says("as dealt"), deal=here.deal + 1, deals=deals, total=total)
        return self._(
            self.says("after"), deal=here.deal + 1, deals=deals, done=here.done, total=total
        )

    def _(self, message: str, /, **params: object) -> str:
        return translate(message, self.lang, **params)

    def note(self) -> str:
        """What the record as a whole says: finished, unfinished, or its illegal action."""
        if self.illegal is not None:
            exc = self.illegal
            return self._(
                self.says("illegal"),
                deal=exc.deal + 1,
                action=exc.action + 1,
                rule=exc.rule,
                reason=exc.translatable,
            )
        if self.finished:
            return self._("The game is over: every hand is shown.") if self.seat is None else ""
        who = self.record.players[self.seat or 0]
        return self._("The record ends mid-game: you see what {name} saw.", name=who)


WORDS: dict[str, tuple[str, str]] = {
    "as dealt": (
        N_("deal {deal} of {deals}: as dealt, before action 1 of {total}"),
        N_("game {deal} of {deals}: as dealt, before action 1 of {total}"),
    ),
    "after": (
        N_("deal {deal} of {deals}: after action {done} of {total}"),
        N_("game {deal} of {deals}: after action {done} of {total}"),
    ),
    "illegal": (
        N_(
            "The record stops being legal at deal {deal}, action {action}:"
            " it breaks {rule}: {reason}"
        ),
        N_(
            "The record stops being legal at game {deal}, action {action}:"
            " it breaks {rule}: {reason}"
        ),
    ),
    "keys": (
        N_("→ next · ← back · PgDn next deal · PgUp deal start · Home · End · q quits"),
        N_("→ next · ← back · PgDn next game · PgUp game start · Home · End · q quits"),
    ),
}
"""What the watch says, (in a game of deals, in a session of games)."""

GAME_KEYS = {"next deal": N_("next game"), "deal start": N_("game start")}
"""The key descriptions a session's record uses instead."""


class WatchApp(App[None]):
    """Step through a record: the game's own panels, every hand or one seat's view."""

    TITLE = "rummykit replay"
    CSS = """
    #status { height: 1; background: $primary; color: $text; }
    #main { height: 1fr; }
    #left { width: 40%; max-width: 50; min-width: 42; }
    #players { height: auto; border: round $secondary; }
    #log { height: 1fr; border: round $secondary; }
    #right { width: 1fr; }
    #table-box { height: 1fr; border: round $secondary; }
    #hands { height: auto; min-height: 3; border: round $success; padding: 0 1; }
    #note { height: auto; padding: 0 1; color: $warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n,space", "step(1)", N_("next"), priority=True),
        Binding("left,p,backspace", "step(-1)", N_("back"), priority=True),
        Binding("pagedown", "deal(1)", N_("next deal"), priority=True),
        Binding("pageup", "deal(-1)", N_("deal start"), priority=True),
        Binding("home", "go(0)", N_("start"), priority=True),
        Binding("end", "go(-1)", N_("end"), priority=True),
        Binding("q,escape,ctrl+c", "quit", N_("quit"), priority=True),
    ]

    def __init__(self, watch: Watch) -> None:
        super().__init__()
        if watch.spec.parts_are_games:  # a session's record: its deals are games
            bindings = self._bindings.key_to_bindings
            for key, found in bindings.items():
                bindings[key] = [
                    dataclasses.replace(b, description=GAME_KEYS.get(b.description, b.description))
                    for b in found
                ]
        translate_bindings(self, watch.lang)
        self.watch_ = watch

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's command palette commands, in the watcher's language."""
        return translate_commands(super().get_system_commands(screen), self.watch_.lang)

    def compose(self) -> ComposeResult:
        """The panels."""
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="players")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
            with Vertical(id="right"):
                with VerticalScroll(id="table-box"):
                    yield Static(id="table")
                yield Static(id="hands")
        yield Static(id="note")
        yield Footer()

    def on_mount(self) -> None:
        """Draw the first position."""
        w = self.watch_
        self.title = f"rummykit replay · {w.adapter.title}"
        self.query_one("#players", Static).border_title = w._("Players")
        self.query_one("#log", RichLog).border_title = w._("Log")
        self.query_one("#table-box", VerticalScroll).border_title = w._("Table")
        self.redraw()

    def redraw(self) -> None:
        """Draw the current position."""
        w = self.watch_
        adapter = w.adapter
        view = w.view()
        if hasattr(adapter, "between_deals"):
            adapter.between_deals = w.deal_over()
        status = Text(f" {w.where()} ·")
        room = (self.query_one("#status", Static).size.width or self.size.width) - status.cell_len
        status.append_text(adapter.status(view, max(room, 10)))
        self.query_one("#status", Static).update(status)
        self.query_one("#players", Static).update(adapter.players_panel(view))
        self.query_one("#table", Static).update(adapter.table_panel(view, _empty()))
        hands: list[RenderableType] = []
        for name, hand in w.hands():
            line = Text(f"{name}: ", style="bold")
            line.append_text(hand_text(hand) if hand else Text(w._("no cards"), style="dim"))
            hands.append(line)
        box = self.query_one("#hands", Static)
        box.border_title = w._("Every hand") if w.seat is None else w._("Hand")
        box.update(Group(*hands))
        log = self.query_one("#log", RichLog)
        log.clear()
        entries = view.get("log")
        if isinstance(entries, list):
            for i, entry in enumerate(entries):
                said = adapter.describe(entry, i, view)
                if said is not None:
                    log.write(said)
        keys = w._(w.says("keys"))
        note = w.note()
        self.query_one("#note", Static).update(Text(f"{note}\n{keys}" if note else keys))

    def action_step(self, by: int) -> None:
        """One action on, or back."""
        self.watch_.step(by)
        self.redraw()

    def action_deal(self, by: int) -> None:
        """The next deal, or the start of this (or the previous) one."""
        self.watch_.deal_step(by)
        self.redraw()

    def action_go(self, index: int) -> None:
        """The start (0) or the end (-1)."""
        w = self.watch_
        w.go(len(w.steps) - 1 if index < 0 else index)
        self.redraw()


def _empty() -> Counter[str]:
    return Counter()


def watch(record: GameRecord, seat: int | None = None, lang: str = DEFAULT) -> int:
    """Run the watch app on ``record``, speaking ``lang``; the exit code of ``replay --show``."""
    WatchApp(Watch(record, seat, lang)).run()
    return 0
