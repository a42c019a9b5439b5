"""The SQLite store (the default, one process): see :class:`SqliteStore`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

from rummykit.server.store.base import (
    STATUSES,
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
    T,
    TableMeta,
    TableRow,
    listing_of,
    lock_parts,
    meta_row,
    parse_cursor,
    table_row,
)
from rummykit.server.store.schema import DELETES, MIGRATIONS

__all__ = ["SqliteStore"]


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
        hi, lo = lock_parts(row.id)

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO game_tables (id, game, settings, created, status, version, summary,"
                " wake_at, base, presence, updated, creator, lock_hi, lock_lo)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.settings, row.created, *meta_row(meta), creator, hi, lo),
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
                    (*meta_row(meta), table_id),
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
                (*meta_row(meta), table_id),
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
            return None if found is None else table_row(found)

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
        wanted = STATUSES[status]
        after = parse_cursor(before) if before else None

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
            return listing_of(found, limit)

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
                    for sql in DELETES:
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
