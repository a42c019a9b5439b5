"""The bots' ladder: a round robin of every bot level of each game, rated on one scale.

Every pair of levels a table can seat (``rummykit.bots.levels`` less those that need
settings, such as a trained ``policy``) plays a two-player arena match on duplicate
deals (each deck once in each seat rotation, the seed fixed, so a rerun plays the same
games); :func:`rummykit.ratings.fit` makes OpenSkill ratings of all the games of a game
(each game's placing from its result, as for people), and the file
``src/rummykit/ratings/ladder.json`` is written: per game, per level, mu, sigma and the
games it played, with each match's wins, the command, the date and the commit.

    nice -n 10 python benchmarks/ladder.py --workers 2     # the ladder (~11 min of bot CPU)
    python benchmarks/ladder.py --decks 5 --out /tmp/l.json   # a smoke run
    python benchmarks/ladder.py --only kontrakt            # one game; the others kept

Each pair plays ``--decks`` decks (two games each), except where ``--cap LEVEL=N`` caps
the decks of every pair with that level (a slow level: the Vatikanen ``expert`` thinks
about 40 ms a move, a hundred times ``strong``; the Kontrakt ``expert`` about 100 ms, 10
decks a pair) and ``--pair A:B=N`` sets one pair's decks (``expert`` against ``random``:
the random bot makes long games, 12 s of CPU each). The bots play at their default
settings, as a table seats them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from rummykit import games
from rummykit.arena import ArenaConfig
from rummykit.arena.run import Progress, run_match
from rummykit.bots.levels import levels, needs_settings
from rummykit.ratings import LadderGame, fit
from rummykit.ratings.ladder import FORMAT

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "rummykit" / "ratings" / "ladder.json"
SEED = 20251205
DECKS = 150
CAPS = {"vatikanen": {"expert": 75}, "kontrakt": {"expert": 10}}
"""Default caps on the decks of every pair with a slow level, per game."""
PAIRS = {"vatikanen": {("expert", "random"): 10}, "kontrakt": {("expert", "random"): 3}}
"""Default decks of single pairs, per game (expert against random: long games)."""
ORDERS = 20


def seatable(game: str) -> list[str]:
    """The levels a table can seat (no required settings), in the registry's order."""
    return [level for level in levels(game) if not needs_settings(game, level)]


def pair_decks(
    game: str, a: str, b: str, decks: int, caps: dict[str, int], pairs: dict[tuple[str, str], int]
) -> int:
    """How many decks the pair ``a``, ``b`` plays."""
    for key in ((a, b), (b, a)):
        if key in pairs:
            return pairs[key]
    return min([decks, *(caps[x] for x in (a, b) if x in caps)])


def _commit() -> str:
    try:
        got = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return "unknown"
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", "src", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (got.stdout.strip() or "unknown") + (" with uncommitted changes" if dirty else "")


def play_game_ladder(
    game: str,
    decks: int,
    caps: dict[str, int],
    pairs: dict[tuple[str, str], int],
    seed: int,
    workers: int,
    quiet: bool,
) -> tuple[dict[str, Any], list[LadderGame]]:
    """The round robin of ``game``: each match's summary and every game's placing."""
    spec = games.get(game)
    matches: list[dict[str, Any]] = []
    played: list[LadderGame] = []
    for n, (a, b) in enumerate(itertools.combinations(seatable(game), 2)):
        count = pair_decks(game, a, b, decks, caps, pairs)
        if count <= 0:
            continue
        config = ArenaConfig(game, 2, (a, b), games=2 * count, seed=seed + n)
        print(f"== {game}: {a} v {b}, {config.games} games, seed {config.seed}", file=sys.stderr)
        progress = None if quiet else Progress(label=f"{a} v {b}", every=60.0)
        match = run_match(config, workers=workers, progress=progress)
        wins = {a: 0.0, b: 0.0}
        failed = 0
        for r in match.results:
            if r.error is not None:
                failed += 1
                continue
            places = spec.places({"scores": list(r.scores)}, 2)
            played.append(LadderGame(r.bots, places, (r.index + 0.5) / config.games))
            for seat, level in enumerate(r.bots):
                if places[seat] == 1:
                    wins[level] += 1.0 / places.count(1)
        matches.append(
            {
                "levels": [a, b],
                "games": config.games - failed,
                "failed": failed,
                "seed": config.seed,
                "wins": [round(wins[a], 1), round(wins[b], 1)],
                "seconds": round(match.seconds, 1),
                "bot_cpu_seconds": round(sum(sum(r.think_cpu) for r in match.results), 1),
            }
        )
        print(f"   {a} {wins[a]:g} - {wins[b]:g} {b} in {match.seconds:.0f} s", file=sys.stderr)
    return {"matches": matches}, played


def table(data: dict[str, Any]) -> str:
    """The ladder as a markdown table (for docs/bots.md)."""
    lines = ["| game | level | rating | mu | sigma | games |", "|---|---|---:|---:|---:|---:|"]
    for game in data["games"]:
        for rung in ladder_of(data, game):
            r = rung["rating"]
            lines.append(
                f"| {game} | `{rung['level']}` | {r.shown} | {r.mu:.2f} | {r.sigma:.2f}"
                f" | {r.games} |"
            )
    return "\n".join(lines)


def ladder_of(data: dict[str, Any], game: str) -> list[dict[str, Any]]:
    from rummykit.ratings import Rating

    rungs = [
        {"level": level, "rating": Rating(v["mu"], v["sigma"], v["games"])}
        for level, v in data["games"][game]["levels"].items()
    ]
    return sorted(rungs, key=lambda x: -x["rating"].ordinal)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=DECKS, help="decks a pair (2 games each)")
    parser.add_argument("--cap", action="append", default=[], metavar="LEVEL=N")
    parser.add_argument("--pair", action="append", default=[], metavar="A:B=N")
    parser.add_argument("--only", help="one game (the others are kept from the file)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--orders", type=int, default=ORDERS, help="orders of the games fitted")
    parser.add_argument("--workers", type=int, default=1, help="local processes")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else list(games.names())
    old: dict[str, Any] = {}
    if args.only and args.out.exists():
        old = json.loads(args.out.read_text("utf-8")).get("games", {})
    command = "python benchmarks/ladder.py" + (" " + shlex.join(argv or sys.argv[1:])).rstrip()
    stamp = {
        "command": command,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "commit": _commit(),
    }
    out_games: dict[str, Any] = dict(old)
    for game in names:
        caps = dict(CAPS.get(game, {}))
        pairs = dict(PAIRS.get(game, {}))
        for text in args.cap:
            level, _, n = text.partition("=")
            caps[level] = int(n)
        for text in args.pair:
            both, _, n = text.partition("=")
            a, _, b = both.partition(":")
            pairs[(a, b)] = int(n)
        summary, played = play_game_ladder(
            game, args.decks, caps, pairs, args.seed, args.workers, args.quiet
        )
        ratings = fit(played, orders=args.orders, seed=args.seed)
        out_games[game] = {
            "players": 2,
            **stamp,
            "orders": args.orders,
            **summary,
            "levels": {
                level: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "games": r.games}
                for level, r in sorted(ratings.items())
            },
        }
    data = {
        "format": FORMAT,
        "model": "openskill PlackettLuce, its defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)",
        "shown": "400 + 50 * (mu - 3 sigma)",
        "games": {g: out_games[g] for g in games.names() if g in out_games},
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
    print(table(data))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
