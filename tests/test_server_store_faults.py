"""A store that fails, against a real server on loopback: a SQLite file on a full disk (a
small tmpfs), a store whose writes fail with an I/O error (injected under the store, at
the database driver), a file another program holds locked while tables are made, and a
database the server could not write at all (start-up).

What a host and a client may rely on (docs/hosting.md, docs/protocol.md): a change that
could not be stored is refused (``unavailable``), nothing is sent that is not stored, the
table stays as stored (its version does not move, the store keeps no gap), the failure is
logged once, and play goes on when the database writes again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest
from websockets.exceptions import ConnectionClosed

from protocol_client import Live
from server_helpers import RUMMYKIT, Server, free_port, start
from test_server_live import join, table


def raw(base: str, method: str, path: str, body: object = None) -> tuple[int, str, str]:
    """One request: its status, content type and body text, whatever they are."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, method=method, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, answer.headers.get("content-type", ""), answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("content-type", ""), exc.read().decode()


def unavailable(answer: tuple[int, str, str]) -> bool:
    """Whether an answer is the protocol's JSON ``503 unavailable``."""
    status, kind, text = answer
    if status != 503 or not kind.startswith("application/json"):
        return False
    body = json.loads(text)
    return body.get("error") == "unavailable" and bool(body.get("message"))


def closed_code(live: Live, timeout: float = 10) -> int | None:
    """Read until the server closes the connection; its close code (no state may come with
    a version above the one the connection had)."""
    seen = live.state["version"] if live.state is not None else None
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = live.read(timeout=timeout)
            if message["type"] == "state":
                assert message["version"] == seen, "a state that is not stored was sent"
    return None if closed.value.rcvd is None else closed.value.rcvd.code


def playing(server: Server) -> tuple[str, list[str], list[Live]]:
    """A Vatikanen table of two people, both connected, playing."""
    table_id = table(server, "vatikanen", ["human", "human"])["id"]
    tokens = [join(server, table_id, name, seat)["token"] for seat, name in enumerate("AB")]
    lives = [Live.open(server.ws, table_id, token) for token in tokens]
    for live in lives:
        live.until(lambda s: s["status"] == "playing")
    return table_id, tokens, lives


# ---------------------------------------------------------------- a small disk


