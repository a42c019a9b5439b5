"""A record, step by step, for the browser's replay viewer (``POST /api/replay``).

:func:`frames` replays a record (RECORD.md) through its game's engine once,
the way ``rummykit replay --show`` does, and answers the positions asked for:
the first deal as dealt, then one position per action, through every deal.
Each frame is the spectator's view without its log, plus the log entries
that position added, plus every seat's hand when the record is of a finished
game (RULES.md's invariants: a completed game's replay may show everything);
an unfinished record shows one seat's view instead, as that player saw the
game. A record with an illegal action is shown up to it, with the rule it
breaks.

The cost is one pass through the record (:meth:`GameSpec.from_record` with
a visitor) plus the positions sent: linear in the record, whatever its
size, and its memory is that of the positions sent. It runs in the records
worker (:mod:`rummykit.server.workers`), bounded in time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from rummykit import games
from rummykit.game import Game, fresh
from rummykit.i18n import language_from
from rummykit.narration import narrate_log
from rummykit.record import GameRecord, IllegalAction, RecordError, parse_record

__all__ = ["MAX_FRAMES", "frames", "replay_request"]

MAX_FRAMES = 20_000
"""The most positions a record may have."""


def frames(
    record: GameRecord,
    seat: int | None = None,
    start: int = 0,
    count: int = 60,
    lang: str = "en",
) -> dict[str, object]:
    """Positions ``start`` to ``start + count`` of ``record`` as the viewer shows them.

    The answer holds how many positions there are, the logs (``logs``: one
    per Vatikanen game, one for a Kontrakt game; with every hand shown, each entry
    as its seat saw it, the cards drawn said), the same in words (``log_texts``, in
    ``lang``) and, per frame, its deal,
    the actions done in that deal, the view without its log, the log it
    indexes (``log``) and how many of that log's entries are done
    (``log_size``), and every hand (``hands``) when every hand may be shown.
    ``seat``: whose view an unfinished record is shown from (default 0); a
    finished one shows every hand unless a seat is asked for. ValueError for
    no such seat or a record with no deal.
    """
    spec = games.get(record.game)
    n = len(record.players)
    if not record.deals:
        raise ValueError("the record holds no deal to show")
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat}: the seats are 0 to {n - 1}")
    total = sum(1 + len(d.actions) for d in record.deals)
    if total > MAX_FRAMES:
        raise ValueError(f"the record is longer than {MAX_FRAMES} positions")
    start, count = max(0, start), max(0, count)
    kept: list[tuple[int, int, int, Game]] = []  # deal, actions done, log, game
    ends: list[Game] = []  # the end of each log: one per Vatikanen game, one for Kontrakt
    pending: Game | None = None  # the last deal's end, whose log may still go on
    positions = 0
    last: list[Game] = []

    def visit(deal: int, done: int, game: Game) -> None:
        nonlocal positions, pending
        if done == 0 and pending is not None and game.log_size < pending.log_size:
            ends.append(pending)  # a new log began: the last one is whole
            pending = None
        if start <= positions < start + count:
            kept.append((deal, done, len(ends), game.copy()))
        positions += 1
        if done == len(record.deals[deal].actions):
            pending = game.copy()
        if not last:
            last.append(game)

    illegal: dict[str, object] | None = None
    try:
        spec.from_record(record, visit=visit)
    except IllegalAction as exc:
        illegal = {
            "deal": exc.deal,
            "action": exc.action,
            "rule": exc.rule,
            "message": exc.message,
        }
        if last:
            pending = last[0].copy()
    if pending is not None:
        ends.append(pending)
    end = last[0] if last else None
    finished = illegal is None and end is not None and end.over
    if seat is None and not finished:
        seat = 0
    logs = [_log(g, seat, n) for g in ends]
    out: list[dict[str, object]] = []
    for k, done, log_index, game in kept:
        # the view without its log: the log is sent once (``logs``), and a view with it
        # would cost the whole log again at every position sent
        view = game.view(seat, log=False) if seat is not None else game.spectator_view(log=False)
        frame: dict[str, object] = {
            "deal": k,
            "action": done,
            "view": dict(view),
            "log": log_index,
            "log_size": game.log_size,
        }
        if seat is None:
            places = game.card_places()
            deck = record.deals[k].deck
            frame["hands"] = [[str(deck[i]) for i in places[f"hand{s}"]] for s in range(n)]
        out.append(frame)
    return {
        "game": spec.name,
        "players": list(record.players),
        "seat": seat,
        "finished": finished,
        "illegal": illegal,
        "result": None if end is None or (r := end.result()) is None else r.to_json(),
        "positions": positions,
        "start": start,
        "logs": logs,
        "log_texts": [narrate_log(spec.name, log, record.players, lang) for log in logs],
        "frames": out,
    }


def _log(game: Game, seat: int | None, n: int) -> list[dict[str, object]]:
    """A game's log as ``seat`` saw it; with every hand shown (``seat`` None), each entry
    as its own seat saw it: the cards drawn from the stock are said too."""
    entries: list[dict[str, object]] = [dict(e) for e in fresh(game.log_entries(seat))]
    if seat is not None:
        return entries
    own = [game.log_entries(s) for s in range(n)]
    return [
        dict(fresh(own[who][i])) if isinstance(who := e.get("seat"), int) else e
        for i, e in enumerate(entries)
    ]


def replay_request(body: bytes | Mapping[str, object]) -> dict[str, object]:
    """``POST /api/replay`` in the records worker: the body (JSON: ``record``, ``seat``,
    ``start``, ``count``, ``lang``) read and answered, the logs told in ``lang``;
    ``{"error": message, "code": ...}`` when it is no request or no record (RECORD.md's
    messages)."""
    try:
        data = json.loads(body) if isinstance(body, bytes | bytearray) else body
    except (ValueError, RecursionError):
        return {"error": "the body is not JSON", "code": "bad_request"}
    if not isinstance(data, dict) or not isinstance(data.get("record"), dict):
        return {"error": "record: a record (docs/record.md) is required", "code": "bad_request"}
    unknown = set(data) - {"record", "seat", "start", "count", "lang"}
    if unknown:
        return {"error": f"{sorted(unknown)[0]}: not a field", "code": "bad_request"}
    seat, start, count = data.get("seat"), data.get("start", 0), data.get("count", 20)
    for name, value, low, high in (
        ("seat", seat, 0, 7),
        ("start", start, 0, MAX_FRAMES),
        ("count", count, 0, 200),
    ):
        if value is None and name == "seat":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            return {"error": f"{name}: a whole number from {low} to {high}", "code": "bad_request"}
    lang = data.get("lang", "en")
    language = language_from(lang[:35]) if isinstance(lang, str) else "en"
    try:
        return frames(parse_record(data["record"]), seat, start, count, language)
    except (RecordError, ValueError) as exc:
        return {"error": str(exc)}
