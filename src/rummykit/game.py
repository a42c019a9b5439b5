"""The one interface every host uses to run a game: :class:`Game`, the hosted unit.

The arena, the terminal, external bots, ``replay``, the game server and the
learning environments hold a game only through this protocol, and find the
game by name in the registry (:func:`rummykit.games.get`), the way
python-chess finds a variant. Both engines implement it with the same names
and meanings.

What a host holds is a *unit*: what one record holds, made of *parts*, the
record's deals. A Vatikanen unit is a session (V16) and its parts are the
session's games, one deal each; a Kontrakt unit is one game (K4) and its
parts are its seven deals. The two differ in how a part follows the last,
and the protocol says which without naming a game:

- where the rules fix the parts (Kontrakt: seven deals), each follows the
  last by itself, and the unit is :attr:`Game.over` after the last one, for
  good;
- where the players choose to go on (Vatikanen: they play on until they
  stop), the unit is over whenever its current part is, since it may stop
  there; a host goes on with :meth:`Game.next_part` (asked with
  :meth:`Game.can_next_part`), after which it is no longer over.

So ``over`` always means the unit: it is True when no seat acts and
:meth:`Game.result` is the unit's result. :attr:`Game.part` says which part
is being played and :attr:`Game.part_over` whether it has ended. The log is
one per unit where the parts follow by themselves, and one per part where
:meth:`Game.next_part` starts them (each part's log is then the next deal of
the record); :meth:`Game.next_part` is what starts a new log.

The members:

- who plays (:attr:`Game.players`, :attr:`Game.n_players`), who acts now
  (:attr:`Game.to_act`, ``None`` when nobody), whether the unit is
  :attr:`Game.over`, which :attr:`Game.part` is played and whether it is
  :attr:`Game.part_over`; the next part with the trio
  :meth:`Game.verify_next_part`, :meth:`Game.can_next_part`, :meth:`Game.next_part`;
- :meth:`Game.view` for one seat and :meth:`Game.spectator_view`: the only way
  out of an engine, plain JSON data, fresh on every call;
- the pokerkit trio :meth:`Game.verify` (raises
  :class:`~rummykit.errors.RuleError` naming the rule, or
  :class:`~rummykit.errors.ActionError` for what is no action of the game),
  :meth:`Game.can` and :meth:`Game.apply` (returns the :class:`AnyEvent` logged);
- :meth:`Game.result` once over, :meth:`Game.to_record` (the whole unit) at any time, and
  :meth:`Game.copy` to stage a move without touching the game;
- :meth:`Game.log_entries`: the log from an index on, for one viewer, without
  building a whole view (a server sends only what a connection lacks);
- :meth:`Game.suggested_actions`: some legal actions, as the game's help offers them
  (hints, a fallback move); never all of them.

Actions and events are frozen values; each game has one JSON codec for its
actions (``action_from_json`` / ``AnyAction.to_json``) that every host uses.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Self, TypeVar, cast

if TYPE_CHECKING:
    from rummykit.record import GameRecord

__all__ = [
    "AnyAction",
    "AnyEvent",
    "FrozenDict",
    "FrozenList",
    "Game",
    "Result",
    "fresh",
    "frozen",
    "places",
    "result_scores",
]

T = TypeVar("T")


class AnyAction(Protocol):
    """Any game's action: a frozen value naming the seat that takes it.

    Each game has its own union of actions (``rummykit.games.vatikanen.Action``,
    ``rummykit.games.kontrakt.Action``); a host that holds any game types them as this.
    """

    @property
    def seat(self) -> int:
        """The seat that takes the action."""
        ...

    def to_json(self) -> dict[str, object]:
        """The action as RECORD.md JSON (``seat`` and ``type`` first)."""
        ...


class AnyEvent(Protocol):
    """An entry of any game's log: what an action (or the deal) did.

    Each game has its own events (``rummykit.games.vatikanen.Event``, Kontrakt's
    ``ActionEvent``, ``DealStarted``, ``DealEnded``); a host types them as this.
    """

    def to_json(self, viewer: int | None) -> Mapping[str, object]:
        """The entry as ``viewer`` (a seat, or None for a spectator) may see it."""
        ...

    def record_json(self) -> Mapping[str, object]:
        """The action that made this entry as a record writes it (RECORD.md), complete as
        the engine checked it: replaying it takes no search (a Vatikanen play carries the
        table it made) and no chance (a Kontrakt draw carries a new stock's order)."""
        ...


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game stands: who won and each seat's score.

    ``higher_is_better`` tells how to compare scores: Vatikanen scores are
    zero-sum balances (V13, V15, V16: higher is better), Kontrakt scores are
    penalty points (K13, K14: lower is better). ``winners`` are the seats that
    won; a tie shares the win.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    higher_is_better: bool

    def beats(self, a: int, b: int) -> float:
        """1 if seat ``a``'s score beats ``b``'s, 1/2 if equal, else 0.

        >>> Result((0,), (10.0, -10.0), True).beats(0, 1)
        1.0
        >>> Result((1,), (12.0, 3.0), False).beats(0, 1)
        0.0
        """
        x, y = self.scores[a], self.scores[b]
        if x == y:
            return 0.5
        return float((x > y) == self.higher_is_better)

    def places(self) -> tuple[int, ...]:
        """Each seat's place by its score, 1 the best, ties sharing (:func:`places`).

        >>> Result((1,), (12.0, 3.0, 12.0), False).places()
        (2, 1, 2)
        """
        return places(self.scores, self.higher_is_better)

    def to_json(self) -> dict[str, object]:
        """Plain data: winners, scores (ints where whole) and the direction."""
        return {
            "winners": list(self.winners),
            "scores": [int(s) if s == int(s) else s for s in self.scores],
            "higher_is_better": self.higher_is_better,
        }


def places(scores: Sequence[float], higher_is_better: bool) -> tuple[int, ...]:
    """Each seat's place by its score, 1 the best; equal scores share a place and the
    next place counts them (competition ranking, "1224"), as a rating takes a placing.

    >>> places([10, -4, -4, 30], True)
    (2, 3, 3, 1)
    >>> places([120, 85, 85], False)
    (3, 1, 1)
    """
    sign = 1 if higher_is_better else -1
    return tuple(1 + sum(1 for other in scores if sign * other > sign * mine) for mine in scores)


def result_scores(result: Mapping[str, object], players: int) -> tuple[float, ...]:
    """The ``scores`` of a record's ``result`` (RECORD.md) for a table of ``players``:
    one finite number a seat; ValueError saying what is wrong (a result read back from
    storage is data, not trusted).

    >>> result_scores({"scores": [0, -23, 23.5]}, 3)
    (0.0, -23.0, 23.5)
    >>> result_scores({"scores": [1, 2]}, 3)
    Traceback (most recent call last):
    ...
    ValueError: a result for 3 players has 3 scores, not [1, 2]
    """
    scores = result.get("scores")
    if (
        not isinstance(scores, list)
        or len(scores) != players
        or not all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores)
    ):
        raise ValueError(f"a result for {players} players has {players} scores, not {scores!r}")
    out = tuple(float(s) for s in scores)
    if not all(math.isfinite(s) for s in out):
        raise ValueError(f"a result's scores are finite numbers, not {scores!r}")
    return out


