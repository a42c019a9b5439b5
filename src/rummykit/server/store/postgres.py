"""The PostgreSQL store (several processes share it): see :class:`PostgresStore`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

from rummykit.server.store.base import (
    LISTEN_BACKOFF,
    STATUSES,
    WATCH_EVERY,
    ChatRow,
    Conflict,
    EventRow,
    FinishedGame,
    Heard,
    Listing,
    Lost,
    Outage,
    StatusFilter,
    StoreBusy,
    StoreFailed,
    TableMeta,
    TableRow,
    listing_of,
    lock_key,
    lock_parts,
    meta_row,
    parse_cursor,
    table_row,
)
from rummykit.server.store.schema import DELETES, MIGRATIONS

__all__ = ["CHANNEL", "PostgresStore"]

# ---------------------------------------------------------------- PostgreSQL

CHANNEL = "rummykit_presence"
"""The NOTIFY channel processes tell each other things on (:mod:`rummykit.server.presence`)."""


class PostgresStore:
    """A PostgreSQL database (psycopg 3): any number of server processes may share it.

    A process serves a table while it holds the table's advisory lock on a
    connection of its own (:meth:`claim`); the lock goes when the process
    does, so another can claim the table at once. A due table is one whose
    ``wake_at`` has come and whose lock nobody holds (``pg_locks``).
    """

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._pool: AsyncConnectionPool[AsyncConnection[tuple[object, ...]]] | None = None
        self._listener: AsyncConnection[tuple[object, ...]] | None = None
        self._owner: AsyncConnection[tuple[object, ...]] | None = None
        self._owner_lock = asyncio.Lock()
        self._claimed: set[str] = set()
        self._tasks: set[asyncio.Future[None]] = set()
        self.outage = Outage()
        self._lost: Lost | None = None

    async def open(self) -> None:
        """Connect (a small pool), and bring the schema up to date under a lock."""
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(
            self.url, min_size=1, max_size=8, open=False, timeout=5.0, kwargs={"autocommit": True}
        )
        await pool.open(wait=True)
        self._pool = pool
        async with pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(7316117)")  # one migrator at a time
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            cur = await conn.execute("SELECT MAX(version) FROM schema_version")
            row = await cur.fetchone()
            done = (row[0] if row else None) or 0
            for number, statements in enumerate(MIGRATIONS, start=1):
                if number <= done:
                    continue
                for statement in statements:
                    await conn.execute(statement)
                await conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))

    def _pool_(self) -> AsyncConnectionPool[AsyncConnection[tuple[object, ...]]]:
        assert self._pool is not None, "the store is not open"
        return self._pool

    async def _do(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        """One statement on a pooled connection; its rows (if any). StoreBusy if the
        database cannot be reached, StoreFailed if it fails to do it."""
        import psycopg

        try:
            async with self._pool_().connection() as conn:
                cur = await conn.execute(sql, params)
                rows = await cur.fetchall() if cur.description else []
        except psycopg.errors.UniqueViolation:
            raise
        except Exception as exc:
            raise self.outage.failed(_postgres_error(exc)) from None
        self.outage.ended()
        return rows

    async def close(self) -> None:
        """Close every connection (releasing the tables this process held)."""
        self._lost = None
        for task in list(self._tasks):
            task.cancel()
        for conn in (self._listener, self._owner):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._listener = self._owner = None
        if self._pool is not None:
            await self._pool_().close()
            self._pool = None

    async def create_table(self, row: TableRow, creator: str | None) -> None:
        """Store a new table."""
        meta = row.meta
        assert meta is not None
        hi, lo = lock_parts(row.id)
        await self._do(
            "INSERT INTO game_tables (id, game, settings, created, status, version, summary,"
            " wake_at, base, presence, updated, creator, lock_hi, lock_lo)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (row.id, row.game, row.settings, row.created, *meta_row(meta), creator, hi, lo),
        )

    async def append(
        self, table_id: str, version: int, kind: str, data: str, meta: TableMeta
    ) -> None:
        """Commit one event and the meta: one statement, one round trip."""
        import psycopg

        try:
            await self._do(
                "WITH event AS (INSERT INTO table_events (table_id, version, kind, data, created)"
                " VALUES (%s, %s, %s, %s, %s))"
                " UPDATE game_tables SET status = %s, version = %s, summary = %s, wake_at = %s,"
                " base = %s, presence = %s, updated = %s WHERE id = %s",
                (table_id, version, kind, data, time.time(), *meta_row(meta), table_id),
            )
        except psycopg.errors.UniqueViolation as exc:
            raise Conflict(f"table {table_id} has a version {version} already") from exc

    async def save_meta(self, table_id: str, meta: TableMeta) -> None:
        """Write the meta alone."""
        await self._do(
            "UPDATE game_tables SET status = %s, version = %s, summary = %s, wake_at = %s,"
            " base = %s, presence = %s, updated = %s WHERE id = %s",
            (*meta_row(meta), table_id),
        )

    async def table(self, table_id: str) -> TableRow | None:
        """One table, or None."""
        rows = await self._do(
            "SELECT id, game, settings, created, status, version, summary, wake_at, base,"
            " presence, broken FROM game_tables WHERE id = %s",
            (table_id,),
        )
        return table_row(rows[0]) if rows else None

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """The table's events after version ``after``."""
        rows = await self._do(
            "SELECT version, kind, data, created FROM table_events WHERE table_id = %s"
            " AND version > %s ORDER BY version",
            (table_id, after),
        )
        return [EventRow(int(str(v)), str(k), str(d), float(str(c))) for v, k, d, c in rows]

    async def load_events(self, table_id: str, seats: int, base: int) -> list[EventRow]:
        """The seats' events and the current unit's."""
        rows = await self._do(
            "SELECT version, kind, data FROM table_events WHERE table_id = %s"
            " AND (version <= %s OR version >= %s) ORDER BY version",
            (table_id, seats, base),
        )
        return [EventRow(int(str(v)), str(k), str(d)) for v, k, d in rows]

    async def listing(self, status: StatusFilter, before: str | None, limit: int) -> Listing:
        """A page of summaries, newest first."""
        wanted = list(STATUSES[status])
        after = parse_cursor(before) if before else None
        sql = (
            "SELECT created, id, summary FROM game_tables WHERE status = ANY(%s)"
            " AND summary IS NOT NULL AND broken IS NULL"
        )
        params: list[object] = [wanted]
        if after is not None:
            sql += " AND (created, id) < (%s, %s)"
            params += [after[0], after[1]]
        sql += " ORDER BY created DESC, id DESC LIMIT %s"
        return listing_of(await self._do(sql, (*params, limit + 1)), limit)

    async def summaries(self, ids: Sequence[str]) -> list[str]:
        """The summaries of these tables."""
        if not ids:
            return []
        rows = await self._do(
            "SELECT id, summary FROM game_tables WHERE id = ANY(%s)"
            " AND summary IS NOT NULL AND broken IS NULL",
            (list(ids),),
        )
        by_id = {str(i): str(s) for i, s in rows}
        return [by_id[i] for i in ids if i in by_id]

    async def due(self, now: float, limit: int) -> list[str]:
        """Due tables whose lock no process holds."""
        rows = await self._do(
            "SELECT t.id FROM game_tables t WHERE t.wake_at <= %s AND t.broken IS NULL"
            " AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.classid::bigint = t.lock_hi AND l.objid::bigint = t.lock_lo"
            " AND l.objsubid = 1) ORDER BY t.wake_at LIMIT %s",
            (now, limit),
        )
        return [str(r[0]) for r in rows]

    async def serve(self, table_id: str, process: str | None) -> None:
        """Note which process serves the table (for people reading the database)."""
        await self._do("UPDATE game_tables SET served_by = %s WHERE id = %s", (process, table_id))

    async def set_aside(self, table_id: str, reason: str) -> None:
        """Mark a table that no longer replays."""
        await self._do(
            "UPDATE game_tables SET broken = %s, wake_at = NULL WHERE id = %s",
            (reason[:500], table_id),
        )

    async def unsummarized(self, limit: int) -> list[str]:
        """Tables stored before summaries were kept."""
        rows = await self._do(
            "SELECT id FROM game_tables WHERE summary IS NULL AND broken IS NULL LIMIT %s",
            (limit,),
        )
        return [str(r[0]) for r in rows]

    async def remove_abandoned(self, before: float) -> int:
        """Remove waiting tables last changed before ``before`` that nobody serves (this
        process included)."""
        rows = await self._do(
            "SELECT id FROM game_tables WHERE status = 'waiting' AND updated < %s LIMIT 1000",
            (before,),
        )
        removed = 0
        for (table_id,) in rows:
            if str(table_id) in self._claimed or not await self.claim(str(table_id)):
                continue  # someone is at it now
            try:
                async with self._pool_().connection() as conn, conn.transaction():
                    for sql in DELETES:
                        await conn.execute(sql, (str(table_id),))
                removed += 1
            except Exception as exc:
                raise self.outage.failed(_postgres_error(exc)) from None
            finally:
                await self.release(str(table_id))
        return removed

    async def add_unit(self, table_id: str, unit: int, record: str) -> None:
        """Keep a finished unit's record."""
        await self._do(
            "INSERT INTO table_units (table_id, unit, record) VALUES (%s, %s, %s)"
            " ON CONFLICT (table_id, unit) DO UPDATE SET record = EXCLUDED.record",
            (table_id, unit, record),
        )

    async def units(self, table_id: str) -> list[str]:
        """The finished units' records, in order."""
        rows = await self._do(
            "SELECT record FROM table_units WHERE table_id = %s ORDER BY unit", (table_id,)
        )
        return [str(r[0]) for r in rows]

    async def add_game(self, table_id: str, game: FinishedGame) -> None:
        """Keep a finished game's record (never replaced)."""
        await self._do(
            "INSERT INTO table_games (table_id, game, ended, result, record)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (table_id, game) DO NOTHING",
            (table_id, game.game, game.ended, game.result, game.record),
        )

    async def games(self, table_id: str) -> list[FinishedGame]:
        """The finished games kept, oldest first."""
        rows = await self._do(
            "SELECT game, ended, result FROM table_games WHERE table_id = %s ORDER BY game",
            (table_id,),
        )
        return [
            FinishedGame(int(str(g)), float(str(e)), None if r is None else str(r))
            for g, e, r in rows
        ]

    async def game_record(self, table_id: str, game: int) -> FinishedGame | None:
        """One finished game with its record."""
        rows = await self._do(
            "SELECT game, ended, result, record FROM table_games WHERE table_id = %s AND game = %s",
            (table_id, game),
        )
        if not rows:
            return None
        g, e, r, text = rows[0]
        return FinishedGame(int(str(g)), float(str(e)), None if r is None else str(r), str(text))

    async def add_chat(self, table_id: str, n: int, chat: ChatRow, keep: int) -> None:
        """Keep a chat message, and the last ``keep`` only."""
        await self._do(
            "WITH gone AS (DELETE FROM table_chat WHERE table_id = %s AND n <= %s)"
            " INSERT INTO table_chat (table_id, n, seat, name, text, at)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, n) DO NOTHING",
            (table_id, n - keep, table_id, n, chat.seat, chat.name, chat.text, chat.at),
        )

    async def chat(self, table_id: str, last: int) -> list[tuple[int, ChatRow]]:
        """The last chat messages, oldest first."""
        rows = await self._do(
            "SELECT n, seat, name, text, at FROM table_chat WHERE table_id = %s"
            " ORDER BY n DESC LIMIT %s",
            (table_id, last),
        )
        out = []
        for n, seat, name, text, at in rows[::-1]:
            assert isinstance(n, int) and isinstance(at, float | int)
            out.append(
                (
                    n,
                    ChatRow(
                        None if seat is None else int(str(seat)),
                        None if name is None else str(name),
                        str(text),
                        float(at),
                    ),
                )
            )
        return out

    async def claim(self, table_id: str) -> bool:
        """Take the table's advisory lock on this process's own connection, kept while the
        process lives (a killed process's tables are free at once)."""
        import psycopg

        if table_id in self._claimed:
            return True
        async with self._owner_lock:
            try:
                if self._owner is None or self._owner.closed:
                    self._drop_owner()
                    self._owner = await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, application_name=f"rummykit-lock {os.getpid()}"
                    )
                cur = await self._owner.execute(
                    "SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),)
                )
                row = await cur.fetchone()
            except (psycopg.Error, OSError) as exc:
                if isinstance(exc, psycopg.OperationalError | OSError):
                    self._drop_owner()  # the connection and the locks it held are gone
                raise self.outage.failed(_postgres_error(exc)) from None
        if row and row[0]:
            self._claimed.add(table_id)
            return True
        return False

    def _drop_owner(self) -> None:
        """The lock connection is gone (or going): every lock on it went with it. Forget
        them and tell :attr:`_lost` at once; the next claim connects anew."""
        owner, self._owner = self._owner, None
        if owner is not None and not owner.closed:
            closing = asyncio.ensure_future(owner.close())
            self._tasks.add(closing)
            closing.add_done_callback(self._tasks.discard)
        gone = frozenset(self._claimed)
        self._claimed.clear()
        if gone and self._lost is not None:
            self._lost(gone)

    async def _watch_owner(self) -> None:
        """Look at the lock connection every :data:`WATCH_EVERY` seconds while it holds a
        table: a terminated backend (or a lost network) is found within that."""
        import psycopg

        while True:
            await asyncio.sleep(WATCH_EVERY)
            async with self._owner_lock:
                if self._owner is None or not self._claimed:
                    continue
                try:
                    await asyncio.wait_for(self._owner.execute("SELECT 1"), WATCH_EVERY * 2)
                except (psycopg.Error, TimeoutError):
                    self._drop_owner()

    async def release(self, table_id: str) -> None:
        """Let the table's lock go."""
        if table_id not in self._claimed:
            return
        self._claimed.discard(table_id)
        async with self._owner_lock:
            if self._owner is not None and not self._owner.closed:
                with contextlib.suppress(Exception):
                    await self._owner.execute(
                        "SELECT pg_advisory_unlock(%s)", (lock_key(table_id),)
                    )

    async def listen(self, heard: Heard, lost: Lost | None = None) -> None:
        """LISTEN on a connection of its own, connected again (with backoff) when it is
        lost; every payload is handed to ``heard``. Watch the lock connection, and tell
        ``lost`` of the tables whose locks went with it."""
        import psycopg

        self._lost = lost
        first = await self._listen_once()

        async def pump(conn: AsyncConnection[tuple[object, ...]] | None) -> None:
            wait = LISTEN_BACKOFF[0]
            while True:
                if conn is None:
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, LISTEN_BACKOFF[1])
                    with contextlib.suppress(psycopg.Error, OSError):
                        conn = await self._listen_once()
                    continue
                try:
                    async for message in conn.notifies():
                        wait = LISTEN_BACKOFF[0]
                        with contextlib.suppress(Exception):  # a bad payload must not stop it
                            await heard(message.payload)
                except (psycopg.Error, OSError):
                    pass
                with contextlib.suppress(Exception):
                    await conn.close()
                conn = None

        for job in (pump(first), self._watch_owner()):
            task = asyncio.create_task(job)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _listen_once(self) -> AsyncConnection[tuple[object, ...]]:
        """A new LISTEN connection."""
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, application_name=f"rummykit-listen {os.getpid()}"
        )
        self._listener = conn
        await conn.execute(f"LISTEN {CHANNEL}")
        return conn

    async def announce(self, payload: str) -> None:
        """NOTIFY every listening process."""
        await self._do("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def _postgres_error(exc: BaseException) -> StoreBusy:
    """What a store raises for an error of psycopg, its pool or the network (named by its
    class only: a PostgreSQL message may quote what a request sent)."""
    import psycopg

    name = exc.__class__.__name__
    failed = (psycopg.errors.DiskFull, psycopg.errors.IoError)
    if isinstance(exc, psycopg.OperationalError | TimeoutError | OSError) and not isinstance(
        exc, failed
    ):
        return StoreBusy(f"the database is busy ({name})")
    return StoreFailed(f"the database could not write or read ({name})")
