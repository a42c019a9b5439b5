"""The Textual app shared by both games: panels, the command line, the help.

The screen, top to bottom: a status line (game, deal, contract, stock, whose
turn); on the left the players (cards in hand, progress, balance or total)
and the log of what everyone did; on the right the table and your hand; then
the last message, a line saying what to do now, and the command input, which
completes card text from your hand (Tab or →).

Everything shown comes from the engine's ``view(seat)`` through the game's
adapter and the :class:`~rummykit.tui.controller.Controller`; the app
itself knows no rules. Every word is in the adapter's language
(``controller.adapter.lang``), the keys' names in the footer included.
Bots move one at a time after ``bot_delay`` seconds,
each thinking on a worker thread so that the screen stays alive (0: at once,
on the app's thread, as most tests do).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.suggester import Suggester
from textual.timer import Timer
from textual.widgets import Footer, Input, Markdown, RichLog, Static

from rummykit.bots import Bot
from rummykit.game import Game
from rummykit.i18n import DEFAULT, N_, Plural, catalog, translate
from rummykit.tui.commands import suggest
from rummykit.tui.controller import Controller, Reply, View, think
from rummykit.tui.render import SortOrder, fit, hand_text

__all__ = [
    "CommandInput",
    "HandSuggester",
    "HelpScreen",
    "PlayApp",
    "QuitScreen",
    "ScoresScreen",
    "StatusLine",
    "translate_bindings",
    "translate_commands",
]


TEXTUAL_WORDS = (
    N_("palette"),
    N_("Open the command palette"),
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Hide the keys and widget help panel"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
)
"""Textual's own words that the person reads (the command palette's key in the footer,
its system commands), in the catalog so that a Swedish terminal shows them in Swedish;
a word a later Textual adds stays English."""


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Put the descriptions and tooltips of ``node``'s key bindings (the footer's words)
    in ``lang``; the class's ``BINDINGS`` keep the English, marked for the catalogs."""
    if lang == DEFAULT:
        return
    bindings = node._bindings.key_to_bindings
    for key, found in bindings.items():
        bindings[key] = [
            dataclasses.replace(
                b, description=_word(b.description, lang), tooltip=_word(b.tooltip, lang)
            )
            for b in found
        ]


def translate_commands(commands: Iterable[SystemCommand], lang: str) -> Iterator[SystemCommand]:
    """The command palette's system commands with their titles and help in ``lang``."""
    for command in commands:
        yield command._replace(title=_word(command.title, lang), help=_word(command.help, lang))


def _word(text: str, lang: str) -> str:
    """``text`` from the catalog, as it is (not a template); empty stays empty (gettext
    would give the catalog's header)."""
    return catalog(lang).gettext(text) if text else text


class StatusLine(Static):
    """The status line, drawn for its own width and drawn again whenever that changes
    (a resized terminal), not only when the game moves on."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._draw: Callable[[int], RenderableType] | None = None

    def draw(self, draw: Callable[[int], RenderableType]) -> None:
        """Show what ``draw`` makes for a width, now and after each resize."""
        self._draw = draw
        self._redraw()

    def _redraw(self) -> None:
        if self._draw is not None:
            self.update(self._draw(self.size.width or self.app.size.width))

    def on_resize(self, event: events.Resize) -> None:
        """Fit the line to its new width."""
        self._redraw()


class HandSuggester(Suggester):
    """Completes command words and card text from the person's hand."""

    def __init__(self, app: PlayApp) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.play_app = app

    async def get_suggestion(self, value: str) -> str | None:
        """A completion of ``value``, or None."""
        controller = self.play_app.controller
        return suggest(value, controller.hand(), controller.adapter.words, controller.lang)


class CommandInput(Input):
    """The command line; Tab accepts the completion."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "complete", "complete", show=False),
        Binding("ctrl+c", "app.ask_quit", show=False),
    ]

    def action_complete(self) -> None:
        """Accept the shown completion, if any."""
        if self._suggestion and self.cursor_at_end:
            self.value = self._suggestion
            self.cursor_position = len(self.value)


class HelpScreen(ModalScreen[None]):
    """The help panel (F1 or ``help``); Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "dismiss", N_("close")),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; height: 90%; border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, text: str, lang: str = DEFAULT) -> None:
        super().__init__()
        self.text = text
        self.lang = lang
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        """The help as Markdown."""
        box = VerticalScroll()
        box.border_title = translate("Help · ↑ ↓ PgUp PgDn scroll · Escape closes", self.lang)
        with box:
            yield Markdown(self.text + "\n\n" + translate("*Escape closes this help.*", self.lang))


