"""Where "Play now" keeps its seeks (migration 6, :mod:`.schema`), shared by every process of
a server: any process takes a seek and answers its page, one matcher pairs them.

A seek's ``state`` only moves forward, each step one statement that checks the step
before it, so that no seek is paired twice and none is lost between processes:
``waiting`` → ``claimed`` (the matcher, for the table it is making) → ``matched``
(its table, seat and token kept) → ``delivered`` (the page has them); ``waiting`` →
``cancelled`` (the page left, or said so) or deleted (nobody asked after it for a
while). A claim the matcher could not finish goes back to ``waiting``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.server.pairing import Seek
from rummykit.server.store.accounts import AccountStore, Rows, Step
from rummykit.server.store.base import Store
from rummykit.server.store.postgres import PostgresStore

__all__ = ["Placed", "SeekRow", "SeekStore"]

_COLUMNS = "id, game, players, pace, rating, created, account, bots_after, name"


@dataclass(frozen=True, slots=True)
class SeekRow:
    """A seek as the matcher reads it: the pairing's :class:`Seek` and the player's name."""

    seek: Seek
    name: str


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a seek stands for its page: its state, and once matched its table, seat and
    the seat's token."""

    state: str
    table: str | None = None
    seat: int | None = None
    token: str | None = None


def _row(r: tuple[object, ...]) -> SeekRow:
    sid, game, players, pace, rating, created, account, bots_after, name = r
    seek = Seek(
        str(sid),
        str(game),
        None if players is None else int(str(players)),
        str(pace),
        float(str(rating)),
        float(str(created)),
        None if account is None else str(account),
        None if bots_after is None else float(str(bots_after)),
    )
    return SeekRow(seek, str(name))


