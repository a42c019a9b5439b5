"""Benchmark the table solver against the PyPI package ``rummikub-solver`` (issue 2).

Run: ``.venv/bin/python benchmarks/solver.py [--count N] [--sizes 0,20,40,60,80]``.
``rummikub-solver`` must be installed in the venv for the comparison (it is not
a project dependency): ``.venv/bin/pip install rummikub-solver``.

Both solvers get the same random positions under Rummikub rules (hands of
8-14, 0-2 jokers); the answer (cards placed) must agree on every position
without jokers, or the run fails (exit 1). With jokers the peer leaves out
some sets on purpose, so differences are reported, not fatal. Then full-deck
Vatikanen positions are timed. The figures go to the Solver section of
``docs/benchmarks.md`` (``--no-docs`` to skip).
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from positions import Position, random_position
from rummykit.cards import Card
from rummykit.melds import RUMMIKUB, VATIKANEN
from rummykit.solver import best_play, rank_kernel, suit_kernel, warm

DOCS = Path(__file__).parent.parent / "docs" / "benchmarks.md"
BEGIN, END = "<!-- solver:begin -->", "<!-- solver:end -->"


def tile(card: Card) -> int:
    """The peer's tile number: colour-major 1-52, joker 53."""
    if card.is_joker or card.suit is None:
        return 53
    return int(card.suit) * 13 + card.rank


def time_ours(pos: Position, rules: Any, repeat: int) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(repeat):
        t0 = time.process_time()
        play = best_play(list(pos.table), list(pos.hand), rules=rules)
        best = min(best, time.process_time() - t0)
        count = 0 if play is None else play.count
    return best * 1000, count


PEER_BACKENDS = {"scipy": "SCIPY", "highs": "HIGHS"}
"""The peer's MILP back ends: SciPy's ``milp`` and HiGHS through cvxpy (its default)."""


def time_peer(pos: Position, repeat: int, backend: str = "scipy") -> tuple[float, int]:
    import rummikub_solver as rs

    rules = rs.RuleSet(solver_backend=rs.MILPSolver[PEER_BACKENDS[backend]])
    best = float("inf")
    count = 0
    for _ in range(repeat):
        state = rules.new_game()
        table = [tile(c) for m in pos.table for c in m.cards]
        if table:
            state.add_table(*table)
        state.add_rack(*[tile(c) for c in pos.hand])
        state.initial = False
        t0 = time.process_time()
        sol = rules.solve(state)
        best = min(best, time.process_time() - t0)
        count = len(sol.tiles) if sol is not None else 0
    return best * 1000, count


