"""Walking a record deal by deal through its game's engine, for the review.

Each deal starts from the game the record rebuilds up to it
(:meth:`~rummykit.games.GameSpec.from_record`), the way the replay viewer does;
the game's reviewer (``GameSpec.reviewer``) then takes the deal's actions one by
one with :func:`take`, which checks each and reports the first illegal one as
:class:`~rummykit.record.IllegalAction`, like ``rummykit replay``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import cast

from rummykit.errors import ActionError, RuleError
from rummykit.game import AnyAction, Game
from rummykit.games.spec import GameSpec
from rummykit.record import GameRecord, IllegalAction
from rummykit.review.model import TurnReview

__all__ = ["DealReviewer", "deals", "take"]

DealReviewer = Callable[[Game, int, Sequence[AnyAction], "int | None"], list[TurnReview]]
"""A game's reviewer of one deal: (the game as the deal starts, the deal's number, its
actions, the seat asked for or None) -> the reviews of the deal's turns, in order."""


def deals(spec: GameSpec, record: GameRecord) -> Iterator[tuple[int, Game, list[AnyAction]]]:
    """Each deal of ``record``: its number, the game as it is dealt, and its actions read.

    :class:`IllegalAction` where the record cannot go on (an action that is no
    action of the game, a deal that begins before the last is over).
    """
    for k, deal in enumerate(record.deals):
        head = (*record.deals[:k], replace(deal, actions=()))
        game = spec.from_record(replace(record, deals=head, result=None))
        actions: list[AnyAction] = []
        for j, raw in enumerate(deal.actions):
            try:
                actions.append(spec.action_from_json(raw))
            except ActionError as exc:
                raise IllegalAction(k, j, spec.turn_rule, exc.translatable) from None
        yield k, game, actions


def take(game: Game, deal: int, index: int, action: AnyAction) -> object:
    """Apply ``action`` to ``game`` (the engine checks it; a rejection changes nothing);
    :class:`IllegalAction` (deal, index, rule) if it is illegal."""
    try:
        return cast(object, game.apply(action))
    except RuleError as exc:
        raise IllegalAction(deal, index, exc.rule, exc.translatable) from None
    except ActionError as exc:  # pragma: no cover - the record's reader made the action
        raise IllegalAction(deal, index, "", exc.translatable) from None