class ScoresScreen(ModalScreen[None]):
    """The score sheet (Kontrakt, F4 or ``scores``); Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f4,q", "dismiss", N_("close")),
    ]
    DEFAULT_CSS = """
    ScoresScreen { align: center middle; }
    ScoresScreen > Static {
        width: auto; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    """

    def __init__(self, sheet: RenderableType, lang: str = DEFAULT) -> None:
        super().__init__()
        self.sheet = sheet
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        """The sheet."""
        yield Static(self.sheet)


class QuitScreen(ModalScreen[bool]):
    """Ctrl+Q asks first: the game so far is saved, and says how to resume it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,j,enter,ctrl+q,ctrl+c", "answer(True)", N_("quit")),
        Binding("n,escape", "answer(False)", N_("go on playing")),
    ]
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static {
        width: auto; max-width: 90%; height: auto; border: thick $warning;
        background: $surface; padding: 1 2;
    }
    """

    def __init__(self, text: str, lang: str = DEFAULT) -> None:
        super().__init__()
        self.text = text
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        """The question (a path in it is never read as markup)."""
        yield Static(Text(self.text))

    def action_answer(self, quit_now: bool) -> None:
        """Close with the answer."""
        self.dismiss(quit_now)


class PlayApp(App[None]):
    """Play one game (or session) against bots in the terminal."""

    TITLE = "rummykit"
    CSS = """
    #status { height: 1; background: $primary; color: $text; }
    #main { height: 1fr; }
    #left { width: 40%; max-width: 50; min-width: 42; }
    Screen.-narrow #left { width: 45%; min-width: 24; }
    #players { height: auto; border: round $secondary; border-title-color: $text; }
    #log { height: 1fr; border: round $secondary; }
    #right { width: 1fr; }
    #table-box { height: 1fr; border: round $secondary; }
    #hand { height: auto; min-height: 3; border: round $success; padding: 0 1; }
    #message { height: auto; max-height: 3; padding: 0 1; }
    #prompt { height: auto; padding: 0 1; color: $warning; text-style: bold; }
    #command { margin: 0 0; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-normal")]  # noqa: RUF012 (Textual's)
    """Below 80 columns the players panel gives up its 42 columns, so that the table keeps
    room (at 60 columns it would have 16)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", N_("help")),
        Binding("f2", "sort", N_("sort hand")),
        Binding("f3", "hint", N_("hint")),
        Binding("f4", "scores", N_("scores")),
        Binding("ctrl+q", "ask_quit", N_("quit"), priority=True),
    ]

    def __init__(self, controller: Controller[Game], *, bot_delay: float = 0.6) -> None:
        super().__init__()
        translate_bindings(self, controller.lang)
        self.controller = controller
        self.bot_delay = bot_delay
        self.sort_by: SortOrder = "suit"
        self.last_reply: Reply | None = None
        self._shown_at: object = None
        self.saved_path: str | None = None
        self.save_error: str | None = None
        """Why the record could not be saved the last time it was tried (None: it was)."""
        self._unsaved = ("", "")  # where and why, for the quit dialog
        self._bot_timer: Timer | None = None
        self._thinking = False
        self._mounted = False

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The panels."""
        yield StatusLine(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="players")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
            with Vertical(id="right"):
                with VerticalScroll(id="table-box"):
                    yield Static(id="table")
                yield Static(id="hand")
        yield Static(id="message")
        yield Static(id="prompt")
        yield CommandInput(
            placeholder=self._("type a command (help, or F1) and press Enter"),
            suggester=HandSuggester(self),
            id="command",
        )
        yield Footer()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's command palette commands, in the person's language."""
        return translate_commands(super().get_system_commands(screen), self.controller.lang)

    def on_mount(self) -> None:
        """Draw the game, greet, and let bots move if they start."""
        adapter = self.controller.adapter
        self.title = f"rummykit · {adapter.title}"
        self.query_one("#players", Static).border_title = self._("Players")
        self.query_one("#log", RichLog).border_title = self._("Log")
        self.query_one("#table-box", VerticalScroll).border_title = self._("Table")
        self.show(
            Reply(
                self._(
                    "Welcome to {game}! Type help (or press F1) for the rules.", game=adapter.title
                )
            )
        )
        self.refresh_game()
        self.query_one(CommandInput).focus()
        self._mounted = True
        self.schedule_bots()

    def on_resize(self) -> None:
        """Fit the status line to the new width."""
        if self._mounted:
            self.call_after_refresh(self.refresh_game)

    # ------------------------------------------------------------ drawing

    def _(self, message: str, /, **params: object) -> str:
        """``message`` in the person's language."""
        return translate(message, self.controller.lang, **params)

    def show(self, reply: Reply) -> None:
        """Put a reply in the message line (errors in red)."""
        self.last_reply = reply
        self._shown_at = self._turn_key()
        style = {"error": "bold red", "done": "green", "info": ""}[reply.kind]
        self.query_one("#message", Static).update(Text(reply.text, style=style))

    def _turn_key(self) -> object:
        """Changes whenever the turn passes (or a game or deal ends)."""
        view = self.controller.real_view()
        log = view.get("log")
        return (view.get("turn"), len(log) if isinstance(log, list) else 0, view.get("over"))

    def refresh_game(self) -> None:
        """Redraw every panel from the view (staged actions included).

        An error stays on the message line only until the game moves on (the
        bots' turns): then it is cleared, since it no longer applies.
        """
        c = self.controller
        adapter = c.adapter
        last = self.last_reply
        if last is not None and last.kind == "error" and self._shown_at != self._turn_key():
            self.show(Reply(""))
        view = c.view()
        self.query_one("#status", StatusLine).draw(lambda width: adapter.status(view, width))
        self.query_one("#players", Static).update(adapter.players_panel(view))
        new = adapter.added_cards(c.staged)
        self.query_one("#table", Static).update(adapter.table_panel(view, new))
        ended = adapter.ended_hand(view)
        hand = c.hand() if ended is None else ended
        hand_box = self.query_one("#hand", Static)
        cards = _cards(len(hand), c.lang)
        if ended is not None:
            titles = [self._("Your hand when the deal ended: {cards}", cards=cards)]
        elif self.sort_by == "suit":
            titles = [self._("Your hand: {cards}, by suit (F2 sorts)", cards=cards)]
            titles.append(self._("Your hand: {cards}, by suit", cards=cards))
        else:
            titles = [self._("Your hand: {cards}, by rank (F2 sorts)", cards=cards)]
            titles.append(self._("Your hand: {cards}, by rank", cards=cards))
        room = hand_box.size.width - 4  # the border's corners and the title's spaces
        hand_box.border_title = fit([Text(t) for t in titles], room if room > 0 else None).plain
        hand_box.update(hand_text(hand, self.sort_by))
        prompt = c.prompt()
        if c.record_path is not None and adapter.game_over():
            prompt += "\n" + self._("Record saved: {path}", path=c.record_path)
        self.query_one("#prompt", Static).update(Text(prompt))  # names and paths: no markup
        log = self.query_one("#log", RichLog)
        for line in c.new_log_lines():
            log.write(line)

    # ------------------------------------------------------------ input

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Run the typed command."""
        text = event.value
        event.input.value = ""
        self.run_command(text)

    def run_command(self, text: str) -> Reply:
        """Do what a typed line says, redraw, and let the bots move."""
        try:
            reply = self.controller.submit(text)
        except Exception as exc:  # never a traceback in the player's face
            error = type(exc).__name__ + ": " + str(exc)
            reply = Reply(self._("something went wrong: {error}", error=error), "error")
        self.handle(reply)
        return reply

    def handle(self, reply: Reply) -> None:
        """Act on a reply: UI requests, the prefilled input, redraw."""
        if reply.ui == "quit":
            self.action_quit_game()
            return
        if reply.ui == "help":
            self.action_help()
        elif reply.ui == "sort":
            self.action_sort()
            return
        elif reply.ui == "scores":
            self.action_scores()
        else:
            self.show(reply)
        if reply.prefill:  # selected: Enter takes it, typing replaces it
            box = self.query_one(CommandInput)
            box.value = reply.prefill
            box.select_all()
        self.refresh_game()
        self.schedule_bots()

    # ------------------------------------------------------------ bots

    def schedule_bots(self) -> None:
        """Let the bots move until it is the person's turn (one per ``bot_delay``).

        With a delay each bot thinks on a worker thread, so the screen and the
        command line stay alive meanwhile (a strong bot may think for some
        tenths of a second), and its choice is played on the app's thread.
        With no delay they move at once, on this thread (the tests do so).
        """
        if self._bot_timer is not None or self._thinking:
            return
        if self.bot_delay <= 0:
            moved = False
            while self.controller.bot_to_act():
                self._report(self.controller.bot_step())
                moved = True
            if moved:
                self.refresh_game()
            return
        if self.controller.bot_to_act():
            self._bot_timer = self.set_timer(self.bot_delay, self._bot_tick)

    def _bot_tick(self) -> None:
        self._bot_timer = None
        turn = self.controller.bot_turn()
        if turn is None:
            return
        self._thinking = True
        self.run_worker(self._bot_move(*turn), group="bots", exit_on_error=False)

    async def _bot_move(self, seat: int, bot: Bot, view: View) -> None:
        """Let ``bot`` think on a worker thread, then play its choice (if still its turn)."""
        try:
            action, failure = await asyncio.to_thread(think, bot, view)
            self._report(self.controller.bot_play(seat, action, failure))
        finally:
            self._thinking = False
        self.refresh_game()
        self.schedule_bots()

    def _report(self, warning: str | None) -> None:
        if warning:
            self.query_one("#log", RichLog).write(Text(warning, style="red"))

    # ------------------------------------------------------------ actions

    def action_help(self) -> None:
        """Open the help panel."""
        self.push_screen(HelpScreen(self.controller.adapter.help_text(), self.controller.lang))

    def action_sort(self) -> None:
        """Sort the hand the other way."""
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        if self.sort_by == "suit":
            self.show(Reply(self._("hand sorted by suit")))
        else:
            self.show(Reply(self._("hand sorted by rank")))
        self.refresh_game()

    def action_hint(self) -> None:
        """Ask for a hint."""
        self.run_command("hint")

    def action_scores(self) -> None:
        """Open the score sheet (Kontrakt)."""
        sheet = self.controller.adapter.scores_panel(self.controller.view())
        lang = self.controller.lang
        if sheet is None:
            balances = self.controller.adapter.players_panel(self.controller.view())
            self.push_screen(ScoresScreen(balances, lang))
        else:
            self.push_screen(ScoresScreen(sheet, lang))

    def _save(self) -> str | None:
        """Save the game so far; on failure keep why in :attr:`save_error` (the quit
        dialog and the command line say it: a game is never lost in silence)."""
        try:
            path = self.controller.save_unfinished()
        except Exception as exc:  # leave anyway, but say where the game could not go
            folder = self.controller.record_path or self.controller.records
            why = getattr(exc, "strerror", None) or type(exc).__name__ + ": " + str(exc)
            self._unsaved = (str(folder), str(why))
            self.save_error = self._(
                "the game could not be saved in {path}: {error}", path=str(folder), error=why
            )
            self.saved_path = None
            return None
        self.save_error = None
        self.saved_path = None if path is None else str(path)
        return self.saved_path

    @property
    def finished(self) -> bool:
        """True when the record holds a whole unit that cannot go on (a Kontrakt game
        after its seventh deal); a Vatikanen session can always go on (V16)."""
        engine = self.controller.adapter.engine
        return engine.over and not engine.can_next_part()

    def action_help_quit(self) -> None:
        """Ctrl+C (when no selected text is copied): ask to quit, as Ctrl+Q does."""
        self.action_ask_quit()

    def action_quit_game(self) -> None:
        """Save the record when the game has begun, and leave (``quit`` typed)."""
        self._save()
        self.exit()

    def action_ask_quit(self) -> None:
        """Ctrl+Q: save, say where and how to resume, and ask before leaving; pressed
        again while it asks, it quits (as the dialog's own keys do)."""
        if isinstance(self.screen, QuitScreen):
            self.screen.dismiss(True)
            return
        path = self._save()
        if self.save_error is not None:
            where, why = self._unsaved
            text = self._(
                "Quit? The game could not be saved in {path} ({error}): quitting now loses it.",
                path=where,
                error=why,
            )
        elif path is None:
            text = self._("Quit? Nothing has been played yet, so there is no record to keep.")
        elif self.finished:
            text = self._("Quit? The record of the game is saved in {path}.", path=path)
        else:
            text = self._(
                "Quit? The game so far is saved in {path}: resume it later with"
                " rummykit play --resume {path}",
                path=path,
            )
        text += "\n\n" + self._("y or Enter: quit · n or Escape: go on playing")

        def answered(quit_now: bool | None) -> None:
            if quit_now:
                self._save()  # again: the bots may have moved while the dialog was open
                self.exit()

        self.push_screen(QuitScreen(text, self.controller.lang), answered)


def _cards(n: int, lang: str = DEFAULT) -> str:
    """``n`` cards, in the singular for one.

    >>> _cards(1), _cards(13), _cards(13, "sv")
    ('1 card', '13 cards', '13 kort')
    """
    return Plural("{n} card", "{n} cards", n).translated(lang)
