"""A puzzle as a value, and its JSON line (``docs/puzzles.md``).

A :class:`Puzzle` is one seat's position (the table's melds as that seat saw
them, each joker with what it stands for, and that seat's hand), the
table's house rule that changes what a play may do (``free_jokers``, V11),
and what the exact solver found: the most cards (``best``), how many
different best answers there are (``answers``), the fewest table cards a
shown best answer moves (``moved``), the most laid without moving any table
card (``obvious``), the ideas (``themes``), a difficulty on a rating scale
(``rating``: a starting puzzle rating, as lichess's puzzles have) and one
best answer (``solution``: the hand cards laid, the whole new table, and per card of
it whether it came from the hand, stayed in its meld or moved, as the review marks a
best play).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.melds import VATIKANEN, Meld, read_meld

__all__ = ["FORMAT", "Puzzle", "puzzle_id"]

FORMAT = 1
"""The version of the JSON line (``"v"``); a reader refuses a newer one."""


def puzzle_id(game: str, table: Sequence[Sequence[str]], hand: Sequence[str]) -> str:
    """A puzzle's id: the first 10 hex digits of the SHA-256 of its game, table (melds as
    written, in order) and sorted hand: the same position has the same id wherever it is
    made."""
    text = json.dumps([game, [list(m) for m in table], sorted(hand)], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One Vatikanen puzzle (see the module docstring). Cards are RECORD.md's text."""

    id: str
    game: str
    table: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...]
    opened: bool
    free_jokers: bool
    best: int
    answers: int
    moved: int
    obvious: int
    themes: tuple[str, ...]
    rating: int
    solution_add: tuple[str, ...]
    solution_table: tuple[tuple[str, ...], ...]
    solution_marks: tuple[tuple[str, ...], ...] = ()
    source: str = ""

    @property
    def theme(self) -> str:
        """The puzzle's main idea: the first of its themes."""
        return self.themes[0] if self.themes else ""

    def melds(self) -> list[Meld]:
        """The table as melds (each joker standing for its card, V11)."""
        return [read_meld([Card.parse(c) for c in m], VATIKANEN) for m in self.table]

    def cards(self) -> list[Card]:
        """The hand as cards."""
        return [Card.parse(c) for c in self.hand]

    def to_json(self) -> dict[str, object]:
        """The puzzle as one JSON object (``docs/puzzles.md``)."""
        return {
            "v": FORMAT,
            "id": self.id,
            "game": self.game,
            "table": [list(m) for m in self.table],
            "hand": list(self.hand),
            "opened": self.opened,
            "free_jokers": self.free_jokers,
            "best": self.best,
            "answers": self.answers,
            "moved": self.moved,
            "obvious": self.obvious,
            "themes": list(self.themes),
            "rating": self.rating,
            "solution": {
                "add": list(self.solution_add),
                "table": [list(m) for m in self.solution_table],
                "marks": [list(m) for m in self.solution_marks],
            },
            "source": self.source,
        }

    def dumps(self) -> str:
        """The puzzle as one compact JSON line (no newline)."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Puzzle:
        """The puzzle of one JSON object; ValueError when it is not one."""
        try:
            version = data.get("v", FORMAT)
            if not isinstance(version, int) or version > FORMAT:
                raise ValueError(f"puzzle format {version!r} is newer than this reader's")
            solution = data["solution"]
            if not isinstance(solution, Mapping):
                raise ValueError("the solution must be an object")
            puzzle = cls(
                id=str(data["id"]),
                game=str(data["game"]),
                table=_melds(data["table"]),
                hand=_texts(data["hand"]),
                opened=bool(data["opened"]),
                free_jokers=bool(data.get("free_jokers", False)),
                best=_int(data["best"]),
                answers=_int(data["answers"]),
                moved=_int(data["moved"]),
                obvious=_int(data["obvious"]),
                themes=_texts(data.get("themes", [])),
                rating=_int(data["rating"]),
                solution_add=_texts(solution["add"]),
                solution_table=_melds(solution["table"]),
                solution_marks=_melds(solution.get("marks", [])),
                source=str(data.get("source", "")),
            )
        except KeyError as exc:
            raise ValueError(f"a puzzle needs {exc.args[0]!r}") from None
        for text in (*puzzle.hand, *(c for m in puzzle.table for c in m)):
            Card.parse(text)  # CardError (a ValueError) for bad card text
        return puzzle

    @classmethod
    def loads(cls, line: str) -> Puzzle:
        """The puzzle of one JSON line."""
        data = json.loads(line)
        if not isinstance(data, Mapping):
            raise ValueError("a puzzle line must be a JSON object")
        return cls.from_json(data)


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ValueError(f"expected a list of texts, not {value!r}")
    return tuple(value)


def _melds(value: object) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of melds, not {value!r}")
    return tuple(_texts(m) for m in value)
