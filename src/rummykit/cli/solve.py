"""``rummykit solve``: the best play from a hand onto a table (V7-V12).

The table is given as melds separated by ``|``; each table joker's meaning
follows from its place, or is written ``*:7h``. Exit 0 with an answer (also
when nothing can be played), 2 on bad input: malformed cards, a table that is
not a set of melds, or cards the game's decks do not hold.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card, format_cards, parse_cards
from rummykit.melds import Meld, MeldError, MeldRules, read_meld, rules_named
from rummykit.solver import Play, best_opening, best_play, warm


class InputError(ValueError):
    """A question the solver cannot take: the message names the problem."""


@dataclass(frozen=True)
class Question:
    """One position to solve, as the command line or a batch line gives it."""

    table: list[Meld]
    hand: list[Card]
    rules: MeldRules
    objective: str
    free_jokers: bool
    opening: bool


def add_parser(sub: Any) -> None:
    """Register the sub-command."""
    p = sub.add_parser("solve", help="find the best play from a hand onto a table")
    p.add_argument("--table", default="", help='melds separated by "|", e.g. "7h 8h 9h | Kc Kd *"')
    p.add_argument("--hand", default="", help='the hand, e.g. "Th Jh Ks"')
    p.add_argument("--objective", choices=("cards", "points"), default="cards")
    p.add_argument("--rules", choices=("vatikanen", "kontrakt", "rummikub"), default="vatikanen")
    p.add_argument("--free-jokers", action="store_true", help="table jokers are wild (not V11)")
    p.add_argument("--opening", action="store_true", help="the first play: one run (V7)")
    p.add_argument("--json", action="store_true", help="print one JSON object per answer")
    p.add_argument("--batch", metavar="FILE", help="one JSON question per line")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Answer the question(s); exit 2 with a message on bad input."""
    try:
        if args.batch:
            questions = _read_batch(args.batch)
        else:
            questions = [
                _question(
                    args.table,
                    args.hand,
                    args.rules,
                    args.objective,
                    args.free_jokers,
                    args.opening,
                )
            ]
    except InputError as exc:
        print(f"rummykit solve: {exc}", file=sys.stderr)
        return 2
    for rules in {q.rules.name: q.rules for q in questions}.values():
        warm(rules)  # load the compiled programmes before the clock starts
    for q in questions:
        t0 = time.perf_counter()
        play = _solve(q)
        ms = (time.perf_counter() - t0) * 1000
        if args.json:
            print(json.dumps(_as_json(q, play, ms)))
        else:
            print(_as_text(q, play, ms))
    return 0


def _solve(q: Question) -> Play | None:
    if q.opening:
        return best_opening(q.hand, rules=q.rules, objective=_objective(q.objective))
    return best_play(
        q.table,
        q.hand,
        rules=q.rules,
        objective=_objective(q.objective),
        free_jokers=q.free_jokers,
    )


def _objective(name: str) -> Any:
    return "points" if name == "points" else "cards"


def _new_table(q: Question, play: Play | None) -> list[Meld]:
    if play is None:
        return list(q.table)
    if q.opening:
        return [*q.table, *play.table]
    return list(play.table)


def _as_json(q: Question, play: Play | None, ms: float) -> dict[str, Any]:
    return {
        "playable": play is not None,
        "play": [str(c) for c in play.cards] if play else [],
        "table": [[str(c) for c in m.cards] for m in _new_table(q, play)],
        "cards": play.count if play else 0,
        "points": play.points if play else 0,
        "ms": round(ms, 3),
    }


def _as_text(q: Question, play: Play | None, ms: float) -> str:
    if play is None:
        lines = [
            "no card from the hand can be played" + (" as an opening run" if q.opening else "")
        ]
        lines += ["table:"] + [f"  {m}" for m in q.table]
        return "\n".join(lines)
    lines = [
        f"play: {format_cards(play.cards)}  ({play.count} cards, {play.points} points,"
        f" {ms:.1f} ms)",
        "table ([ ] = from the hand):",
    ]
    new = _new_table(q, play)
    marks = _marks(q.table, new, play)
    for meld, marked in zip(new, marks, strict=True):
        cells = [f"[{c}]" if m else str(c) for c, m in zip(meld.cards, marked, strict=True)]
        lines.append("  " + " ".join(cells))
    return "\n".join(lines)


def _marks(old: Sequence[Meld], new: Sequence[Meld], play: Play) -> list[list[bool]]:
    """Which cards of the new table to mark as played: changed melds first."""
    left = Counter(c.plain() for c in play.cards)
    unchanged = Counter(tuple(sorted(str(c.plain()) for c in m.cards)) for m in old)
    order = []
    for i, meld in enumerate(new):
        key = tuple(sorted(str(c.plain()) for c in meld.cards))
        same = unchanged[key] > 0
        if same:
            unchanged[key] -= 1
        order.append((same, i))
    marks = [[False] * len(m.cards) for m in new]
    for _, i in sorted(order):
        for j, card in enumerate(new[i].cards):
            if left[card.plain()] > 0:
                left[card.plain()] -= 1
                marks[i][j] = True
    return marks


def _question(
    table: str, hand: str, rules: str, objective: str, free_jokers: bool, opening: bool
) -> Question:
    try:
        game = rules_named(rules)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if objective not in ("cards", "points"):
        raise InputError(f"unknown objective {objective!r}: choose cards or points")
    melds = []
    for part in table.split("|"):
        if not part.strip():
            continue
        try:
            cards = parse_cards(part)
        except ValueError as exc:
            raise InputError(f"table: {exc}") from None
        try:
            melds.append(read_meld(cards, game))
        except MeldError as exc:
            raise InputError(f"table meld {part.strip()!r} is not a meld: {exc}") from None
    try:
        hand_cards = parse_cards(hand)
    except ValueError as exc:
        raise InputError(f"hand: {exc}") from None
    _check_deck([c for m in melds for c in m.cards] + hand_cards, game)
    return Question(melds, [c.plain() for c in hand_cards], game, objective, free_jokers, opening)


def _check_deck(cards: list[Card], rules: MeldRules) -> None:
    """Raise unless the game's decks hold all these cards (V2, K2)."""
    count = Counter(c.plain() for c in cards)
    for card, n in sorted(count.items(), key=lambda kv: str(kv[0])):
        limit = rules.jokers if card.is_joker else rules.packs
        if n > limit:
            what = "jokers" if card.is_joker else f"copies of {card}"
            raise InputError(
                f"{n} {what} on the table and in the hand, but {rules.name} has only {limit}"
            )


def _read_batch(path: str) -> list[Question]:
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{n}: not JSON: {exc.msg}") from None
        if not isinstance(obj, dict) or "table" not in obj or "hand" not in obj:
            raise InputError(f'{path}:{n}: each line needs an object with "table" and "hand"')
        try:
            out.append(
                _question(
                    str(obj["table"]),
                    str(obj["hand"]),
                    str(obj.get("rules", "vatikanen")),
                    str(obj.get("objective", "cards")),
                    bool(obj.get("free_jokers", False)),
                    bool(obj.get("opening", False)),
                )
            )
        except InputError as exc:
            raise InputError(f"{path}:{n}: {exc}") from None
    return out
