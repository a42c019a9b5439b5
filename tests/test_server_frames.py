"""Every bad frame a client sends gets an ``error`` or a close with a code and a reason
(docs/protocol.md), never a dropped connection (1006) or silence: against a real
``rummykit serve`` on loopback, with the ``websockets`` client.

A client that floods is closed 4429 after its rate limit, one that never reads its
messages 4413; each with a reason. The table a client that never reads watches has a
long chat (stored before the server starts), so that each ``hello`` owes it a big frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from rummykit.server.fanout import Conn
from rummykit.server.limits import Limits
from rummykit.server.protocol import Close
from rummykit.server.store import ChatRow, open_store
from server_helpers import Server, start
from web_helpers import seeded_tables

HELLO = json.dumps({"type": "hello", "token": None, "version": None})
CHATTY = "chatty-table"
"""A stored table with 50 chat messages of 300 characters: a hello is owed 17 KB."""


@pytest.fixture(scope="module")
def frames_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the file, its database holding the chatty table."""
    db = f"sqlite:///{tmp_path_factory.mktemp('frames') / 's.sqlite3'}"
    seeded_tables(db, [(CHATTY, "vatikanen", ["human", "human"], 1)])

    async def chat() -> None:
        store = open_store(db)
        await store.open()
        for n in range(1, 51):
            await store.add_chat(CHATTY, n, ChatRow(None, None, "x" * 300, time.time()), 200)
        await store.close()

    asyncio.run(chat())
    running = start(db)
    yield running
    running.stop()


@contextlib.contextmanager
def watching(
    server: Server, table_id: str | None = None, **options: Any
) -> Iterator[ClientConnection]:
    """A spectator's connection that has said hello and read its state and chat."""
    if table_id is None:
        made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
        assert isinstance(made, dict)
        table_id = made["id"]
    url = f"{server.ws}/api/tables/{table_id}/live"
    with connect(url, open_timeout=10, max_size=None, **options) as ws:
        ws.send(HELLO)
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        assert json.loads(ws.recv(timeout=10))["type"] == "chat_history"
        yield ws


