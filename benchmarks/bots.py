"""The standard bot matches of issue 5, measured in the arena; writes docs/benchmarks.md.

Every match uses duplicate deals (each deck in every seat rotation) and a
fixed seed, so a rerun plays the same games. The Bots section of
``docs/benchmarks.md`` (between its markers) is rewritten with the results,
the seeds, the bots' settings (their think budgets), the time per move and
how long each match took; each match's block names the date, commit and
command it was measured with, and ``--only`` keeps the blocks of the
matches it does not run.

    python benchmarks/bots.py --quick            # a smoke run: a few games each (minutes)
    python benchmarks/bots.py                    # the full matches (hours on 2 cores)
    python benchmarks/bots.py --workers 16       # more local processes
    python benchmarks/bots.py --ray ADDRESS      # on a Ray cluster ('' = a local instance)
    python benchmarks/bots.py --only vatikanen-2p,determinism --no-write
    python benchmarks/bots.py --games 100        # at most 100 games per match

The matches (full game counts; ``--quick`` plays far fewer):

- ``vatikanen-2p``: strong against greedy, 1,000 games. Goal: win rate at
  least 60% with the lower end of the 95% interval above 55%.
- ``vatikanen-4p``: strong against three greedy, 400 games. Goal: 40% (par 25%).
- ``vatikanen-expert-2p``, ``vatikanen-expert-strong``: expert against greedy and
  against strong, 600 games each. Goals (issue 44): 75% with the 95% interval
  above 70%; 60% with the interval above 55%.
- ``vatikanen-expert-3p``, ``vatikanen-expert-4p``: expert against two and three
  strong, 300 games each. Goal: 1.5 times the par share of wins (50%, 37.5%).
- ``kontrakt-4p``: strong against three basic, 200 seven-deal games. Goal: a
  mean total penalty at least 20% below basic's, the intervals apart.
- ``kontrakt-expert-4p``: expert against three strong, 200 games. Goal (issue
  44): a mean total penalty at most 0.85 of strong's, the intervals apart.
- ``kontrakt-basic``: basic against three random, 200 games. Goal: basic's
  mean penalty clearly below random's (the intervals apart).
- ``determinism``: one small match with 1 worker, several, and Ray: the same
  results.
- ``external``: ``examples/random_bot.py`` (written from docs/bot-protocol.md
  alone) plays whole matches of both games without a fault.

Until a game has a ``strong`` level, its strong matches are replaced by the
best level against the weakest (greedy against random, basic against
random) and the section says that strong is missing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, is_dataclass
from pathlib import Path
from typing import Any

from rummykit.arena import ArenaConfig, comparable, fill_lineup, summarize
from rummykit.arena.run import Progress, default_workers, run_match
from rummykit.bots import levels, make_bot

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- bots:begin -->", "<!-- bots:end -->"
EXAMPLE = ROOT / "examples" / "random_bot.py"
SEED = 20250501


@dataclass(frozen=True)
class Standard:
    """One standard match: what to play, how many games, and the goal it checks."""

    name: str
    game: str
    players: int
    bots: tuple[str, ...]
    games: int
    quick: int
    goal: str
    fallback: tuple[str, ...] | None = None
    check: Callable[[dict[str, Any], tuple[str, ...]], bool | None] | None = None


def _rate_goal(rate: float, low: float | None = None) -> Callable[..., bool]:
    def check(summary: dict[str, Any], bots: tuple[str, ...]) -> bool:
        e = summary["results"][bots[0]]
        return bool(e["win_rate"] >= rate and (low is None or e["ci95"][0] > low))

    return check


def _penalty_goal(factor: float) -> Callable[..., bool]:
    def check(summary: dict[str, Any], bots: tuple[str, ...]) -> bool:
        first = summary["results"][bots[0]]
        other = summary["results"][bots[-1]]
        apart = first["score_ci95"][1] < other["score_ci95"][0]
        return bool(first["mean_score"] <= factor * other["mean_score"] and apart)

    return check


STANDARD = [
    Standard(
        "vatikanen-2p",
        "vatikanen",
        2,
        ("strong", "greedy"),
        1000,
        20,
        "strong wins >= 60%, 95% interval above 55%",
        fallback=("greedy", "random"),
        check=_rate_goal(0.60, 0.55),
    ),
    Standard(
        "vatikanen-4p",
        "vatikanen",
        4,
        ("strong", "greedy", "greedy", "greedy"),
        400,
        8,
        "strong wins >= 40% (par 25%)",
        fallback=("greedy", "random", "random", "random"),
        check=_rate_goal(0.40),
    ),
    Standard(
        "vatikanen-expert-2p",
        "vatikanen",
        2,
        ("expert", "greedy"),
        600,
        8,
        "expert wins >= 75%, 95% interval above 70% (issue 44)",
        check=_rate_goal(0.75, 0.70),
    ),
    Standard(
        "vatikanen-expert-strong",
        "vatikanen",
        2,
        ("expert", "strong"),
        600,
        8,
        "expert wins >= 60% against strong, 95% interval above 55% (issue 44)",
        check=_rate_goal(0.60, 0.55),
    ),
    Standard(
        "vatikanen-expert-3p",
        "vatikanen",
        3,
        ("expert", "strong", "strong"),
        300,
        6,
        "expert wins >= 1.5 x par (50%) against two strong (issue 44)",
        check=_rate_goal(0.50),
    ),
    Standard(
        "vatikanen-expert-4p",
        "vatikanen",
        4,
        ("expert", "strong", "strong", "strong"),
        300,
        8,
        "expert wins >= 1.5 x par (37.5%) against three strong (issue 44)",
        check=_rate_goal(0.375),
    ),
    Standard(
        "kontrakt-4p",
        "kontrakt",
        4,
        ("strong", "basic", "basic", "basic"),
        200,
        8,
        "strong's mean penalty >= 20% below basic's, intervals apart",
        check=_penalty_goal(0.8),
    ),
    Standard(
        "kontrakt-expert-4p",
        "kontrakt",
        4,
        ("expert", "strong", "strong", "strong"),
        200,
        8,
        "expert's mean penalty <= 0.85 of strong's, intervals apart (issue 44)",
        check=_penalty_goal(0.85),
    ),
    Standard(
        "kontrakt-basic",
        "kontrakt",
        4,
        ("basic", "random", "random", "random"),
        200,
        8,
        "basic's mean penalty clearly below random's (intervals apart)",
        check=_penalty_goal(1.0),
    ),
]


def _games(std: Standard, quick: bool, cap: int | None) -> int:
    """The match's game count: standard or quick, at most ``cap``, whole decks."""
    games = std.quick if quick else std.games
    if cap is not None:
        games = min(games, max(std.players, cap - cap % std.players))
    return games


