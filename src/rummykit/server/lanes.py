"""Worker processes the event loop talks to over pipes: the server's play pool.

A *lane* is one worker process (``python -m rummykit.server.lanes``) and the two
pipes to it. A call is one frame each way — a 4-byte length and a pickle of
``(number, function, args)``, answered by ``(number, ok, result or exception)``
— written and read by the event loop itself (an asyncio protocol on the pipes):
no thread, no queue, no feeder. It costs the loop a fraction of what
``concurrent.futures.ProcessPoolExecutor`` does (measured: ``benchmarks/server.py``,
a bot's move), and a server sends one for every bot move.

Calls go to the lane with the fewest under way. A lane whose process dies fails
its calls (:class:`LaneLost`) and is started again on the next call. Each worker
dies with the server (``PR_SET_PDEATHSIG`` on Linux, and a watch on the parent's
pid), however the server ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import pickle
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar, cast

__all__ = ["LaneLost", "Lanes", "start_lane"]

P = ParamSpec("P")
R = TypeVar("R")

_HEAD = struct.Struct("!I")


class LaneLost(Exception):
    """The worker process died during the call."""


class _Lane(asyncio.SubprocessProtocol):
    """One worker process, the calls under way on it, and the frames coming back."""

    def __init__(self) -> None:
        self.transport: asyncio.SubprocessTransport | None = None
        self.pipe: asyncio.WriteTransport | None = None
        self.waiting: dict[int, asyncio.Future[object]] = {}
        self.buffer = bytearray()
        self.alive = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.SubprocessTransport, transport)
        self.pipe = cast(asyncio.WriteTransport, self.transport.get_pipe_transport(0))

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd != 1:
            return
        self.buffer += data
        while len(self.buffer) >= 4:
            (size,) = _HEAD.unpack_from(self.buffer)
            if len(self.buffer) < 4 + size:
                return
            frame = bytes(self.buffer[4 : 4 + size])
            del self.buffer[: 4 + size]
            number, ok, value = pickle.loads(frame)
            future = self.waiting.pop(number, None)
            if future is None or future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def process_exited(self) -> None:
        self._lost()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self._lost()

    def _lost(self) -> None:
        self.alive = False
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(LaneLost("the worker process ended"))
        self.waiting.clear()

    def send(self, number: int, payload: bytes) -> asyncio.Future[object]:
        assert self.pipe is not None
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self.waiting[number] = future
        self.pipe.write(_HEAD.pack(len(payload)) + payload)
        return future

    def kill(self) -> None:
        self.alive = False
        if self.transport is not None:
            with contextlib.suppress(Exception):
                self.transport.kill()
            self.transport.close()


class Lanes:
    """``count`` worker processes, started on first use (see the module docstring), at
    ``nice`` (a lower priority than the server's own for work no one waits on at once)."""

    def __init__(self, count: int, *, nice: int = 0) -> None:
        self.count = max(1, count)
        self.nice = nice
        self._lanes: list[_Lane] = []
        self._number = 0
        self._starting: asyncio.Lock | None = None

    async def _lane(self) -> _Lane:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            self._lanes = [lane for lane in self._lanes if lane.alive]
            while len(self._lanes) < self.count:
                self._lanes.append(await self._spawn())
        return min(self._lanes, key=lambda lane: len(lane.waiting))

    async def _spawn(self) -> _Lane:
        return await start_lane(self.nice)

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args, **kwargs)`` in a worker process: its result, or the exception it
        raised; LaneLost if the worker died."""
        lane = await self._lane()
        self._number += 1
        payload = pickle.dumps((self._number, fn, args, kwargs), pickle.HIGHEST_PROTOCOL)
        return cast(R, await lane.send(self._number, payload))

    def shutdown(self) -> None:
        """Kill the workers now."""
        for lane in self._lanes:
            lane.kill()
        self._lanes = []


async def start_lane(nice: int = 0) -> _Lane:
    """A new worker process and its pipes (its ``send``, ``kill``, ``alive`` and
    ``transport.get_pid()`` are what a caller uses), its priority lowered by ``nice``."""
    loop = asyncio.get_running_loop()
    _, lane = await loop.subprocess_exec(
        _Lane,
        sys.executable,
        "-m",
        "rummykit.server.lanes",
        str(os.getpid()),
        str(nice),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=None,
    )
    return lane


def die_with_parent(parent: int) -> None:
    """A worker's initializer: end when the server process ends, however it ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent went before the line above took effect
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="rummykit-parent-watch", daemon=True).start()


def _serve(parent: int, nice: int = 0) -> None:
    """A worker's life: read a call, make it, write its answer, until the pipe closes."""
    die_with_parent(parent)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    read, write = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing a call prints may reach the pipe
    while True:
        head = read.read(4)
        if len(head) < 4:
            return
        (size,) = _HEAD.unpack(head)
        number, fn, args, kwargs = pickle.loads(read.read(size))
        try:
            answer = (number, True, fn(*args, **kwargs))
        except Exception as exc:
            answer = (number, False, exc)
        try:
            payload = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer that does not pickle
            payload = pickle.dumps((number, False, RuntimeError(repr(exc))))
        write.write(_HEAD.pack(len(payload)) + payload)
        write.flush()


if __name__ == "__main__":
    _serve(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0)
