"""Complete Vatikanen games with bots: speed, solver share, and the soak test.

Benchmark (default): games per second with greedy bots for 2, 3, 4 and 5
players, the share of the time spent in the solver, and the ratio against a
baseline measured in the same run (random bots, same seeds); the Games
section of ``docs/benchmarks.md`` is rewritten with the figures::

    python benchmarks/games.py [--games 20] [--no-write]

Soak: ``--soak N`` plays N games (any player count, random options, random,
greedy or mixed bots, game i fully determined by i) and checks after every
action card conservation, the views' secrecy and, at the end, that the
game's record replays to the same balances. ``--jobs`` runs games in
parallel; ``--one I`` replays game I alone (to debug a failure)::

    python benchmarks/games.py --soak 10000 --jobs 2
    python benchmarks/games.py --soak 5000 --start 5000 --jobs 2   # a second shard
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import random
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rummykit import solver
from rummykit.bots import make_bot
from rummykit.games.vatikanen import VatikanenGame
from rummykit.record import replay

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


def play_game(
    players: int,
    levels: list[str],
    seed: int,
    *,
    check: bool = False,
    **options: bool,
) -> VatikanenGame:
    """One complete game; with ``check`` every invariant is checked after every action."""
    game = VatikanenGame(players, seed=seed, **options)
    bots = [make_bot("vatikanen", levels[s], seed=seed * 10 + s) for s in range(players)]
    while (seat := game.to_act) is not None:
        if len(game.log) > 5000:
            raise RuntimeError("the game did not end within 5000 actions")
        game.apply(bots[seat].choose(game.view(seat)))
        if check:
            game.check_invariants()
            check_secrecy(game)
    if check:
        check_record(game)
    return game


def check_secrecy(game: VatikanenGame) -> None:
    """No view holds another seat's cards or the stock (RULES.md invariants)."""
    for seat in [None, *range(game.n_players)]:
        view = game.view(seat)
        text = json.dumps(view)
        assert "stock" not in {k for k in view if k != "stock_size"}
        if seat is None:
            assert view["hand"] is None
        else:
            assert Counter(view["hand"]) == Counter(str(c) for c in game.hand(seat))
        for entry in view["log"]:
            if entry["type"] == "draw" and entry["seat"] != seat:
                assert "card" not in entry, "a view shows another seat's drawn card"
        assert len(text) < 1_000_000


def check_record(game: VatikanenGame) -> None:
    """The game's record replays legally to the same balances."""
    record = game.to_record()
    result = replay(record)
    assert result.ok, result
    assert record.result is not None and list(result.scores) == record.result["scores"]


def soak_spec(i: int) -> dict[str, Any]:
    """VatikanenGame i of the soak: player count, options, bot levels and seed, all from i."""
    rng = random.Random(i)
    n = rng.randint(2, 5)
    mode = ("random", "greedy", "mixed")[i % 3]
    levels = [rng.choice(["random", "greedy"]) if mode == "mixed" else mode for _ in range(n)]
    return {
        "players": n,
        "levels": levels,
        "seed": rng.randrange(2**32),
        "free_jokers": rng.random() < 0.5,
        "blocked_game": rng.random() < 0.7,
    }


def soak_one(i: int) -> dict[str, Any]:
    """Play and check soak game i; a dict of what happened (or the error)."""
    spec = soak_spec(i)
    start = time.perf_counter()
    try:
        game = play_game(
            spec["players"],
            spec["levels"],
            spec["seed"],
            check=True,
            free_jokers=spec["free_jokers"],
            blocked_game=spec["blocked_game"],
        )
    except Exception:  # the soak reports every failure
        return {"i": i, "ok": False, "error": traceback.format_exc(), **spec}
    assert game.end is not None
    return {
        "i": i,
        "ok": True,
        "reason": game.end.reason,
        "actions": len(game.log),
        "seconds": time.perf_counter() - start,
        "players": spec["players"],
        "mode": ("random", "greedy", "mixed")[i % 3],
    }


def soak(total: int, jobs: int, out: Path, first: int = 0) -> int:
    """Run soak games ``first`` .. ``first + total - 1``; write a summary to ``out``.

    Return the number of failures. Games are independent, so a long soak can
    be split into shards with ``--start``.
    """
    start = time.perf_counter()
    reasons: Counter[str] = Counter()
    by_mode: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    actions = 0
    done = 0
    with multiprocessing.Pool(jobs) as pool:
        for row in pool.imap_unordered(soak_one, range(first, first + total), chunksize=4):
            done += 1
            if row["ok"]:
                reasons[row["reason"]] += 1
                by_mode[row["mode"]] += 1
                actions += row["actions"]
            else:
                failures.append(row)
                print(f"game {row['i']} FAILED:\n{row['error']}", file=sys.stderr, flush=True)
            if done % 50 == 0 or done == total:
                summary = {
                    "first": first,
                    "games": done,
                    "of": total,
                    "failures": len(failures),
                    "endings": dict(reasons),
                    "modes": dict(by_mode),
                    "actions": actions,
                    "seconds": round(time.perf_counter() - start, 1),
                    "failed": [f["i"] for f in failures],
                }
                out.write_text(json.dumps(summary, indent=2) + "\n")
                print(json.dumps(summary), flush=True)
    return len(failures)


# ---------------------------------------------------------------- benchmark


def measure(players: int, level: str, games: int) -> dict[str, float]:
    """Play ``games`` games of ``level`` bots; games/s and the solver's share of the time."""
    clock = SolverClock()
    actions = 0
    with clock.installed():
        start = time.perf_counter()
        for g in range(games):
            actions += len(play_game(players, [level] * players, seed=1000 + g).log)
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


def write_section(text: str, soak_text: str | None = None) -> None:
    """Put the Games section into docs/benchmarks.md between its markers."""
    body = text if soak_text is None else text + "\n" + soak_text
    block = f"{START}\n{body}{END}\n"
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
    parser.add_argument("--soak", type=int, metavar="N", help="play and check N games")
    parser.add_argument("--start", type=int, default=0, help="first soak game (shards)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the soak")
    parser.add_argument("--out", type=Path, default=Path("soak.json"), help="soak summary")
    parser.add_argument("--one", type=int, metavar="I", help="play soak game I and report")
    args = parser.parse_args(argv)
    if args.one is not None:
        print(json.dumps(soak_spec(args.one)))
        row = soak_one(args.one)
        print(row.get("error") or json.dumps(row))
        return 0 if row["ok"] else 1
    if args.soak:
        return 1 if soak(args.soak, args.jobs, args.out, args.start) else 0
    solver.suit_kernel.warm()  # load the compiled suit programme before any clock starts
    section = benchmark(args.games)
    print(section)
    if not args.no_write:
        keep = None
        if DOC.exists():
            m = re.search(r"(### Soak.*?)" + re.escape(END), DOC.read_text(encoding="utf-8"), re.S)
            keep = m.group(1) if m else None
        write_section(section, keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
