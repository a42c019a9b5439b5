"""How many table cards the review's best play moves (docs/review.md, "Which best play is
shown (Vatikanen)"): the solver's own play, keeping the largest melds first alone, and the
review's rule (``rummykit.review.keeping.shown_play``).

Vatikanen games are played by the bots (one game a seed, seeds 0, 1, ...; ``--players``,
the seats' ``--levels`` in turn), and every turn of a seat that has opened (V7) and can lay
a card is a position. At each the solver's best play is found, then the three plays are
marked (``keeping.marks``) and their moved cards summed; the positions where the rule's
play moves no card are counted too.

A card counts as staying only where it keeps its place in its meld (issue 45); ``--old``
counts the same positions again as before that, when a card that stayed in its meld counted
as staying wherever it lay in it (the rule's play chosen by those counts too). Each line
ends with the CPU seconds it took::

    python benchmarks/review_moved.py [--games 60] [--players 3] [--old]
        [--levels greedy,random,greedy] [--start 0]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rummykit import games, solver
from rummykit.cards import Card
from rummykit.melds import VATIKANEN, Meld, read_meld
from rummykit.review import keeping


def _old_slots(meld: Meld) -> list[keeping.Slot]:
    """A card and no place: it stays wherever it lies in its meld (before issue 45)."""
    return [(keeping._key(c), 0) for c in meld.cards]


def positions(games_n: int, players: int, levels: list[str], start: int) -> Callable[[], Any]:
    """Yield (table, hand, free_jokers) at each position of the games (see the docstring)."""
    spec = games.get("vatikanen")

    def walk() -> Any:
        for seed in range(start, start + games_n):
            session = spec.new(players, seed=seed)
            bots = [spec.make_bot(levels[s % len(levels)], seed * 10 + s) for s in range(players)]
            while (seat := session.to_act) is not None:
                view = session.view(seat)
                if view["opened"][seat]:
                    table = [
                        read_meld([Card.parse(c) for c in m], VATIKANEN) for m in view["table"]
                    ]
                    hand = [Card.parse(c) for c in view["hand"]]
                    yield table, hand, bool(view["options"]["free_jokers"])
                session.apply(bots[seat].choose(view))

    return walk


def measure(walk: Callable[[], Any], old: bool) -> dict[str, int | float]:
    """The sums over the positions (see the module docstring)."""
    saved = keeping._slots
    if old:
        keeping._slots = _old_slots  # type: ignore[assignment]
    out = {"games": 0, "positions": 0, "solver": 0, "largest_first": 0, "rule": 0, "none": 0}
    t0 = time.process_time()
    try:
        for table, hand, free in walk():
            found = solver.best_play(table, hand, rules=VATIKANEN, free_jokers=free)
            if found is None or found.count == 0:
                continue
            out["positions"] += 1
            out["solver"] += keeping.marks(table, found.table, found.cards).moved
            largest = keeping.keep_most(table, hand, found.count, free_jokers=free)
            assert largest is not None
            out["largest_first"] += keeping.marks(table, largest.table, largest.add).moved
            _, shown = keeping.shown_play(table, hand, found, free_jokers=free)
            out["rule"] += shown.moved
            out["none"] += shown.moved == 0
    finally:
        keeping._slots = saved  # type: ignore[assignment]
    out["cpu_s"] = round(time.process_time() - t0, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--levels", default="greedy,random,greedy", help="the seats' bots, in turn")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--old", action="store_true", help="also count as before issue 45")
    args = parser.parse_args(argv)
    solver.warm()
    walk = positions(args.games, args.players, args.levels.split(","), args.start)
    rules = [("now", False)] + ([("old", True)] if args.old else [])
    for name, old in rules:
        out = measure(walk, old)
        out["games"] = args.games
        print(name, out, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
