"""What server processes sharing one database tell each other, as typed messages.

A table is served by one process at a time: the one holding its lock in the
store (:meth:`rummykit.server.store.Store.claim`). Clients reach that
process through a router by table id (docs/hosting.md); when one reaches
another process anyway (the router's map changed: a process came back, or
one was added), that process asks the server of the table to let it go
(:class:`LetGo`), and takes it once it is free. A table that was taken less
than :data:`HOLD` seconds ago is not let go again, so that two processes
that clients reach without a router cannot pass a table back and forth.

Each message is JSON with a ``kind``; :func:`encode` and :func:`decode` are
its codec, and nothing else reads or writes the payloads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = ["HOLD", "LetGo", "Notice", "decode", "encode"]

HOLD = 10.0
"""Seconds a process keeps a table it has just taken, whoever asks for it."""


@dataclass(frozen=True, slots=True)
class LetGo:
    """``asker`` (a process) would serve ``table``: its server should let it go."""

    table: str
    asker: str


Notice = LetGo
"""Every message one process sends the others."""


def encode(notice: Notice) -> str:
    """The payload of a notice.

    >>> encode(LetGo("t1", "p2"))
    '{"kind":"let_go","table":"t1","asker":"p2"}'
    """
    return json.dumps(
        {"kind": "let_go", "table": notice.table, "asker": notice.asker}, separators=(",", ":")
    )


def decode(payload: str) -> Notice:
    """The notice in a payload; ValueError if it is none.

    >>> decode('{"kind":"let_go","table":"t1","asker":"p2"}')
    LetGo(table='t1', asker='p2')
    >>> decode('e:t1:3')
    Traceback (most recent call last):
    ...
    ValueError: not a notice: 'e:t1:3'
    """
    try:
        data = json.loads(payload)
    except ValueError:
        raise ValueError(f"not a notice: {payload[:40]!r}") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a notice: {payload[:40]!r}")
    if data.get("kind") == "let_go":
        table, asker = data.get("table"), data.get("asker")
        if isinstance(table, str) and isinstance(asker, str):
            return LetGo(table, asker)
    raise ValueError(f"not a notice: {payload[:40]!r}")
