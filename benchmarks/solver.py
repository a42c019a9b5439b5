"""Benchmark the table solver: Rummikub against ``rummikub-solver``, and Vatikanen (issue 29).

Run: ``.venv/bin/python benchmarks/solver.py [--seeds 2,3,4] [--count 20]``.
``rummikub-solver`` must be installed in the venv for the comparison (it is not
a project dependency): ``.venv/bin/pip install rummikub-solver``.

1. **Rummikub**, for each seed: random positions (tables of 0-80 cards, hands
   of 8-14, 0-2 jokers, ``--count`` per table size) solved by ``best_play``
   and by the peer's two back ends (SciPy's ``milp``, HiGHS through cvxpy)
   in the same run; per table size median / p90 / p99 / max and the p90
   ratio. The bar: p90 at least 150x faster than the peer's faster back end,
   on every seed. The cards placed must agree on every position without
   jokers, or the run fails (exit 1); with jokers the peer leaves out some
   sets on purpose, so differences are counted, not fatal.
2. **Vatikanen positions from real games**: the fixed set of
   ``benchmarks/vatikanen_positions.txt`` (``record_positions.py``), per
   table size. The bar: median under 0.1 ms, p99 under 1 ms, none over 5 ms.
3. Random full-deck Vatikanen tables (``--vatikanen``).
4. With ``--arena N``: the standard two-player match, strong against greedy,
   N games on seed 20250501 (``rummykit simulate --game vatikanen --players 2
   --bots strong,greedy --seed 20250501``). The bar: the strong bot at most
   2 ms of CPU a move (the deciding thread's CPU time per decision: wall clock
   on a shared machine measures its load), its win rate within the
   interval of the match measured before the solver's rework, and that match's
   rate within the new interval.

Every time is CPU time (``time.process_time``), the best of ``--repeat``
solves; all of ours are timed before the peer's first solve (its solver
threads can stay busy after it returns, and CPU time counts every thread).
The figures go to the Solver section of ``docs/benchmarks.md`` (``--no-docs``
to skip).
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from positions import Position, random_position
from record_positions import read
from rummykit.cards import Card
from rummykit.melds import RUMMIKUB, VATIKANEN, Meld, MeldRules
from rummykit.solver import best_play, programme, warm

DOCS = Path(__file__).parent.parent / "docs" / "benchmarks.md"
BEGIN, END = "<!-- solver:begin -->", "<!-- solver:end -->"
BAR_RATIO = 150
"""The Rummikub bar: our p90 at least this many times faster than the peer's, every seed."""
BAR_MEDIAN, BAR_P99, BAR_MAX = 0.1, 1.0, 5.0
"""The Vatikanen bar on positions from real games (ms)."""
BAR_MOVE = 2.0
"""The strong bot's bar: ms per move in the standard two-player match."""
ARENA_SEED = 20250501
BEFORE = (0.637, 0.606724, 0.666227, "commit 3e912e5, 1,000 games")
"""The standard match's strong win rate and its 95% interval before the rework (the same
figures as the Bots section's match of commit 34cf274)."""
SIZES = (0, 20, 40, 60, 80)
BUCKETS = ((0, 19), (20, 39), (40, 59), (60, 999))
"""Table sizes of the Vatikanen positions from real games, as reported."""
PEER_BACKENDS = {"scipy": "SCIPY", "highs": "HIGHS"}
"""The peer's MILP back ends: SciPy's ``milp`` and HiGHS through cvxpy (its default)."""
NAMES = {"scipy": "SciPy milp", "highs": "HiGHS via cvxpy, its default"}

Stats = tuple[float, float, float, float]
"""Median, p90, p99, max (ms)."""


def tile(card: Card) -> int:
    """The peer's tile number: colour-major 1-52, joker 53."""
    if card.is_joker or card.suit is None:
        return 53
    return int(card.suit) * 13 + card.rank


def time_ours(
    table: Sequence[Meld], hand: Sequence[Card], rules: MeldRules, repeat: int, free: bool = False
) -> tuple[float, int]:
    """Our best time (ms) and the cards the answer places."""
    best = float("inf")
    count = 0
    for _ in range(repeat):
        t0 = time.process_time()
        play = best_play(table, hand, rules=rules, free_jokers=free)
        best = min(best, time.process_time() - t0)
        count = 0 if play is None else play.count
    return best * 1000, count


