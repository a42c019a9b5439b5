"""Where accounts' puzzle ratings are kept (docs/puzzles.md, "Ratings"): each account's
Glicko-2 puzzle rating per game, its first try of each puzzle, and each puzzle's own rating
as first tries move it, in the tables of the puzzle ratings' migration (:mod:`.schema`),
through the account store's transactions (:class:`AccountStore`).

A first try is rated in one transaction: the try is kept first (a second try of the same
puzzle by the same account is :class:`Taken` and the transaction changes nothing), the
account's and the puzzle's rows are made if new and then locked (``UPDATE ... RETURNING``:
PostgreSQL holds the rows until the end; SQLite has one writer), the new ratings are
computed from what was read, and written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.puzzles.rating import Rating
from rummykit.server.store.accounts import AccountStore, Rows, Step, Taken
from rummykit.server.store.base import Store

__all__ = ["FirstTry", "PuzzleRatingStore", "Taken"]

Rate = Callable[[Rating, Rating, bool], tuple[Rating, Rating]]

_NEW = Rating()


@dataclass(frozen=True, slots=True)
class FirstTry:
    """What a first try did: the account's and the puzzle's ratings, before and after."""

    player_before: Rating
    puzzle_before: Rating
    player: Rating
    puzzle: Rating


def _rating(row: Sequence[object]) -> Rating:
    return Rating(float(str(row[0])), float(str(row[1])), float(str(row[2])))


class PuzzleRatingStore:
    """The puzzle ratings kept in ``store``'s database (SQLite or PostgreSQL)."""

    def __init__(self, store: Store) -> None:
        self.db = AccountStore(store)

    async def first_try(
        self,
        account: str,
        game: str,
        puzzle: str,
        shipped: Rating,
        solved: bool,
        rate: Rate,
        now: float,
    ) -> FirstTry:
        """Keep ``account``'s first try of ``puzzle`` and rate both sides by ``rate`` (the
        puzzle from its kept rating, else ``shipped``). Taken if it tried it before."""
        steps: list[Step] = [
            (
                "INSERT INTO puzzle_tries (account, puzzle, at, solved) VALUES (%s, %s, %s, %s)",
                (account, puzzle, now, int(solved)),
            ),
            (
                "INSERT INTO account_puzzle_ratings (account, game, rating, rd, volatility,"
                " tries, solved, updated) VALUES (%s, %s, %s, %s, %s, 0, 0, %s)"
                " ON CONFLICT (account, game) DO NOTHING",
                (account, game, _NEW.rating, _NEW.rd, _NEW.volatility, now),
            ),
            (
                "UPDATE account_puzzle_ratings SET updated = %s WHERE account = %s AND game = %s"
                " RETURNING rating, rd, volatility",
                (now, account, game),
            ),
            (
                "INSERT INTO puzzle_ratings (puzzle, rating, rd, volatility, tries)"
                " VALUES (%s, %s, %s, %s, 0) ON CONFLICT (puzzle) DO NOTHING",
                (puzzle, shipped.rating, shipped.rd, shipped.volatility),
            ),
            (
                "UPDATE puzzle_ratings SET tries = tries WHERE puzzle = %s"
                " RETURNING rating, rd, volatility",
                (puzzle,),
            ),
        ]
        done: list[FirstTry] = []

        def writes(rows: list[Rows]) -> list[Step]:
            player, of_puzzle = _rating(rows[2][0]), _rating(rows[4][0])
            new_player, new_puzzle = rate(player, of_puzzle, solved)
            done.append(FirstTry(player, of_puzzle, new_player, new_puzzle))
            return [
                (
                    "UPDATE account_puzzle_ratings SET rating = %s, rd = %s, volatility = %s,"
                    " tries = tries + 1, solved = solved + %s WHERE account = %s AND game = %s",
                    (
                        new_player.rating,
                        new_player.rd,
                        new_player.volatility,
                        int(solved),
                        account,
                        game,
                    ),
                ),
                (
                    "UPDATE puzzle_ratings SET rating = %s, rd = %s, volatility = %s,"
                    " tries = tries + 1 WHERE puzzle = %s",
                    (new_puzzle.rating, new_puzzle.rd, new_puzzle.volatility, puzzle),
                ),
            ]

        await self.db._tx(steps, then=writes)
        return done[0]

    async def player(self, account: str, game: str) -> Rating:
        """``account``'s puzzle rating in ``game`` (a newcomer's if it has none)."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT rating, rd, volatility FROM account_puzzle_ratings"
                    " WHERE account = %s AND game = %s",
                    (account, game),
                )
            ],
            write=False,
        )
        return _rating(rows[0]) if rows else _NEW

    async def tried(self, account: str, puzzles: Sequence[str]) -> set[str]:
        """Which of ``puzzles`` (a bounded list) ``account`` has tried."""
        if not puzzles:
            return set()
        marks = ", ".join(["%s"] * len(puzzles))
        [rows] = await self.db._tx(
            [
                (
                    f"SELECT puzzle FROM puzzle_tries WHERE account = %s AND puzzle IN ({marks})",
                    (account, *puzzles),
                )
            ],
            write=False,
        )
        return {str(r[0]) for r in rows}

    async def puzzle(self, puzzle: str) -> Rating | None:
        """``puzzle``'s kept rating, or None while no first try has moved it."""
        [rows] = await self.db._tx(
            [("SELECT rating, rd, volatility FROM puzzle_ratings WHERE puzzle = %s", (puzzle,))],
            write=False,
        )
        return _rating(rows[0]) if rows else None

    async def game_puzzles(self, table: str, game: int) -> list[str] | None:
        """The ids of the puzzles made from finished game ``game`` of ``table``, or None
        while the maker has not run on it."""
        mined, rows = await self.db._tx(
            [
                ("SELECT found FROM puzzle_mined WHERE table_id = %s AND game = %s", (table, game)),
                (
                    "SELECT puzzle FROM game_puzzles WHERE table_id = %s AND game = %s"
                    " ORDER BY puzzle",
                    (table, game),
                ),
            ],
            write=False,
        )
        return [str(r[0]) for r in rows] if mined else None

    async def mined_since(self, since: float) -> int:
        """How many finished games the maker has run on since ``since``."""
        [rows] = await self.db._tx(
            [("SELECT COUNT(*) FROM puzzle_mined WHERE at >= %s", (since,))], write=False
        )
        return int(str(rows[0][0]))

    async def keep_mined(
        self, table: str, game: int, found: Sequence[tuple[str, str]], now: float
    ) -> None:
        """Keep that the maker ran on game ``game`` of ``table`` and the ``(id, line)``
        puzzles it found (a puzzle already kept from another game stays as it is). Taken if
        it ran on that game already."""
        steps: list[Step] = [
            (
                "INSERT INTO puzzle_mined (table_id, game, at, found) VALUES (%s, %s, %s, %s)",
                (table, game, now, len(found)),
            )
        ]
        steps += [
            (
                "INSERT INTO game_puzzles (puzzle, table_id, game, line, made)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (puzzle) DO NOTHING",
                (pid, table, game, line, now),
            )
            for pid, line in found
        ]
        await self.db._tx(steps)

    async def game_puzzle(self, puzzle: str) -> str | None:
        """The file line of a puzzle made from one of the server's games, or None."""
        [rows] = await self.db._tx(
            [("SELECT line FROM game_puzzles WHERE puzzle = %s", (puzzle,))], write=False
        )
        return str(rows[0][0]) if rows else None

    async def recent_lines(self, most: int) -> list[str]:
        """The file lines of the ``most`` puzzles made last from the server's games."""
        [rows] = await self.db._tx(
            [("SELECT line FROM game_puzzles ORDER BY made DESC LIMIT %s", (most,))],
            write=False,
        )
        return [str(r[0]) for r in rows]
