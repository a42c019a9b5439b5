"""Puzzle files: JSON lines, gzip-compressed when the name ends in ``.gz``.

The shipped set is ``rummykit/puzzles/data/vatikanen.jsonl.gz`` in the
package (``docs/puzzles.md``): :func:`shipped` reads it once. :func:`near`
picks a puzzle close to a rating, as a puzzle site gives a player puzzles
near their own rating.
"""

from __future__ import annotations

import functools
import gzip
import io
import random
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path

from rummykit.puzzles.model import Puzzle

__all__ = ["SHIPPED", "load", "near", "read", "shipped", "write"]

SHIPPED = {"vatikanen": "vatikanen.jsonl.gz"}
"""The shipped set of each game, a file of the package's ``data`` folder."""


def read(stream: Iterable[str]) -> Iterator[Puzzle]:
    """The puzzles of JSON lines (blank lines skipped); ValueError naming the bad line."""
    for n, line in enumerate(stream, 1):
        if line.strip():
            try:
                yield Puzzle.loads(line)
            except ValueError as exc:
                raise ValueError(f"line {n}: {exc}") from None


def load(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file (``.gz``: gzip-compressed)."""
    path = Path(path)
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            return list(read(stream))
    with path.open(encoding="utf-8") as stream:
        return list(read(stream))


def write(puzzles: Iterable[Puzzle], path: str | Path) -> int:
    """Write ``puzzles`` as JSON lines to ``path`` (``.gz``: compressed, reproducibly: no
    time or name in the gzip header); the count written."""
    path = Path(path)
    text = io.StringIO()
    count = 0
    for puzzle in puzzles:
        text.write(puzzle.dumps() + "\n")
        count += 1
    data = text.getvalue().encode("utf-8")
    if path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=9, mtime=0)
    path.write_bytes(data)
    return count


@functools.cache
def shipped(game: str = "vatikanen") -> tuple[Puzzle, ...]:
    """The puzzle set shipped with the package for ``game`` (KeyError: none for it)."""
    name = SHIPPED[game]
    data = resources.files("rummykit.puzzles").joinpath("data", name).read_bytes()
    return tuple(read(gzip.decompress(data).decode("utf-8").splitlines()))


def near(puzzles: Iterable[Puzzle], rating: int, rng: random.Random, *, among: int = 20) -> Puzzle:
    """One of the ``among`` puzzles whose rating is closest to ``rating``, at random
    (ValueError: no puzzles)."""
    ordered = sorted(puzzles, key=lambda p: (abs(p.rating - rating), p.id))
    if not ordered:
        raise ValueError("there are no puzzles to choose from")
    return rng.choice(ordered[:among])
