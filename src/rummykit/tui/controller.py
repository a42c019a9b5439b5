"""What terminal play does with a typed line, for both games, without any Textual.

A :class:`Controller` holds one game (through its :class:`GameAdapter`), the
actions the player has staged but not confirmed, the bots, and where the
record goes. :meth:`Controller.submit` takes one line of text and answers
with a :class:`Reply`; the Textual app (:mod:`rummykit.tui.app`) only draws
what the controller and the engine's ``view(seat)`` say.

The controller holds the game only through the one game interface
(:class:`rummykit.game.Game`); what differs between games (commands, help,
pictures) is the adapter's, found through the registry
(:meth:`rummykit.games.GameSpec.terminal_adapter`).

Staging: a play (Vatikanen) or a lay-down, lay-off or joker swap (Kontrakt)
is checked by the engine on a copy of the game (:meth:`~rummykit.game.Game.copy`)
and shown, but reaches the real game only when confirmed (``ok`` or an empty
line); ``undo`` takes the last staged action back. Other actions (draw, pass,
the upcard answers) are taken at once; a Kontrakt discard confirms what is
staged and ends the turn.

Everything the person reads is in the adapter's language (``adapter.lang``,
``sv`` or ``en``), through the message catalogs (:mod:`rummykit.i18n`); a
rule error is shown with ``error.translated(lang)``.
"""

from __future__ import annotations

import datetime as _dt
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Generic, Literal, Self, TypeVar

from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text

from rummykit.bots import Bot
from rummykit.bots.levels import level_label, levels
from rummykit.bots.names import BOT_NAMES
from rummykit.errors import RuleError, as_sentence, describe_error
from rummykit.game import AnyAction, AnyEvent, Game
from rummykit.i18n import DEFAULT, N_, translate
from rummykit.narration import Sentence
from rummykit.notation import completion_words
from rummykit.record import GameRecord
from rummykit.tui.commands import CommandError, UiCommand

__all__ = [
    "BOT_NAMES",
    "Controller",
    "GameAdapter",
    "Reply",
    "Staging",
    "View",
    "confirmed",
    "player_label",
    "think",
]


STAGED_FIRST = N_(
    "you have staged cards: press Enter (ok) to confirm them or undo to take them back"
)
"""The answer to an action that cannot follow what is staged."""

HINT_STAGED = N_(
    "your play is staged: press Enter (ok) to confirm it, or undo to take it back"
    " and then ask for a hint"
)
"""The answer to a hint while what is staged ends the turn or the deal."""

Staging = Literal["stage", "now", "commit"]
"""How an action is taken: staged until confirmed, at once, or confirming what is staged."""

View = Mapping[str, object]
"""A seat's view, as :meth:`rummykit.game.Game.view` gives it."""

U = TypeVar("U", bound=Game)
"""The hosted unit an adapter plays (a Vatikanen session, a Kontrakt game)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one typed line.

    ``kind``: ``error`` (nothing changed), ``info`` or ``done`` (the game moved).
    ``prefill`` is text to put in the input line (a hint's command); ``ui`` asks
    the app to open ``help`` or ``scores``, or to ``quit``.
    """

    text: str
    kind: Literal["info", "error", "done"] = "info"
    prefill: str | None = None
    ui: str | None = None


