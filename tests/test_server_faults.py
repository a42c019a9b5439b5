"""Faults a public server meets, against a real ``rummykit serve`` on loopback: a database
someone else holds locked, a table whose stored events no longer replay, a server killed
with SIGKILL (its worker processes must go with it).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from protocol_client import HttpError, Live, play_until_over, simple_move
from server_helpers import Server, start
from test_server_live import join, seated, table

RECORDS = Path(__file__).parent / "records"


def version_of(server: Server, table_id: str) -> int:
    summary = server.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict)
    return int(summary["version"])


def bots_playing_alone(server: Server) -> str:
    """A Kontrakt table that plays on by itself, with nobody waited for: one player
    ("Here") is connected and plays the simplest move at once (a thread that connects
    again when the server closes its connection), one ("Away") joined and never came, so
    with no grace a bot stands in for them, and a bot. (A table with no player connected
    waits for one: issue 40.)"""
    made = table(server, "kontrakt", ["human", "human", "bot:basic"], grace=0)
    token = join(server, made["id"], "Here", 0)["token"]
    join(server, made["id"], "Away", 1)
    threading.Thread(target=_plays_on, args=(server, made["id"], token), daemon=True).start()
    return str(made["id"])


def _plays_on(server: Server, table_id: str, token: str) -> None:
    """Play the seat's simplest moves until the game is over or the server is gone."""
    failures = 0
    while failures < 50:
        try:
            live = Live.open(server.ws, table_id, token)
            play_until_over([live], timeout=600)
            live.close()
            return
        except Exception:  # closed (the database was locked), or the server is gone
            failures += 1
            time.sleep(0.2)


def grows(server: Server, table_id: str, seconds: float) -> bool:
    """Whether the table's version grows within ``seconds`` (read from its stored summary)."""
    start, end = version_of(server, table_id), time.monotonic() + seconds
    while time.monotonic() < end:
        if version_of(server, table_id) > start:
            return True
        time.sleep(0.1)
    return False


