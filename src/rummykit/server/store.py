"""Where the server keeps its tables: settings, accepted events, summaries, chat.

The store is event-sourced: a table is its settings (the game, the seats,
the house rules, the seed) and its events, numbered by the table's version
(1, 2, ...): a seat taken, an action, the next game. An event is committed
before anyone hears of it, so a server killed at any moment loses nothing it
announced. With each event the table's row gets what lists need without
loading the table (its status, version and summary) and when something
happens at it next without anyone acting (``wake_at``: a bot's move, a turn
clock, a player's grace), so that a table leaves memory when nobody plays at
it and is loaded again when someone comes, or when it is due.

Two implementations of :class:`Store`: :class:`SqliteStore` (the default,
one process) and :class:`PostgresStore` (``postgresql://...``; several
processes share it, each serving the tables it holds the advisory lock of,
:mod:`rummykit.server.presence`). Appending a version that exists raises
:class:`Conflict`; a database that is locked or unreachable raises
:class:`StoreBusy` for that one request, and never holds up the event loop; one
that fails to read or write (a full disk, an I/O error, a read-only file)
raises :class:`StoreFailed` (a kind of :class:`StoreBusy`): no database error
of any other kind leaves a store. Such failures are logged once for each
stretch of them (:class:`Outage`), not once a request.

The schema is versioned (:data:`MIGRATIONS`, the table ``schema_version``),
so a database outlives upgrades: each migration runs once, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

__all__ = [
    "MIGRATIONS",
    "ChatRow",
    "Conflict",
    "EventRow",
    "FinishedGame",
    "Listing",
    "Outage",
    "PostgresStore",
    "SqliteStore",
    "Store",
    "StoreBusy",
    "StoreFailed",
    "TableMeta",
    "TableRow",
    "lock_key",
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
    (
        "ALTER TABLE game_tables ADD COLUMN status TEXT NOT NULL DEFAULT 'waiting'",
        "ALTER TABLE game_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN summary TEXT",
        "ALTER TABLE game_tables ADD COLUMN updated DOUBLE PRECISION NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN wake_at DOUBLE PRECISION",
        "ALTER TABLE game_tables ADD COLUMN base INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN presence TEXT",
        "ALTER TABLE game_tables ADD COLUMN broken TEXT",
        "ALTER TABLE game_tables ADD COLUMN creator TEXT",
        "ALTER TABLE game_tables ADD COLUMN served_by TEXT",
        "ALTER TABLE game_tables ADD COLUMN lock_hi BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN lock_lo BIGINT NOT NULL DEFAULT 0",
        "CREATE INDEX game_tables_listed ON game_tables (status, created)",
        "CREATE INDEX game_tables_created ON game_tables (created)",
        "CREATE INDEX game_tables_wake ON game_tables (wake_at)",
        "CREATE TABLE table_chat (table_id TEXT NOT NULL, n INTEGER NOT NULL,"
        " seat INTEGER, name TEXT, text TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,"
        " PRIMARY KEY (table_id, n))",
        "CREATE TABLE table_units (table_id TEXT NOT NULL, unit INTEGER NOT NULL,"
        " record TEXT NOT NULL, PRIMARY KEY (table_id, unit))",
    ),
    (
        "CREATE TABLE table_games (table_id TEXT NOT NULL, game INTEGER NOT NULL,"
        " ended DOUBLE PRECISION NOT NULL, result TEXT, record TEXT NOT NULL,"
        " PRIMARY KEY (table_id, game))",
    ),
)
"""The schema, one tuple of statements per version (1, 2, ...); never edit a released one,
add the next. Version 2: what lists read (status, version, summary), when a table is due
(``wake_at``), where its current unit starts (``base``), tables set aside (``broken``), who
made it (a hash of the address), its lock key, chat, and finished units' records. Version 3:
every finished game's record, kept as it ended (``table_games``: PROTOCOL.md, "Finished
games of a table")."""