def time_peer(pos: Position, repeat: int, backend: str) -> tuple[float, int]:
    """The peer's best time (ms) and the tiles its answer places."""
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


def quantile(xs: Sequence[float], q: float) -> float:
    """The nearest-rank quantile of ``xs``."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def stats(xs: Sequence[float]) -> Stats:
    return quantile(xs, 0.5), quantile(xs, 0.9), quantile(xs, 0.99), max(xs)


def fmt(t: Stats) -> str:
    return " / ".join(_ms(x) for x in t) + " ms"


def _ms(x: float) -> str:
    return f"{x:.3f}" if x < 1 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="2,3,4", help="seeds of the random Rummikub positions")
    ap.add_argument("--count", type=int, default=20, help="Rummikub positions per table size")
    ap.add_argument("--vatikanen", type=int, default=50, help="random full-deck Vatikanen tables")
    ap.add_argument("--games-file", type=Path, default=None, help="positions from real games")
    ap.add_argument("--repeat", type=int, default=3, help="best of N solves per position")
    ap.add_argument("--no-peer", action="store_true", help="time our solver only")
    ap.add_argument(
        "--peer-backends", default="scipy,highs", help="the peer's back ends (scipy, highs)"
    )
    ap.add_argument("--arena", type=int, default=0, help="games of strong against greedy")
    ap.add_argument("--workers", type=int, default=2, help="processes for the arena match")
    ap.add_argument("--no-docs", action="store_true", help="do not update docs/benchmarks.md")
    ap.add_argument("--note", default="", help="a sentence to add to the report")
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s]
    backends = [b for b in args.peer_backends.split(",") if b]
    for b in backends:
        if b not in PEER_BACKENDS:
            ap.error(f"unknown peer back end {b!r} (one of {', '.join(PEER_BACKENDS)})")
    if not args.no_peer and backends:
        try:
            import rummikub_solver  # noqa: F401
        except ImportError:
            print("rummikub-solver is not installed: timing ours only", file=sys.stderr)
            backends = []
    else:
        backends = []
    warm(RUMMIKUB)  # load the compiled programmes (numba) before any clock starts
    warm(VATIKANEN)
    positions = {seed: _rummikub_positions(seed, args.count) for seed in seeds}
    games = read(args.games_file) if args.games_file else read()
    rng = random.Random(1)
    full = [random_position(rng, VATIKANEN, 80, rng.randint(8, 14)) for _ in range(args.vatikanen)]
    # every clock of ours before the peer's first solve
    ours = {
        seed: {
            size: [time_ours(p.table, p.hand, RUMMIKUB, args.repeat) for p in ps]
            for size, ps in by_size.items()
        }
        for seed, by_size in positions.items()
    }
    game_ms = [time_ours(t, h, VATIKANEN, args.repeat, free)[0] for free, t, h in games]
    full_ms = [time_ours(p.table, p.hand, VATIKANEN, args.repeat)[0] for p in full]
    print(f"vatikanen games: {len(game_ms)} positions, {fmt(stats(game_ms))}", flush=True)
    lines = _header(args)
    failed = False
    verdicts = []
    for seed in seeds:
        block, ratio, bad = _rummikub_seed(seed, positions[seed], ours[seed], backends, args)
        lines += block
        failed |= bad
        if ratio is not None:
            verdicts.append((seed, ratio))
    if verdicts:
        met = all(r >= BAR_RATIO for _, r in verdicts)
        lines += [
            "",
            f"Rummikub bar (p90 at least {BAR_RATIO}x faster than the peer's faster back end,"
            f" every seed): **{'met' if met else 'not met'}**"
            f" ({', '.join(f'seed {s}: {r:.0f}x' for s, r in verdicts)}).",
        ]
    lines += _vatikanen_games(games, game_ms)
    if full_ms:
        sizes = [p.table_size for p in full]
        lines += [
            "",
            f"Random full-deck Vatikanen tables ({len(full_ms)}, {min(sizes)}-{max(sizes)} cards,"
            f" hands of 8-14): median / p90 / p99 / max {fmt(stats(full_ms))}.",
        ]
    if args.arena:
        lines += _arena(args.arena, args.workers)
    if args.note:
        lines += ["", args.note]
    print("\n".join(lines))
    if not args.no_docs:
        _write_docs(lines)
    if failed:
        print("FAIL: positions without jokers disagree with the peer", file=sys.stderr)
        return 1
    return 0


def _rummikub_positions(seed: int, count: int) -> dict[int, list[Position]]:
    rng = random.Random(seed)
    return {
        size: [
            random_position(rng, RUMMIKUB, size, rng.randint(8, 14), jokers=rng.randint(0, 2))
            for _ in range(count)
        ]
        for size in SIZES
    }


def _rummikub_seed(
    seed: int,
    by_size: dict[int, list[Position]],
    ours: dict[int, list[tuple[float, int]]],
    backends: list[str],
    args: argparse.Namespace,
) -> tuple[list[str], float | None, bool]:
    """The report of one seed, the p90 ratio against the faster back end, and a failure."""
    peer: dict[str, dict[int, list[float]]] = {b: {} for b in backends}
    disagree = joker_diffs = 0
    for size, ps in by_size.items():
        for b in backends:
            peer[b][size] = []
        for pos, (_ms, n) in zip(ps, ours[size], strict=True):
            jokers = any(c.is_joker for m in pos.table for c in m.cards) or any(
                c.is_joker for c in pos.hand
            )
            for b in backends:
                pms, pn = time_peer(pos, args.repeat, b)
                peer[b][size].append(pms)
                if pn != n:
                    tag = "with jokers" if jokers else "WITHOUT jokers"
                    print(f"differ ({tag}): ours {n}, peer ({b}) {pn}: {pos}", file=sys.stderr)
                    if jokers:
                        joker_diffs += 1
                    else:
                        disagree += 1
        print(f"seed {seed} table {size}: done", flush=True)
    head = "| table cards | ours |"
    for b in backends:
        head += f" rummikub-solver ({NAMES[b]}) | p90 ratio |"
    out = [
        "",
        f"#### Rummikub, seed {seed}",
        "",
        "median / p90 / p99 / max per table size.",
        "",
        head,
        "|" + "---|" * (2 + 2 * len(backends)),
    ]
    rows: list[tuple[str, list[float], dict[str, list[float]]]] = [
        (str(size), [ms for ms, _n in ours[size]], {b: peer[b][size] for b in backends})
        for size in by_size
    ]
    rows.append(
        (
            "all",
            [ms for size in by_size for ms, _n in ours[size]],
            {b: [x for size in by_size for x in peer[b][size]] for b in backends},
        )
    )
    ratios: dict[str, float] = {}
    for name, mine, theirs in rows:
        o = stats(mine)
        line = f"| {name} | {fmt(o)} |"
        for b in backends:
            p = stats(theirs[b])
            ratio = p[1] / max(o[1], 1e-9)
            line += f" {fmt(p)} | {ratio:.0f}x |"
            if name == "all":
                ratios[b] = ratio
        out.append(line)
    if not backends:
        return out, None, False
    out += [
        "",
        f"Seed {seed}: p90 ratio "
        + ", ".join(f"{ratios[b]:.0f}x against {NAMES[b]}" for b in backends)
        + f". Disagreements without jokers: {disagree}; with jokers (the peer omits some"
        f" joker sets): {joker_diffs}.",
    ]
    return out, min(ratios.values()), disagree > 0


def _vatikanen_games(
    games: list[tuple[bool, list[Meld], list[Card]]], ms: list[float]
) -> list[str]:
    sizes = [sum(len(m) for m in t) for _free, t, _h in games]
    out = [
        "",
        f"#### Vatikanen positions from real games ({len(ms)},"
        " `benchmarks/vatikanen_positions.txt`)",
        "",
        "| table cards | positions | median / p90 / p99 / max | over 1 ms | over 5 ms |",
        "|---|---|---|---|---|",
    ]

    def row(name: str, keep: Callable[[int], bool]) -> None:
        xs = [x for x, size in zip(ms, sizes, strict=True) if keep(size)]
        if not xs:
            return
        over1 = sum(1 for x in xs if x > 1)
        over5 = sum(1 for x in xs if x > 5)
        out.append(f"| {name} | {len(xs)} | {fmt(stats(xs))} | {over1} | {over5} |")

    for lo, hi in BUCKETS:
        row(f"{lo}-{hi}" if hi < 999 else f"{lo}+", lambda n, lo=lo, hi=hi: lo <= n <= hi)
    row("all", lambda n: True)
    median, _p90, p99, top = stats(ms)
    met = median < BAR_MEDIAN and p99 < BAR_P99 and top <= BAR_MAX
    out += [
        "",
        f"Vatikanen bar (median under {BAR_MEDIAN} ms, p99 under {BAR_P99:.0f} ms, none over"
        f" {BAR_MAX:.0f} ms): **{'met' if met else 'not met'}** (median {_ms(median)},"
        f" p99 {_ms(p99)}, max {_ms(top)} ms).",
    ]
    return out


def _arena(games: int, workers: int) -> list[str]:
    """The standard two-player match, strong against greedy, and the bot's bar."""
    import resource

    from rummykit.arena import ArenaConfig, summarize
    from rummykit.arena.run import run_match

    config = ArenaConfig("vatikanen", 2, ("strong", "greedy"), games, ARENA_SEED)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu0 = time.process_time()
    match = run_match(config, workers=workers)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - cpu0 + after.ru_utime - before.ru_utime
    summary = summarize(config, match.results, seconds=match.seconds)
    out = [
        "",
        f"#### The standard match: strong against greedy, {games} games, seed {ARENA_SEED},"
        f" {match.backend}",
        "",
        f"{match.seconds:.0f} s of wall time, {cpu:.0f} s of CPU (every process)."
        " ms/move: the arena's wall clock per decision; CPU ms/move: the deciding"
        " thread's CPU time per decision (the bot's own cost, steady however busy the"
        " machine is: the bar is read on it).",
        "",
        "| bot | wins | win rate | 95% CI | mean score | 95% CI | ms/move | CPU ms/move | faults |",
        "|---|---:|---:|---|---:|---|---:|---:|---:|",
    ]
    for name, r in summary["results"].items():
        lo, hi = r["ci95"]
        slo, shi = r["score_ci95"]
        out.append(
            f"| `{name}` | {r['wins']:g} | {100 * r['win_rate']:.1f}% | {100 * lo:.1f}-"
            f"{100 * hi:.1f}% | {r['mean_score']:.2f} | {slo:.1f} - {shi:.1f} |"
            f" {r['ms_per_move']:.2f} | {r['cpu_ms_per_move']:.2f} | {r['faults']} |"
        )
    strong = summary["results"]["strong"]
    rate, lo, hi = strong["win_rate"], *strong["ci95"]
    b_rate, b_lo, b_hi, b_what = BEFORE
    same = b_lo <= rate <= b_hi and lo <= b_rate <= hi
    fast = strong["cpu_ms_per_move"] <= BAR_MOVE
    out += [
        "",
        f"Strong bot bar (at most {BAR_MOVE:.0f} ms a move; the win rate unchanged within the"
        f" intervals): **{'met' if same and fast else 'not met'}** ({strong['cpu_ms_per_move']:.2f}"
        f" ms of CPU a move, {strong['ms_per_move']:.2f} ms of wall clock; win rate"
        f" {100 * rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%), before the"
        f" rework {100 * b_rate:.1f}% ({100 * b_lo:.1f}-{100 * b_hi:.1f}%, {b_what}).",
    ]
    return out


def _header(args: argparse.Namespace) -> list[str]:
    argv = sys.argv[1:]
    if "--note" in argv:  # the note is printed below the tables, not in the command
        at = argv.index("--note")
        argv = argv[:at] + argv[at + 2 :]
    cmd = ("python benchmarks/solver.py " + " ".join(argv)).strip()
    return [
        "## Solver",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()}"
        f" {platform.python_version()}, {dt.date.today().isoformat()}, commit {_commit()}."
        f" Command: `{cmd}`. {_engine()}.",
        "",
        "CPU time (`time.process_time`) per position, the best of"
        f" {args.repeat} solves; every position of ours timed before the peer's first solve."
        f" Rummikub: {args.count} random positions per table size and seed, hands of 8-14,"
        " 0-2 jokers, Rummikub rules on both sides.",
    ]


def _commit() -> str:
    try:
        got = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return got.stdout.strip()


def _engine() -> str:
    if not programme.compiled():
        return "Pure Python (numba not installed)"
    import numba

    return f"Compiled with numba {numba.__version__}"


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
