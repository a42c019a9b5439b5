"""What the registry knows of a game before any is played: :class:`GameSpec`."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rummykit.cards import Card
from rummykit.errors import ActionError, RuleError
from rummykit.i18n import N_

if TYPE_CHECKING:
    from rummykit.bots.base import Bot
    from rummykit.game import AnyAction, Game
    from rummykit.record import GameRecord

__all__ = [
    "CommandExample",
    "GameSpec",
    "HouseRule",
    "OptionValue",
    "Words",
    "check_house_rules",
]

OptionValue = bool | int
"""The value of a house rule: on/off, or a number."""


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house-rule option of RULES.md: its record name, default, rule id, a one-line
    explanation for a player choosing it and a short title (both catalog messages)."""

    name: str
    default: OptionValue
    rule: str
    summary: str
    low: int | None = None
    high: int | None = None
    title: str = ""

    def check(self, value: object, game: str) -> OptionValue:
        """``value`` if it is a valid value of this option; ValueError saying why not."""
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{game} option {self.name!r} is true or false, not {value!r}")
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{game} option {self.name!r} is a whole number, not {value!r}")
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise ValueError(
                f"{game} option {self.name!r} is from {self.low} to {self.high}, not {value}"
            )
        return value


def check_house_rules(
    rules: Sequence[HouseRule], options: Mapping[str, object], title: str
) -> dict[str, OptionValue]:
    """Every rule's value: those in ``options`` checked, the others at their defaults.

    ValueError for an unknown option or a wrong value, naming the options.

    >>> rule = HouseRule("free_jokers", False, "V11", "table jokers move freely")
    >>> check_house_rules([rule], {}, "Vatikanen")
    {'free_jokers': False}
    >>> check_house_rules([rule], {"jokers": True}, "Vatikanen")
    Traceback (most recent call last):
    ...
    ValueError: unknown Vatikanen option 'jokers': the options are free_jokers
    """
    known = {r.name: r for r in rules}
    out = {r.name: r.default for r in rules}
    for key, value in options.items():
        rule = known.get(key)
        if rule is None:
            names = ", ".join(known) or "none"
            raise ValueError(f"unknown {title} option {key!r}: the options are {names}")
        out[key] = rule.check(value, title)
    return out


Words = Mapping[str, tuple[str, ...]]
"""The words of one typed command, per language (the first is the one shown): see
:mod:`rummykit.notation`."""

CommandExample = tuple[tuple[str, ...], str]
"""One line of a game's typed-command help: the example's parts (a command's English name,
``@`` and a link word's name, or text as it is; each shown in the player's words, see
:mod:`rummykit.notation`) and what it does (a catalog message)."""

Visit = Callable[[int, int, "Game"], None]
"""Called at each position of a record being replayed: (deal, actions done in it, game)."""

Starter = Callable[
    [
        tuple[str, ...],
        int | None,
        Sequence[Sequence[Card]] | None,
        dict[str, OptionValue],
        Mapping[str, object] | None,
    ],
    "Game",
]
"""Starts a game: (names, seed, decks, complete options, carried) -> the game."""