T = TypeVar("T")

Heard = Callable[[str], Awaitable[None]]
"""Told of each payload another process sent with :meth:`Store.announce`."""

Lost = Callable[[frozenset[str]], None]
"""Told of the tables this process no longer holds: its hold on them went with a lost
database connection (another process may serve them now)."""

WATCH_EVERY = 1.0
"""Seconds between two looks at the lock connection (a ``SELECT 1``)."""

LISTEN_BACKOFF = (0.1, 5.0)
"""The first and the longest wait before connecting the LISTEN connection again."""

StatusFilter = Literal["open", "over", "all"]


class Conflict(Exception):
    """The version appended exists already: another process took it first."""


class StoreBusy(Exception):
    """The database is locked, busy or unreachable: this request could not be done."""


class StoreFailed(StoreBusy):
    """The database failed to read or write (a full disk, an I/O error, a read-only file):
    this request could not be done, and nothing of it was kept. A kind of
    :class:`StoreBusy`, so that whatever answers a busy database answers this too."""


log = logging.getLogger("rummykit.server")


class Outage:
    """A store's failures as stretches of time: the first failure after a success is logged
    (a warning naming it), the next ones only counted, and the first write that works
    again logs how long it lasted and how many requests were refused. A database that
    comes and goes (a disk nearly full takes a small write now and then) is told of at
    most once every :attr:`QUIET` seconds. A full disk under a busy site thus writes a
    line or two, not one a request."""

    QUIET = 60.0

    def __init__(self) -> None:
        self.since: float | None = None
        self.refused = 0
        self._told: float | None = None
        self._telling = False

    def failed(self, exc: StoreBusy) -> StoreBusy:
        """Note one request refused (logging the first of a stretch); ``exc``, to raise."""
        self.refused += 1
        if self.since is None:
            now = time.monotonic()
            self.since = now
            self._telling = self._told is None or now - self._told >= self.QUIET
            if self._telling:
                self._told = now
                log.warning("%s: changes are refused (unavailable) until it works again", exc)
        return exc

    def ended(self) -> None:
        """A write went through: a stretch of failures, if any, is over."""
        if self.since is not None:
            if self._telling:
                took = time.monotonic() - self.since
                log.warning(
                    "the database works again after %.1f s (%d requests refused)",
                    took,
                    self.refused,
                )
                self.refused = 0
            self.since = None


def _locked(exc: BaseException) -> bool:
    """Whether a SQLite error says the file is locked by another connection."""
    text = str(exc)
    return "locked" in text or "busy" in text


def _sqlite_error(exc: BaseException, write: bool) -> StoreBusy:
    """What a store raises for a SQLite (or operating system) error."""
    if _locked(exc):
        return StoreBusy(f"the database is busy ({exc})")
    verb = "write" if write else "read"
    return StoreFailed(f"the database could not {verb} ({exc})")


def lock_key(table_id: str) -> int:
    """The table's advisory lock key: a signed 64-bit number from its id."""
    key = int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=8).digest(), "big")
    return key - (1 << 63)


def _lock_parts(table_id: str) -> tuple[int, int]:
    """The key as PostgreSQL's ``pg_locks`` shows it: (classid, objid), each 32 bits."""
    key = lock_key(table_id) & ((1 << 64) - 1)
    return key >> 32, key & 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored: its id, game, settings (JSON text), when it was made, and what
    changes with its events (``meta``)."""

    id: str
    game: str
    settings: str
    created: float
    meta: TableMeta | None = None
    broken: str | None = None


@dataclass(frozen=True, slots=True)
class TableMeta:
    """What a table's row says of it between loads: its status, version, summary (JSON
    text), when it is next due (``wake_at``, None: never by itself), where its current
    unit starts (``base``), and since when its players are away and its turn clock's
    deadline (``presence``, JSON text: kept across loads, never shown)."""

    status: str
    version: int
    summary: str
    wake_at: float | None = None
    base: int = 0
    presence: str | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One accepted event of a table: its version, kind and data (JSON text)."""

    version: int
    kind: str
    data: str
    created: float = 0.0
    """When it was accepted (filled by :meth:`Store.events` only)."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game of a table, kept as it ended, never changed: its number (from 0),
    when it ended, its result and its whole record (JSON texts; ``record`` empty when
    listed)."""

    game: int
    ended: float
    result: str | None
    record: str = ""


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One chat message as kept: the seat (None: a spectator), the name, the text, when."""

    seat: int | None
    name: str | None
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of summaries (JSON texts), newest first, and the cursor of the next page."""

    summaries: tuple[str, ...]
    next: str | None