def game_positions(games: int, seed: int) -> list[Position]:
    """Every turn of an opened player in greedy Vatikanen games (2-5 players)."""
    from rummykit.bots.base import make_bot
    from rummykit.games.vatikanen import VatikanenGame

    out: list[Position] = []
    for g in range(games):
        n = 2 + g % 4
        game = VatikanenGame(n, seed=seed * 1000 + g)
        bots = [make_bot("vatikanen", "greedy", seed=seed * 1000 + g * 10 + s) for s in range(n)]
        while (seat := game.to_act) is not None:
            if game.opened(seat):
                out.append(Position(tuple(game.table), tuple(game.hand(seat))))
            game.apply(bots[seat].choose(game.view(seat)))
    return out


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def stats(xs: list[float]) -> tuple[float, float, float]:
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]
    return statistics.median(xs), p90, xs[-1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10, help="positions per table size")
    ap.add_argument("--sizes", default="0,20,40,60,80", help="table sizes (cards)")
    ap.add_argument("--vatikanen", type=int, default=10, help="full-deck Vatikanen positions")
    ap.add_argument("--vatikanen-size", type=int, default=80, help="their table size")
    ap.add_argument("--games", type=int, default=20, help="greedy Vatikanen games to time")
    ap.add_argument("--repeat", type=int, default=3, help="best of N solves per position")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--no-peer", action="store_true", help="time our solver only")
    ap.add_argument(
        "--peer-backends",
        default="scipy,highs",
        help="the peer's MILP back ends to time, the first judged by the bar (scipy, highs)",
    )
    ap.add_argument("--no-docs", action="store_true", help="do not update docs/benchmarks.md")
    ap.add_argument("--note", default="", help="a sentence to add to the report")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    backends = [b for b in args.peer_backends.split(",") if b]
    for b in backends:
        if b not in PEER_BACKENDS:
            ap.error(f"unknown peer back end {b!r} (one of {', '.join(PEER_BACKENDS)})")
    rng = random.Random(args.seed)
    have_peer = not args.no_peer
    if have_peer and backends:
        try:
            import rummikub_solver  # noqa: F401
        except ImportError:
            print("rummikub-solver is not installed: timing ours only", file=sys.stderr)
            have_peer = False
    if not have_peer:
        backends = []
    warm(RUMMIKUB)  # load the compiled programmes (numba) before any clock starts
    rows = []
    ours_all: list[float] = []
    peer_all: dict[str, list[float]] = {b: [] for b in backends}
    disagree = 0
    joker_diffs = 0
    by_size = {
        size: [
            random_position(rng, RUMMIKUB, size, rng.randint(8, 14), jokers=rng.randint(0, 2))
            for _ in range(args.count)
        ]
        for size in sizes
    }
    vat_positions = [
        random_position(rng, VATIKANEN, args.vatikanen_size, rng.randint(8, 14))
        for _ in range(args.vatikanen)
    ]
    real = game_positions(args.games, args.seed) if args.games else []
    # Every clock of ours runs before the peer's first solve: the peer's MILP threads
    # may stay busy after it returns, and process_time counts every thread.
    timed = {
        size: [time_ours(pos, RUMMIKUB, args.repeat) for pos in ps] for size, ps in by_size.items()
    }
    vat = [time_ours(pos, VATIKANEN, args.repeat)[0] for pos in vat_positions]
    vat_sizes = [pos.table_size for pos in vat_positions]
    game_ms = [time_ours(pos, VATIKANEN, args.repeat)[0] for pos in real]
    for size, positions in by_size.items():
        ours = [ms for ms, _n in timed[size]]
        peer: dict[str, list[float]] = {b: [] for b in backends}
        for pos, (_ms, n) in zip(positions, timed[size], strict=True):
            jokers = any(c.is_joker for m in pos.table for c in m.cards) or any(
                c.is_joker for c in pos.hand
            )
            for b in backends:
                pms, pn = time_peer(pos, args.repeat, b)
                peer[b].append(pms)
                if pn != n:
                    tag = "with jokers" if jokers else "WITHOUT jokers"
                    print(f"differ ({tag}): ours {n}, peer ({b}) {pn}: {pos}", file=sys.stderr)
                    if jokers:
                        joker_diffs += 1
                    else:
                        disagree += 1
        ours_all += ours
        for b in backends:
            peer_all[b] += peer[b]
        rows.append((size, stats(ours), {b: stats(peer[b]) for b in backends}))
        print(f"table {size:>3}: ours median/p90/max {_fmt(stats(ours))}", end="")
        print("".join(f"   peer ({b}) {_fmt(stats(peer[b]))}" for b in backends), flush=True)
    if vat:
        print(f"vatikanen tables: {len(vat)} positions, max {max(vat):.1f} ms", flush=True)
    if game_ms:
        print(f"vatikanen games: {len(game_ms)} positions, max {max(game_ms):.1f} ms", flush=True)
    lines = _report(args, rows, ours_all, peer_all, vat, vat_sizes, disagree, joker_diffs)
    lines += _report_games(args, real, game_ms)
    lines += _report_bar(vat, game_ms)
    print("\n".join(lines))
    if not args.no_docs:
        _write_docs(lines)
    if disagree:
        print(f"FAIL: {disagree} position(s) without jokers disagree", file=sys.stderr)
        return 1
    return 0


def _fmt(t: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.1f}" for x in t) + " ms"