def _example_spec() -> str:
    return "cmd:" + shlex.join([sys.executable, str(EXAMPLE)])


def bot_settings(game: str, level: str) -> str:
    """A bot's public settings (its think budget, for a searching bot), as text."""
    if level.startswith("cmd:"):
        return "external program"
    bot = make_bot(game, level, 0)
    found = dict(vars(bot))
    for group in ("heuristic", "search"):  # settings grouped in a dataclass each
        if is_dataclass(found.get(group)):
            found.update(asdict(found.pop(group)))
    simple = {
        k: v
        for k, v in sorted(found.items())
        if not k.startswith("_")
        and k not in ("seed", "level")
        and isinstance(v, int | float | str | None)
    }
    return ", ".join(f"{k}={v}" for k, v in simple.items()) or "-"


def play(
    name: str,
    config: ArenaConfig,
    *,
    workers: int | None,
    ray: str | None,
    quiet: bool,
) -> dict[str, Any]:
    """Play one match and return its row for the report."""
    print(
        f"== {name}: {config.game}, {config.players} players, {', '.join(config.lineup)},"
        f" {config.games} games, seed {config.seed}",
        file=sys.stderr,
    )
    progress = None if quiet else Progress(label=f"{name} games", every=60.0)
    match = run_match(config, workers=workers, ray_address=ray, progress=progress)
    summary = summarize(config, match.results, seconds=match.seconds)
    errors = [r.error for r in match.results if r.error]
    for e in errors[:5]:
        print(f"   game failed: {e}", file=sys.stderr)
    print(json.dumps(summary), file=sys.stderr)
    return {
        "name": name,
        "config": config,
        "summary": summary,
        "backend": match.backend,
        "errors": len(errors),
    }


def _fmt_results(row: dict[str, Any]) -> list[str]:
    config: ArenaConfig = row["config"]
    score = "mean score" if config.game == "vatikanen" else "mean penalty"
    lines = [
        f"| bot | seat-games | wins | win rate | 95% CI | {score} | 95% CI | Elo | ms/move"
        " | faults |",
        "|---|---:|---:|---:|---|---:|---|---:|---:|---:|",
    ]
    for bot, e in row["summary"]["results"].items():
        lo, hi = e["ci95"]
        slo, shi = e["score_ci95"]
        lines.append(
            f"| `{_short(bot)}` | {e['games']} | {e['wins']:.1f} | {100 * e['win_rate']:.1f}%"
            f" | {100 * lo:.1f}–{100 * hi:.1f}% ({e['ci95_method']}) | {e['mean_score']:.2f}"
            f" | {slo:.1f} – {shi:.1f} | {e['elo']:.0f} | {e['ms_per_move']:.1f} | {e['faults']} |"
        )
    return lines


