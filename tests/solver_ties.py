"""The 720 positions whose answers, ties included, pin the solver's tie-break (issue 29).

480 Vatikanen positions from real games (every fifth of
``benchmarks/vatikanen_positions.txt``), 120 random full-size Vatikanen
positions and 120 random Kontrakt ones (``benchmarks/positions.py``), each
asked once: objective and ``free_jokers`` vary with the index. The answer
of each, as text (the cards laid and every meld of the new table, joker
meanings included), is hashed: the same hash means the same answers to the
tie. ``python tests/solver_ties.py`` prints the hash and writes the values
(count and points) to ``tests/solver_ties.txt``.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

from rummykit.cards import Card
from rummykit.melds import KONTRAKT, VATIKANEN, Meld, MeldRules
from rummykit.solver import Play, best_play

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from positions import random_position  # noqa: E402
from record_positions import read  # noqa: E402

VALUES = Path(__file__).parent / "solver_ties.txt"

Question = tuple[MeldRules, list[Meld], list[Card], str, bool]
"""Rules, table, hand, objective, free_jokers."""


def questions() -> list[Question]:
    """The 720 questions, in a fixed order."""
    out: list[Question] = []
    for i, (free, table, hand) in enumerate(read()[::5][:480]):
        out.append((VATIKANEN, table, hand, "points" if i % 3 == 2 else "cards", free))
    rng = random.Random(720)
    for rules in (VATIKANEN, KONTRAKT):
        for i in range(120):
            size = (0, 10, 20, 30, 40, 50, 60, 70, 80, 90)[i % 10]
            pos = random_position(rng, rules, size, rng.randint(1, 14), jokers=rng.randint(0, 2))
            objective = "points" if i % 3 == 1 else "cards"
            out.append((rules, list(pos.table), list(pos.hand), objective, i % 4 == 3))
    return out


def answer_text(play: Play | None) -> str:
    """A play as text: the cards laid, then each meld of the new table."""
    if play is None:
        return "-"
    return " ".join(map(str, play.cards)) + " => " + " | ".join(map(str, play.table))


def answers() -> list[Play | None]:
    """The solver's answer to every question."""
    return [
        best_play(table, hand, rules=rules, objective=objective, free_jokers=free)  # type: ignore[arg-type]
        for rules, table, hand, objective, free in questions()
    ]


def digest(plays: list[Play | None]) -> str:
    """The hash of the answers' texts."""
    text = "\n".join(answer_text(p) for p in plays)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def values(plays: list[Play | None]) -> list[str]:
    """Each answer's count and points ("-" for no play)."""
    return ["-" if p is None else f"{p.count} {p.points}" for p in plays]


if __name__ == "__main__":
    got = answers()
    VALUES.write_text("\n".join(values(got)) + "\n", encoding="utf-8")
    print(digest(got))
