"""A real ``rummykit serve`` on loopback for the server tests, and what they share."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from protocol_client import HttpError, request

RUMMYKIT = str(Path(sys.executable).with_name("rummykit"))


def free_port() -> int:
    """A TCP port nobody listens on, on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A server process: its addresses, its database, its process."""

    db: str
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def get(self, path: str) -> object:
        return request(self.base, "GET", path)

    def post(self, path: str, body: object) -> object:
        return request(self.base, "POST", path, body)

    def kill(self) -> None:
        """SIGKILL: no chance to clean up."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)


def start(
    db: str,
    *,
    bot_delay: float = 0.0,
    port: int | None = None,
    workers: int = 1,
    extra: tuple[str, ...] = (),
) -> Server:
    """Start ``rummykit serve`` and wait until it answers."""
    port = port or free_port()
    cmd = [RUMMYKIT, "serve", "--port", str(port), "--db", db, "--bot-delay", str(bot_delay)]
    cmd += ["--workers", str(workers), "--tables-per-hour", "100000", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = Server(db, port, proc)
    deadline = time.monotonic() + 60
    while True:
        try:
            server.get("/api/tables")
            return server
        except (OSError, HttpError):
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the server did not start: {err}") from None
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the server did not answer in 60 s") from None
            time.sleep(0.1)


def postgres_url() -> str | None:
    """The test database from RUMMYKIT_TEST_POSTGRES (.ci/run sets it); None locally if unset.

    In CI (RUMMYKIT_CI=1) a missing database fails the test rather than skipping it.
    """
    url = os.environ.get("RUMMYKIT_TEST_POSTGRES")
    if url:
        return url
    if os.environ.get("RUMMYKIT_CI"):
        pytest.fail("RUMMYKIT_TEST_POSTGRES is not set: .ci/run starts PostgreSQL and sets it")
    pytest.skip("no PostgreSQL: set RUMMYKIT_TEST_POSTGRES=postgresql://... to run this test")
    return None
