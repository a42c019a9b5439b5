"""Complete Vatikanen games with bots: speed and the solver's share of the time.

Games per second with greedy bots for 2, 3, 4 and 5 players, the share of the
time spent in the solver, and the ratio against a baseline measured in the
same run (random bots, same seeds); the Games section of
``docs/benchmarks.md`` is rewritten with the figures::

    python benchmarks/games.py [--games 20] [--no-write]

The soak of every game (thousands of games, every invariant checked after
every action) is ``benchmarks/soak.py``.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rummykit import games, solver
from rummykit.game import Game

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- games:start -->", "<!-- games:end -->"
SOLVER_CALLS = ("arrange_play", "best_play", "best_opening")


# ---------------------------------------------------------------- timing the solver


class SolverClock:
    """Wraps the solver's entry points to add up the time spent in them."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self.depth = 0

    @contextmanager
    def installed(self) -> Iterator[SolverClock]:
        originals = {name: getattr(solver, name) for name in SOLVER_CALLS}
        for name, fn in originals.items():
            setattr(solver, name, self._wrap(fn))
        try:
            yield self
        finally:
            for name, fn in originals.items():
                setattr(solver, name, fn)

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.depth += 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.seconds += time.perf_counter() - start
                    self.calls += 1

        return timed


# ---------------------------------------------------------------- playing


def play_game(players: int, levels: list[str], seed: int) -> Game:
    """One complete game, through the game interface."""
    spec = games.get("vatikanen")
    game = spec.new(players, seed=seed)
    bots = [spec.make_bot(levels[s], seed=seed * 10 + s) for s in range(players)]
    while (seat := game.to_act) is not None:
        if game.log_size > 5000:
            raise RuntimeError("the game did not end within 5000 actions")
        game.apply(bots[seat].choose(game.view(seat)))
    return game


# ---------------------------------------------------------------- benchmark


def measure(players: int, level: str, games: int) -> dict[str, float]:
    """Play ``games`` games of ``level`` bots; games/s and the solver's share of the time."""
    clock = SolverClock()
    actions = 0
    with clock.installed():
        start = time.perf_counter()
        for g in range(games):
            actions += play_game(players, [level] * players, seed=1000 + g).log_size
        wall = time.perf_counter() - start
    return {
        "games_per_s": games / wall,
        "seconds": wall,
        "solver_share": clock.seconds / wall,
        "solver_calls": clock.calls,
        "actions_per_game": actions / games,
    }


def benchmark(games: int) -> str:
    """The Games section of docs/benchmarks.md, as Markdown."""
    rows = []
    for n in (2, 3, 4, 5):
        greedy = measure(n, "greedy", games)
        base = measure(n, "random", games)
        rows.append((n, greedy, base))
        print(f"{n} players: greedy {greedy}, random {base}", flush=True)
    lines = [
        "## Games",
        "",
        f"`python benchmarks/games.py --games {games}`: {games} complete Vatikanen games per",
        "player count (same seeds for both levels), one process on "
        f"{platform.machine()} / Python {platform.python_version()}; the machine's two",
        "cores are shared, so take the figures as a rough guide. *Solver share* is the",
        "time inside `rummykit.solver` (arrange_play, best_play, best_opening) over the",
        "whole game time; the baseline is random bots in the same run.",
        "",
        "| players | greedy games/s | actions/game | solver share | random games/s"
        " | greedy ÷ random |",
        "|---|---|---|---|---|---|",
    ]
    for n, g, b in rows:
        lines.append(
            f"| {n} | {g['games_per_s']:.2f} | {g['actions_per_game']:.0f}"
            f" | {g['solver_share']:.0%} | {b['games_per_s']:.2f}"
            f" | {g['games_per_s'] / b['games_per_s']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def write_section(text: str) -> None:
    """Put the Games section into docs/benchmarks.md between its markers."""
    block = f"{START}\n{text}{END}\n"
    old = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n\n"
    if START in old and END in old:
        new = re.sub(re.escape(START) + ".*?" + re.escape(END) + "\n?", block, old, flags=re.S)
    else:
        new = old.rstrip("\n") + "\n\n" + block
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    args = parser.parse_args(argv)
    solver.suit_kernel.warm()  # load the compiled suit programme before any clock starts
    section = benchmark(args.games)
    print(section)
    if not args.no_write:
        write_section(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
