"""Moderation on a real ``rummykit serve`` (issue 42 item 5; docs/hosting.md, "Moderation"):
a report is kept and reports are rate-limited; a block hides the blocked player's chat from
the blocker (live and in the history); the host's ``rummykit admin`` mutes (chat refused),
bans (no sign-in, no seat, no table), removes a chat message (never sent again) and closes
a table, every action in its log; on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import time
from typing import Any

import httpx
import pytest

from protocol_client import Live
from server_helpers import RUMMYKIT, Server
from test_server_accounts import device, login, signup


@pytest.fixture
def server(both_backends: Server) -> Server:
    """A server on SQLite, and one on PostgreSQL (conftest's ``both_backends``)."""
    return both_backends


def admin(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [RUMMYKIT, "admin", "--db", server.db, *args], capture_output=True, text=True, timeout=60
    )
    return done


def table_of_two(anna: httpx.Client, bo: httpx.Client) -> tuple[str, str, str]:
    made = anna.post("/api/tables", json={"game": "vatikanen", "seats": ["human", "human"]})
    table = made.json()["id"]
    ta = anna.post(f"/api/tables/{table}/join", json={"name": "Anna"}).json()["token"]
    tb = bo.post(f"/api/tables/{table}/join", json={"name": "Bo"}).json()["token"]
    return table, ta, tb


def chats(live: Live, quiet: float = 0.8) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    end = time.monotonic() + quiet
    while time.monotonic() < end:
        try:
            message = live.read(timeout=0.2)
        except TimeoutError:
            continue
        if message["type"] == "chat":
            seen.append(message)
    return seen


def history_of(live: Live) -> dict[str, Any]:
    """The chat history a connection gets after its hello's state."""
    while (message := live.read(timeout=10))["type"] != "chat_history":
        pass
    return message


def test_a_report_is_kept_for_the_host_and_reports_are_limited(server: Server) -> None:
    with device(server, "127.0.4.1") as anna:
        made = anna.post("/api/reports", json={"name": "Bo", "reason": "rude in chat"})
        assert made.status_code == 201
        assert anna.post("/api/reports", json={"reason": "nobody"}).status_code == 400
        for _ in range(9):
            assert anna.post("/api/reports", json={"name": "Bo", "reason": "x"}).status_code == 201
        assert anna.post("/api/reports", json={"name": "Bo", "reason": "x"}).status_code == 429
    listed = admin(server, "reports")
    assert listed.returncode == 0 and "rude in chat" in listed.stdout


def test_a_block_hides_the_blocked_player_s_chat_from_the_blocker_alone(server: Server) -> None:
    with device(server, "127.0.4.2") as anna, device(server, "127.0.4.3") as bo:
        assert signup(anna, "Anna Block").status_code == 201
        assert signup(bo, "Bo Block").status_code == 201
        assert bo.post("/api/account/blocks", json={"name": "anna block"}).status_code == 200
        assert bo.get("/api/account/blocks").json() == {"blocks": ["Anna Block"]}
        table, ta, tb = table_of_two(anna, bo)
        by_seat = bo.post("/api/account/blocks", json={"table": table, "seat": 0})
        assert by_seat.json() == {"blocked": "Anna Block"}  # the account that took seat 0
        la, lb = Live.open(server.ws, table, ta), Live.open(server.ws, table, tb)
        watcher = Live.open(server.ws, table, None)
        la.send({"type": "chat", "text": "hello Bo"})
        assert [m["text"] for m in chats(watcher)] == ["hello Bo"]
        assert chats(lb) == []
        again = Live.open(server.ws, table, tb)
        assert history_of(again)["messages"] == []
        assert bo.delete("/api/account/blocks/Anna Block").status_code == 200
        for live in (la, lb, watcher, again):
            live.close()


def test_the_host_mutes_bans_removes_chat_and_closes_a_table_each_logged(server: Server) -> None:
    with device(server, "127.0.4.4") as anna, device(server, "127.0.4.5") as bo:
        assert signup(anna, "Anna Host").status_code == 201
        assert signup(bo, "Bo Host").status_code == 201
        table, ta, _ = table_of_two(anna, bo)
        la = Live.open(server.ws, table, ta)
        la.send({"type": "chat", "text": "first"})
        first = next(m for m in chats(la) if m["text"] == "first")
        assert admin(server, "mute", "--account", "Anna Host", "--for", "1h").returncode == 0
        refused = None
        for _ in range(14):  # a server reads mutes every 5 s
            la.send({"type": "chat", "text": "still here?"})
            try:
                refused = la.next_error(timeout=0.5)
                break
            except TimeoutError:
                continue
        assert refused is not None and refused["code"] == "muted"
        assert admin(server, "remove-chat", table, str(first["n"])).returncode == 0
        assert admin(server, "remove-chat", table, "9999").returncode == 2
        again = Live.open(server.ws, table, ta)
        assert "first" not in [m["text"] for m in history_of(again)["messages"]]
        for live in (la, again):
            live.close()
        assert admin(server, "ban", "--account", "Bo Host", "--for", "1d").returncode == 0
        with device(server, "127.0.4.6") as bo_again:
            refused_login = login(bo_again, "Bo Host")
            assert refused_login.status_code == 403 and refused_login.json()["error"] == "banned"
        assert admin(server, "ban", "--address", "127.0.4.7").returncode == 0
        with device(server, "127.0.4.7") as stranger:
            made = stranger.post("/api/tables", json={"game": "vatikanen", "seats": ["human"] * 2})
            assert made.status_code == 403
        assert admin(server, "close-table", table).returncode == 0
    log = admin(server, "log")
    assert log.returncode == 0
    for action in ("mute", "remove-chat", "ban", "close-table"):
        assert action in log.stdout
