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

from rummykit.server.store.base import (
    ChatRow,
    Conflict,
    EventRow,
    FinishedGame,
    Heard,
    Listing,
    Lost,
    Outage,
    StatusFilter,
    Store,
    StoreBusy,
    StoreFailed,
    TableMeta,
    TableRow,
    lock_key,
)
from rummykit.server.store.postgres import CHANNEL, PostgresStore
from rummykit.server.store.schema import MIGRATIONS
from rummykit.server.store.sqlite import SqliteStore

__all__ = [
    "CHANNEL",
    "MIGRATIONS",
    "ChatRow",
    "Conflict",
    "EventRow",
    "FinishedGame",
    "Heard",
    "Listing",
    "Lost",
    "Outage",
    "PostgresStore",
    "SqliteStore",
    "StatusFilter",
    "Store",
    "StoreBusy",
    "StoreFailed",
    "TableMeta",
    "TableRow",
    "lock_key",
    "open_store",
]


def open_store(url: str) -> Store:
    """The store for a ``--db`` URL: ``sqlite:///PATH`` or ``postgresql://...``."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url.removeprefix("sqlite:///"))
    raise ValueError(f"--db is sqlite:///PATH or postgresql://..., not {url!r}")
