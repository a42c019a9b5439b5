"""A record, step by step, for the browser's replay viewer (``POST /api/replay``).

:func:`frames` replays a record (RECORD.md) through its game's engine, the way
``rummykit replay --show`` does, and answers every position: the first deal as
dealt, then one position per action, through every deal. Each frame is the
spectator's view without its log, plus the log entries that position added,
plus every seat's hand when the record is of a finished game (RULES.md's
invariants: a completed game's replay may show everything); an unfinished
record shows one seat's view instead, as that player saw the game. A record
with an illegal action is shown up to it, with the rule it breaks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rummykit import games
from rummykit.game import Game, fresh
from rummykit.narration import narrate_log
from rummykit.record import GameRecord, IllegalAction, RecordError, parse_record

__all__ = ["MAX_FRAMES", "frames", "replay_request"]

MAX_FRAMES = 20_000
"""The most positions one answer holds."""


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
    positions: list[tuple[int, int, int, Game]] = []  # deal, actions done, log, game
    ends: list[Game] = []  # the last position of each log
    illegal: dict[str, object] | None = None
    for k, deal in enumerate(record.deals):
        head = (*record.deals[:k], replace(deal, actions=()))
        try:
            game = spec.from_record(replace(record, deals=head, result=None))
        except IllegalAction as exc:
            illegal = _illegal(exc.deal, exc.action, exc.rule, exc.message)
            break
        if not ends or ends[-1].can_next_part():  # a part started by next_part: its own log
            ends.append(game)
        positions.append((k, 0, len(ends) - 1, game))
        for j, raw in enumerate(deal.actions):
            if len(positions) >= MAX_FRAMES:
                raise ValueError(f"the record is longer than {MAX_FRAMES} positions")
            game = game.copy()
            try:
                game.apply(spec.action_from_json(raw))
            except ValueError as exc:  # RuleError, ActionError
                rule = getattr(exc, "rule", spec.turn_rule)
                illegal = _illegal(k, j, rule, getattr(exc, "message", str(exc)))
                break
            positions.append((k, j + 1, len(ends) - 1, game))
        ends[-1] = positions[-1][3]
        if illegal is not None:
            break
    last = positions[-1][3] if positions else None
    finished = illegal is None and last is not None and last.over
    if seat is None and not finished:
        seat = 0
    logs = [_log(g, seat, n) for g in ends]
    out: list[dict[str, object]] = []
    for k, done, log, game in positions[max(0, start) : max(0, start) + max(0, count)]:
        view = dict(game.view(seat) if seat is not None else game.spectator_view())
        entries = view.pop("log")
        assert isinstance(entries, list)
        frame: dict[str, object] = {
            "deal": k,
            "action": done,
            "view": view,
            "log": log,
            "log_size": len(entries),
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
        "result": None if last is None or (r := last.result()) is None else r.to_json(),
        "positions": len(positions),
        "start": start,
        "logs": logs,
        "log_texts": [narrate_log(spec.name, log, record.players, lang) for log in logs],
        "frames": out,
    }


def _log(game: Game, seat: int | None, n: int) -> list[dict[str, Any]]:
    """A game's log as ``seat`` saw it; with every hand shown (``seat`` None), each entry
    as its own seat saw it: the cards drawn from the stock are said too."""
    entries: list[dict[str, Any]] = [dict(e) for e in fresh(game.log_entries(seat))]
    if seat is not None:
        return entries
    own = [game.log_entries(s) for s in range(n)]
    return [
        dict(fresh(own[who][i])) if isinstance(who := e.get("seat"), int) else e
        for i, e in enumerate(entries)
    ]


def _illegal(deal: int, action: int, rule: str | None, message: str) -> dict[str, object]:
    return {"deal": deal, "action": action, "rule": rule, "message": message}


def replay_request(
    data: object, seat: int | None, start: int, count: int, lang: str = "en"
) -> dict[str, object]:
    """``POST /api/replay`` in a worker: the frames of the record ``data`` (decoded JSON), the
    logs told in ``lang``, or ``{"error": message}`` when it is no record (RECORD.md's
    messages)."""
    try:
        return frames(parse_record(data), seat, start, count, lang)
    except (RecordError, ValueError) as exc:
        return {"error": str(exc)}
