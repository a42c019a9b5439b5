"""What every store promises (:class:`Store`), its errors, and the rows it keeps and
answers; the shared helpers of the two backends (:mod:`.sqlite`, :mod:`.postgres`)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    pass

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


def lock_key(table_id: str) -> int:
    """The table's advisory lock key: a signed 64-bit number from its id."""
    key = int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=8).digest(), "big")
    return key - (1 << 63)


def lock_parts(table_id: str) -> tuple[int, int]:
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


def cursor_of(created: float, table_id: str) -> str:
    return f"{created!r}_{table_id}"


def parse_cursor(text: str) -> tuple[float, str]:
    """ValueError for anything that is no cursor this store made."""
    created, sep, table_id = text.partition("_")
    if not sep or not table_id or len(text) > 80:
        raise ValueError("'before' is the 'next' of an earlier page")
    return float(created), table_id


STATUSES: dict[str, tuple[str, ...]] = {
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


def meta_row(meta: TableMeta) -> tuple[object, ...]:
    return (
        meta.status,
        meta.version,
        meta.summary,
        meta.wake_at,
        meta.base,
        meta.presence,
        time.time(),
    )


def table_row(row: Sequence[object]) -> TableRow:
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


def listing_of(found: Sequence[Sequence[object]], limit: int) -> Listing:
    page = found[:limit]
    following = None
    if len(found) > limit and page:
        created, table_id, _ = page[-1]
        following = cursor_of(float(str(created)), str(table_id))
    return Listing(tuple(str(s) for _, _, s in page), following)
