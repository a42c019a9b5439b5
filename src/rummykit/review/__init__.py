"""Reviewing a finished game: what each seat did at each turn, and what it could have done.

>>> from rummykit import games
>>> game = games.get("vatikanen").new(["Anna", "Bo"], seed=7)
>>> for _ in range(4):  # each seat plays the help's best play, or draws
...     _ = game.apply(game.suggested_actions()[-1])
>>> result = review(game.to_record())
>>> [(t.seat, t.kind, t.played, t.best) for t in result.turns]
[(0, 'play', 3, 3), (1, 'play', 3, 3), (0, 'play', 3, 3), (1, 'draw', 0, 0)]
>>> result.players[0]
PlayerReview(seat=0, name='Anna', turns=2, best_turns=2, cards_missed=0, go_out_missed=0)
>>> result.turns[0].best_play["table"]
[['6c', '*:7c', '8c']]

:func:`review` walks a record (RECORD.md) through its game's engine, found by
name in the registry (:func:`rummykit.games.get`), and lets the game's reviewer
(``GameSpec.reviewer``) judge every turn from the view of the seat whose turn
it is, and nothing else: a seat's review holds nothing that seat could not see
then (RULES.md's invariants), by construction.

- :mod:`~rummykit.review.model`: the values and their JSON (PROTOCOL.md's
  "Review of a finished game");
- :mod:`~rummykit.review.walk`: walking a record deal by deal;
- :mod:`~rummykit.review.vatikanen` and :mod:`~rummykit.review.keeping`: the
  exact solver's best play, shown as a person can follow it;
- :mod:`~rummykit.review.kontrakt` and :mod:`~rummykit.review.laying`: the
  contract, lay-offs and going out in Kontraktsrummy;
- :mod:`~rummykit.review.text`: the review in words, in Swedish or English.

See ``docs/review.md``.
"""

from __future__ import annotations

import time
from typing import cast

from rummykit import games
from rummykit.record import GameRecord
from rummykit.review.model import PlayerReview, Review, TurnReview, summarize
from rummykit.review.walk import DealReviewer, deals

__all__ = ["PlayerReview", "Review", "TurnReview", "review"]


def review(record: GameRecord, seat: int | None = None, *, budget: float | None = None) -> Review:
    """The review of ``record``: every turn (of ``seat`` only, when given) and each seat's
    summary (only ``seat``'s, when given).

    Raises :class:`~rummykit.record.IllegalAction` at the record's first
    illegal action, :class:`~rummykit.record.RecordError` or ValueError for a
    record that cannot be played at all, ValueError for no such seat, and
    TimeoutError when ``budget`` (seconds of this process's CPU) runs out
    (checked after each deal).
    """
    started = time.process_time()
    spec = games.get(record.game)
    names = record.players
    if seat is not None and (isinstance(seat, bool) or not 0 <= seat < len(names)):
        raise ValueError(f"there is no seat {seat}: the seats are 0 to {len(names) - 1}")
    reviewer = cast(DealReviewer, spec.deal_reviewer())
    turns: list[TurnReview] = []
    for k, game, actions in deals(spec, record):
        turns += reviewer(game, k, actions, seat)
        if budget is not None and time.process_time() - started > budget:
            raise TimeoutError(f"the review took longer than {budget:g} s")
    players = summarize(names, turns)
    if seat is not None:
        players = [players[seat]]
    return Review(spec.name, tuple(players), tuple(turns), seat)