def _cursor(created: float, table_id: str) -> str:
    return f"{created!r}_{table_id}"


def _parse_cursor(text: str) -> tuple[float, str]:
    """ValueError for anything that is no cursor this store made."""
    created, sep, table_id = text.partition("_")
    if not sep or not table_id or len(text) > 80:
        raise ValueError("'before' is the 'next' of an earlier page")
    return float(created), table_id


_STATUSES: dict[str, tuple[str, ...]] = {
    "open": ("waiting", "playing"),
    "over": ("over",),
    "all": ("waiting", "playing", "over"),
}


class Store(Protocol):
    """What the server needs of a database."""

    url: str
    shared: bool
    """Whether other processes may serve tables of the same database."""

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        ...

    async def close(self) -> None:
        """Release the connections (and any table this process held)."""
        ...

    async def create_table(self, row: TableRow, creator: str | None) -> None:
        """Store a new table (version 0: no events yet) with its first meta."""
        ...

    async def append(
        self, table_id: str, version: int, kind: str, data: str, meta: TableMeta
    ) -> None:
        """Commit event ``version`` of the table and its new meta, at once; :class:`Conflict`
        if the version exists."""
        ...

    async def save_meta(self, table_id: str, meta: TableMeta) -> None:
        """Write the table's meta alone (a player came or went; the table leaves memory)."""
        ...

    async def table(self, table_id: str) -> TableRow | None:
        """One stored table, or None."""
        ...

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """The table's events with a version above ``after``, in order."""
        ...

    async def load_events(self, table_id: str, seats: int, base: int) -> list[EventRow]:
        """What a rebuild needs, in order: the first ``seats`` events (the seats taken)
        and every event from version ``base`` on (the current unit's)."""
        ...

    async def listing(self, status: StatusFilter, before: str | None, limit: int) -> Listing:
        """Summaries of tables by status, newest first, after the cursor ``before``."""
        ...

    async def summaries(self, ids: Sequence[str]) -> list[str]:
        """The summaries of these tables (those that exist and have one)."""
        ...

    async def due(self, now: float, limit: int) -> list[str]:
        """Tables due by ``now`` that no process serves, soonest first."""
        ...

    async def serve(self, table_id: str, process: str | None) -> None:
        """Note which process serves the table (None: none)."""
        ...

    async def set_aside(self, table_id: str, reason: str) -> None:
        """Mark a table whose events no longer replay: never loaded or listed again."""
        ...

    async def unsummarized(self, limit: int) -> list[str]:
        """Tables stored before summaries were kept (schema 1), to summarize once."""
        ...

    async def remove_abandoned(self, before: float) -> int:
        """Remove tables still waiting for players that were last changed before ``before``;
        how many."""
        ...

    async def add_unit(self, table_id: str, unit: int, record: str) -> None:
        """Keep a finished unit's record (its deals go on in the next unit's record)."""
        ...

    async def units(self, table_id: str) -> list[str]:
        """The finished units' records kept, in order."""
        ...

    async def add_game(self, table_id: str, game: FinishedGame) -> None:
        """Keep a finished game's record as it ended; one kept already stays as it is."""
        ...

    async def games(self, table_id: str) -> list[FinishedGame]:
        """The finished games kept, oldest first, without their records."""
        ...

    async def game_record(self, table_id: str, game: int) -> FinishedGame | None:
        """One finished game with its record, or None."""
        ...

    async def add_chat(self, table_id: str, n: int, chat: ChatRow, keep: int) -> None:
        """Keep chat message ``n`` of the table, and only the last ``keep``."""
        ...

    async def chat(self, table_id: str, last: int) -> list[tuple[int, ChatRow]]:
        """The table's last ``last`` chat messages, oldest first, with their numbers."""
        ...

    async def claim(self, table_id: str) -> bool:
        """Try to become the one process serving the table; True if this process is."""
        ...

    async def release(self, table_id: str) -> None:
        """Stop serving the table (another process may claim it)."""
        ...

    async def listen(self, heard: Heard, lost: Lost | None = None) -> None:
        """Call ``heard`` with every payload another process announces, and ``lost`` with
        the tables this process stopped holding without releasing them."""
        ...

    async def announce(self, payload: str) -> None:
        """Tell every other process something (:mod:`rummykit.server.presence`)."""
        ...


