"""What the puzzle tools need of a game's puzzles, found through the game's spec (its
``puzzles`` hook), so that the commands and the store name no game: the file of its
shipped set, how a puzzle is read back, and how puzzles are made from records and from
bots' games."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from rummykit import games

if TYPE_CHECKING:
    from rummykit.puzzles.kontrakt import KontraktPuzzle
    from rummykit.puzzles.model import Puzzle
    from rummykit.record import GameRecord

__all__ = ["PuzzleKind", "kind_of"]


@dataclass(frozen=True)
class PuzzleKind:
    """One game's puzzles: ``shipped`` (a file of the package's ``data`` folder),
    ``from_json`` (a puzzle's line read back), ``from_record(record, source=...)`` (the
    puzzles of a finished game) and ``bot_records(n, seed=...)`` (finished bots' games to
    make them from)."""

    shipped: str
    from_json: Callable[[Mapping[str, object]], Puzzle | KontraktPuzzle]
    from_record: Callable[..., Iterator[Puzzle | KontraktPuzzle]]
    bot_records: Callable[..., Iterator[GameRecord]]


def kind_of(game: str) -> PuzzleKind:
    """The puzzles of ``game``; ValueError for a game without puzzles (or none at all)."""
    spec = games.get(game)
    make = spec.hook("puzzles")
    if make is None:
        raise ValueError(f"{spec.title} has no puzzles")
    return cast(Callable[[], PuzzleKind], make)()
