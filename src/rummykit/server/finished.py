"""A table's finished games, kept as they ended (PROTOCOL.md, "Finished games of a table").

A game's record is written to the store once, when the game ends
(:func:`finished_game`, under the room's lock, right after the action that ended
it is committed), and never changed: the reading routes (``/record``,
``/review``, ``/games``) answer from that stored snapshot alone and never look at
the live table, so no ``next`` between their check and their answer can slip
the next game's cards into it.

A table stored before games were kept this way has its finished games rebuilt
once from its stored events (:func:`rebuild_finished`, in the records worker):
every event is replayed and each game's record taken as it stood when it ended.

For a Vatikanen session the record of game ``n`` is the session up to the end
of game ``n`` (RECORD.md): the deals of the units it goes on from, then its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rummykit.record import DealRecord
from rummykit.server.hosted import HostedTable, TableSettings
from rummykit.server.protocol import dumps
from rummykit.server.store import FinishedGame

__all__ = ["finished_game", "rebuild_finished"]


def finished_game(table: HostedTable, earlier: Sequence[DealRecord], ended: float) -> FinishedGame:
    """The finished game at ``table`` (its status ``over``) as it is kept: its number, when
    it ended, its result and its record after the ``earlier`` deals it goes on from."""
    assert table.status == "over", "the game is not over"
    record = table.record(earlier).to_json()
    result = record.get("result")
    return FinishedGame(
        table.games_played - 1, ended, None if result is None else dumps(result), dumps(record)
    )


def rebuild_finished(
    table_id: str, settings: str, events: Sequence[tuple[int, str, str, float]]
) -> list[FinishedGame]:
    """Every finished game of a table, from its settings (JSON text) and all its events
    (version, kind, data, when): each game's record as it stood when the game ended.
    Runs in the records worker (plain data in and out)."""
    table = HostedTable(table_id, TableSettings.from_json(json.loads(settings)), 0.0)
    out: list[FinishedGame] = []
    earlier: list[DealRecord] = []
    ended = 0.0
    for version, kind, text, created in events:
        data = json.loads(text)
        if kind == "next" and table.status == "over":
            game = finished_game(table, earlier, ended)
            out.append(game)
            carried = data.get("carried")
            # a Vatikanen session's next game goes on the same record; a new unit does not
            if isinstance(carried, dict) and carried:
                earlier = list(table.record(earlier).deals)
            else:
                earlier = []
        table.replay(version, kind, data)
        if kind == "action":
            ended = created
    if table.status == "over":
        out.append(finished_game(table, earlier, ended))
    return out