def _meta_row(meta: TableMeta) -> tuple[object, ...]:
    return (
        meta.status,
        meta.version,
        meta.summary,
        meta.wake_at,
        meta.base,
        meta.presence,
        time.time(),
    )


# ---------------------------------------------------------------- SQLite


class SqliteStore:
    """A SQLite file (WAL journal): one server process.

    A write is tried first on the event loop's own thread, on a connection that
    never waits for a lock (``busy_timeout`` 0) and never checkpoints: a commit
    to a WAL file with ``synchronous=NORMAL`` takes tens of microseconds, less
    than handing it to a thread and back (measured: ``benchmarks/server.py``).
    If the file is locked (another program writing to it), the write goes to a
    thread of its own instead, and then that one request gets :class:`StoreBusy`
    ``busy_timeout`` after it was made at most, however many wait before it
    (each waits out only what is left of its own time): the event loop never
    waits, and no waiting write holds up another. The writer thread checkpoints
    the journal now and then; reads run on a thread of their own too, so a lock
    holds up neither the loop nor the lists. Any other error of the file (a full
    disk, an I/O error, a read-only file) is :class:`StoreFailed`.
    """

    shared = False

    def __init__(self, path: str | Path, *, busy_timeout: float = 1.0) -> None:
        self.path = Path(path)
        self.url = f"sqlite:///{self.path}"
        self.busy_timeout = busy_timeout
        self.outage = Outage()
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="rummykit-sqlite-write")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="rummykit-sqlite-read")
        self._local = threading.local()
        self._quick: sqlite3.Connection | None = None
        self._since_checkpoint = 0

    def unwritable(self) -> tuple[Path, str] | None:
        """What keeps this process from writing the database, and why (None: nothing):
        its folder (SQLite makes its ``-wal`` and ``-shm`` files there), or the file,
        its ``-wal``, ``-shm`` or ``-journal``, where they exist. Looked at before the
        server starts: SQLite on an ``-shm`` it may not write fails late, or kills the
        process (SIGBUS) without a word."""
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=".rummykit-", dir=folder)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            return folder, exc.strerror or str(exc)
        for suffix in ("", "-wal", "-shm", "-journal"):
            file = Path(f"{self.path}{suffix}")
            if not file.exists():
                continue
            try:
                os.close(os.open(file, os.O_RDWR))
            except OSError as exc:
                return file, exc.strerror or str(exc)
        return None

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)

    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._connect()
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a commit survives the process dying
            self._local.db = db
        return db

    def _quick_db(self) -> sqlite3.Connection:
        if self._quick is None:
            db = self._connect()
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA busy_timeout=0")
            db.execute("PRAGMA wal_autocheckpoint=0")  # the writer thread checkpoints
            self._quick = db
        return self._quick

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """A write: on the event loop if the file is free at once, else on the writer
        thread (see the class docstring)."""
        try:
            out = fn(self._quick_db())
        except (sqlite3.Error, OSError) as exc:
            _rollback(self._quick)
            if not _locked(exc):
                raise self.outage.failed(_sqlite_error(exc, True)) from None
            return await self._run(fn)
        self.outage.ended()
        self._since_checkpoint += 1
        if self._since_checkpoint >= 500:
            self._since_checkpoint = 0
            asyncio.get_running_loop().run_in_executor(self._writer, self._checkpoint)
        return out

    def _checkpoint(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db().execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def _run(self, fn: Callable[[sqlite3.Connection], T], *, write: bool = True) -> T:
        """``fn`` on the writer thread (or the reader's), waiting for a lock until
        ``busy_timeout`` after now at most: a request queued behind another that waited
        waits only what is left of its own time."""
        deadline = time.monotonic() + self.busy_timeout

        def call() -> T:
            db = self._db()
            left = max(0, int((deadline - time.monotonic()) * 1000))
            db.execute(f"PRAGMA busy_timeout={left}")
            try:
                return fn(db)
            except BaseException:
                _rollback(db)
                raise

        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self._writer if write else self._reader, call)
        except (sqlite3.Error, OSError) as exc:
            raise self.outage.failed(_sqlite_error(exc, write)) from None
        if write:
            self.outage.ended()
        return out

    async def open(self) -> None:
        """Open (or make) the file and bring its schema up to date; no table is served by
        anyone yet (one process). StoreFailed naming what cannot be written."""
        problem = self.unwritable()
        if problem is not None:
            raise StoreFailed(f"{problem[0]} is not writable ({problem[1]})")

        def migrate(db: sqlite3.Connection) -> None:
            _migrate_sqlite(db)
            db.execute("UPDATE game_tables SET served_by = NULL WHERE served_by IS NOT NULL")

        await self._run(migrate)

    async def close(self) -> None:
        """Close the file's connections (the store is not opened again)."""

        def close_here() -> None:
            db: sqlite3.Connection | None = getattr(self._local, "db", None)
            if db is not None:
                db.close()
                self._local.db = None

        loop = asyncio.get_running_loop()
        for pool in (self._writer, self._reader):
            with contextlib.suppress(Exception):
                await loop.run_in_executor(pool, close_here)
            pool.shutdown(wait=False)
        if self._quick is not None:
            self._quick.close()
            self._quick = None

    async def create_table(self, row: TableRow, creator: str | None) -> None:
        """Store a new table."""
        meta = row.meta
        assert meta is not None
        hi, lo = _lock_parts(row.id)

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO game_tables (id, game, settings, created, status, version, summary,"
                " wake_at, base, presence, updated, creator, lock_hi, lock_lo)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.settings, row.created, *_meta_row(meta), creator, hi, lo),
            )

        await self._run(insert)

    async def append(
        self, table_id: str, version: int, kind: str, data: str, meta: TableMeta
    ) -> None:
        """Commit one event and the table's meta in one transaction."""

        def insert(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "INSERT INTO table_events (table_id, version, kind, data, created)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (table_id, version, kind, data, time.time()),
                )
                db.execute(
                    "UPDATE game_tables SET status = ?, version = ?, summary = ?, wake_at = ?,"
                    " base = ?, presence = ?, updated = ? WHERE id = ?",
                    (*_meta_row(meta), table_id),
                )
            except sqlite3.IntegrityError as exc:
                db.execute("ROLLBACK")
                raise Conflict(f"table {table_id} has a version {version} already") from exc
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

        await self._write(insert)

    async def save_meta(self, table_id: str, meta: TableMeta) -> None:
        """Write the meta alone."""

        def update(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE game_tables SET status = ?, version = ?, summary = ?, wake_at = ?,"
                " base = ?, presence = ?, updated = ? WHERE id = ?",
                (*_meta_row(meta), table_id),
            )

        await self._write(update)

    async def table(self, table_id: str) -> TableRow | None:
        """One table, or None."""

        def row(db: sqlite3.Connection) -> TableRow | None:
            found = db.execute(
                "SELECT id, game, settings, created, status, version, summary, wake_at, base,"
                " presence, broken FROM game_tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            return None if found is None else _table_row(found)

        return await self._run(row, write=False)

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """The table's events after version ``after``."""

        def rows(db: sqlite3.Connection) -> list[EventRow]:
            cur = db.execute(
                "SELECT version, kind, data, created FROM table_events WHERE table_id = ?"
                " AND version > ? ORDER BY version",
                (table_id, after),
            )
            return [EventRow(*r) for r in cur.fetchall()]

        return await self._run(rows, write=False)

    async def load_events(self, table_id: str, seats: int, base: int) -> list[EventRow]:
        """The seats' events and the current unit's."""

        def rows(db: sqlite3.Connection) -> list[EventRow]:
            cur = db.execute(
                "SELECT version, kind, data FROM table_events WHERE table_id = ?"
                " AND (version <= ? OR version >= ?) ORDER BY version",
                (table_id, seats, base),
            )
            return [EventRow(*r) for r in cur.fetchall()]

        return await self._run(rows, write=False)

    async def listing(self, status: StatusFilter, before: str | None, limit: int) -> Listing:
        """A page of summaries, newest first."""
        wanted = _STATUSES[status]
        after = _parse_cursor(before) if before else None

        def rows(db: sqlite3.Connection) -> Listing:
            marks = ", ".join("?" * len(wanted))
            sql = (
                f"SELECT created, id, summary FROM game_tables WHERE status IN ({marks})"
                " AND summary IS NOT NULL AND broken IS NULL"
            )
            params: list[object] = list(wanted)
            if after is not None:
                sql += " AND (created < ? OR (created = ? AND id < ?))"
                params += [after[0], after[0], after[1]]
            sql += " ORDER BY created DESC, id DESC LIMIT ?"
            found = db.execute(sql, (*params, limit + 1)).fetchall()
            return _listing(found, limit)

        return await self._run(rows, write=False)

    async def summaries(self, ids: Sequence[str]) -> list[str]:
        """The summaries of these tables."""

        def rows(db: sqlite3.Connection) -> list[str]:
            marks = ", ".join("?" * len(ids))
            found = db.execute(
                f"SELECT id, summary FROM game_tables WHERE id IN ({marks})"
                " AND summary IS NOT NULL AND broken IS NULL",
                tuple(ids),
            ).fetchall()
            by_id = {str(i): str(s) for i, s in found}
            return [by_id[i] for i in ids if i in by_id]

        return await self._run(rows, write=False) if ids else []

    async def due(self, now: float, limit: int) -> list[str]:
        """Due tables not loaded (one process: a loaded table keeps its own timers)."""

        def rows(db: sqlite3.Connection) -> list[str]:
            found = db.execute(
                "SELECT id FROM game_tables WHERE wake_at <= ? AND served_by IS NULL"
                " AND broken IS NULL ORDER BY wake_at LIMIT ?",
                (now, limit),
            ).fetchall()
            return [str(r[0]) for r in found]

        return await self._run(rows, write=False)

    async def serve(self, table_id: str, process: str | None) -> None:
        """Note which process serves the table."""

        def update(db: sqlite3.Connection) -> None:
            db.execute("UPDATE game_tables SET served_by = ? WHERE id = ?", (process, table_id))

        await self._run(update)

    async def set_aside(self, table_id: str, reason: str) -> None:
        """Mark a table that no longer replays."""

        def update(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE game_tables SET broken = ?, wake_at = NULL WHERE id = ?",
                (reason[:500], table_id),
            )

        await self._run(update)

    async def unsummarized(self, limit: int) -> list[str]:
        """Tables stored before summaries were kept."""

        def rows(db: sqlite3.Connection) -> list[str]:
            found = db.execute(
                "SELECT id FROM game_tables WHERE summary IS NULL AND broken IS NULL LIMIT ?",
                (limit,),
            ).fetchall()
            return [str(r[0]) for r in found]

        return await self._run(rows, write=False)

    async def remove_abandoned(self, before: float) -> int:
        """Remove waiting tables last changed before ``before``."""

        def delete(db: sqlite3.Connection) -> int:
            db.execute("BEGIN IMMEDIATE")
            try:
                ids = [
                    str(r[0])
                    for r in db.execute(
                        "SELECT id FROM game_tables WHERE status = 'waiting' AND updated < ?"
                        " AND served_by IS NULL LIMIT 1000",
                        (before,),
                    ).fetchall()
                ]
                for table_id in ids:
                    for sql in _DELETES:
                        db.execute(sql.replace("%s", "?"), (table_id,))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return len(ids)

        return await self._run(delete)

    async def add_unit(self, table_id: str, unit: int, record: str) -> None:
        """Keep a finished unit's record."""

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO table_units (table_id, unit, record) VALUES (?, ?, ?)",
                (table_id, unit, record),
            )

        await self._run(insert)

    async def units(self, table_id: str) -> list[str]:
        """The finished units' records, in order."""

        def rows(db: sqlite3.Connection) -> list[str]:
            found = db.execute(
                "SELECT record FROM table_units WHERE table_id = ? ORDER BY unit", (table_id,)
            ).fetchall()
            return [str(r[0]) for r in found]

        return await self._run(rows, write=False)

    async def add_game(self, table_id: str, game: FinishedGame) -> None:
        """Keep a finished game's record (never replaced)."""

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO table_games (table_id, game, ended, result, record)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, game.game, game.ended, game.result, game.record),
            )

        await self._write(insert)

    async def games(self, table_id: str) -> list[FinishedGame]:
        """The finished games kept, oldest first."""

        def rows(db: sqlite3.Connection) -> list[FinishedGame]:
            found = db.execute(
                "SELECT game, ended, result FROM table_games WHERE table_id = ? ORDER BY game",
                (table_id,),
            ).fetchall()
            return [FinishedGame(int(g), float(e), r) for g, e, r in found]

        return await self._run(rows, write=False)

    async def game_record(self, table_id: str, game: int) -> FinishedGame | None:
        """One finished game with its record."""

        def row(db: sqlite3.Connection) -> FinishedGame | None:
            found = db.execute(
                "SELECT game, ended, result, record FROM table_games"
                " WHERE table_id = ? AND game = ?",
                (table_id, game),
            ).fetchone()
            return None if found is None else FinishedGame(int(found[0]), *found[1:])

        return await self._run(row, write=False)

    async def add_chat(self, table_id: str, n: int, chat: ChatRow, keep: int) -> None:
        """Keep a chat message, and the last ``keep`` only."""

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO table_chat (table_id, n, seat, name, text, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, n, chat.seat, chat.name, chat.text, chat.at),
            )
            db.execute("DELETE FROM table_chat WHERE table_id = ? AND n <= ?", (table_id, n - keep))

        await self._write(insert)

    async def chat(self, table_id: str, last: int) -> list[tuple[int, ChatRow]]:
        """The last chat messages, oldest first."""

        def rows(db: sqlite3.Connection) -> list[tuple[int, ChatRow]]:
            found = db.execute(
                "SELECT n, seat, name, text, at FROM table_chat WHERE table_id = ?"
                " ORDER BY n DESC LIMIT ?",
                (table_id, last),
            ).fetchall()
            return [(int(n), ChatRow(seat, name, text, at)) for n, seat, name, text, at in found][
                ::-1
            ]

        return await self._run(rows, write=False)

    async def claim(self, table_id: str) -> bool:
        """One process: it serves every table."""
        return True

    async def release(self, table_id: str) -> None:
        """One process: nothing to release."""

    async def listen(self, heard: Heard, lost: Lost | None = None) -> None:
        """One process: nobody else to hear, and no hold to lose."""

    async def announce(self, payload: str) -> None:
        """One process: nobody to tell."""


