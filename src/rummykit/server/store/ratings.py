"""Where players' ratings are kept (docs/ratings.md): each account's rating per game, its
history, and which rated tables have been rated, in the tables of migration 5
(:mod:`.schema`), through the account store's transactions (:class:`AccountStore`).

A rated game is rated in one transaction: the table is marked rated (a second try is
:class:`Taken`: a game is rated once, whichever process ends it), each account's row is
made if new and then locked (``UPDATE ... RETURNING``: PostgreSQL holds the row until the
end; SQLite has one writer), the new ratings are computed from what was read, and written
with a history row each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.ratings import Rating
from rummykit.server.store.accounts import AccountStore, Rows, Step, Taken
from rummykit.server.store.base import Store

__all__ = ["BoardRow", "HistoryRow", "RatedSeat", "RatingRow", "RatingStore", "Taken"]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """An account's rating in one game: the rating and the games it won."""

    game: str
    rating: Rating
    wins: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """An account's rating after one rated game: when, at which table, its place among how
    many players, and the shown figure."""

    n: int
    at: float
    table: str
    place: int
    players: int
    shown: int


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A line of a game's leaderboard."""

    name: str
    shown: int
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a game being rated: the account (None: a bot, whose ``fixed`` rating
    stays) and its place (1 the best)."""

    account: str | None
    place: int
    fixed: Rating | None = None


Rate = Callable[[Sequence[Rating], Sequence[int], Sequence[bool]], Sequence[Rating]]

_NEW = Rating()


class RatingStore:
    """The ratings kept in ``store``'s database (SQLite or PostgreSQL)."""

    def __init__(self, store: Store) -> None:
        self.db = AccountStore(store)

    async def rate(
        self, table: str, game: str, seats: Sequence[RatedSeat], rate: Rate, now: float
    ) -> dict[str, Rating]:
        """Rate a finished rated game of ``table`` once: each account's new rating (what
        ``rate`` makes of everyone's, bots fixed), kept with a history row. Taken if the
        table's game was rated already."""
        people = [s.account for s in seats if s.account is not None]
        steps: list[Step] = [
            ("INSERT INTO rated_games (table_id, at) VALUES (%s, %s)", (table, now))
        ]
        for account in people:
            steps.append(
                (
                    "INSERT INTO account_ratings (account, game, mu, sigma, games, wins, shown,"
                    " updated) VALUES (%s, %s, %s, %s, 0, 0, %s, %s)"
                    " ON CONFLICT (account, game) DO NOTHING",
                    (account, game, _NEW.mu, _NEW.sigma, _NEW.shown, now),
                )
            )
            steps.append(
                (
                    "UPDATE account_ratings SET updated = %s WHERE account = %s AND game = %s"
                    " RETURNING mu, sigma, games, wins",
                    (now, account, game),
                )
            )
            steps.append(
                (
                    "SELECT COALESCE(MAX(n), 0) FROM rating_history"
                    " WHERE account = %s AND game = %s",
                    (account, game),
                )
            )
        after: dict[str, Rating] = {}

        def writes(rows: list[Rows]) -> list[Step]:
            olds: dict[str, tuple[Rating, int, int]] = {}
            for i, account in enumerate(people):
                mu, sigma, played, wins = rows[2 + 3 * i][0]
                last = rows[3 + 3 * i][0][0]
                rating = Rating(float(str(mu)), float(str(sigma)), int(str(played)))
                olds[account] = (rating, int(str(wins)), int(str(last)))
            before = [
                olds[s.account][0] if s.account is not None else s.fixed or _NEW for s in seats
            ]
            new = rate(before, [s.place for s in seats], [s.account is None for s in seats])
            out: list[Step] = []
            for seat, rating in zip(seats, new, strict=True):
                if seat.account is None:
                    continue
                _, wins, last = olds[seat.account]
                won = wins + (seat.place == 1)
                after[seat.account] = rating
                key = (seat.account, game)
                figures = (rating.mu, rating.sigma, rating.shown)
                out.append(
                    (
                        "UPDATE account_ratings SET mu = %s, sigma = %s, games = %s, wins = %s,"
                        " shown = %s WHERE account = %s AND game = %s",
                        (rating.mu, rating.sigma, rating.games, won, rating.shown, *key),
                    )
                )
                out.append(
                    (
                        "INSERT INTO rating_history (account, game, n, at, table_id, place,"
                        " players, mu, sigma, shown) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
                        " %s, %s)",
                        (*key, last + 1, now, table, seat.place, len(seats), *figures),
                    )
                )
            return out

        await self.db._tx(steps, then=writes)
        return after

    async def ratings(self, account: str) -> list[RatingRow]:
        """An account's rating in each game it has played rated, by game."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT game, mu, sigma, games, wins FROM account_ratings"
                    " WHERE account = %s ORDER BY game",
                    (account,),
                )
            ],
            write=False,
        )
        return [
            RatingRow(str(g), Rating(float(str(mu)), float(str(sd)), int(str(n))), int(str(wins)))
            for g, mu, sd, n, wins in rows
        ]

    async def rating(self, account: str, game: str) -> Rating:
        """An account's rating in ``game`` (a newcomer's if it has none)."""
        found = [r.rating for r in await self.ratings(account) if r.game == game]
        return found[0] if found else _NEW

    async def history(self, account: str, game: str, most: int) -> list[HistoryRow]:
        """The last ``most`` ratings of an account in ``game``, oldest first."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT n, at, table_id, place, players, shown FROM rating_history"
                    " WHERE account = %s AND game = %s ORDER BY n DESC LIMIT %s",
                    (account, game, most),
                )
            ],
            write=False,
        )
        return [
            HistoryRow(int(str(n)), float(str(at)), str(t), int(str(p)), int(str(k)), int(str(s)))
            for n, at, t, p, k, s in reversed(rows)
        ]

    async def board(self, game: str, least_games: int, offset: int, most: int) -> list[BoardRow]:
        """A page of ``game``'s leaderboard: accounts with at least ``least_games`` rated
        games, best first (ties by name)."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT a.name, r.shown, r.games, r.wins FROM account_ratings r"
                    " JOIN accounts a ON a.id = r.account WHERE r.game = %s AND r.games >= %s"
                    " AND a.deleted IS NULL ORDER BY r.shown DESC, a.name LIMIT %s OFFSET %s",
                    (game, least_games, most, offset),
                )
            ],
            write=False,
        )
        return [BoardRow(str(n), int(str(s)), int(str(g)), int(str(w))) for n, s, g, w in rows]
