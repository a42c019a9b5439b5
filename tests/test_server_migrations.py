"""The schema's migrations (``server/store/schema.py``) on both backends: a new database is
brought to today's version, and a database of the previous version, with a finished game in
it, is brought up to date at start with every row intact and readable (issue 41).

The previous version's database is made as that version's server left it: a table played
to its end by today's server, then the tables of the newest migration dropped and its
version taken back (the newest migration must only make tables and indexes for that to be
the previous version exactly; the test checks it, and says so when it must be rewritten)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from protocol_client import Live, play_until_over
from rummykit.server.store import MIGRATIONS
from server_helpers import Server, postgres_url, start


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty database: a SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.sqlite3'}"
    else:
        postgres_url()
        yield request.getfixturevalue("pg_url")


def run_sql(db: str, statements: list[str]) -> list[tuple[object, ...]]:
    """Run ``statements`` on ``db`` in order; the rows of the last."""
    rows: list[tuple[object, ...]] = []
    if db.startswith("sqlite:///"):
        with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
            for statement in statements:
                rows = conn.execute(statement).fetchall()
        return rows
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        for statement in statements:
            cur = conn.execute(statement)
            rows = cur.fetchall() if cur.description else []
    return rows


def tables_made_by(statements: tuple[str, ...]) -> list[str]:
    """The tables a migration makes; AssertionError if it does more than make tables and
    indexes (then the previous version cannot be made by dropping them)."""
    made = []
    for statement in statements:
        found = re.match(r"CREATE TABLE (\w+)", statement)
        if found:
            made.append(found.group(1))
        else:
            assert statement.startswith("CREATE INDEX"), (
                "the newest migration changes existing tables: make the previous version's"
                f" database here another way ({statement[:60]}...)"
            )
    return made


def schema_version(db: str) -> list[int]:
    return [int(str(v)) for (v,) in run_sql(db, ["SELECT version FROM schema_version ORDER BY 1"])]


def finished_table(server: Server) -> str:
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy"]})
    assert isinstance(made, dict)
    token = server.post(f"/api/tables/{made['id']}/join", {"name": "Anna"})["token"]  # type: ignore[index]
    live = Live.open(server.ws, made["id"], token)
    play_until_over([live])
    live.close()
    return str(made["id"])


def test_a_new_database_is_brought_to_today_s_version(db: str) -> None:
    server = start(db)
    try:
        assert server.get("/api/tables") == {"tables": [], "next": None}
    finally:
        server.stop()
    assert schema_version(db) == list(range(1, len(MIGRATIONS) + 1))
    for number, statements in enumerate(MIGRATIONS, start=1):
        for table in re.findall(r"CREATE TABLE (\w+)", " ".join(statements)):
            assert run_sql(db, [f"SELECT COUNT(*) FROM {table}"]) == [(0,)], (number, table)


def test_a_database_of_the_previous_version_is_brought_up_to_date_with_its_rows(
    db: str,
) -> None:
    server = start(db)
    try:
        table_id = finished_table(server)
        before = {
            path: server.get(f"/api/tables/{table_id}{path}")
            for path in ("", "/record", "/games", "/games/0/record")
        }
    finally:
        server.stop()
    newest = len(MIGRATIONS)
    dropped = tables_made_by(MIGRATIONS[-1])
    run_sql(
        db,
        [f"DROP TABLE {t}" for t in reversed(dropped)]
        + [f"DELETE FROM schema_version WHERE version = {newest}"],
    )
    assert schema_version(db) == list(range(1, newest))
    server = start(db)  # today's code on the previous version's database
    try:
        after = {
            path: server.get(f"/api/tables/{table_id}{path}")
            for path in ("", "/record", "/games", "/games/0/record")
        }
        assert after == before
        assert server.get(f"/api/tables?ids={table_id}")["tables"] == [before[""]]  # type: ignore[index]
        again = finished_table(server)  # and the database takes new tables and games
        assert server.get(f"/api/tables/{again}")["status"] == "over"  # type: ignore[index]
    finally:
        server.stop()
    assert schema_version(db) == list(range(1, newest + 1))
    for table in dropped:
        run_sql(db, [f"SELECT COUNT(*) FROM {table}"])


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS)))
def test_a_database_of_each_earlier_version_is_brought_up_to_date_and_plays(
    db: str, version: int
) -> None:
    """A database left at ``version`` (``MIGRATIONS[:version]`` applied and recorded as the
    store records them), opened by today's server: every later migration applied, and a new
    table is made, joined and read back."""
    run_sql(
        db,
        ["CREATE TABLE schema_version (version INTEGER NOT NULL)"]
        + [statement for statements in MIGRATIONS[:version] for statement in statements]
        + [f"INSERT INTO schema_version (version) VALUES ({n})" for n in range(1, version + 1)],
    )
    assert schema_version(db) == list(range(1, version + 1))
    server = start(db)
    try:
        made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy"]})
        assert isinstance(made, dict)
        joined = server.post(f"/api/tables/{made['id']}/join", {"name": "Anna"})
        assert isinstance(joined, dict) and joined["token"]
        listed = server.get(f"/api/tables?ids={made['id']}")["tables"]  # type: ignore[index]
        assert [t["id"] for t in listed] == [made["id"]]
    finally:
        server.stop()
    assert schema_version(db) == list(range(1, len(MIGRATIONS) + 1))