def test_a_locked_database_fails_the_one_change_and_freezes_no_other_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    server = start(f"sqlite:///{path}", bot_delay=0.1)
    try:
        table_id = table(server, "vatikanen", ["human", "human"])["id"]
        tokens = [join(server, table_id, name, seat)["token"] for seat, name in enumerate("AB")]
        anna, bo = (Live.open(server.ws, table_id, token) for token in tokens)
        anna.until(lambda s: s["status"] == "playing")
        bo.until(lambda s: s["status"] == "playing")
        mover = anna if anna.my_turn() else bo
        _, (other,) = seated(server, "vatikanen", ["human", "bot:greedy"])
        other.drain(0.2)
        alone = bots_playing_alone(server)
        assert grows(server, alone, 10)
        before = mover.state
        assert before is not None
        log = list(mover.log)

        holder = sqlite3.connect(path, isolation_level=None, timeout=0)
        holder.execute("BEGIN IMMEDIATE")  # another program writes to the file, and waits
        try:
            asked = time.monotonic()
            draw = {"type": "action", "version": before["version"], "action": {"type": "draw"}}
            mover.send({**draw, "ref": "locked"})
            error = mover.next_error(timeout=10)
            took = time.monotonic() - asked
            assert error["code"] == "unavailable" and error["ref"] == "locked", error
            assert took < 3.0, f"the error took {took:.1f} s"
            with pytest.raises(ConnectionClosed) as closed:  # told to reconnect
                mover.read(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
            assert closed.value.rcvd.reason
            # another table's connection is served as before, and so are the lists
            for n in range(4):
                sent = time.monotonic()
                other.send({"type": "ping", "ref": n})
                while (message := other.read(timeout=5))["type"] != "pong":
                    pass
                assert message["ref"] == n and time.monotonic() - sent < 0.5
                time.sleep(0.25)
            sent = time.monotonic()
            assert isinstance(server.get("/api/tables"), dict)
            assert time.monotonic() - sent < 0.5
        finally:
            holder.execute("ROLLBACK")
            holder.close()

        # the lock is gone: nothing was lost, the move goes through, the bots play on
        again = Live.open(server.ws, table_id, tokens[mover.seat or 0], before["version"])
        assert again.state is not None and again.state["version"] == before["version"]
        assert again.log == log
        again.act({"type": "draw"})
        assert again.until(lambda s: s["version"] > before["version"], timeout=10)
        assert again.log[: len(log)] == log and len(again.log) == len(log) + 1
        assert grows(server, alone, 10), "the bots' table did not play on"
        for live in (anna, bo, other, again):
            live.close()
    finally:
        server.stop()


def test_a_table_whose_events_no_longer_replay_is_set_aside_and_the_others_served(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    server = start(f"sqlite:///{path}")
    tokens: dict[str, list[str]] = {}
    try:
        for _ in range(2):
            table_id = table(server, "vatikanen", ["human", "human"])["id"]
            tokens[table_id] = [join(server, table_id, n, s)["token"] for s, n in enumerate("AB")]
            lives = [Live.open(server.ws, table_id, token) for token in tokens[table_id]]
            for live in lives:
                live.until(lambda s: s["version"] == 2)
            mover = next(live for live in lives if live.my_turn())
            mover.act({"type": "draw"})
            mover.until(lambda s: s["version"] == 3)
            for live in lives:
                live.close()
    finally:
        server.stop()
    broken, fine = tokens
    with sqlite3.connect(path) as db:  # the draw's event, cut short: no JSON any more
        db.execute(
            "UPDATE table_events SET data = substr(data, 1, 12) WHERE table_id = ? AND version = 3",
            (broken,),
        )

    server = start(f"sqlite:///{path}")
    try:
        refused = Live.open(server.ws, broken, tokens[broken][0])
        assert [e["code"] for e in refused.errors] == ["not_found"]
        with pytest.raises(ConnectionClosed) as closed:
            refused.read(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        with pytest.raises(HttpError) as missing:
            server.get(f"/api/tables/{broken}")
        assert missing.value.status == 404
        with pytest.raises(HttpError) as missing:
            server.post(f"/api/tables/{broken}/join", {"name": "C"})
        assert missing.value.status == 404
        for status in ("open", "all"):
            listed = server.get(f"/api/tables?status={status}")
            assert isinstance(listed, dict)
            assert [t["id"] for t in listed["tables"]] == [fine], status
        # the other table is served and played on
        lives = [Live.open(server.ws, fine, token, version=3) for token in tokens[fine]]
        assert all(live.state is not None and live.state["version"] == 3 for live in lives)
        mover = next(live for live in lives if live.my_turn())
        mover.act(simple_move(mover.state["view"]))  # type: ignore[index]
        assert mover.until(lambda s: s["version"] == 4)
        for live in lives:
            live.close()
    finally:
        server.stop()
    assert server.proc.stderr is not None
    logged = server.proc.stderr.read().decode()
    assert f"table {broken} is set aside" in logged


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        stat = _stat(int(entry)) if entry.isdigit() else None
        if stat is not None and stat[1] == pid:
            found.add(int(entry))
    return found


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: only its parent has not reaped it)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_no_worker_outlives_a_server_killed_with_sigkill(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}", workers=1)
    workers: set[int] = set()
    try:
        made = table(server, "vatikanen", ["human", "bot:greedy"])
        live = Live.open(server.ws, made["id"], join(server, made["id"], "Anna")["token"])
        live.until(lambda s: live.my_turn())
        acted = live.state["version"]  # type: ignore[index]
        live.act({"type": "draw"})
        live.until(lambda s: s["version"] >= acted + 2)  # the bot moved: it thought in a worker
        record = json.loads((RECORDS / "vatikanen" / "legal_going_out.json").read_text())
        replayed = server.post("/api/replay", {"record": record})
        assert isinstance(replayed, dict) and replayed["positions"] > 1
        workers = children(server.proc.pid)
        assert len(workers) >= 2, workers  # the bots' worker and the records' one at least
        live.close()
        server.kill()
        deadline = time.monotonic() + 5
        while left := {pid for pid in workers if alive(pid)}:
            assert time.monotonic() < deadline, f"workers outlived their server: {left}"
            time.sleep(0.1)
    finally:
        for pid in workers:  # never leave one behind, whatever the test found
            if alive(pid):
                os.kill(pid, 9)
        server.stop()


def test_ctrl_c_stops_the_server_quietly(tmp_path: Path) -> None:
    """Ctrl+C (SIGINT) is how the README says to stop the server: it ends with exit code 0
    and no traceback."""
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(timeout=30) == 0
    err = server.proc.stderr.read().decode() if server.proc.stderr else ""
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
