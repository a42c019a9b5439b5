"""Slow and heavy connections (issue 40, item 5): a request head has a time limit, a size
limit and a count of fields; one address may hold only so many connections, HTTP and
WebSocket alike; the server raises its soft open-files limit to the hard one.

Real ``rummykit serve`` processes on loopback, raw sockets. Loopback is all of 127.0.0.0/8:
a client socket bound to 127.0.0.2 or 127.0.0.3 is another address of the same machine.
127.0.0.1 is a trusted front end by default (uvicorn's ``--forwarded-allow-ips``), so the
tests that need a direct client use the other addresses.
"""

from __future__ import annotations

import json
import re
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import Server, start

HEAD_TIMEOUT = 2
IDLE_TIMEOUT = 1
CAP = 6
KEY = "dGhlIHNhbXBsZSBub25jZQ=="


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with short timeouts and a small per-address cap, for fast tests."""
    folder = tmp_path_factory.mktemp("guarded")
    extra = (
        "--header-timeout",
        str(HEAD_TIMEOUT),
        "--idle-timeout",
        str(IDLE_TIMEOUT),
        "--connections-per-address",
        str(CAP),
    )
    running = start(f"sqlite:///{folder / 's.sqlite3'}", extra=extra)
    yield running
    running.stop()


def connect(server: Server, source: str) -> socket.socket:
    """A TCP connection to the server from ``source`` (an address of 127.0.0.0/8)."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", server.port))
    return sock


def read_all(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (or ``within`` seconds), and when."""
    start_at = time.monotonic()
    data = b""
    sock.settimeout(0.2)
    while time.monotonic() - start_at < within:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            return data, time.monotonic() - start_at
        data += chunk
    return data, time.monotonic() - start_at


def head(sock: socket.socket) -> bytes:
    """The answer's head (status line and fields)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def status(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    assert match, answer[:200]
    return int(match.group(1))


def get(server: Server, source: str, forwarded: str | None = None) -> bytes:
    """``GET /api/games`` from ``source``; the whole answer (the server closes after it)."""
    with connect(server, source) as sock:
        extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
        sock.sendall(
            f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n{extra}"
            "Connection: close\r\n\r\n".encode()
        )
        return read_all(sock, 10)[0]


def upgrade(server: Server, sock: socket.socket, table: str, forwarded: str | None) -> int:
    """Ask for a WebSocket to ``table`` on ``sock``: the answer's status (101: open)."""
    extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    sock.sendall(
        f"GET /api/tables/{table}/live HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n{extra}"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {KEY}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    return status(head(sock))


def table(server: Server) -> str:
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    assert isinstance(made, dict)
    return str(made["id"])


def rss_kib(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    assert match
    return int(match.group(1))


def test_a_slow_request_head_is_closed_within_the_header_timeout(guarded: Server) -> None:
    with connect(guarded, "127.0.0.2") as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nX-Slow: ")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < HEAD_TIMEOUT + 3:
            try:
                sock.sendall(b"a")  # a byte every 0.3 s: never idle, never done
            except OSError:
                closed = True
                break
            sock.settimeout(0.3)
            try:
                if sock.recv(65536) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        took = time.monotonic() - started
    assert closed, "a head sent a byte at a time was kept open"
    assert took < HEAD_TIMEOUT + 1.5


def test_a_silent_connection_is_closed_after_the_idle_time(guarded: Server) -> None:
    with connect(guarded, "127.0.0.2") as sock:
        answer, took = read_all(sock, IDLE_TIMEOUT + 4)
    assert took < IDLE_TIMEOUT + 1.5, "a connection that sent nothing was kept open"
    assert answer == b""


def test_a_megabyte_of_headers_is_refused_at_once_and_the_server_does_not_grow(
    guarded: Server,
) -> None:
    before = rss_kib(guarded.proc.pid)
    socks = [connect(guarded, "127.0.0.2") for _ in range(4)]
    started = time.monotonic()
    try:
        for sock in socks:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            sent = 0
            try:
                while sent < 1 << 20:  # one field of a MiB, never finished
                    sock.sendall(b"a" * 65536)
                    sent += 65536
            except OSError:
                pass  # refused and closed before the megabyte was through: fine
        answers = [read_all(sock, 5)[0] for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    took = time.monotonic() - started
    for answer in answers:
        assert status(answer) == 431
        body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert body["error"] == "headers_too_large" and body["message"]
    assert took < 5
    grown = rss_kib(guarded.proc.pid) - before
    assert grown < 16 * 1024, f"the server grew by {grown} KiB"


def test_a_head_of_more_than_a_hundred_fields_is_refused(guarded: Server) -> None:
    with connect(guarded, "127.0.0.2") as sock:
        fields = "".join(f"X-F{i}: v\r\n" for i in range(101))
        sock.sendall(
            f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\n{fields}\r\n".encode()
        )
        answer = read_all(sock, 5)[0]
    assert status(answer) == 431


def test_connections_past_the_per_address_cap_are_refused_and_another_address_is_served(
    guarded: Server,
) -> None:
    live_table = table(guarded)
    held = [connect(guarded, "127.0.0.3") for _ in range(CAP)]
    try:
        # WebSockets count: every one of the cap is open
        assert [upgrade(guarded, s, live_table, None) for s in held] == [101] * CAP
        refused = get(guarded, "127.0.0.3")
        assert status(refused) == 429
        body = json.loads(refused.split(b"\r\n\r\n", 1)[1])
        assert body["error"] == "too_many_connections" and body["message"]
        with connect(guarded, "127.0.0.3") as sock:
            assert upgrade(guarded, sock, live_table, None) == 429
        # the same machine through another address is served
        assert status(get(guarded, "127.0.0.2")) == 200
    finally:
        held.pop().close()
    time.sleep(0.3)  # the server sees the close
    try:
        assert status(get(guarded, "127.0.0.3")) == 200, "a closed connection's place is free"
    finally:
        for sock in held:
            sock.close()


def test_behind_a_front_end_the_cap_counts_forwarded_addresses(guarded: Server) -> None:
    live_table = table(guarded)
    socks = [connect(guarded, "127.0.0.1") for _ in range(CAP + 3)]
    try:
        # 127.0.0.1 is a trusted front end: its connections count for the clients it names
        many = [upgrade(guarded, s, live_table, f"198.51.100.{i}") for i, s in enumerate(socks)]
        assert many == [101] * (CAP + 3)
        one = [connect(guarded, "127.0.0.1") for _ in range(CAP + 1)]
        socks += one
        statuses = [upgrade(guarded, s, live_table, "203.0.113.9") for s in one]
        assert statuses == [101] * CAP + [429]
    finally:
        for sock in socks:
            sock.close()


def test_serve_raises_the_soft_open_files_limit_to_the_hard_one(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 512:
        pytest.skip("the hard open-files limit is too low to lower the soft one under it")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        server = start(f"sqlite:///{tmp_path / 's.sqlite3'}")  # inherits the soft 256
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        limits = Path(f"/proc/{server.proc.pid}/limits").read_text()
    finally:
        server.stop()
    line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
    served_soft, served_hard = line.split()[3:5]
    assert served_soft == served_hard, line