class Game(Protocol):
    """A game any host can run: see the module docstring for what each part means."""

    name: str
    """The game's name in the registry and in records (``vatikanen``, ``kontrakt``)."""

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' names, seat 0 first, clockwise."""
        ...

    @property
    def n_players(self) -> int:
        """How many seats the table has."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat that must act now; None when nobody may (over, or waiting)."""
        ...

    @property
    def over(self) -> bool:
        """True when the unit has come to an end where it may stop: no seat acts, and
        :meth:`result` is the unit's result.

        A Kontrakt game is over after its seventh deal (K4), for good. A Vatikanen
        session has no fixed end (V16: the players play on until they stop), so it is
        over whenever its current game is over (V13, V15): the players may stop there,
        and the session goes on only if a host calls :meth:`next_part`, after which it
        is no longer over. :meth:`can_next_part` tells the two apart.
        """
        ...

    @property
    def part(self) -> int:
        """Which part of the unit is being played, from 0: a Vatikanen session's game
        (its ``game_number`` less one), a Kontrakt deal (0-6); the last one once over."""
        ...

    @property
    def part_over(self) -> bool:
        """True when the current part has ended and the next has not begun: a Vatikanen
        game ended (the session is then over too), a Kontrakt deal ended with no next
        deal dealt (after the seventh, or a record's last deck played without a seed)."""
        ...

    def verify_next_part(self) -> None:
        """Raise RuleError (naming the rule) unless a host may start the next part now:
        only a unit whose players choose to go on (V16), once its current part is over.
        A unit whose parts follow by themselves (K4) never may."""
        ...

    def can_next_part(self) -> bool:
        """True when :meth:`next_part` may be called now (:meth:`verify_next_part` passes)."""
        ...

    def next_part(self) -> None:
        """Verify, then start the next part with a log of its own (V16: the next game of
        the session, the deal passing to the left, the balances carried on)."""
        ...

    def carried(self) -> dict[str, object]:
        """What a new unit at the same table starts from, as JSON, once this one is over: a
        unit that goes on (V16) hands on its next part's number, the balances (exact) and
        the dealer, so that a host may keep each part as a unit of its own and rebuild
        only the current one (``GameSpec.new(..., carried=...)``); a unit that does not
        (K4) hands on nothing, and the next unit's record is a new one."""
        ...

    def view(self, seat: int, *, log: bool = True) -> Mapping[str, object]:
        """Everything ``seat`` may know, as fresh JSON data; ValueError for no such seat.

        ``log=False`` leaves the ``log`` out, for a host or bot that does not read it.
        """
        ...

    def spectator_view(self, *, log: bool = True) -> Mapping[str, object]:
        """What someone who holds no seat may know: no hand at all."""
        ...

    def log_entries(self, viewer: int | None, start: int = 0) -> Sequence[Mapping[str, object]]:
        """The current log (the unit's, or the part's where :meth:`next_part` starts the
        parts) from index ``start`` on, as ``viewer`` sees it (read-only entries)."""
        ...

    @property
    def log_size(self) -> int:
        """How many entries the current log holds (the views' ``log``)."""
        ...

    def verify(self, action: AnyAction) -> None:
        """Raise RuleError (rule id, message) or ActionError unless ``action`` is legal now."""
        ...

    def can(self, action: AnyAction) -> bool:
        """True when ``action`` is legal now."""
        ...

    def apply(self, action: AnyAction) -> AnyEvent:
        """Verify ``action``, take it, and return the event logged; a rejection changes nothing."""
        ...

    def suggested_actions(self) -> Sequence[AnyAction]:
        """Some legal actions of the seat to act, as the game's help offers them.

        Each one is legal now (:meth:`can` accepts it) and there is at least one while a
        seat is to act (empty when none is), but they are not all the legal actions:
        Vatikanen suggests the draw (or the pass, V14) and at most two solver plays (the
        most cards, the most points) of the many plays a table allows; Kontrakt every
        upcard answer, draw, discard, lay-off and joker swap, but laying down only as
        representative contract melds. A host that needs completeness fixes its own set of
        actions and asks :meth:`can` of each, as the learning environments' masks do
        (``docs/envs.md``).
        """
        ...

    @property
    def standings(self) -> tuple[float, ...]:
        """Each seat's score so far: a Vatikanen session's balances, Kontrakt's penalty totals."""
        ...

    def result(self) -> Result | None:
        """The unit's winners and scores once :attr:`over`; None before (Vatikanen: the
        last game's winners and the session's balances)."""
        ...

    def to_record(self) -> GameRecord:
        """The unit so far as a RECORD.md record, one deal per part (secret while it runs)."""
        ...

    def copy(self) -> Self:
        """An independent copy: what happens to one never shows in the other."""
        ...

    def card_places(self) -> dict[str, list[int]]:
        """Every physical card of the current deal, as its place in the deal's deck, by
        where it is (``stock``, ``pile``, ``hand0``..., ``table``): for checks and tests,
        never for a player."""
        ...

    def check_invariants(self) -> None:
        """Raise AssertionError if a card is lost or doubled or the table holds no meld."""
        ...


