"""Kontraktsrummy and RECORD.md: a game rebuilt from its record, every action checked.

:func:`from_record` is event sourcing: it replays the record through the
engine and returns the live game exactly where the record ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rummykit.errors import ActionError, RuleError, message_of
from rummykit.game import places, result_scores
from rummykit.games.kontrakt.actions import action_from_json
from rummykit.games.kontrakt.game import KontraktGame
from rummykit.games.kontrakt.options import DEALS, KontraktOptions
from rummykit.games.kontrakt.state import Phase
from rummykit.i18n import N_
from rummykit.record import GameRecord, IllegalAction, RecordError

__all__ = ["from_record", "game_places"]


def from_record(
    record: GameRecord,
    seed: int | None = None,
    visit: Callable[[int, int, KontraktGame], None] | None = None,
) -> KontraktGame:
    """The live game where ``record`` ends; :class:`IllegalAction` at the first illegal action.

    ``seed`` is the seed the game was started with: the deals after the record
    (and any new stock, K15) are then shuffled as they would have been.
    Without it, a game whose record ends between deals waits there.
    ``visit(deal, done, game)`` is called at every position on the way: each
    deal as dealt (``done`` 0) and after each of its actions.
    """
    try:
        options = KontraktOptions.from_json(record.options)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    if len(record.deals) > DEALS:
        raise IllegalAction(
            DEALS,
            0,
            "K4",
            N_("a game is seven deals, the record has {n}"),
            n=len(record.deals),
        )
    game = KontraktGame(
        list(record.players),
        seed=seed,
        decks=[d.deck for d in record.deals],
        dealer=record.deals[0].dealer if record.deals else 0,
        options=options,
    )
    for k, deal in enumerate(record.deals):
        if k > 0:
            previous = len(record.deals[k - 1].actions)
            if game.deal != k:
                raise IllegalAction(
                    k - 1,
                    previous,
                    "K13",
                    N_("deal {deal} is not over (nobody has gone out) but the record goes on"),
                    deal=k,
                )
            if deal.dealer != game.dealer:
                raise IllegalAction(
                    k,
                    0,
                    "K4",
                    N_(
                        "the deal passes to the left: seat {dealer} deals deal {deal},"
                        " not seat {given}"
                    ),
                    dealer=game.dealer,
                    deal=k + 1,
                    given=deal.dealer,
                )
        if visit is not None:
            visit(k, 0, game)
        for j, data in enumerate(deal.actions):
            try:
                action = action_from_json(data)
            except ActionError as exc:
                raise IllegalAction(k, j, "K8", exc.translatable) from None
            if game.deal != k or game.phase in (Phase.WAITING, Phase.OVER):
                raise IllegalAction(
                    k, j, "K13", N_("deal {deal} is over: someone went out"), deal=k + 1
                )
            try:
                game.apply(action)
            except RuleError as exc:
                raise IllegalAction(k, j, exc.rule, exc.translatable) from None
            if visit is not None:
                visit(k, j + 1, game)
    return game


def game_places(result: Mapping[str, object], players: int) -> tuple[int, ...]:
    """Each seat's place in a finished game (its seven deals are one rated game, K4): by
    the penalty totals of the seven deals (K14), the ``scores`` of its record's result,
    lower is better; equal totals share a place.

    >>> game_places({"scores": [120, 85, 85, 40]}, 4)
    (4, 2, 2, 1)
    """
    return places(result_scores(result, players), higher_is_better=False)
