"""What a Vatikanen position holds for a puzzle: its best answers, the obvious play, the idea.

All of it is the exact solver's (:mod:`rummykit.solver`) on one seat's view of
the table and its hand (V8-V12), for a seat that has opened:

- :func:`best_answers`: every different best answer, an answer being the
  multiset of hand cards laid (V12: the arrangement is a presentation, so two
  tables laying the same cards are one answer). A branch and bound over the
  hand's kinds of card, bounded by the solver's most for what is left.
- :func:`obvious_most`: the most cards laid without moving any table card:
  table melds only grown at their ends (runs) or by cards of their rank
  (groups), the rest as new melds from the hand. A puzzle is a position where
  the best answer lays more than this.
- :func:`themes`: the ideas of a shown answer: it goes out (V13), frees a
  table joker (V11), splits a run, or otherwise rearranges the table (V9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.cards import Card
from rummykit.melds import VATIKANEN, Meld, MeldKind
from rummykit.review.keeping import Arranged, Marking, _growths, shown_play

__all__ = [
    "GOES_OUT",
    "JOKER",
    "REARRANGE",
    "SPLIT",
    "THEMES",
    "Shown",
    "TooMany",
    "best_answers",
    "least_moved",
    "obvious_most",
    "themes",
]

GOES_OUT, JOKER, SPLIT, REARRANGE = "goes-out", "joker", "split", "rearrange"
THEMES = (GOES_OUT, JOKER, SPLIT, REARRANGE)
"""The ideas a puzzle is tagged with, the most telling first."""


class TooMany(Exception):
    """More different best answers than the caller asked to count."""


def _most(table: Sequence[Meld], hand: Counter[Card], free_jokers: bool) -> int:
    found = solver.best_play(table, hand.elements(), rules=VATIKANEN, free_jokers=free_jokers)
    return 0 if found is None else found.count


def best_answers(
    table: Sequence[Meld],
    hand: Sequence[Card],
    best: int,
    *,
    free_jokers: bool = False,
    limit: int = 50,
) -> list[tuple[Card, ...]]:
    """Every different multiset of ``best`` hand cards the table can take (sorted card
    text); :class:`TooMany` past ``limit``. ``best`` must be the solver's most."""
    if best <= 0:
        return []
    counts = Counter(c.plain() for c in hand)
    kinds = sorted(counts, key=str)
    out: list[tuple[Card, ...]] = []

    def walk(i: int, chosen: Counter[Card], left: Counter[Card]) -> None:
        size = sum(chosen.values())
        if size == best:
            if solver.can_arrange_play(
                table, chosen.elements(), rules=VATIKANEN, free_jokers=free_jokers
            ):
                out.append(tuple(sorted(chosen.elements(), key=str)))
                if len(out) > limit:
                    raise TooMany
            return
        if i == len(kinds) or size + sum(left.values()) < best:
            return
        if _most(table, chosen + left, free_jokers) < best:
            return
        kind = kinds[i]
        rest = left.copy()
        k = rest.pop(kind)
        for take in range(min(k, best - size), -1, -1):
            walk(i + 1, chosen + Counter({kind: take}), rest)

    walk(0, Counter(), counts)
    return out


def obvious_most(table: Sequence[Meld], hand: Sequence[Card]) -> int:
    """The most hand cards laid with no table card moved: each meld grown by hand cards or
    left, then new melds of the hand's remaining cards (see the module docstring)."""
    melds = list(table)
    memo: dict[tuple[int, tuple[tuple[str, int], ...]], int] = {}

    def go(i: int, left: Counter[Card]) -> int:
        key = (i, tuple(sorted((str(c), k) for c, k in left.items() if k)))
        if key in memo:
            return memo[key]
        if i == len(melds):
            found = solver.best_play([], left.elements(), rules=VATIKANEN)
            result = 0 if found is None else found.count
        else:
            result = 0
            for _cards, used in _growths(melds[i], left):
                result = max(result, len(used) + go(i + 1, left - Counter(used)))
        memo[key] = result
        return result

    return go(0, Counter(c.plain() for c in hand))


@dataclass(frozen=True, slots=True)
class Shown:
    """A best answer as a person can follow it: the play and how it changes the table."""

    play: Arranged
    marking: Marking


def least_moved(
    table: Sequence[Meld],
    answers: Sequence[Sequence[Card]],
    *,
    free_jokers: bool = False,
) -> Shown:
    """Of the best ``answers``, the shown play (:func:`~rummykit.review.keeping.shown_play`)
    that moves fewest table cards; the first on a tie."""
    best: Shown | None = None
    for add in answers:
        found = solver.best_play(table, add, rules=VATIKANEN, free_jokers=free_jokers)
        assert found is not None and found.count == len(add)
        play, marking = shown_play(table, add, found, free_jokers=free_jokers)
        if best is None or marking.moved < best.marking.moved:
            best = Shown(play, marking)
    assert best is not None, "no answer to show"
    return best


def _freed(old: Sequence[Meld], new: Sequence[Meld]) -> bool:
    """Whether a table joker of ``old`` stands for another card in ``new`` (V11)."""
    before = Counter(str(c) for m in old for c in m.cards if c.is_joker)
    after = Counter(str(c) for m in new for c in m.cards if c.is_joker)
    return bool(before - after)


def _split(old: Sequence[Meld], new: Sequence[Meld]) -> bool:
    """Whether a run of ``old`` is no longer inside one meld of ``new``: its cards went into
    two or more melds."""
    news = [Counter(str(c) for c in m.cards) for m in new]
    for meld in old:
        if meld.kind is not MeldKind.RUN:
            continue
        mine = Counter(str(c) for c in meld.cards)
        if not any(not (mine - n) for n in news):
            holders = sum(1 for n in news if mine & n)
            if holders >= 2:
                return True
    return False


def themes(table: Sequence[Meld], shown: Shown, held: int) -> tuple[str, ...]:
    """The ideas of ``shown`` (:data:`THEMES`, in that order) for a hand of ``held`` cards."""
    out = []
    if len(shown.play.add) == held:
        out.append(GOES_OUT)
    if _freed(table, shown.play.table):
        out.append(JOKER)
    if _split(table, shown.play.table):
        out.append(SPLIT)
    if shown.marking.moved > 0:
        out.append(REARRANGE)
    return tuple(out)
