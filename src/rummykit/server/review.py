"""The review of a finished game on the server: ``GET /api/tables/{id}/review`` and
``POST /api/review`` (PROTOCOL.md, "Review of a finished game").

:func:`review_request` runs in a worker of the hub's pool, like the replay
viewer's :func:`~rummykit.server.replay.replay_request`: decoded JSON in, plain
data out (the review, or ``{"error": ...}`` for what cannot be reviewed), so
that the event loop never waits on the solver. It is bounded as the replay is:
the body by the app's size limit, the work by the number of actions a record
may hold (:data:`MAX_ACTIONS`; a turn costs about a millisecond, see
``docs/benchmarks.md``) and by a time limit on the whole review
(:data:`MAX_SECONDS` of the worker's CPU).

:func:`in_worker` hands a call to the hub's pool; the app's two endpoints are
wired with it (``rummykit.server.app``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from rummykit.record import GameRecord, IllegalAction, RecordError, parse_record
from rummykit.review import review

if TYPE_CHECKING:
    from rummykit.server.hub import Hub

__all__ = ["MAX_ACTIONS", "MAX_SECONDS", "in_worker", "review_request"]

MAX_ACTIONS = 5_000
"""The most actions a record to review may hold (a Kontrakt game has some 700, a
Vatikanen game 40-150): a few seconds of a worker at most."""
MAX_SECONDS = 20.0
"""The most CPU seconds one review may take (checked after each deal; a whole Kontrakt
game takes well under one)."""

T = TypeVar("T")


class _TooLong(Exception):
    pass


def _bounded(record: GameRecord) -> None:
    actions = sum(len(d.actions) for d in record.deals)
    if actions > MAX_ACTIONS:
        raise ValueError(f"the record holds {actions} actions: at most {MAX_ACTIONS} are reviewed")


def review_request(data: object, seat: int | None = None) -> dict[str, object]:
    """The review of the record ``data`` (decoded JSON) as PROTOCOL.md's document, for
    ``seat``'s turns only when given; ``{"error": message}`` for what is no record, too
    long a record or no such seat, and with ``illegal`` (deal, action, rule) for a record
    with an illegal action."""
    try:
        record = parse_record(data)
        _bounded(record)
        result = review(record, seat, budget=MAX_SECONDS)
    except IllegalAction as exc:
        where = {"deal": exc.deal, "action": exc.action, "rule": exc.rule, "message": exc.message}
        text = f"deal {exc.deal + 1}, action {exc.action + 1} breaks {exc.rule}: {exc.message}"
        return {"error": text, "illegal": where}
    except (RecordError, ValueError, TimeoutError) as exc:
        return {"error": str(exc)}
    return result.to_json()


async def in_worker(hub: Hub, function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` in the hub's worker pool (where bots think and records are
    replayed), off the event loop."""
    loop = asyncio.get_running_loop()
    pool = hub._pool  # the hub's executor; the hub is being rewritten and will wire this
    return await loop.run_in_executor(pool, function, *args)
