"""PROTOCOL.md, "Acknowledgement" and "Heartbeat", against a real uvicorn on loopback.

The clients are :mod:`protocol_client` clients, written from the protocol alone.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import time

from protocol_client import Live
from server_helpers import Server
from test_server_live import seated


def test_an_accepted_action_is_acknowledged_by_its_ref_to_its_sender_only(
    shared_server: Server,
) -> None:
    _, (anna, bo) = seated(shared_server, "vatikanen", ["human", "human"])
    version = anna.state["version"]  # type: ignore[index]
    anna.send({"type": "action", "version": version, "action": {"type": "draw"}, "ref": "a-1"})
    mine = anna.until(lambda s: s["version"] > version)
    theirs = bo.until(lambda s: s["version"] > version)
    assert mine["ref"] == "a-1"
    assert "ref" not in theirs
    # the next state Anna gets (Bo's move) carries no ref: only the first that holds hers
    version = bo.state["version"]  # type: ignore[index]
    bo.send({"type": "action", "version": version, "action": {"type": "draw"}, "ref": 7})
    assert bo.until(lambda s: s["version"] > version)["ref"] == 7
    assert "ref" not in anna.until(lambda s: s["version"] > version)
    for live in (anna, bo):
        live.close()


def test_a_refused_action_answers_its_ref_and_changes_nothing(shared_server: Server) -> None:
    _, (anna, bo) = seated(shared_server, "vatikanen", ["human", "human"])
    version = bo.state["version"]  # type: ignore[index]
    bo.send({"type": "action", "version": version, "action": {"type": "draw"}, "ref": "b"})
    error = bo.next_error()
    assert error["code"] == "not_your_turn" and error["ref"] == "b"
    bo.send({"type": "hello", "token": None, "version": version})
    assert bo.read()["version"] == version
    for live in (anna, bo):
        live.close()


def test_a_ping_is_answered_with_a_pong_carrying_its_ref(shared_server: Server) -> None:
    _, (anna,) = seated(shared_server, "vatikanen", ["human", "bot:greedy"])
    anna.drain()
    anna.send({"type": "ping", "ref": 3})
    while (message := anna.read(timeout=10))["type"] != "pong":
        pass
    assert message == {"type": "pong", "ref": 3}
    anna.close()


def test_a_quiet_connection_hears_a_ping_within_six_seconds(shared_server: Server) -> None:
    made = shared_server.post("/api/tables", {"game": "kontrakt", "seats": ["human", "human"]})
    assert isinstance(made, dict)
    watcher = Live.open(shared_server.ws, made["id"], None)  # waiting: nothing else comes
    assert watcher.read(timeout=5)["type"] == "chat_history"
    start = time.monotonic()
    assert watcher.read(timeout=8) == {"type": "ping"}
    assert 4.0 <= time.monotonic() - start <= 6.5
    watcher.close()


def _silent_socket(port: int, table_id: str, token: str) -> socket.socket:
    """A WebSocket that says hello and then never reads or answers again: a dead link."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /api/tables/{table_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload = json.dumps({"type": "hello", "token": token, "version": None}).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
    return sock


def test_a_peer_that_stops_answering_shows_as_away_within_fifteen_seconds(
    shared_server: Server,
) -> None:
    server = shared_server
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    assert isinstance(made, dict)
    tokens = []
    for seat in (0, 1):
        joined = server.post(f"/api/tables/{made['id']}/join", {"name": f"P{seat}", "seat": seat})
        assert isinstance(joined, dict)
        tokens.append(joined["token"])
    bo = Live.open(server.ws, made["id"], tokens[1])
    dead = _silent_socket(server.port, made["id"], tokens[0])

    def connected() -> bool:
        summary = server.get(f"/api/tables/{made['id']}")
        assert isinstance(summary, dict)
        return bool(summary["seats"][0]["connected"])

    deadline = time.monotonic() + 5
    while not connected():
        assert time.monotonic() < deadline, "the silent peer never showed as connected"
        time.sleep(0.1)
    went = time.monotonic()
    while connected():
        assert time.monotonic() - went < 16, "a dead link still shows as connected"
        time.sleep(0.25)
    assert bo.until(lambda s: not s["seats"][0]["connected"], timeout=5)
    dead.close()
    bo.close()
