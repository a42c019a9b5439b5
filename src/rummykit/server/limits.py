"""Every bound the server keeps: a public server is reachable by anyone, so nothing a client
sends, and nothing that grows with use, goes without one (PROTOCOL.md, "Limits").

:class:`Limits` holds them in one place, with the reason for each; the token bucket
:class:`Bucket` is the one rate limiter every per-client limit uses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["Bucket", "Limits"]


@dataclass(frozen=True)
class Limits:
    """The server's limits (PROTOCOL.md and what rummykit adds)."""

    max_message: int = 64 * 1024
    """Bytes in one WebSocket message or HTTP body (PROTOCOL.md)."""
    max_record: int = 4 << 20
    """Bytes in a record sent to ``POST /api/replay`` or ``POST /api/review``."""
    max_depth: int = 32
    """Nesting of JSON arrays and objects in one message: no action needs more than four."""
    max_name: int = 40
    """Characters in a player's name."""
    rate: float = 30.0
    """Messages a second a connection may send in the long run (at least 20, PROTOCOL.md)."""
    burst: float = 60.0
    """Messages a connection may send at once."""
    flood: int = 200
    """Messages refused for the rate in a row before the connection is closed (4429): past
    this a client is not slowing down, and answering each would only grow its queue."""
    outbox: int = 256
    """Frames queued for a connection that does not read; one more closes it (4413)."""
    outbox_bytes: int = 1 << 20
    """Characters queued for a connection that does not read (whatever the frames' count);
    past this it is closed (4413): a few large states must not hold more memory than many
    small ones may."""
    seats_per_table: int = 8
    """Connections of one seat at a table (a player's tabs and devices)."""
    spectators_per_table: int = 32
    """Spectators at one table; one more is refused (4429). Seats are counted apart: a
    seat's player, with its token, always gets in."""
    close_wait: float = 10.0
    """Seconds a connection the server closes waits for its close (code and reason) to be
    sent, for a client that has stopped reading."""
    hello_timeout: float = 20.0
    """Seconds a new connection may take to say hello (4408)."""
    ping_after: float = 5.0
    """Seconds of silence on a connection before the server sends a ``ping``."""
    chat_text: int = 300
    """Characters in a chat message (PROTOCOL.md, Chat)."""
    chat_burst: float = 5.0
    """Chat messages a connection may send at once (PROTOCOL.md, Chat)."""
    chat_rate: float = 1.0
    """Chat messages a second a connection may send in the long run (PROTOCOL.md, Chat)."""
    chat_history: int = 50
    """Chat messages sent after a hello (PROTOCOL.md, Chat)."""
    chat_kept: int = 200
    """Chat messages a table keeps; older ones are deleted."""
    tables_per_hour: int = 20
    """Tables one client address may make in an hour, and at once (``POST /api/tables``:
    429 past it; ``rummykit serve --tables-per-hour``)."""
    clients_tracked: int = 10_000
    """Client addresses whose table budget is remembered (the least recent are forgotten)."""
    abandoned_after: float = 86_400.0
    """Seconds after which a table nobody has joined (still waiting) is removed."""
    idle_after: float = 60.0
    """Seconds a table with no connection and nothing due stays in memory."""
    page: int = 100
    """Summaries in one answer of ``GET /api/tables`` (PROTOCOL.md)."""
    replay_seconds: float = 20.0
    """CPU seconds one replay or review may take in its worker before it is stopped."""
    max_clock: int = 604_800
    """The longest turn clock and grace: seven days (PROTOCOL.md, "Slow games")."""


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second in the long run, ``burst`` at once.

    >>> b = Bucket(rate=1.0, burst=2.0)
    >>> b.take(now=0.0), b.take(now=0.0), b.take(now=0.0), b.take(now=1.0)
    (True, True, False, True)
    """

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float | None = None) -> bool:
        """True if one more may be taken now (and take it)."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
