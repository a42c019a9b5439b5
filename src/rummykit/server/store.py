"""Where the server keeps its tables: each table's settings and its accepted events.

The store is event-sourced: a table is its settings (the game, the seats,
the house rules, the seed) and the list of its events, numbered by the
table's version (1, 2, ...): a seat taken, an action, the next game. Nothing
else is stored; a table is rebuilt by replaying its events through the
engine (:mod:`rummykit.server.tables`). An event is committed before anyone
hears of it, so a server killed at any moment loses nothing it announced.

Two implementations: :class:`SqliteStore` (the default, one process) and
:class:`PostgresStore` (``postgresql://...``; several processes may share
it: every append is announced with ``NOTIFY`` carrying the table and the
version, and a table's bots and clocks are run by the one process that holds
the table's advisory lock). Appending a version that already exists raises
:class:`Conflict` (another process was first): the caller catches up.

The schema is versioned (:data:`MIGRATIONS`, the table ``schema_version``),
so a database outlives upgrades: each migration runs once, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

__all__ = [
    "MIGRATIONS",
    "Conflict",
    "EventRow",
    "PostgresStore",
    "SqliteStore",
    "Store",
    "TableRow",
    "open_store",
]

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE game_tables (id TEXT PRIMARY KEY, game TEXT NOT NULL,"
        " settings TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE table_events (table_id TEXT NOT NULL REFERENCES game_tables (id),"
        " version INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,"
        " created DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, version))",
    ),
)
"""The schema, one tuple of statements per version (1, 2, ...); never edit a released one,
add the next."""

T = TypeVar("T")

Notify = Callable[[str], Awaitable[None]]
"""Told of what a process announced (its own announcements included): ``e:TABLE:VERSION``
an event appended, ``t:TABLE`` a table made, or any text :meth:`Store.announce` sent."""


class Conflict(Exception):
    """The version appended exists already: another process took it first."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored: its id, game, settings (JSON text) and when it was made."""

    id: str
    game: str
    settings: str
    created: float


@dataclass(frozen=True, slots=True)
class EventRow:
    """One accepted event of a table: its version, kind and data (JSON text)."""

    version: int
    kind: str
    data: str


class Store(Protocol):
    """What the server needs of a database."""

    url: str

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        ...

    async def close(self) -> None:
        """Release the connections (and any table ownership)."""
        ...

    async def create_table(self, row: TableRow) -> None:
        """Store a new table (its version is 0: no events yet)."""
        ...

    async def append(self, table_id: str, version: int, kind: str, data: str) -> None:
        """Commit event ``version`` of the table; :class:`Conflict` if it exists."""
        ...

    async def tables(self) -> list[TableRow]:
        """Every stored table."""
        ...

    async def table(self, table_id: str) -> TableRow | None:
        """One stored table, or None."""
        ...

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """The table's events with a version above ``after``, in order."""
        ...

    async def listen(self, notify: Notify) -> None:
        """Call ``notify`` with every announcement of every process (from now on)."""
        ...

    async def announce(self, payload: str) -> None:
        """Tell every process (``listen``) something, such as who is connected where."""
        ...

    async def own(self, table_id: str) -> bool:
        """Try to become the table's owner (its bots and clocks); True if this process is."""
        ...


# ---------------------------------------------------------------- SQLite


class SqliteStore:
    """A SQLite file (WAL journal): one server process.

    Every call runs on the event loop's own thread: an insert into a WAL
    file with ``synchronous=NORMAL`` takes tens of microseconds, much less
    than handing it to a thread and back (measured), and it is committed
    when the call returns.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.url = f"sqlite:///{self.path}"
        self._db: sqlite3.Connection | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        assert self._db is not None, "the store is not open"
        return fn(self._db)

    async def open(self) -> None:
        """Open (or make) the file and bring its schema up to date."""
        self.path.parent.mkdir(parents=True, exist_ok=True)

        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(self.path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a commit survives the process dying
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            _migrate_sqlite(db)
            return db

        self._db = connect()

    async def close(self) -> None:
        """Close the file."""
        if self._db is not None:
            self._db.close()
            self._db = None

    async def create_table(self, row: TableRow) -> None:
        """Store a new table."""

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO game_tables (id, game, settings, created) VALUES (?, ?, ?, ?)",
                (row.id, row.game, row.settings, row.created),
            )

        await self._run(insert)

    async def append(self, table_id: str, version: int, kind: str, data: str) -> None:
        """Commit one event; :class:`Conflict` if the version exists."""

        def insert(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO table_events (table_id, version, kind, data, created)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (table_id, version, kind, data, time.time()),
                )
            except sqlite3.IntegrityError as exc:
                raise Conflict(f"table {table_id} has a version {version} already") from exc

        await self._run(insert)

    async def tables(self) -> list[TableRow]:
        """Every table, oldest first."""

        def rows(db: sqlite3.Connection) -> list[TableRow]:
            cur = db.execute("SELECT id, game, settings, created FROM game_tables ORDER BY created")
            return [TableRow(*r) for r in cur.fetchall()]

        return await self._run(rows)

    async def table(self, table_id: str) -> TableRow | None:
        """One table, or None."""

        def row(db: sqlite3.Connection) -> TableRow | None:
            cur = db.execute(
                "SELECT id, game, settings, created FROM game_tables WHERE id = ?", (table_id,)
            )
            found = cur.fetchone()
            return None if found is None else TableRow(*found)

        return await self._run(row)

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """The table's events after version ``after``."""

        def rows(db: sqlite3.Connection) -> list[EventRow]:
            cur = db.execute(
                "SELECT version, kind, data FROM table_events WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, after),
            )
            return [EventRow(*r) for r in cur.fetchall()]

        return await self._run(rows)

    async def listen(self, notify: Notify) -> None:
        """One process owns the file: nobody else appends, so there is nothing to hear."""

    async def announce(self, payload: str) -> None:
        """One process: nobody to tell."""

    async def own(self, table_id: str) -> bool:
        """One process: it owns every table."""
        return True


