"""A game's one dispatch table: each action type with its ``verify_X`` and ``X``.

Every action of a game comes as a trio with the same argument, the action
itself (pokerkit's shape): ``verify_X(action)`` raises
:class:`~rummykit.errors.RuleError` naming the rule, ``can_X(action)``
answers yes or no by asking ``verify_X``, and ``X(action)`` verifies, changes
the state and returns the event logged. The game's generic ``verify``,
``can`` and ``apply`` (:class:`rummykit.game.Game`) find the trio here, by the
action's type, so there is one list of a game's actions to keep, not one per
generic method.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Knock:
...     seat: int
>>> class Door:
...     def verify_knock(self, action: Knock) -> None:
...         if action.seat != 0:
...             raise RuleError("D1", "only seat 0 knocks")
...     def knock(self, action: Knock) -> str:
...         self.verify_knock(action)
...         return "knock"
>>> verbs = Verbs("{action} is no door action", Verb(Knock, Door.verify_knock, Door.knock))
>>> verbs.apply(Door(), Knock(0)), verbs.can(Door(), Knock(1)), verbs.can(Door(), "ring")
('knock', False, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from rummykit.errors import ActionError, RuleError

__all__ = ["Verb", "Verbs", "can"]

G = TypeVar("G")
G_contra = TypeVar("G_contra", contravariant=True)
A = TypeVar("A")
E = TypeVar("E")
E_co = TypeVar("E_co", covariant=True)


def can(verify: Callable[[A], None], action: A) -> bool:
    """True when ``verify(action)`` raises no RuleError or ActionError: every ``can_X``."""
    try:
        verify(action)
    except (RuleError, ActionError):
        return False
    return True


class _Entry(Protocol[G_contra, E_co]):
    """One row of the table with its action type forgotten (the row checks it again)."""

    @property
    def kind(self) -> type:
        """The action type of the row."""
        ...

    def verify(self, game: G_contra, action: object) -> None: ...

    def apply(self, game: G_contra, action: object) -> E_co: ...


@dataclass(frozen=True, slots=True)
class Verb(Generic[G, A, E]):
    """One action type of a game with its ``verify_X`` and ``X`` (unbound methods)."""

    kind: type[A]
    check: Callable[[G, A], None]
    take: Callable[[G, A], E]

    def verify(self, game: G, action: object) -> None:
        """``verify_X(action)`` on ``game``."""
        assert isinstance(action, self.kind)
        self.check(game, action)

    def apply(self, game: G, action: object) -> E:
        """``X(action)`` on ``game``: verified, taken, its event returned."""
        assert isinstance(action, self.kind)
        return self.take(game, action)


class Verbs(Generic[G, E]):
    """A game's dispatch table: ``verify``, ``can`` and ``apply`` of any action.

    ``not_an_action`` is the catalog message of the :class:`ActionError` for a
    value that is none of the game's actions (``{action}`` is its ``repr``).
    """

    def __init__(self, not_an_action: str, *verbs: _Entry[G, E]) -> None:
        self._not_an_action = not_an_action
        self._rows: dict[type, _Entry[G, E]] = {verb.kind: verb for verb in verbs}

    @property
    def kinds(self) -> tuple[type, ...]:
        """The game's action types, in the table's order."""
        return tuple(self._rows)

    def _row(self, action: object) -> _Entry[G, E]:
        row = self._rows.get(type(action))
        if row is None:
            raise ActionError(self._not_an_action, action=repr(action))
        return row

    def verify(self, game: G, action: object) -> None:
        """Raise RuleError unless ``action`` is legal in ``game`` now; ActionError for a value
        that is none of the game's actions."""
        self._row(action).verify(game, action)

    def can(self, game: G, action: object) -> bool:
        """True when ``action`` is legal in ``game`` now."""
        return can(lambda a: self.verify(game, a), action)

    def apply(self, game: G, action: object) -> E:
        """Verify and take ``action`` in ``game``; the event logged."""
        return self._row(action).apply(game, action)
