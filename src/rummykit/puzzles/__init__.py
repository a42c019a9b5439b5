"""Puzzles from real positions: one seat's table and hand where the best play is not the
obvious one, made and checked by the exact solver.

>>> from rummykit.puzzles import check, shipped
>>> from rummykit.cards import Card
>>> puzzle = shipped()[0]
>>> verdict = check(puzzle, [Card.parse(c) for c in puzzle.solution_add])
>>> verdict.right, verdict.laid == puzzle.best
(True, True)

- :mod:`~rummykit.puzzles.model`: :class:`Puzzle` and its JSON line;
- :mod:`~rummykit.puzzles.analysis`: best answers, the obvious play, the ideas;
- :mod:`~rummykit.puzzles.maker`: puzzles from a seat's view, from records, from bots;
- :mod:`~rummykit.puzzles.checker`: a player's answer judged (:func:`check`);
- :mod:`~rummykit.puzzles.store`: puzzle files and the shipped set.

See ``docs/puzzles.md``.
"""

from rummykit.puzzles.checker import Verdict, check
from rummykit.puzzles.maker import bot_records, from_record, from_view
from rummykit.puzzles.model import Puzzle
from rummykit.puzzles.store import load, near, shipped, write

__all__ = [
    "Puzzle",
    "Verdict",
    "bot_records",
    "check",
    "from_record",
    "from_view",
    "load",
    "near",
    "shipped",
    "write",
]