class GameAdapter(ABC, Generic[U]):
    """One game behind the common interface: its engine, commands, help and pictures.

    An adapter sees the game only through the engine's ``view(seat)`` and asks
    the engine's ``verify``/``apply`` and hint helpers; it never decides legality.
    The engine is the hosted unit of the one game interface, of the type ``U``
    the adapter names, so an adapter asks its own game's engine for more
    (Vatikanen's solver hints) without checking what it holds.
    """

    game: str
    """``vatikanen`` or ``kontrakt`` (the record's game name)."""
    title: str
    seat = 0
    """The person's seat."""
    stages_more = True
    """Whether more actions may be staged on top of staged ones (Kontrakt: several
    lay-downs in a turn); Vatikanen's one play per turn (V4) may not."""
    lang = DEFAULT
    """The language of everything the adapter says (``sv`` or ``en``)."""

    def __init__(self, names: Sequence[str], bots: Sequence[Bot | None]) -> None:
        self.names = list(names)
        self.bots = list(bots)

    def _(self, message: str, /, **params: object) -> str:
        """``message`` (a catalog message id) in the adapter's language, filled."""
        return translate(message, self.lang, **params)

    @property
    def words(self) -> Sequence[str]:
        """The command words completion offers, in the adapter's language first
        (:func:`rummykit.notation.completion_words`)."""
        return completion_words(self.game, self.lang)

    def you(self) -> str:
        """What the person is called in the adapter's language: "You", "Du"."""
        return self._("You")

    def sentence(
        self, out: Text, message: str, name: str, cards: Text | None = None, **params: object
    ) -> Text:
        """Append ``message`` (a catalog message with ``{name}`` and maybe ``{cards}``) in
        the adapter's language to ``out``: the name in bold, the cards in their colours."""
        text = self._(message, name="{name}", cards="{cards}", **params)
        for i, piece in enumerate(text.split("{name}")):
            if i:
                out.append(name, style="bold")
            head, found, tail = piece.partition("{cards}")
            out.append(head)
            if found and cards is not None:
                out.append_text(cards)
                out.append(tail)
        return out

    def told(self, sentences: Sequence[Sentence], view: View, style: str = "") -> Text:
        """Sentences of :mod:`rummykit.narration` as Rich text, one a line: the names bold
        (the person's is "You"), the cards in their colours."""
        from rummykit.tui.render import cards_text

        players = view["players"]
        assert isinstance(players, list)
        out = Text(style=style)
        for i, line in enumerate(sentences):
            if i:
                out.append("\n")
            for kind, value in line:
                if kind == "name":
                    out.append(self.you() if value == self.seat else str(players[value]), "bold")
                elif kind == "cards":
                    out.append_text(cards_text(value))
                else:
                    out.append(str(value))
        return out

    # -- the engine
    @property
    @abstractmethod
    def engine(self) -> U:
        """The real game now being played (the hosted unit: a session, a seven-deal game)."""

    @abstractmethod
    def parse(self, text: str) -> AnyAction | UiCommand:
        """A typed line as an engine action or a :class:`UiCommand` (CommandError/ValueError)."""

    @abstractmethod
    def format(self, action: AnyAction, *, shown: bool = False) -> str:
        """The command text of an action in the adapter's language; ``shown``: its cards as
        the screen shows them (10♥, ★), to read rather than to type."""

    @abstractmethod
    def staging(self, action: AnyAction) -> Staging:
        """Whether ``action`` is staged, taken at once, or confirms the staged ones."""

    def to_act(self) -> int | None:
        """The seat that must act now, or None (game over, or between games)."""
        return self.engine.to_act

    def apply(self, action: AnyAction) -> AnyEvent:
        """Apply ``action`` to the real game (verified by the engine)."""
        return self.engine.apply(action)

    def prepared(self, action: AnyAction) -> AnyAction:
        """The action to stage for what was typed (Vatikanen: a hint's known arrangement)."""
        return action

    def settled(self, action: AnyAction, event: AnyEvent) -> AnyAction:
        """The action to send on confirming ``action``, given its event on the preview.

        By default the action itself; Vatikanen sends the table the engine
        arranged in the preview, so that the player confirms what was shown.
        """
        return action

    def fallback(self) -> AnyAction:
        """A legal action for the seat to act, when a bot chose an illegal one."""
        return self.engine.suggested_actions()[0]

    # -- between games
    @abstractmethod
    def paused(self) -> bool:
        """True when play waits for the person (a game or deal is over)."""

    @abstractmethod
    def resume(self) -> str:
        """Go on after a pause (next deal, next game); say what started."""

    def game_over(self) -> bool:
        """True when the hosted unit is over (:attr:`rummykit.game.Game.over`: a Vatikanen
        game ended, or a Kontrakt game's seventh deal), so its record is complete so far."""
        return self.engine.over

    @abstractmethod
    def record(self) -> GameRecord:
        """The record of the game (Vatikanen: the session so far)."""

    @abstractmethod
    def record_stem(self) -> str:
        """A file name stem for the record of the current game or session."""

    def saved_state(self) -> dict[str, object]:
        """What the record's ``terminal`` field keeps so that ``play --resume`` carries on
        exactly (docs/record.md): the person's seat, the bots' levels, the seeds."""
        return {
            "person": self.seat,
            "bots": [None if b is None else b.level for b in self.bots],
        }

    @classmethod
    def from_saved(
        cls, record: GameRecord, bots: Sequence[Bot | None], state: Mapping[str, object]
    ) -> Self:
        """The adapter of a game rebuilt where ``record`` ends, with the ``terminal`` field's
        ``state`` (:meth:`saved_state`); ValueError when the record cannot be resumed."""
        raise ValueError(f"{cls.__name__} cannot resume a game")  # pragma: no cover

    # -- help and pictures
    @abstractmethod
    def hint(self, engine: U) -> Reply:
        """What the engine's help says the person could do now."""

    @abstractmethod
    def prompt(self, view: View, staged: Sequence[AnyAction]) -> str:
        """One line saying what to do now."""

    @abstractmethod
    def status(self, view: View, width: int | None = None) -> Text:
        """The top line: game, deal, stock, whose turn; in ``width`` cells (what is said
        least goes first, the rest is cut with an ellipsis)."""

    @abstractmethod
    def players_panel(self, view: View) -> RenderableType:
        """Each player's cards, progress and score."""

    @abstractmethod
    def table_panel(self, view: View, new: Counter[str]) -> RenderableType:
        """The table; cards counted in ``new`` (staged) highlighted."""

    @abstractmethod
    def describe(self, entry: View, index: int, view: View) -> Text | None:
        """Entry ``index`` of the view's log in words."""

    @abstractmethod
    def log_key(self, view: View) -> object:
        """Changes when the view's log starts afresh (a new game)."""

    @abstractmethod
    def help_text(self) -> str:
        """The help panel, as Markdown."""

    @abstractmethod
    def same_round(self, real: View, preview: View) -> bool:
        """True when ``preview`` (after the staged actions) is still the same game or deal."""

    def ended_hand(self, view: View) -> list[str] | None:
        """While play waits after a deal (Kontrakt), the person's hand as that deal ended
        it (shown instead of the next deal's hand); None otherwise."""
        return None

    def scores_panel(self, view: View) -> RenderableType | None:
        """The score sheet, where the game has one."""
        return None

    def added_cards(self, staged: Sequence[AnyAction]) -> Counter[str]:
        """The hand cards that the staged actions put on the table (to highlight)."""
        return Counter()