def _migrate_sqlite(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    done = row[0] or 0
    for number, statements in enumerate(MIGRATIONS, start=1):
        if number <= done:
            continue
        db.execute("BEGIN")
        for statement in statements:
            db.execute(statement)
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        db.execute("COMMIT")


# ---------------------------------------------------------------- PostgreSQL

CHANNEL = "rummykit_events"
"""The NOTIFY channel (payloads: see :data:`Notify`)."""


class PostgresStore:
    """A PostgreSQL database (psycopg 3): any number of server processes may share it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._pool: AsyncConnectionPool[AsyncConnection[tuple[object, ...]]] | None = None
        self._listener: AsyncConnection[tuple[object, ...]] | None = None
        self._owner: AsyncConnection[tuple[object, ...]] | None = None
        self._owned: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def open(self) -> None:
        """Connect (a small pool), and bring the schema up to date under a lock."""
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(self.url, min_size=1, max_size=8, open=False)
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

    async def close(self) -> None:
        """Close every connection (releasing the tables this process owned)."""
        for task in self._tasks:
            task.cancel()
        for conn in (self._listener, self._owner):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._listener = self._owner = None
        if self._pool is not None:
            await self._pool_().close()
            self._pool = None

    async def create_table(self, row: TableRow) -> None:
        """Store a new table and announce it (version 0)."""
        async with self._pool_().connection() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO game_tables (id, game, settings, created) VALUES (%s, %s, %s, %s)",
                (row.id, row.game, row.settings, row.created),
            )
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"t:{row.id}"))

    async def append(self, table_id: str, version: int, kind: str, data: str) -> None:
        """Commit one event and announce it; :class:`Conflict` if the version exists."""
        import psycopg

        try:
            async with self._pool_().connection() as conn, conn.transaction():
                await conn.execute(
                    "INSERT INTO table_events (table_id, version, kind, data, created)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    (table_id, version, kind, data, time.time()),
                )
                payload = f"e:{table_id}:{version}"
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        except psycopg.errors.UniqueViolation as exc:
            raise Conflict(f"table {table_id} has a version {version} already") from exc

    async def tables(self) -> list[TableRow]:
        """Every table, oldest first."""
        async with self._pool_().connection() as conn:
            cur = await conn.execute(
                "SELECT id, game, settings, created FROM game_tables ORDER BY created"
            )
            return [_table_row(r) for r in await cur.fetchall()]

    async def table(self, table_id: str) -> TableRow | None:
        """One table, or None."""
        async with self._pool_().connection() as conn:
            cur = await conn.execute(
                "SELECT id, game, settings, created FROM game_tables WHERE id = %s", (table_id,)
            )
            row = await cur.fetchone()
            return None if row is None else _table_row(row)

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """The table's events after version ``after``."""
        async with self._pool_().connection() as conn:
            cur = await conn.execute(
                "SELECT version, kind, data FROM table_events WHERE table_id = %s"
                " AND version > %s ORDER BY version",
                (table_id, after),
            )
            return [EventRow(int(str(v)), str(k), str(d)) for v, k, d in await cur.fetchall()]

    async def listen(self, notify: Notify) -> None:
        """LISTEN on a connection of its own; every payload is handed to ``notify``."""
        import psycopg

        conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._listener = conn
        await conn.execute(f"LISTEN {CHANNEL}")

        async def pump() -> None:
            async for message in conn.notifies():
                with contextlib.suppress(Exception):  # a bad payload must not stop the pump
                    await notify(message.payload)

        task = asyncio.create_task(pump(), name="rummykit-listen")
        self._tasks.add(task)

    async def announce(self, payload: str) -> None:
        """NOTIFY every listening process."""
        async with self._pool_().connection() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            await conn.commit()

    async def own(self, table_id: str) -> bool:
        """Take the table's advisory lock on this process's own connection (kept while the
        process lives: a killed process's tables are taken over by another)."""
        import psycopg

        if table_id in self._owned:
            return True
        if self._owner is None:
            self._owner = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        key = int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=8).digest(), "big")
        key -= 1 << 63  # a signed bigint
        cur = await self._owner.execute("SELECT pg_try_advisory_lock(%s)", (key,))
        row = await cur.fetchone()
        if row and row[0]:
            self._owned.add(table_id)
            return True
        return False


def _table_row(row: tuple[object, ...]) -> TableRow:
    table_id, game, settings, created = row
    assert isinstance(created, float | int)
    return TableRow(str(table_id), str(game), str(settings), float(created))


def open_store(url: str) -> Store:
    """The store for a ``--db`` URL: ``sqlite:///PATH`` or ``postgresql://...``."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url.removeprefix("sqlite:///"))
    raise ValueError(f"--db is sqlite:///PATH or postgresql://..., not {url!r}")


def dumps(data: object) -> str:
    """JSON text as the store keeps it (compact)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
