"""Rating a rated table's game when it ends (issue 42, docs/ratings.md).

A rated table (:attr:`TableSettings.rated`) seats accounts and bots; its one game is
rated by OpenSkill (:func:`rummykit.ratings.rate`) from the places its result gives
(:meth:`GameSpec.places`), the bots keeping their ladder ratings
(:func:`rummykit.ratings.bot_rating`). It is rated once, right after the game is kept
(:meth:`Room._keep_game`), under the room's lock; whichever process ends it, the store's
``rated_games`` row makes a second try a no-op.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from rummykit.ratings import Rating, bot_rating, rate
from rummykit.server.hosted import HostedTable
from rummykit.server.store.base import Store, StoreBusy
from rummykit.server.store.ratings import RatedSeat, RatingStore, Taken

__all__ = ["account_rating", "rate_table", "rated_seats"]

log = logging.getLogger(__name__)


def rated_seats(table: HostedTable, result: Mapping[str, object]) -> list[RatedSeat] | None:
    """The seats of a finished rated game as rated: each account's and each bot's (with
    its fixed rating) place; None if a person's seat has no account (nothing is rated)."""
    places = table.spec.places(result, table.n_players)
    seats: list[RatedSeat] = []
    for seat, spec in enumerate(table.settings.seats):
        if spec.kind == "bot":
            fixed = bot_rating(table.settings.game, spec.level or "") or Rating()
            seats.append(RatedSeat(None, places[seat], fixed))
        elif (account := table.accounts[seat]) is not None:
            seats.append(RatedSeat(account, places[seat]))
        else:
            return None
    return seats


async def rate_table(store: Store, table: HostedTable) -> dict[str, Rating]:
    """Rate the game that just ended at a rated ``table``: each account's new rating
    (empty if it is not to be rated, or was rated already). A store that is busy leaves
    it unrated, logged."""
    game = table.game
    if not table.settings.rated or game is None or not game.over:
        return {}
    result = game.result()
    if result is None:
        return {}
    seats = rated_seats(table, result.to_json())
    if seats is None or len(seats) < 2:
        log.warning("table %s: a rated game with a seat of no account is not rated", table.id)
        return {}
    try:
        return await RatingStore(store).rate(
            table.id, table.settings.game, seats, rate, time.time()
        )
    except Taken:
        return {}
    except StoreBusy:
        log.warning("table %s: its rated game could not be rated (busy)", table.id)
        return {}


async def account_rating(store: Store, account: str, game: str) -> Rating:
    """An account's rating in ``game`` (a newcomer's if it has played none rated)."""
    return await RatingStore(store).rating(account, game)
