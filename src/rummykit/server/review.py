"""The review of a finished game on the server: ``GET /api/tables/{id}/review`` and
``POST /api/review`` (PROTOCOL.md, "Review of a finished game").

:func:`review_request` runs in the records worker, like the replay viewer's
:func:`~rummykit.server.replay.replay_request`: the request's body (or a
record's JSON) in, plain data out (the review, or ``{"error": ...}`` for what
cannot be reviewed), so that the event loop never reads a big body or waits
on the solver, and no review can hold up a table's bots. It is bounded as the replay is:
the body by the app's size limit, the work by the number of actions a record
may hold (:data:`MAX_ACTIONS`; a turn costs about a millisecond, see
``docs/benchmarks.md``) and by a time limit on the whole review
(:data:`MAX_SECONDS` of the worker's CPU).

"""

from __future__ import annotations

import json

from rummykit.record import GameRecord, IllegalAction, RecordError, parse_record
from rummykit.review import review

__all__ = ["MAX_ACTIONS", "MAX_SECONDS", "review_request"]

MAX_ACTIONS = 5_000
"""The most actions a record to review may hold (a Kontrakt game has some 700, a
Vatikanen game 40-150): a few seconds of a worker at most."""
MAX_SECONDS = 20.0
"""The most CPU seconds one review may take (checked after each deal; a whole Kontrakt
game takes well under one)."""


class _TooLong(Exception):
    pass


def _bounded(record: GameRecord) -> None:
    actions = sum(len(d.actions) for d in record.deals)
    if actions > MAX_ACTIONS:
        raise ValueError(f"the record holds {actions} actions: at most {MAX_ACTIONS} are reviewed")


def review_request(data: bytes | object, seat: int | None = None) -> dict[str, object]:
    """The review as PROTOCOL.md's document, for ``seat``'s turns only when given:
    ``data`` is a record (decoded JSON), or the body of ``POST /api/review`` (bytes:
    ``{"record": ..., "seat": ...}``). ``{"error": message}`` for what is no record, too
    long a record or no such seat, and with ``illegal`` (deal, action, rule) for a record
    with an illegal action."""
    if isinstance(data, bytes | bytearray):
        try:
            body = json.loads(data)
        except (ValueError, RecursionError):
            return {"error": "the body is not JSON", "code": "bad_request"}
        if not isinstance(body, dict) or set(body) - {"record", "seat"} or "record" not in body:
            return {"error": 'the body is {"record": {...}, "seat": N}', "code": "bad_request"}
        data, seat = body["record"], body.get("seat")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 7
        ):
            return {"error": "seat: a whole number from 0 to 7", "code": "bad_request"}
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
