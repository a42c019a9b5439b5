"""A Vatikanen session written as a RECORD.md record (reading one back is :mod:`.records`).

Apart from the reader so that the engine (:mod:`.game`, :mod:`.session`) can write
its own record without importing the reader, which builds engines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rummykit.game import places, result_scores
from rummykit.games.spec import OptionValue
from rummykit.games.vatikanen.events import number
from rummykit.games.vatikanen.options import HOUSE_RULES
from rummykit.record import DealRecord, GameRecord

__all__ = ["DEFAULT_OPTIONS", "session_places", "session_record"]

DEFAULT_OPTIONS: dict[str, OptionValue] = {r.name: r.default for r in HOUSE_RULES}
"""Each house rule's default: a record lists only the rules a session changed."""


def session_record(
    players: Sequence[str],
    deals: Sequence[DealRecord],
    balances: Sequence[Fraction],
    options: Mapping[str, bool],
) -> GameRecord:
    """A session's games as one record: a deal per game, the balances as the result."""
    changed = {k: v for k, v in options.items() if DEFAULT_OPTIONS.get(k) != v}
    return GameRecord(
        game="vatikanen",
        players=tuple(players),
        deals=tuple(deals),
        options=changed,
        result={"scores": [number(b) for b in balances]},
    )


def session_places(result: Mapping[str, object], players: int) -> tuple[int, ...]:
    """Each seat's place in a finished session (one rated game however many games it
    held): by the session's balances (V16), the ``scores`` of the result its record
    ends with, higher is better; equal balances share a place.

    >>> session_places({"scores": [-23, 46, -23]}, 3)
    (2, 1, 2)
    """
    return places(result_scores(result, players), higher_is_better=True)