def fresh(value: T) -> T:
    """A mutable copy of JSON data (dicts and lists copied, read-only ones too; other values
    shared: they are immutable).

    >>> a = {"cards": ["7h"], "n": 1}
    >>> b = fresh(a)
    >>> b["cards"].append("8h"); a
    {'cards': ['7h'], 'n': 1}
    """
    if isinstance(value, dict):
        return cast(T, {k: fresh(v) for k, v in value.items()})
    if isinstance(value, list):
        return cast(T, [fresh(v) for v in value])
    return value


class FrozenDict(dict[str, object]):
    """A JSON object that cannot be changed: log entries, shared by every view of a viewer.

    It is a ``dict`` (``json.dumps`` writes it, ``==`` compares it with any dict);
    changing it raises TypeError: copy it with :func:`fresh` to edit it.
    """

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a view's log entries are read-only: copy them with rummykit.game.fresh")

    __setitem__ = __delitem__ = _read_only
    clear = pop = popitem = setdefault = update = __ior__ = _read_only  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[dict[str, object]], tuple[dict[str, object]]]:
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenDict:
        return self


class FrozenList(list[object]):
    """A JSON array that cannot be changed (see :class:`FrozenDict`)."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a view's log entries are read-only: copy them with rummykit.game.fresh")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only  # type: ignore[assignment]
    append = extend = insert = pop = remove = reverse = sort = clear = _read_only

    def __reduce__(self) -> tuple[type[list[object]], tuple[list[object]]]:
        return (type(self), (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenList:
        return self


def frozen(value: T) -> T:
    """JSON data made read-only, however deep (see :class:`FrozenDict`): what the engines
    share between views, since nothing can change it.

    >>> entry = frozen({"seat": 0, "add": ["7h"]})
    >>> entry == {"seat": 0, "add": ["7h"]}
    True
    >>> entry["add"].append("8h")
    Traceback (most recent call last):
    ...
    TypeError: a view's log entries are read-only: copy them with rummykit.game.fresh
    """
    if isinstance(value, dict):
        return cast(T, FrozenDict({k: frozen(v) for k, v in value.items()}))
    if isinstance(value, list):
        return cast(T, FrozenList([frozen(v) for v in value]))
    return value