def _rollback(db: sqlite3.Connection | None) -> None:
    """End a transaction a failure left open (as far as the file lets it be ended)."""
    if db is not None and db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


_DELETES = (
    "DELETE FROM table_events WHERE table_id = %s",
    "DELETE FROM table_chat WHERE table_id = %s",
    "DELETE FROM table_units WHERE table_id = %s",
    "DELETE FROM table_games WHERE table_id = %s",
    "DELETE FROM game_tables WHERE id = %s",
)


def _migrate_sqlite(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    done = row[0] or 0
    for number, statements in enumerate(MIGRATIONS, start=1):
        if number <= done:
            continue
        db.execute("BEGIN IMMEDIATE")
        for statement in statements:
            db.execute(statement)
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        db.execute("COMMIT")


def _table_row(row: Sequence[object]) -> TableRow:
    table_id, game, settings, created, status, version, summary, wake_at, base = row[:9]
    presence, broken = row[9:]
    assert isinstance(created, float | int) and isinstance(version, int)
    assert isinstance(base, int)
    meta = (
        None
        if summary is None
        else TableMeta(
            str(status),
            version,
            str(summary),
            None if wake_at is None else float(str(wake_at)),
            base,
            None if presence is None else str(presence),
        )
    )
    return TableRow(
        str(table_id),
        str(game),
        str(settings),
        float(created),
        meta,
        None if broken is None else str(broken),
    )


def _listing(found: Sequence[Sequence[object]], limit: int) -> Listing:
    page = found[:limit]
    following = None
    if len(found) > limit and page:
        created, table_id, _ = page[-1]
        following = _cursor(float(str(created)), str(table_id))
    return Listing(tuple(str(s) for _, _, s in page), following)


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
        hi, lo = _lock_parts(row.id)
        await self._do(
            "INSERT INTO game_tables (id, game, settings, created, status, version, summary,"
            " wake_at, base, presence, updated, creator, lock_hi, lock_lo)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (row.id, row.game, row.settings, row.created, *_meta_row(meta), creator, hi, lo),
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
                (table_id, version, kind, data, time.time(), *_meta_row(meta), table_id),
            )
        except psycopg.errors.UniqueViolation as exc:
            raise Conflict(f"table {table_id} has a version {version} already") from exc

    async def save_meta(self, table_id: str, meta: TableMeta) -> None:
        """Write the meta alone."""
        await self._do(
            "UPDATE game_tables SET status = %s, version = %s, summary = %s, wake_at = %s,"
            " base = %s, presence = %s, updated = %s WHERE id = %s",
            (*_meta_row(meta), table_id),
        )

    async def table(self, table_id: str) -> TableRow | None:
        """One table, or None."""
        rows = await self._do(
            "SELECT id, game, settings, created, status, version, summary, wake_at, base,"
            " presence, broken FROM game_tables WHERE id = %s",
            (table_id,),
        )
        return _table_row(rows[0]) if rows else None

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
        wanted = list(_STATUSES[status])
        after = _parse_cursor(before) if before else None
        sql = (
            "SELECT created, id, summary FROM game_tables WHERE status = ANY(%s)"
            " AND summary IS NOT NULL AND broken IS NULL"
        )
        params: list[object] = [wanted]
        if after is not None:
            sql += " AND (created, id) < (%s, %s)"
            params += [after[0], after[1]]
        sql += " ORDER BY created DESC, id DESC LIMIT %s"
        return _listing(await self._do(sql, (*params, limit + 1)), limit)

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
                    for sql in _DELETES:
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


def open_store(url: str) -> Store:
    """The store for a ``--db`` URL: ``sqlite:///PATH`` or ``postgresql://...``."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url.removeprefix("sqlite:///"))
    raise ValueError(f"--db is sqlite:///PATH or postgresql://..., not {url!r}")