@dataclass(frozen=True)
class GameSpec:
    """A game as the registry describes it (see :mod:`rummykit.games`).

    ``higher_is_better`` orders the scores of :class:`~rummykit.game.Result`;
    ``score_name`` and ``score_note`` say what a score is, for people.
    ``turn_rule`` is the rule id of a turn (what an action that is not one of
    the game's breaks, in a record). ``terminal`` names the terminal UI's
    adapter class (``module:Class``). ``record_only`` are action fields only a
    record writes (Kontrakt's ``restock``: no player orders the stock); a
    player's action drops them. ``view_type`` is the TypedDict of the game's
    view (``docs/schemas/`` holds its JSON Schema). ``arranger``, where the
    game has one, fits cards a player names into the table exactly (Vatikanen:
    the solver) and returns the play to send, or raises RuleError. ``encoding``
    names the learning environments' encoding (``module:NAME``), where there is one.
    ``parts_are_games`` says what a part of the unit (a deal of its record) is to a
    player, for the words a host uses: a game of its own (a Vatikanen session's
    games, V16) or a deal of one game (Kontrakt's seven deals, K4).
    ``reviewer`` names the function that reviews one deal of a record
    (``module:function``, see :mod:`rummykit.review`); ``narrator`` the one that
    tells a log entry in words (:mod:`rummykit.narration`); ``command_reader`` the
    one that reads a typed line (:mod:`rummykit.tui.commands`); ``page_facts`` the
    one that gives a page what it shows of the game beyond its house rules (K4's
    contracts). Each is imported on use (:meth:`hook`).
    ``commands`` are the game's own typed command words (its English name -> the words
    per language, in the order completion offers them), ``meld_syntax`` what to say when
    a typed command names no meld and when a meld between two ``|`` is empty (catalog
    messages), and ``score_sheet`` whether the game keeps a score sheet over its parts
    that the interface's ``scores`` command shows (Kontrakt's seven deals);
    :mod:`rummykit.notation` and :mod:`rummykit.tui.commands` read them.
    ``puzzles`` names the function that gives the game's puzzles
    (:class:`rummykit.puzzles.kind.PuzzleKind`), where it has any, and ``lessons``
    the one that gives its tutorial's lessons (:class:`rummykit.tutorial.Lesson`).
    ``advisor`` names the function that gives a game's advised actions for the seat to
    act, best first (a hint's: the review's own search, so that the two agree), where
    the game has one.
    ``blurb`` is a line on the game for a player choosing one, and ``command_examples``
    the help of its typed commands (the terminal's and the browser's command line);
    both catalog messages.
    ``draft_melds`` gives the melds an action (as JSON) writes out, for a
    player's draft to be checked meld by meld (a Vatikanen play's whole
    ``table``, a Kontrakt lay-down's ``melds``), and ``meld_kind`` reads one
    meld as the game reads it (``run``, ``group`` or ``either``; MeldError
    saying why it is none; ``meld_rule`` is the rule a meld that is none breaks).
    ``placing`` orders the seats of a finished unit for a rating (:mod:`rummykit.ratings`):
    from the ``result`` its record ends with (RECORD.md) and the number of seats, each
    seat's place, 1 the best, equal places for a tie; each game's package says what
    its result ranks by (a Vatikanen session's balances, Kontrakt's seven deals'
    penalty totals). :meth:`places` asks it.
    ``searches`` says whether the engine would search to check an action (a
    Vatikanen play sent without its table: the engine arranges it), so that a
    host completes it off its event loop first.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    players_rule: str
    turn_rule: str
    higher_is_better: bool
    score_name: str
    score_note: str
    house_rules: tuple[HouseRule, ...]
    bot_modules: tuple[str, ...]
    default_bot: str
    terminal: str
    encoding: str
    parts_are_games: bool
    record_only: tuple[str, ...]
    view_type: object
    arranger: Callable[[Game, int, list[Card]], AnyAction] | None
    starter: Starter
    draft_melds: Callable[[Mapping[str, object]], list[list[str]] | None]
    meld_kind: Callable[[Sequence[Card]], str]
    meld_rule: str
    searches: Callable[[Mapping[str, object]], bool]
    rebuilder: Callable[[GameRecord, int | None, Visit | None], Game]
    reader: Callable[[Mapping[str, object]], AnyAction]
    deck: Callable[[int, Mapping[str, OptionValue]], list[Card]]
    reviewer: str = ""
    narrator: str = ""
    command_reader: str = ""
    page_facts: str = ""
    blurb: str = ""
    command_examples: tuple[CommandExample, ...] = ()
    commands: Mapping[str, Words] = field(default_factory=dict)
    meld_syntax: tuple[str, str] = ("", "")
    score_sheet: bool = False
    placing: Callable[[Mapping[str, object], int], tuple[int, ...]] | None = None
    puzzles: str = ""
    lessons: str = ""
    advisor: str = ""

    # ------------------------------------------------------------ checks

    def check_players(self, players: int) -> None:
        """RuleError (a ValueError) naming the rule (V1, K1) unless ``players`` may sit
        at the table."""
        if not self.min_players <= players <= self.max_players:
            raise RuleError(
                self.players_rule,
                N_("{game} is for {low} to {high} players, not {n}"),
                game=self.title,
                low=self.min_players,
                high=self.max_players,
                n=players,
            )

    def check_options(self, options: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """Every house rule's value: the given ones checked, the others at their defaults.

        ValueError for an unknown option or a wrong value, naming the options.
        """
        return check_house_rules(self.house_rules, options or {}, self.title)

    def changed_options(self, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """The options that differ from their defaults (what a record writes)."""
        defaults = {r.name: r.default for r in self.house_rules}
        return {k: v for k, v in options.items() if defaults.get(k) != v}

    # ------------------------------------------------------------ games

    def new(
        self,
        players: int | Sequence[str],
        *,
        seed: int | None = None,
        decks: Sequence[Sequence[Card]] | None = None,
        options: Mapping[str, object] | None = None,
        carried: Mapping[str, object] | None = None,
    ) -> Game:
        """A new unit for ``players`` (a count, or the names), shuffled from ``seed``: a
        Vatikanen session, a Kontrakt game (:class:`rummykit.game.Game`).

        ``decks`` (top card first, one per deal) plays given decks instead;
        after them, later deals are shuffled from ``seed`` (or, with no seed,
        the game waits). ``carried``: what a finished unit hands on to the
        next (:meth:`rummykit.game.Game.carried`), to go on from it. ValueError for
        a wrong table or option.
        """
        names = (
            tuple(f"Player {i + 1}" for i in range(players))
            if isinstance(players, int)
            else tuple(players)
        )
        self.check_players(len(names))
        return self.starter(names, seed, decks, self.check_options(options), carried)

    def from_record(
        self, record: GameRecord, *, seed: int | None = None, visit: Visit | None = None
    ) -> Game:
        """The live game exactly where ``record`` ends, every action checked on the way.

        Raises :class:`~rummykit.record.IllegalAction` at the first illegal
        action. ``seed`` shuffles what comes after the record (later deals, a
        new stock): give the seed the game was started with to carry on as it
        would have; without one the game waits where a new deck is needed.
        ``visit(deal, done, game)`` is called at every position on the way
        (each deal as dealt, then after each action): one pass through a
        record, for a viewer or a review (copy the game to keep a position).
        """
        if record.game != self.name:
            raise ValueError(f"a {record.game} record is not a {self.title} game")
        return self.rebuilder(record, seed, visit)

    def action_from_json(self, data: object, *, seat: int | None = None) -> AnyAction:
        """The game's action from its RECORD.md JSON object; ActionError if it is none.

        ``seat``: the sender's seat, for a player's action (PROTOCOL.md): the
        object may leave ``seat`` out, and given it must be the same; fields
        only records write are dropped. Without ``seat`` the object is a
        record's action, read whole.
        """
        if not isinstance(data, Mapping):
            raise ActionError(N_('an action is one JSON object, like {{"type": "draw"}}'))
        if seat is not None:
            given = data.get("seat", seat)
            if given != seat or isinstance(given, bool):
                raise ActionError(
                    N_("the action names seat {given}, but you play seat {seat}"),
                    given=repr(given),
                    seat=seat,
                )
            data = {k: v for k, v in data.items() if k not in self.record_only}
            data["seat"] = seat
        return self.reader(data)

    def places(self, result: Mapping[str, object], players: int) -> tuple[int, ...]:
        """Each seat's place (1 the best, ties sharing) in a finished unit of this game
        for ``players``, from the ``result`` of its record (RECORD.md): what a rating is
        updated by. ValueError for a result that is not one of this game, or a game
        that places no seats.
        """
        if self.placing is None:
            raise ValueError(f"{self.title} games place no seats")
        return self.placing(result, players)

    # ------------------------------------------------------------ bots

    def bot_levels(self) -> list[str]:
        """The built-in bot levels of this game."""
        from rummykit.bots.base import factories

        return sorted(factories(self.name, self.bot_modules))

    def make_bot(self, level: str, seed: int | None = None, **settings: object) -> Bot:
        """A built-in bot of ``level``; ValueError naming the levels, TypeError naming the
        settings the bot takes."""
        from rummykit.bots.base import build

        return build(self.name, level, self.bot_modules, seed, settings)

    def deal_reviewer(self) -> object:
        """The function that reviews one deal of this game's records (:mod:`rummykit.review`);
        ValueError when the game has none."""
        module, _, name = self.reviewer.partition(":")
        if not module:
            raise ValueError(f"{self.title} games cannot be reviewed")
        function: object = getattr(importlib.import_module(module), name)
        assert callable(function)
        return function

    def hook(self, name: str) -> object:
        """The function a ``module:function`` field names (``narrator``, ...), imported on
        use; None when the game has none. The caller knows its signature (the field's
        description above) and casts it."""
        where: object = getattr(self, name)
        if not isinstance(where, str) or not where:
            return None
        module, _, attribute = where.partition(":")
        function: object = getattr(importlib.import_module(module), attribute)
        assert callable(function), where
        return function

    def terminal_adapter(self) -> type:
        """The terminal UI's adapter class for this game (needs the ``tui`` extra)."""
        module, _, name = self.terminal.partition(":")
        cls = getattr(importlib.import_module(module), name)
        assert isinstance(cls, type)
        return cls
