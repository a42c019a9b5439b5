"""Soak: play many whole Kontraktsrummy games (seven deals) with the built-in bots.

Game ``i`` seats ``2 + i % 7`` players; its bots are all random (``i % 3 == 0``),
all basic (``1``) or mixed, seat by seat (``2``); with ``--strong-every K`` every
``K``-th game seats the strong bot, basic and random in turn instead. After
every action the engine's cards are checked for conservation (RULES.md);
every game must end after seven deals with totals equal to the deal scores
summed; every ``--replay-every``-th game is written as a record and replayed.
Any exception or failed check counts as an error.

    python benchmarks/kontrakt_games.py --games 10000 --jobs 2 --strong-every 25
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummykit.bots.kontrakt_basic import BasicBot, RandomBot
from rummykit.bots.kontrakt_strong import StrongBot
from rummykit.games.kontrakt import DEALS, KontraktGame
from rummykit.record import parse_record, replay

MAX_ACTIONS = 100_000


BOTS = {"r": RandomBot, "b": BasicBot, "s": StrongBot}


def bots_for(i: int, n: int, strong_every: int = 0) -> str:
    """The bot of each seat of game ``i``: 'r' random, 'b' basic, 's' strong."""
    if strong_every and i % strong_every == 0:
        seats = ("sbr" * n)[:n]  # strong in a different seat from game to game
        return seats[i % n :] + seats[: i % n]
    return ("r" * n, "b" * n, "rb" * n)[i % 3][:n]


def play_one(i: int, seed: int, replay_every: int, strong_every: int = 0) -> dict[str, Any]:
    """Play game ``i``; return its figures or its error."""
    n = 2 + i % 7
    kinds = bots_for(i, n, strong_every)
    game = KontraktGame(n, seed=seed * 1_000_003 + i)
    bots = [BOTS[k](seed + 7919 * i + s) for s, k in enumerate(kinds)]
    actions = 0
    try:
        while (seat := game.to_act) is not None:
            # the strong bot reads the deal's log (what was discarded, taken, passed)
            game.apply(bots[seat].choose(game.view(seat, log=kinds[seat] == "s")))
            actions += 1
            ids = sorted(i for place in game.card_places().values() for i in place)
            if ids != list(range(len(game._s.deck))):
                raise AssertionError(f"cards not conserved after action {actions}")
            if actions > MAX_ACTIONS:
                raise AssertionError(f"no end after {MAX_ACTIONS} actions")
        if not game.over or len(game.scores) != DEALS:
            raise AssertionError("the game stopped before seven deals")
        if game.totals != [sum(d[s] for d in game.scores) for s in range(n)]:
            raise AssertionError("totals are not the deal scores summed")
        if replay_every and i % replay_every == 0:
            record = parse_record(json.loads(game.to_record().dumps()))
            result = replay(record)
            if not result.ok or list(result.scores) != game.totals:
                raise AssertionError(f"the record does not replay: {result.to_json()}")
    except Exception:  # every failure is counted and reported
        return {"i": i, "n": n, "kinds": kinds, "error": traceback.format_exc(limit=4)}
    return {"i": i, "n": n, "kinds": kinds, "actions": actions}


def _chunk(args: tuple[list[int], int, int, int]) -> list[dict[str, Any]]:
    games, seed, replay_every, strong_every = args
    return [play_one(i, seed, replay_every, strong_every) for i in games]


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print a summary (and JSON with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--replay-every", type=int, default=50)
    p.add_argument(
        "--strong-every", type=int, default=0, help="seat the strong bot in every K-th game"
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    start = time.perf_counter()
    chunks = [list(range(j, args.games, args.jobs * 8)) for j in range(args.jobs * 8)]
    work = [(c, args.seed, args.replay_every, args.strong_every) for c in chunks if c]
    results: list[dict[str, Any]] = []
    if args.jobs == 1:
        for w in work:
            results += _chunk(w)
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(_chunk, work):
                results += part
    wall = time.perf_counter() - start
    errors = [r for r in results if "error" in r]
    by_players: Counter[int] = Counter(r["n"] for r in results)
    actions = sum(r.get("actions", 0) for r in results)
    summary = {
        "games": len(results),
        "errors": len(errors),
        "games_with_strong": sum("s" in r["kinds"] for r in results),
        "jobs": args.jobs,
        "seconds": round(wall, 1),
        "games_per_second": round(len(results) / wall, 2),
        "actions": actions,
        "actions_per_second": round(actions / wall),
        "games_by_players": dict(sorted(by_players.items())),
        "max_actions": max((r.get("actions", 0) for r in results), default=0),
        "replayed": len([r for r in results if r["i"] % max(args.replay_every, 1) == 0])
        if args.replay_every
        else 0,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>20}: {value}")
    for e in errors[:5]:
        print(
            f"game {e['i']} ({e['n']} players, bots {e['kinds']}):\n{e['error']}", file=sys.stderr
        )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