def _short(spec: str) -> str:
    return spec.replace(sys.executable, "python").replace(str(ROOT) + "/", "")


MATCH_ORDER = (
    "vatikanen-2p",
    "vatikanen-4p",
    "vatikanen-expert-2p",
    "vatikanen-expert-strong",
    "vatikanen-expert-3p",
    "vatikanen-expert-4p",
    "kontrakt-4p",
    "kontrakt-expert-4p",
    "kontrakt-basic",
    "determinism",
    "external (vatikanen)",
    "external (kontrakt)",
)
"""The matches in the order the section shows them."""


def _block_marks(name: str) -> tuple[str, str]:
    return f"<!-- match: {name} -->", f"<!-- /match: {name} -->"


def kept_blocks(old: str) -> dict[str, str]:
    """The match blocks of an earlier Bots section, by match name (for ``--only``)."""
    out = {}
    for name in MATCH_ORDER:
        begin, end = _block_marks(name)
        i, j = old.find(begin), old.find(end)
        if 0 <= i < j:
            out[name] = old[i : j + len(end)]
    return out


def _commit() -> str:
    try:
        got = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return "unknown"
    dirty = subprocess.run(  # the code, not the documents this script writes
        ["git", "status", "--porcelain", "--untracked-files=no", "--", "src", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (got.stdout.strip() or "unknown") + (" with uncommitted changes" if dirty else "")


def report(
    rows: list[dict[str, Any]],
    notes: list[str],
    quick: bool,
    total: float,
    command: str,
    kept: dict[str, str] | None = None,
) -> str:
    """The Bots section as Markdown; ``kept`` blocks stand for matches not run now."""
    out = [
        "## Bots",
        "",
        "Written by `python benchmarks/bots.py` (do not edit by hand); each match"
        " names the command, date and commit it was measured with (`--only` reruns"
        " some matches and keeps the others). Arena matches with duplicate"
        " deals: every deck is played once in each seat rotation. `seat-games` counts"
        " each seat a bot held;"
        " a shared win counts 1/k to each of the k winners. The 95% interval of the win"
        " rate is Wilson's, widened (`deck-clustered`) by the design effect of the decks"
        " when a match has at least 10 decks (the games of one deck are correlated; never"
        " narrower than Wilson's); the score interval likewise."
        " Vatikanen's score is the game's zero-sum payment (higher is better);"
        " Kontrakt's penalty is the total of the seven deals (lower is better). Elo:"
        " Bradley-Terry fit of the pairwise results of every game (by score), the first"
        " bot 1500.",
        "",
    ]
    out += [f"- {n}" for n in notes]
    if notes:
        out.append("")
    stamp = f"{dt.date.today().isoformat()}, commit {_commit()}, `{command}`"
    if quick:
        stamp += " (**quick run**: a smoke test with a few games; the figures prove nothing)"
    blocks = {row["name"]: _block(row, stamp) for row in rows}
    for name in MATCH_ORDER:
        if name in blocks:
            out += [blocks[name], ""]
        elif kept and name in kept:
            out += [kept[name], ""]
    out.append(f"This invocation: {total:.0f} s.")
    return "\n".join(out) + "\n"


def _block(row: dict[str, Any], stamp: str) -> str:
    """One match's results between its markers."""
    config: ArenaConfig = row["config"]
    s = row["summary"]
    lineup = ", ".join(f"`{_short(b)}`" for b in config.lineup)
    begin, end = _block_marks(row["name"])
    out = [
        begin,
        f"### {row['name']}: {config.game}, {config.players} players",
        "",
        f"- measured {stamp}",
        f"- lineup (seat 0 of rotation 0 first): {lineup}",
        f"- {s['games']} games = {config.decks} deck(s) × {config.players} rotations,"
        f" seed {config.seed}, "
        + row.get("timing", f"{row['backend']}, {s['seconds']:.1f} s")
        + (f", **{row['errors']} game(s) failed**" if row["errors"] else ""),
        "- settings: "
        + "; ".join(f"`{_short(b)}`: {bot_settings(config.game, b)}" for b in config.bots),
    ]
    if row.get("goal"):
        verdict = row.get("verdict")
        mark = "met" if verdict else ("not met" if verdict is False else "not judged")
        out.append(f"- goal: {row['goal']} — **{mark}**")
    out += ["", *_fmt_results(row), end]
    return "\n".join(out)


def write_section(text: str) -> None:
    """Put the Bots section into docs/benchmarks.md between its markers."""
    block = f"{BEGIN}\n{text}{END}\n"
    old = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n\n"
    if BEGIN in old and END in old:
        new = re.sub(
            re.escape(BEGIN) + ".*?" + re.escape(END) + "\n?", lambda _: block, old, flags=re.S
        )
    else:
        new = old.rstrip("\n") + "\n\n" + block
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(new, encoding="utf-8")


def determinism(
    workers: int, ray: str | None, quick: bool, quiet: bool, bots: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """One small match with 1 worker, several workers and Ray: are the results the same?"""
    game = "vatikanen"
    if bots is None:
        bots = ("strong", "greedy") if "strong" in levels(game) else ("greedy", "random")
    config = ArenaConfig(game, 2, bots, games=4 if quick else 40, seed=SEED + 1)
    runs = []
    several = max(2, workers)
    backends: list[tuple[str, int | None, str | None]] = [
        ("1 worker", 1, None),
        (f"{several} workers", several, None),
    ]
    if importlib.util.find_spec("ray") is not None:
        backends.append(("Ray", several if ray in (None, "") else None, ray or ""))
    for label, w, address in backends:
        row = play(f"determinism ({label})", config, workers=w, ray=address, quiet=quiet)
        runs.append((label, row))
    base = comparable(runs[0][1]["summary"])
    same = all(comparable(r["summary"]) == base for _, r in runs)
    row = dict(runs[0][1])
    row["name"] = "determinism"
    row["goal"] = "the same results with " + ", ".join(label for label, _ in runs)
    row["verdict"] = same
    row["timing"] = "; ".join(f"{label}: {r['summary']['seconds']:.1f} s" for label, r in runs)
    if importlib.util.find_spec("ray") is None:
        row["goal"] += " (Ray is not installed: pip install 'rummykit[cluster]')"
    return row


def external(quick: bool, workers: int | None, quiet: bool) -> list[dict[str, Any]]:
    """The example bot of docs/bot-protocol.md plays whole matches of both games."""
    spec = _example_spec()
    rows = []
    for game, players, other in (("vatikanen", 2, "greedy"), ("kontrakt", 4, "basic")):
        lineup = (*[other] * (players - 1), spec)
        games = players * (1 if quick else 5)
        config = ArenaConfig(game, players, lineup, games=games, seed=SEED + 2)
        row = play(f"external ({game})", config, workers=workers, ray=None, quiet=quiet)
        entry = row["summary"]["results"][spec]
        row["goal"] = "whole matches without a fault"
        row["verdict"] = entry["faults"] == 0 and row["errors"] == 0
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few games per match")
    parser.add_argument("--workers", type=int, default=default_workers(), help="processes")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--only", help="comma-separated match names")
    parser.add_argument(
        "--games", type=int, metavar="N", help="at most N games per match (rounded to the players)"
    )
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument(
        "--determinism-bots",
        metavar="A,B",
        help="the Vatikanen bots of the determinism match (default strong,greedy when"
        " strong exists, else greedy,random)",
    )
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    notes = []
    for std in STANDARD:
        if only is not None and std.name not in only:
            continue
        bots = std.bots
        goal: str | None = std.goal
        if "strong" in bots and "strong" not in levels(std.game):
            if std.fallback is None:
                notes.append(f"`{std.name}`: not played: {std.game} has no `strong` bot yet.")
                continue
            notes.append(
                f"`{std.name}`: {std.game} has no `strong` bot yet;"
                f" played {' vs '.join(dict.fromkeys(std.fallback))} instead (goal not judged)."
            )
            bots, goal = std.fallback, None
        config = ArenaConfig(
            std.game,
            std.players,
            fill_lineup(list(bots), std.players),
            games=_games(std, args.quick, args.games),
            seed=args.seed,
        )
        row = play(std.name, config, workers=args.workers, ray=args.ray, quiet=args.quiet)
        row["goal"] = goal
        if goal is not None and std.check is not None:
            row["verdict"] = std.check(row["summary"], config.lineup)
        rows.append(row)
    if only is None or "determinism" in only:
        chosen = tuple(args.determinism_bots.split(",")) if args.determinism_bots else None
        rows.append(determinism(args.workers, args.ray, args.quick, args.quiet, chosen))
    if only is None or "external" in only:
        rows.extend(external(args.quick, args.workers, args.quiet))
    command = shlex.join(
        ["python", "benchmarks/bots.py", *(sys.argv[1:] if argv is None else argv)]
    )
    kept = None
    if only is not None and DOC.exists():
        kept = kept_blocks(DOC.read_text(encoding="utf-8"))
    text = report(rows, notes, args.quick, time.perf_counter() - started, command, kept)
    print(text)
    if not args.no_write:
        write_section(text)
        print(f"wrote the Bots section of {DOC.relative_to(ROOT)}", file=sys.stderr)
    failed = [r["name"] for r in rows if r.get("verdict") is False]
    if failed:
        print(f"goals not met: {', '.join(failed)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