class SeekStore:
    """The seeks kept in ``store``'s database (SQLite or PostgreSQL)."""

    def __init__(self, store: Store) -> None:
        self.db = AccountStore(store)

    async def add(self, row: SeekRow, secret_hash: str, address: str, now: float) -> None:
        """A new waiting seek."""
        s = row.seek
        await self.db._tx(
            [
                (
                    "INSERT INTO seeks (id, secret, game, players, pace, bots_after, name,"
                    " account, rating, address, created, seen, state) VALUES"
                    " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'waiting')",
                    (
                        *(s.id, secret_hash, s.game, s.players, s.pace, s.bots_after),
                        *(row.name, s.account, s.rating, address, s.created, now),
                    ),
                )
            ]
        )

    async def live_from(self, address: str) -> int:
        """How many seeks of ``address`` are waiting."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT COUNT(*) FROM seeks WHERE address = %s"
                    " AND state IN ('waiting', 'claimed')",
                    (address,),
                )
            ],
            write=False,
        )
        return int(str(rows[0][0]))

    async def look(self, seek: str, secret_hash: str, now: float) -> Placed | None:
        """The seek's state for its page (None: no such seek, or not its secret); a
        waiting seek is noted as asked after, a matched one as delivered."""
        steps: list[Step] = [
            (
                "UPDATE seeks SET seen = %s WHERE id = %s AND secret = %s"
                " AND state IN ('waiting', 'claimed')",
                (now, seek, secret_hash),
            ),
            (
                "SELECT state, table_id, seat, token FROM seeks WHERE id = %s AND secret = %s",
                (seek, secret_hash),
            ),
            (
                "UPDATE seeks SET state = 'delivered' WHERE id = %s AND secret = %s"
                " AND state = 'matched'",
                (seek, secret_hash),
            ),
        ]
        rows = await self.db._tx(steps)
        return _placed(rows[1])

    async def cancel(self, seek: str, secret_hash: str) -> Placed | None:
        """Cancel a waiting seek; a seek already matched stays matched (its page is told
        its table). None: no such seek, or not its secret."""
        rows = await self.db._tx(
            [
                (
                    "UPDATE seeks SET state = 'cancelled' WHERE id = %s AND secret = %s"
                    " AND state = 'waiting'",
                    (seek, secret_hash),
                ),
                (
                    "SELECT state, table_id, seat, token FROM seeks WHERE id = %s AND secret = %s",
                    (seek, secret_hash),
                ),
            ]
        )
        return _placed(rows[1])

    async def waiting(self, seen_since: float, most: int) -> list[SeekRow]:
        """The waiting seeks whose pages asked after them since ``seen_since``, oldest
        first (at most ``most``)."""
        [rows] = await self.db._tx(
            [
                (
                    f"SELECT {_COLUMNS} FROM seeks WHERE state = 'waiting' AND seen >= %s"
                    " ORDER BY created, id LIMIT %s",
                    (seen_since, most),
                )
            ],
            write=False,
        )
        return [_row(r) for r in rows]

    async def claim(self, ids: Sequence[str], now: float) -> bool:
        """Claim every one of ``ids`` for a table, or none (False: one was no longer
        waiting: cancelled, or claimed by a matcher that took over)."""
        claims: list[Step] = [
            (
                "UPDATE seeks SET state = 'claimed', claimed = %s WHERE id = %s"
                " AND state = 'waiting' RETURNING id",
                (now, i),
            )
            for i in ids
        ]
        done: list[bool] = []

        def undo(rows: list[Rows]) -> list[Step]:
            got = [str(r[0][0]) for r in rows if r]
            done.append(len(got) == len(ids))
            if len(got) == len(ids):
                return []
            return [("UPDATE seeks SET state = 'waiting' WHERE id = %s", (i,)) for i in got]

        await self.db._tx(claims, then=undo)
        return done[0]

    async def release(self, ids: Sequence[str]) -> None:
        """Claimed seeks go back to waiting (their table could not be made)."""
        await self.db._tx(
            [
                ("UPDATE seeks SET state = 'waiting' WHERE id = %s AND state = 'claimed'", (i,))
                for i in ids
            ]
        )

    async def matched(self, places: Sequence[tuple[str, str, int, str]]) -> None:
        """Claimed seeks have their table: (seek, table, seat, token) each."""
        await self.db._tx(
            [
                (
                    "UPDATE seeks SET state = 'matched', table_id = %s, seat = %s, token = %s"
                    " WHERE id = %s AND state = 'claimed'",
                    (table, seat, token, seek),
                )
                for seek, table, seat, token in places
            ]
        )

    async def sweep(self, unseen_since: float, done_before: float, stuck_since: float) -> None:
        """Forget waiting seeks nobody asked after since ``unseen_since`` (their page has
        gone) and finished ones older than ``done_before`` (a token is kept no longer
        than that); claims made before ``stuck_since`` (their matcher died) wait again."""
        await self.db._tx(
            [
                (
                    "UPDATE seeks SET state = 'waiting', claimed = NULL WHERE state = 'claimed'"
                    " AND claimed < %s",
                    (stuck_since,),
                ),
                ("DELETE FROM seeks WHERE state = 'waiting' AND seen < %s", (unseen_since,)),
                (
                    "DELETE FROM seeks WHERE state IN ('delivered', 'cancelled', 'matched')"
                    " AND created < %s",
                    (done_before,),
                ),
            ]
        )

    async def namespace(self) -> str:
        """What tells this server's database apart from another's on one PostgreSQL
        database (its schema), so that each has its own matcher; ``main`` on SQLite."""
        if not isinstance(self.db.store, PostgresStore):
            return "main"
        [rows] = await self.db._tx([("SELECT current_schema()", ())], write=False)
        return str(rows[0][0])

    async def count_waiting(self) -> int:
        """How many seeks wait, in all."""
        [rows] = await self.db._tx(
            [("SELECT COUNT(*) FROM seeks WHERE state = 'waiting'", ())], write=False
        )
        return int(str(rows[0][0]))


def _placed(rows: Rows) -> Placed | None:
    if not rows:
        return None
    state, table, seat, token = rows[0]
    return Placed(
        str(state),
        None if table is None else str(table),
        None if seat is None else int(str(seat)),
        None if token is None else str(token),
    )
