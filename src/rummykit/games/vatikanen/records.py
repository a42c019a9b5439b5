"""Vatikanen and RECORD.md: a session rebuilt from a record (:mod:`.recording` writes one).

:func:`from_record` is event sourcing: it replays every action of a record
through the engine (so each is checked) and returns the live session exactly
where the record ends, mid-game or not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rummykit.cards import Card, full_deck
from rummykit.errors import ActionError, RuleError, message_of
from rummykit.games.spec import OptionValue
from rummykit.games.vatikanen.actions import action_from_json
from rummykit.games.vatikanen.game import JOKERS, PACKS
from rummykit.games.vatikanen.options import check_options
from rummykit.games.vatikanen.session import Session
from rummykit.i18n import N_
from rummykit.record import GameRecord, IllegalAction, RecordError

__all__ = ["from_record", "game_deck"]


def game_deck(players: int, options: Mapping[str, OptionValue]) -> list[Card]:
    """The unshuffled Vatikanen deck (V2): two packs and two jokers, whatever the table."""
    return full_deck(PACKS, JOKERS)


def from_record(
    record: GameRecord,
    seed: int | None = None,
    visit: Callable[[int, int, Session], None] | None = None,
) -> Session:
    """The live session where ``record`` ends; :class:`IllegalAction` at the first illegal action.

    ``seed`` is the seed the session was started with: the games after the
    record are then shuffled as they would have been. ``visit(deal, done,
    session)`` is called at every position on the way: each game as dealt
    (``done`` 0) and after each of its actions.
    """
    try:
        options = check_options(record.options)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    decks = [d.deck for d in record.deals[:1]]
    dealer = record.deals[0].dealer if record.deals else None
    session = Session(
        record.players,
        seed=seed,
        decks=decks,
        dealer=dealer,
        free_jokers=options["free_jokers"],
        blocked_game=options["blocked_game"],
    )
    for d, deal in enumerate(record.deals):
        if d > 0:
            if not session.over:
                previous = len(record.deals[d - 1].actions)
                raise IllegalAction(
                    d - 1,
                    previous,
                    "V16",
                    N_(
                        "this game is not over (nobody went out, V13/V15),"
                        " but the record starts another deal"
                    ),
                )
            session.next_part(deal.deck, dealer=deal.dealer)
        if visit is not None:
            visit(d, 0, session)
        for a, raw in enumerate(deal.actions):
            try:
                session.apply(action_from_json(raw))
            except ActionError as exc:
                raise IllegalAction(d, a, "V4", exc.translatable) from None
            except RuleError as exc:
                raise IllegalAction(d, a, exc.rule, exc.translatable) from None
            if visit is not None:
                visit(d, a + 1, session)
    return session
