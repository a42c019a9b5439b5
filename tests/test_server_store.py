"""The server's store: events committed in order, a version taken once, a schema that upgrades."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from rummykit.server.store import (
    MIGRATIONS,
    Conflict,
    SqliteStore,
    TableMeta,
    TableRow,
    open_store,
)

META = TableMeta("waiting", 0, "{}")


def test_events_are_kept_in_order_and_a_version_is_taken_once(tmp_path: Path) -> None:
    async def run() -> None:
        store = SqliteStore(tmp_path / "s.sqlite3")
        await store.open()
        await store.create_table(TableRow("t1", "vatikanen", "{}", 1.0, META), None)
        await store.append("t1", 1, "join", '{"seat": 0}', META)
        await store.append("t1", 2, "action", "{}", META)
        with pytest.raises(Conflict):
            await store.append("t1", 2, "action", '{"other": 1}', META)  # another was first
        assert [e.version for e in await store.events("t1")] == [1, 2]
        assert [e.version for e in await store.events("t1", after=1)] == [2]
        assert await store.claim("t1")
        await store.close()

    asyncio.run(run())


def test_the_schema_is_brought_up_to_date_once_and_the_tables_outlive_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.sqlite3"

    async def open_and(fn: object) -> TableRow | None:
        store = SqliteStore(path)
        await store.open()
        if fn == "make":
            await store.create_table(TableRow("t1", "kontrakt", "{}", 2.0, META), None)
        row = await store.table("t1")
        await store.close()
        return row

    made = asyncio.run(open_and("make"))
    assert made is not None and made.id == "t1"
    again = asyncio.run(open_and(None))
    assert again is not None and again.id == "t1" and again.meta == META
    with sqlite3.connect(path) as db:
        versions = [v for (v,) in db.execute("SELECT version FROM schema_version")]
    assert versions == list(range(1, len(MIGRATIONS) + 1))


def test_the_db_url_names_the_store() -> None:
    assert isinstance(open_store("sqlite:////tmp/x.sqlite3"), SqliteStore)
    assert type(open_store("postgresql://u:p@127.0.0.1/db")).__name__ == "PostgresStore"
    with pytest.raises(ValueError, match="sqlite"):
        open_store("mysql://x")