def _report(
    args: argparse.Namespace,
    rows: list[tuple[int, tuple[float, float, float], dict[str, tuple[float, float, float]]]],
    ours_all: list[float],
    peer_all: dict[str, list[float]],
    vat: list[float],
    vat_sizes: list[int],
    disagree: int,
    joker_diffs: int,
) -> list[str]:
    argv = sys.argv[1:]
    if "--note" in argv:  # the note is printed below the table, not in the command
        at = argv.index("--note")
        argv = argv[:at] + argv[at + 2 :]
    cmd = "python benchmarks/solver.py " + " ".join(argv)
    out = [
        "## Solver",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()}"
        f" {platform.python_version()}, {dt.date.today().isoformat()}. Command: `{cmd.strip()}`.",
        "CPU time (`time.process_time`) per position in ms (median / p90 / max),"
        " Rummikub rules on both sides (the peer's back ends on the same positions),"
        f" {args.count} positions per table size, hands of 8-14, 0-2 jokers."
        " Method: the programme over ranks, depth first (past"
        f" {rank_kernel.DEPTH_BUDGET:,} states breadth first on tables of up to"
        f" {rank_kernel.BREADTH_TABLE} cards, the split search on fuller ones); {_engine()}.",
        "",
    ]
    names = {"scipy": "SciPy milp", "highs": "HiGHS via cvxpy, its default"}
    head = "| table cards | ours |"
    for b in peer_all:
        head += f" rummikub-solver ({names[b]}) | p90 ratio |"
    out += [head, "|" + "---|" * (2 + 2 * len(peer_all))]
    for size, ours, peer in rows:
        line = f"| {size} | {_fmt(ours)} |"
        for b in peer_all:
            line += f" {_fmt(peer[b])} | {peer[b][1] / max(ours[1], 1e-9):.1f}x |"
        out.append(line)
    if peer_all and ours_all:
        o = stats(ours_all)
        line = f"| all | {_fmt(o)} |"
        ratios = {}
        for b, xs in peer_all.items():
            p = stats(xs)
            ratios[b] = p[1] / max(o[1], 1e-9)
            line += f" {_fmt(p)} | {ratios[b]:.1f}x |"
        out.append(line)
        out.append("")
        out.append(
            f"Disagreements (positions x back ends) without jokers: {disagree}; with jokers"
            f" (the peer omits some joker sets): {joker_diffs}."
        )
        first = next(iter(peer_all))
        ratio = ratios[first]
        verdict = "met" if ratio >= 100 else "not met"
        others = "".join(f"; against {names[b]}: {r:.1f}x" for b, r in ratios.items() if b != first)
        out += [
            "",
            f"Issue bar (p90 at least 100x faster than the peer): **{verdict}**"
            f" ({ratio:.1f}x against {names[first]}{others}).",
        ]
    if args.note:
        out += ["", args.note]
    if vat:
        v = stats(vat)
        out += [
            "",
            f"Vatikanen (2 packs, 2 jokers), {len(vat)} positions with tables of"
            f" {min(vat_sizes)}-{max(vat_sizes)} cards: median / p90 / max {_fmt(v)};"
            f" over 20 ms: {sum(1 for x in vat if x > 20)}.",
        ]
    return out


def _engine() -> str:
    if not suit_kernel.AVAILABLE:
        return "pure Python (numba not installed: the split search answers every position)"
    import numba

    return f"compiled with numba {numba.__version__}"


def _report_games(args: argparse.Namespace, real: list[Position], ms: list[float]) -> list[str]:
    if not ms:
        return []
    sizes = [p.table_size for p in real]
    q = [statistics.median(ms), quantile(ms, 0.9), quantile(ms, 0.99), max(ms)]
    return [
        "",
        f"Vatikanen positions from {args.games} greedy games (2-5 players, every turn of"
        f" an opened player, tables of {min(sizes)}-{max(sizes)} cards, hands of"
        f" {min(len(p.hand) for p in real)}-{max(len(p.hand) for p in real)}):"
        f" {len(ms)} positions, median / p90 / p99 / max"
        f" {' / '.join(f'{x:.1f}' for x in q)} ms; over 20 ms: {sum(1 for x in ms if x > 20)}.",
    ]


def _report_bar(vat: list[float], game_ms: list[float]) -> list[str]:
    """The issue's Vatikanen bar: no position over 20 ms."""
    times = vat + game_ms
    if not times:
        return []
    over = sum(1 for x in times if x > 20)
    verdict = "met" if over == 0 else "not met"
    return [
        "",
        f"Issue bar (no Vatikanen position over 20 ms): **{verdict}** ({len(times)} positions,"
        f" slowest {max(times):.1f} ms).",
    ]


def _write_docs(lines: list[str]) -> None:
    block = BEGIN + "\n" + "\n".join(lines) + "\n" + END
    text = DOCS.read_text(encoding="utf-8") if DOCS.exists() else "# Benchmarks\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    DOCS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