@contextlib.contextmanager
def small_disk(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (skipped, saying why, where mounting is
    not allowed: the test needs root; CI runs as root, so there it skips only if the
    machine refuses the mount)."""
    where.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
            capture_output=True,
            text=True,
        )
        refused = done.stderr.strip() if done.returncode != 0 else None
    except OSError as exc:  # no mount program
        refused = str(exc)
    if refused is not None:
        pytest.skip(
            "a small tmpfs cannot be mounted here (the test needs root and mount; in CI too it"
            f" skips only when the machine refuses the mount): {refused}"
        )
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the disk ``folder`` is on to the last byte; the file that fills it."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while out.write(b"\0" * size):
                    pass
    return filler


def test_a_full_disk_refuses_the_change_keeps_the_table_as_stored_and_plays_on_with_room(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk", "8m") as disk:
        db = f"sqlite:///{disk / 'server.sqlite3'}"
        server = start(db)
        try:
            table_id, tokens, lives = playing(server)
            mover = next(live for live in lives if live.my_turn())
            other = next(live for live in lives if live is not mover)
            assert mover.state is not None and mover.seat is not None
            before, log = mover.state["version"], list(mover.log)
            filler = fill(disk)

            mover.send({"type": "action", "version": before, "action": {"type": "draw"}, "ref": 1})
            error = mover.next_error(timeout=10)
            assert error["code"] == "unavailable" and error["ref"] == 1, error
            assert closed_code(mover) == 4503
            assert closed_code(other) == 4503
            summary = server.get(f"/api/tables/{table_id}")
            assert isinstance(summary, dict) and summary["version"] == before

            # a client that comes back finds the table as stored, and is refused again
            again = Live.open(server.ws, table_id, tokens[mover.seat], before)
            assert again.state is not None and again.state["version"] == before
            assert again.log == log
            again.send({"type": "action", "version": before, "action": {"type": "draw"}})
            assert again.next_error(timeout=10)["code"] == "unavailable"
            assert closed_code(again) == 4503
            made = raw(
                server.base, "POST", "/api/tables", {"game": "kontrakt", "seats": ["human"] * 3}
            )
            assert unavailable(made), made

            filler.unlink()  # the disk has room again: play goes on, and is stored
            again = Live.open(server.ws, table_id, tokens[mover.seat], before)
            assert again.state is not None and again.state["version"] == before
            again.act({"type": "draw"})
            again.until(lambda s: s["version"] == before + 1, timeout=10)
            assert again.log[: len(log)] == log and len(again.log) == len(log) + 1
            again.close()
        finally:
            server.stop()
        assert server.proc.stderr is not None
        logged = server.proc.stderr.read().decode()
        assert "Traceback" not in logged, logged
        assert len([line for line in logged.splitlines() if "could not write" in line]) == 1, logged

        server = start(db)  # after a restart the table loads, with the move (no gap)
        try:
            summary = server.get(f"/api/tables/{table_id}")
            assert isinstance(summary, dict) and summary["version"] == before + 1
            back = Live.open(server.ws, table_id, tokens[0])
            assert back.state is not None and back.state["version"] == before + 1
            back.close()
        finally:
            server.stop()


# ---------------------------------------------------------------- an injected failure


class Failing:
    """The switch of the injected failure: while on, every write statement of the
    server's database fails as a dying disk's would; ``plan`` fails the next inserts
    (events, tables, chat) one by one, each after a pause (seconds) and with its own
    message."""

    on = False
    plan: ClassVar[list[tuple[float, str]]] = []


class FailingConnection(sqlite3.Connection):
    """A SQLite connection whose writes fail with ``disk I/O error`` while :class:`Failing`
    is on, or as its plan says (reads go through)."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        verb = sql.lstrip().split(None, 1)[0].upper()
        if verb in _WRITES:
            if Failing.plan and verb == "INSERT":
                pause, message = Failing.plan.pop(0)
                time.sleep(pause)
                raise sqlite3.OperationalError(message)
            if Failing.on:
                raise sqlite3.OperationalError("disk I/O error")
        return super().execute(sql, parameters)


_WRITES = {"INSERT", "UPDATE", "DELETE", "REPLACE"}


class InProcess:
    """``rummykit serve``'s app on uvicorn in a thread of this process, on loopback."""

    def __init__(self, path: Path) -> None:
        import uvicorn

        from rummykit.server.app import create_app
        from rummykit.server.limits import Limits
        from rummykit.server.rooms import Rooms
        from rummykit.server.store import SqliteStore
        from rummykit.server.wsprotocol import WebSocketProtocol

        self.port = free_port()
        rooms = Rooms(SqliteStore(path), bot_delay=0.0, limits=Limits(tables_per_hour=10000))
        config = uvicorn.Config(
            create_app(rooms),
            host="127.0.0.1",
            port=self.port,
            ws=WebSocketProtocol,
            log_level="warning",
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"

    def get(self, path: str) -> object:
        status, _, text = raw(self.base, "GET", path)
        assert status == 200, text
        return json.loads(text)

    def post(self, path: str, body: object) -> object:
        status, _, text = raw(self.base, "POST", path, body)
        assert status in (200, 201), text
        return json.loads(text)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


def inject(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """The server's connections to ``path`` fail as :class:`Failing` says."""
    connect = sqlite3.connect

    def failing_connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if Path(database) == path:
            kwargs["factory"] = FailingConnection
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", failing_connect)
    Failing.on = False
    Failing.plan.clear()


def stored_versions(path: Path, table_id: str) -> list[int]:
    """The versions of the table's events in the file, in order."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        found = db.execute(
            "SELECT version FROM table_events WHERE table_id = ? ORDER BY version", (table_id,)
        )
        return [int(v) for (v,) in found]


def test_a_store_whose_writes_fail_refuses_each_change_with_unavailable_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "server.sqlite3"
    inject(monkeypatch, path)
    caplog.set_level(logging.INFO, logger="rummykit")
    server = InProcess(path)
    try:
        served: Any = server
        table_id, tokens, lives = playing(served)
        waiting = table(served, "kontrakt", ["human", "bot:basic", "bot:basic"])["id"]
        mover = next(live for live in lives if live.my_turn())
        other = next(live for live in lives if live is not mover)
        assert mover.state is not None and mover.seat is not None
        before, log = mover.state["version"], list(mover.log)
        Failing.on = True

        # chat: refused to its sender, heard by nobody, the connection stays
        mover.send({"type": "chat", "text": "hej", "ref": "c"})
        error = mover.next_error(timeout=10)
        assert error["code"] == "unavailable" and error["ref"] == "c", error
        with pytest.raises(TimeoutError):
            while other.read(timeout=0.5)["type"] != "chat":
                pass
        # an action: refused, nothing sent that is not stored, everyone reconnects
        mover.send({"type": "action", "version": before, "action": {"type": "draw"}, "ref": 7})
        error = mover.next_error(timeout=10)
        assert error["code"] == "unavailable" and error["ref"] == 7, error
        assert closed_code(mover) == 4503 and closed_code(other) == 4503
        summary = server.get(f"/api/tables/{table_id}")
        assert isinstance(summary, dict) and summary["version"] == before
        again = Live.open(server.ws, table_id, tokens[mover.seat], before)
        assert again.state is not None and again.state["version"] == before
        assert again.log == log
        again.close()
        # the HTTP writes: the protocol's JSON 503, and nothing changed
        made = raw(
            server.base, "POST", "/api/tables", {"game": "vatikanen", "seats": ["human"] * 2}
        )
        assert unavailable(made), made
        joined = raw(server.base, "POST", f"/api/tables/{waiting}/join", {"name": "Cecilia"})
        assert unavailable(joined), joined
        left = server.get(f"/api/tables/{waiting}")
        assert isinstance(left, dict) and left["version"] == 0
        assert [s["taken"] for s in left["seats"]] == [False, True, True]

        Failing.on = False  # the database writes again: play goes on
        again = Live.open(server.ws, table_id, tokens[mover.seat], before)
        assert again.state is not None and again.state["version"] == before
        again.act({"type": "draw"})
        again.until(lambda s: s["version"] == before + 1, timeout=10)
        again.send({"type": "chat", "text": "hej", "ref": "c"})
        while (message := again.read(timeout=10))["type"] != "chat":
            pass
        assert message["text"] == "hej"
        again.close()
        joined = raw(server.base, "POST", f"/api/tables/{waiting}/join", {"name": "Cecilia"})
        assert joined[0] == 200, joined
    finally:
        Failing.on = False
        server.stop()
    told = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len([r for r in told if "could not write" in r.getMessage()]) == 1, told
    assert not [r for r in told if r.exc_info], "a traceback was logged"

    # no gap: the versions stored are 1, 2, ... in a row
    assert stored_versions(path, table_id) == list(range(1, before + 2))


def test_a_join_that_waited_behind_a_failed_commit_is_refused_and_leaves_no_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "server.sqlite3"
    inject(monkeypatch, path)
    server = InProcess(path)
    try:
        served: Any = server
        table_id = table(served, "kontrakt", ["human"] * 3)["id"]
        # the first join's commit finds the file locked, waits on the writer thread and
        # fails there; the second join waits for the table meanwhile
        Failing.plan[:] = [(0.0, "database is locked"), (0.6, "disk I/O error")]
        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(
                raw,
                server.base,
                "POST",
                f"/api/tables/{table_id}/join",
                {"name": "Anna", "seat": 0},
            )
            time.sleep(0.3)
            second = pool.submit(
                raw, server.base, "POST", f"/api/tables/{table_id}/join", {"name": "Bo", "seat": 1}
            )
            answers = first.result(), second.result()
        assert unavailable(answers[0]), answers
        assert unavailable(answers[1]), answers  # it would have joined a table not stored
        assert stored_versions(path, table_id) == []
        summary = server.get(f"/api/tables/{table_id}")
        assert isinstance(summary, dict) and summary["version"] == 0
        assert not any(s["taken"] for s in summary["seats"])
        assert join(served, table_id, "Anna", 0)["seat"] == 0
        assert stored_versions(path, table_id) == [1]
    finally:
        Failing.plan.clear()
        server.stop()


# ---------------------------------------------------------------- a locked file


def test_a_locked_file_answers_each_of_five_creates_with_json_503_within_its_own_second(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    server = start(f"sqlite:///{path}")
    body = {"game": "vatikanen", "seats": ["human", "bot:greedy"]}
    try:
        assert raw(server.base, "POST", "/api/tables", body)[0] == 201
        holder = sqlite3.connect(path, isolation_level=None, timeout=0)
        holder.execute("BEGIN IMMEDIATE")  # another program writes to the file, and waits
        try:

            def create(_: int) -> tuple[float, tuple[int, str, str]]:
                sent = time.monotonic()
                answer = raw(server.base, "POST", "/api/tables", body)
                return time.monotonic() - sent, answer

            with ThreadPoolExecutor(5) as pool:
                answers = list(pool.map(create, range(5)))
                sent = time.monotonic()
                assert isinstance(server.get("/api/tables"), dict)  # reads go on
                assert time.monotonic() - sent < 0.5
            for took, answer in answers:
                assert unavailable(answer), answer
                assert took < 2.0, [round(t, 2) for t, _ in answers]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        sent = time.monotonic()
        assert raw(server.base, "POST", "/api/tables", body)[0] == 201
        assert time.monotonic() - sent < 0.5, "a write waited behind the ones refused"
    finally:
        server.stop()
    assert server.proc.stderr is not None
    logged = server.proc.stderr.read().decode()
    assert "Traceback" not in logged, logged


# ---------------------------------------------------------------- start-up


def left_behind(path: Path) -> None:
    """A database in WAL mode with its ``-wal`` and ``-shm`` files, as a server killed with
    SIGKILL leaves it."""
    code = (
        "import os, signal, sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('PRAGMA journal_mode=WAL')\n"
        "db.execute('CREATE TABLE kept (x)')\n"
        "db.execute('INSERT INTO kept VALUES (1)')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=False)
    assert Path(f"{path}-shm").exists() and Path(f"{path}-wal").exists()


@pytest.mark.parametrize("unwritable", ["folder", "-wal", "-shm"])
def test_the_server_will_not_start_on_a_database_it_cannot_write_and_names_the_path(
    tmp_path: Path, unwritable: str
) -> None:
    with small_disk(tmp_path / "disk", "4m") as disk:
        path = disk / "server.sqlite3"
        left_behind(path)
        if unwritable == "folder":
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            named = str(disk)
        else:
            named = f"{path}{unwritable}"
            subprocess.run(["mount", "--bind", named, named], check=True)
            subprocess.run(["mount", "-o", "remount,bind,ro", named], check=True)
        try:
            cmd = [RUMMYKIT, "serve", "--port", str(free_port()), "--db", f"sqlite:///{path}"]
            try:
                done = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
            except subprocess.TimeoutExpired:
                pytest.fail("the server started on a database it cannot write")
        finally:
            if unwritable != "folder":
                subprocess.run(["umount", named], capture_output=True)
    assert done.returncode not in (0, -signal.SIGBUS), done
    assert named in done.stderr and "not writable" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
