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
import json
import random
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from pathlib import Path

from rummykit.puzzles.kind import kind_of
from rummykit.puzzles.kontrakt import KontraktPuzzle
from rummykit.puzzles.model import Puzzle

__all__ = ["AnyPuzzle", "load", "near", "read", "shipped", "write"]

AnyPuzzle = Puzzle | KontraktPuzzle
"""A puzzle of either game: its line's ``"game"`` says which."""


def _one(line: str) -> AnyPuzzle:
    data = json.loads(line)
    if not isinstance(data, Mapping):
        raise ValueError("a puzzle line must be a JSON object")
    return kind_of(str(data.get("game", "vatikanen"))).from_json(data)


def read(stream: Iterable[str]) -> Iterator[AnyPuzzle]:
    """The puzzles of JSON lines (blank lines skipped), of either game; ValueError naming
    the bad line."""
    for n, line in enumerate(stream, 1):
        if line.strip():
            try:
                yield _one(line)
            except ValueError as exc:
                raise ValueError(f"line {n}: {exc}") from None


def load(path: str | Path) -> list[AnyPuzzle]:
    """The puzzles of a file (``.gz``: gzip-compressed)."""
    path = Path(path)
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            return list(read(stream))
    with path.open(encoding="utf-8") as stream:
        return list(read(stream))


def write(puzzles: Iterable[AnyPuzzle], path: str | Path) -> int:
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
def shipped(game: str = "vatikanen") -> tuple[AnyPuzzle, ...]:
    """The puzzle set shipped with the package for ``game`` (ValueError: none for it)."""
    name = kind_of(game).shipped
    data = resources.files("rummykit.puzzles").joinpath("data", name).read_bytes()
    return tuple(read(gzip.decompress(data).decode("utf-8").splitlines()))


def near(
    puzzles: Iterable[AnyPuzzle], rating: int, rng: random.Random, *, among: int = 20
) -> AnyPuzzle:
    """One of the ``among`` puzzles whose rating is closest to ``rating``, at random
    (ValueError: no puzzles)."""
    ordered = sorted(puzzles, key=lambda p: (abs(p.rating - rating), p.id))
    if not ordered:
        raise ValueError("there are no puzzles to choose from")
    return rng.choice(ordered[:among])
