"""Records anyone posts, as the records workers read and answer them (``POST /api/replay``,
``POST /api/review``, ``GET /api/tables/{id}/review``).

A posted record gets the limits a table's own record has (:func:`check_posted`): player
names as at a table (1 to 40 printable characters), the game's number of players, at
most :data:`MAX_DEALS` deals, before anything is replayed, since a name is repeated in
every log line an answer tells. Every answer is encoded in the worker (:func:`encoded`,
orjson bytes), never on the event loop, and is at most :data:`MAX_ANSWER` bytes: a
larger one is refused (``413 too_large``) rather than sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import orjson

from rummykit import games
from rummykit.server.limits import Limits
from rummykit.server.replay import replay_request
from rummykit.server.review import review_request

__all__ = ["MAX_ANSWER", "MAX_DEALS", "check_posted", "encoded", "replay_job", "review_job"]

MAX_ANSWER = 8 << 20
"""The most bytes one answer of the records workers may hold (a replay of 200 positions of
the longest record allowed is some 2 MB)."""
MAX_DEALS = 500
"""The most deals a posted record may hold (a Kontrakt game has seven; a Vatikanen session
one per game)."""

Answer = tuple[int, bytes]
"""An HTTP status and its JSON body, as the records worker sends it back."""


def check_posted(record: object, limits: Limits) -> str | None:
    """What makes a posted record one no table could have written (a message), or None.
    Only the shape the tables bound is checked here; the record's reader checks the rest."""
    if not isinstance(record, dict):
        return None  # the reader says what is wrong
    players = record.get("players")
    if isinstance(players, list):
        most = max(games.get(name).max_players for name in games.names())
        if len(players) > most:
            return f"players: at most {most}"
        for seat, name in enumerate(players):
            if isinstance(name, str) and (
                not name or len(name) > limits.max_name or not name.isprintable()
            ):
                return (
                    f"players: seat {seat}'s name is not 1 to {limits.max_name}"
                    " printable characters, as a name at a table is"
                )
    deals = record.get("deals")
    if isinstance(deals, list) and len(deals) > MAX_DEALS:
        return f"deals: at most {MAX_DEALS}"
    return None


def encoded(answer: Mapping[str, object], code: str = "bad_record") -> Answer:
    """``answer`` (a document, or ``{"error": message, "code": ...}``) as status and JSON
    bytes; ``413 too_large`` instead of a document over :data:`MAX_ANSWER` bytes."""
    if "error" in answer:
        error = {"error": str(answer.get("code", code)), "message": str(answer["error"])}
        return 400, orjson.dumps(error)
    try:
        body = orjson.dumps(answer)
    except TypeError:  # what orjson does not take (an integer past 64 bits)
        body = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
    if len(body) > MAX_ANSWER:
        message = f"the answer would be over {MAX_ANSWER >> 20} MiB: ask for fewer positions"
        return 413, orjson.dumps({"error": "too_large", "message": message})
    return 200, body


def _decoded(body: bytes) -> dict[str, object] | Answer:
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return encoded({"error": "the body is not JSON", "code": "bad_request"})
    if not isinstance(data, dict):
        return encoded({"error": "the body is a JSON object", "code": "bad_request"})
    return data


def replay_job(body: bytes, limits: Limits) -> Answer:
    """``POST /api/replay`` in a records worker: read, checked, replayed, encoded."""
    data = _decoded(body)
    if isinstance(data, tuple):
        return data
    problem = check_posted(data.get("record"), limits)
    if problem is not None:
        return encoded({"error": problem})
    return encoded(replay_request(data))


def review_job(
    body: bytes | Mapping[str, object], limits: Limits, seat: int | None = None
) -> Answer:
    """``POST /api/review`` (``body`` bytes) or a table's own record (a mapping, with
    ``seat``) in a records worker: read, checked, reviewed, encoded."""
    if isinstance(body, bytes | bytearray):
        data = _decoded(body)
        if isinstance(data, tuple):
            return data
        problem = check_posted(data.get("record"), limits)
        if problem is not None:
            return encoded({"error": problem})
        return encoded(review_request(bytes(body)))
    return encoded(review_request(dict(body), seat), "bad_request")