def confirmed(view: View) -> View:
    """What is confirmed of ``view``: while actions are staged, the real view the
    controller keeps in it as ``staged_from`` (a panel shows the difference); else the view."""
    real = view.get("staged_from")
    return real if isinstance(real, Mapping) else view


def think(bot: Bot, view: View) -> tuple[AnyAction | None, str | None]:
    """What ``bot`` chooses from ``view``, or (None, why) when it fails: a broken bot must
    not end the person's game (:meth:`Controller.bot_play` then plays a legal action)."""
    try:
        return bot.choose(view), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


def player_label(
    name: str, seat: int, me: int, bot: Bot | None, lang: str = DEFAULT, game: str | None = None
) -> str:
    r"""A player's name for the players panel (Rich markup): yours marked, bots with their level.

    The name is the player's own text, so it is escaped: a name is never read as markup.
    A built-in bot of ``game`` shows its level's name in ``lang``.

    >>> player_label("You", 0, 0, None), player_label("Anna", 0, 0, None)
    ('You', 'Anna (you)')
    >>> player_label("Du", 0, 0, None, "sv"), player_label("Anna", 0, 0, None, "sv")
    ('Du', 'Anna (du)')
    >>> print(player_label("[bold]Eve[/", 1, 0, None))
    \[bold]Eve[/
    """
    shown = escape(name)
    if seat == me:
        if name in ("You", translate("You", lang)):
            return shown
        return translate("{name} (you)", lang, name=shown)
    if bot is None:
        return shown
    label = bot.level
    if game is not None and bot.level in levels(game):
        label = level_label(game, bot.level).translated(lang)
    return f"{shown} [dim]{escape(label)}[/dim]"