def messages(ws: ClientConnection, seconds: float = 15) -> Iterator[dict[str, Any]]:
    """The messages that come, until the connection closes (ConnectionClosed); a test
    failure if it is still open after ``seconds`` (the server's pings keep a quiet
    connection talking)."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        with contextlib.suppress(TimeoutError):
            yield json.loads(ws.recv(timeout=left))
    pytest.fail(f"the connection is still open after {seconds} s")


def answer_to(ws: ClientConnection) -> dict[str, Any] | tuple[int, str]:
    """The ``error`` the last frame got, or the close (code, reason) it got."""
    try:
        for message in messages(ws):
            if message["type"] == "error":
                return message
            assert message["type"] in ("ping", "state"), message
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, f"closed with no code or reason: {exc}"
        return exc.rcvd.code, exc.rcvd.reason
    raise AssertionError("unreachable")


BAD_FRAMES: dict[str, tuple[str | bytes, bool | None]] = {
    "a number too big for a float": ('{"type": "ping", "ref": 1e999999}', None),
    "a 5,000-digit number": ('{"type": "action", "version": ' + "9" * 5000 + "}", None),
    "10,000 arrays deep": (
        '{"type": "action", "version": 0, "action": ' + "[" * 10_000 + "]" * 10_000 + "}",
        None,
    ),
    "10,000 brackets, never closed": ("[" * 10_000, None),
    "a binary frame": (b'{"type": "ping"}', None),
    "a text frame that is not UTF-8": (b'{"type": "ping", "ref": "\xff\xfe"}', True),
    "a frame over 64 KiB": (json.dumps({"type": "chat", "text": "x" * 70_000}), None),
    "NaN": ('{"type": "action", "version": NaN}', None),
}


@pytest.mark.parametrize("name", list(BAD_FRAMES))
def test_a_bad_frame_gets_an_error_or_a_coded_close_with_a_reason(
    frames_server: Server, name: str
) -> None:
    frame, text = BAD_FRAMES[name]
    with watching(frames_server) as ws:
        ws.send(frame, text=text)
        answer = answer_to(ws)
        if isinstance(answer, dict):
            assert answer["code"] == "bad_message" and answer["message"], answer
            ws.send(json.dumps({"type": "ping", "ref": "after"}))  # the connection is still on
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "ref": "after"}
        else:
            code, reason = answer
            assert code in (1007, 1009), answer  # RFC 6455: not UTF-8; too big
            assert reason, f"{name}: closed {code} without a reason"


def test_a_frame_over_1_mib_is_closed_1009_with_its_reason_and_never_reset(
    frames_server: Server,
) -> None:
    """Past the web server's frame limit (1 MiB) the connection is failed (1009) while the
    client is still sending: the close must reach it all the same, every time."""
    frame = json.dumps({"type": "chat", "text": "x" * (8 << 20)})
    for _ in range(10):
        with watching(frames_server) as ws:
            with contextlib.suppress(ConnectionClosed):  # closed while it sends: and then?
                ws.send(frame)
            answer = answer_to(ws)
            assert isinstance(answer, tuple) and answer[0] == 1009 and answer[1], answer


def test_a_flood_of_a_thousand_messages_is_answered_then_closed_4429_with_a_reason(
    frames_server: Server,
) -> None:
    heard: dict[str, int] = {}
    with watching(frames_server) as ws:
        for n in range(1000):
            try:
                ws.send(json.dumps({"type": "ping", "ref": n}))
            except ConnectionClosed:
                break
        with pytest.raises(ConnectionClosed) as closed:
            for message in messages(ws):
                kind = message.get("code") or message["type"]
                heard[kind] = heard.get(kind, 0) + 1
    assert closed.value.rcvd is not None, f"dropped without a close: heard {heard}"
    assert closed.value.rcvd.code == 4429 and closed.value.rcvd.reason
    # the burst is served, then each message past the rate is refused in words, until the
    # client is seen not to slow down
    assert heard.get("pong", 0) >= 20 and heard.get("rate_limited", 0) >= 100, heard
    assert set(heard) <= {"pong", "rate_limited", "ping"}, heard


def test_a_client_that_never_reads_is_closed_4413_with_a_reason(frames_server: Server) -> None:
    """The client asks for the whole state again and again (as fast as the rate allows),
    and reads nothing: the server does not queue for it without end. (The client's socket
    takes 64 KiB: on loopback the kernel would otherwise take up to tcp_rmem's 32 MiB for
    it before the server sees the client is not reading.)"""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
    sock.connect(("127.0.0.1", frames_server.port))
    with watching(frames_server, CHATTY, max_queue=1, sock=sock) as ws:  # it stops reading
        start = time.monotonic()
        for _ in range(55):  # the burst a connection may send at once
            ws.send(HELLO)
        while time.monotonic() - start < 5:
            ws.send(HELLO)
            time.sleep(1 / 28)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in messages(ws):  # now it reads what it was sent before the server gave up
                pass
    assert closed.value.rcvd is not None, "dropped without a close"
    assert closed.value.rcvd.code == 4413 and closed.value.rcvd.reason


class _StalledLink:
    """A socket whose transport is full: a send waits until the test lets it finish."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.full: asyncio.Future[None] | None = None

    async def send(self, text: str) -> None:
        self.sent.append(text)
        self.full = asyncio.get_running_loop().create_future()
        await self.full

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_a_client_that_does_not_read_a_few_large_frames_is_closed_4413_too() -> None:
    """The queue of a client that does not read is bounded in characters as well as frames:
    a few large states (a whole view, a chat history) cannot hold more memory than the
    frame bound allows small ones."""

    async def run() -> tuple[_StalledLink, int]:
        link = _StalledLink()
        limits = Limits(outbox=256, outbox_bytes=100_000)
        conn = Conn(link, 0, limits)
        conn.put("first")  # taken by the socket, which then stalls
        frames = 0
        while not conn.closed:
            conn.put("x" * 30_000)
            frames += 1
        assert link.full is not None
        link.full.set_result(None)  # the client reads the frame it was being sent, at last
        await asyncio.sleep(0.05)
        return link, frames

    link, frames = asyncio.run(run())
    assert frames == 4  # three queued (90,000 characters); the fourth would pass 100,000
    assert link.sent == ["first"]  # what was queued is dropped, not sent
    assert link.closed is not None and link.closed[0] == Close.TOO_SLOW and link.closed[1]
