"""Fixtures shared by the test files."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import Server, postgres_url, start

# The suite reads English wherever the machine's locale says otherwise; tests of the
# language choice set (or remove) it themselves.
os.environ["RUMMYKIT_LANG"] = "en"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real ``rummykit serve`` on loopback, on a new SQLite file, bots moving at once."""
    running = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a whole test file (each test makes its own tables)."""
    folder = tmp_path_factory.mktemp("server")
    running = start(f"sqlite:///{folder / 'server.sqlite3'}")
    yield running
    running.stop()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The test database, with a new schema (dropped afterwards) as the search path."""
    import psycopg

    base = postgres_url()
    assert base is not None
    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options=-csearch_path%3D{schema}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def both_backends(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite, and one on PostgreSQL (a schema of its own): a test that asks
    for it runs on each."""
    if request.param == "sqlite":
        db = f"sqlite:///{tmp_path / 'server.db'}"
    else:
        postgres_url()
        db = request.getfixturevalue("pg_url")
    srv = start(db)
    try:
        yield srv
    finally:
        srv.stop()