def seat_cells(
    view: View, seat: int, me: int, bot: Bot | None, lang: str = DEFAULT, game: str | None = None
) -> tuple[str, str]:
    """The players panel's first cells for ``seat``: the turn mark, and the name with
    a D for the dealer (G, givare, in Swedish)."""
    mark = "▶" if view["turn"] == seat else ""
    players = view["players"]
    assert isinstance(players, list)
    who = player_label(players[seat], seat, me, bot, lang, game)
    if seat == view["dealer"]:
        who += translate(" [bold]D[/bold]", lang)
    return mark, who


@dataclass
class _LogState:
    key: object = None
    shown: int = 0


@dataclass
class Controller(Generic[U]):
    """One person's game against bots: typed lines in, replies and views out."""

    adapter: GameAdapter[U]
    records: Path = Path("records")
    staged: list[AnyAction] = field(default_factory=list)
    _to_apply: list[AnyAction] = field(default_factory=list)
    _preview: U | None = None
    _paths: dict[str, Path] = field(default_factory=dict)
    _log: _LogState = field(default_factory=_LogState)
    _stamp: str = field(default_factory=lambda: _dt.datetime.now().strftime("%Y%m%d-%H%M%S"))

    # ------------------------------------------------------------ views

    @property
    def seat(self) -> int:
        """The person's seat."""
        return self.adapter.seat

    @property
    def lang(self) -> str:
        """The language the person reads (the adapter's)."""
        return self.adapter.lang

    def _(self, message: str, /, **params: object) -> str:
        return translate(message, self.lang, **params)

    def preview(self) -> U:
        """The game as it would be with the staged actions (a copy), or the real game."""
        if not self.staged:
            return self.adapter.engine
        if self._preview is None:
            game = self.adapter.engine.copy()
            for action in self._to_apply:
                game.apply(action)
            self._preview = game
        return self._preview

    def _unstage(self) -> list[AnyAction]:
        """Clear the staged actions; return the forms to send to the engine."""
        out = self._to_apply
        self.staged, self._to_apply, self._preview = [], [], None
        return out

    def view(self) -> dict[str, object]:
        """The person's view of the game, staged actions included.

        It is still the person's turn while actions are staged. When the staged
        actions would end the game or deal (going out), the preview has moved
        on, so the real view is shown (the reply said what confirming does).
        """
        real = self.real_view()
        if not self.staged:
            return real
        view = dict(self.preview().view(self.seat))
        if not self.adapter.same_round(real, view):
            return real
        view["turn"] = real["turn"]
        view["staged_from"] = real  # what is confirmed: the players panel shows the difference
        return view

    def hand(self) -> list[str]:
        """The person's hand as the view shows it (staged cards gone), as card text."""
        hand = self.view().get("hand")
        return [str(c) for c in hand] if isinstance(hand, list) else []

    def goes_out(self) -> bool:
        """True when confirming the staged actions ends the game or deal."""
        if not self.staged:
            return False
        return not self.adapter.same_round(self.real_view(), self.preview().view(self.seat))

    def real_view(self) -> dict[str, object]:
        """The person's view of the real game."""
        return dict(self.adapter.engine.view(self.seat))

    def prompt(self) -> str:
        """What to do now, in one line."""
        return self.adapter.prompt(self.real_view(), self.staged)

    def new_log_lines(self) -> list[Text]:
        """Log entries of the real game not yet shown, in words."""
        view = self.real_view()
        key = self.adapter.log_key(view)
        out: list[Text] = []
        if key != self._log.key:
            if self._log.key is not None:
                out.append(Text(f"—— {key} ——", style="bold"))
            self._log = _LogState(key, 0)
        log = _log_of(view)
        for index in range(self._log.shown, len(log)):
            line = self.adapter.describe(log[index], index, view)
            if line is not None:
                out.append(line)
        self._log.shown = len(log)
        return out

    # ------------------------------------------------------------ bots

    def bot_to_act(self) -> bool:
        """True when a bot must move now."""
        if self.adapter.paused():
            return False
        seat = self.adapter.to_act()
        return seat is not None and seat != self.seat

    def bot_step(self) -> str | None:
        """Let the bot to act make one move (it sees only its seat's view).

        Returns a warning when the bot failed or chose an illegal action (a bot
        bug): a legal one is then played for it, so that the game goes on.
        """
        turn = self.bot_turn()
        if turn is None:
            return None
        seat, bot, view = turn
        return self.bot_play(seat, *think(bot, view))

    def bot_turn(self) -> tuple[int, Bot, View] | None:
        """The seat whose bot must move now, its bot and the view it decides from.

        The view is the bot's own copy, so the bot may think on another thread
        (:meth:`bot_play` then applies its choice on the game's thread).
        """
        if not self.bot_to_act():
            return None
        seat = self.adapter.to_act()
        assert seat is not None
        bot = self.adapter.bots[seat]
        assert bot is not None
        return seat, bot, self.adapter.engine.view(seat)  # fresh: the bot's own

    def bot_play(
        self, seat: int, action: AnyAction | None, failure: str | None = None
    ) -> str | None:
        """Play what ``seat``'s bot chose; a warning when it failed or chose an illegal action.

        Nothing happens when it is no longer that seat's turn (the game moved on
        while the bot thought).
        """
        if not self.bot_to_act() or self.adapter.to_act() != seat:
            return None
        name = self.adapter.names[seat]
        warning = None
        if action is None:
            warning = self._("{name}'s bot failed ({failure})", name=name, failure=failure)
            self.adapter.apply(self.adapter.fallback())
        else:
            try:
                self.adapter.apply(action)
            except ValueError as exc:  # RuleError or ActionError: refused, nothing changed
                warning = self._(
                    "{name}'s bot chose an illegal action ({error})",
                    name=name,
                    error=describe_error(exc, self.lang),
                )
                self.adapter.apply(self.adapter.fallback())
        self._after_move()
        return warning

    # ------------------------------------------------------------ typed lines

    def submit(self, text: str) -> Reply:
        """Do what one typed line says; an illegal one changes nothing."""
        try:
            parsed = self.adapter.parse(text)
        except (CommandError, ValueError) as exc:
            return Reply(describe_error(exc, self.lang), "error")
        if isinstance(parsed, UiCommand):
            return self._ui(parsed.name)
        if self.adapter.paused():
            return Reply(self.adapter.prompt(self.real_view(), self.staged), "error")
        how = self.adapter.staging(parsed)
        if self.staged and (how == "now" or (how == "stage" and not self.adapter.stages_more)):
            return Reply(self._(STAGED_FIRST), "error")
        preview = self.preview()
        trial = preview.copy() if how == "stage" else preview
        try:
            if how == "stage":  # the engine checks it on a copy, which becomes the preview
                event = trial.apply(self.adapter.prepared(parsed))
            else:
                trial.verify(parsed)
        except RuleError as exc:
            return Reply(f"{exc.rule}: {as_sentence(exc.translated(self.lang))}", "error")
        except ValueError as exc:  # ActionError: not an action of the game
            return Reply(as_sentence(describe_error(exc, self.lang)), "error")
        if how == "stage":
            self.staged.append(parsed)
            self._to_apply.append(self.adapter.settled(parsed, event))
            self._preview = trial
            command = self.adapter.format(parsed, shown=True)
            if self.goes_out():
                text = self._(
                    "staged: {command} — this empties your hand! (Enter confirms, undo takes back)",
                    command=command,
                )
            else:
                text = self._(
                    "staged: {command} (Enter confirms, undo takes back)", command=command
                )
            return Reply(text, "info")
        actions = [*self._unstage(), parsed] if how == "commit" else [parsed]
        return self._take(actions)

    def confirm(self) -> Reply:
        """Send the staged actions to the engine."""
        if not self.staged:
            if self.adapter.paused():
                return self._resume()
            return Reply(self.prompt(), "info")
        return self._take(self._unstage())

    def _take(self, actions: Sequence[AnyAction]) -> Reply:
        """Apply the person's actions; the reply says what they did, as the log does."""
        before = self.real_view()
        start = len(_log_of(before))
        key = self.adapter.log_key(before)
        for action in actions:
            self.adapter.apply(action)
            self._after_move()
        view = self.real_view()
        log = _log_of(view) if self.adapter.log_key(view) == key else []
        lines = [
            line
            for i in range(start, len(log))
            if log[i].get("seat") == self.seat
            and (line := self.adapter.describe(log[i], i, view)) is not None
        ]
        text = "; ".join(line.plain for line in lines) or "; ".join(
            self.adapter.format(a, shown=True) for a in actions
        )
        return Reply(text, "done")

    def _resume(self) -> Reply:
        return Reply(self.adapter.resume(), "done")

    def _ui(self, name: str) -> Reply:
        if name == "ok":
            return self.confirm()
        if name == "next":
            if self.staged:
                return self.confirm()
            if self.adapter.paused():
                return self._resume()
            return Reply(self._("the game is not over yet"), "error")
        if name == "undo":
            if not self.staged:
                return Reply(
                    self._("nothing is staged: undo only takes back staged cards"), "error"
                )
            gone = self.staged.pop()
            self._to_apply.pop()
            self._preview = None
            took = self.adapter.format(gone, shown=True)
            return Reply(self._("took back: {command}", command=took), "info")
        if name == "hint":
            return self._hint()
        if name == "quit":
            return Reply(self._("bye"), "info", ui="quit")
        if name in ("help", "scores", "sort"):
            return Reply("", "info", ui=name)
        return Reply(f"unknown command {name}", "error")  # pragma: no cover

    def _hint(self) -> Reply:
        """The adapter's hint, asked only where it can be played: on the person's turn,
        from the position the next typed action starts from.

        A bot's turn has no hint for the person. A staged Vatikanen play ends the
        turn when confirmed (V4: one play a turn), and staged cards that empty the
        hand end the deal, so the preview is then no position to play from: the
        reply says what to do with what is staged instead.
        """
        if self.adapter.paused():
            return self.adapter.hint(self.adapter.engine)
        turn = self.adapter.to_act()
        if turn != self.seat:
            name = "?" if turn is None else self.adapter.names[turn]
            return Reply(
                self._("it is {name}'s turn: a hint is for your own turn", name=name), "info"
            )
        if self.staged and (not self.adapter.stages_more or self.goes_out()):
            return Reply(self._(HINT_STAGED), "info")
        return self.adapter.hint(self.preview())

    # ------------------------------------------------------------ records

    def _after_move(self) -> None:
        if self.adapter.game_over():
            self.save()

    def save(self) -> Path:
        """Write the record (RECORD.md) of the current game or session; return its path."""
        stem = self.adapter.record_stem()
        path = self._paths.get(stem)
        if path is None:
            path = self.records / f"{stem}-{self._stamp}.json"
            n = 2
            while path.exists():
                path = self.records / f"{stem}-{self._stamp}-{n}.json"
                n += 1
            self._paths[stem] = path
        self.record().save(path)
        return path

    def record(self) -> GameRecord:
        """The record of the current game or session, with the ``terminal`` field that
        ``play --resume`` reads (docs/record.md)."""
        record = self.adapter.record()
        extra = {**record.extra, "terminal": self.adapter.saved_state()}
        return replace(record, extra=extra)

    def resume_from(self, path: Path) -> None:
        """Keep saving the current game or session to ``path`` (a resumed record)."""
        self._paths[self.adapter.record_stem()] = path

    @property
    def record_path(self) -> Path | None:
        """Where the record of the current game or session is (or will be) saved."""
        return self._paths.get(self.adapter.record_stem())

    def save_unfinished(self) -> Path | None:
        """On quitting: save the record when the game has begun; return its path."""
        if not any(d.actions for d in self.adapter.record().deals):
            return self.record_path
        return self.save()


def _log_of(view: View) -> list[View]:
    """The log of a view (empty when the view has none)."""
    log = view.get("log")
    return [e for e in log if isinstance(e, Mapping)] if isinstance(log, list) else []
