"""Soak: thousands of whole games of any registered game, through the game interface alone.

Game ``i`` of the soak is fully determined by ``i``: the number of players,
the house rules (each at random), the bots (all random, all the game's
default level, or mixed; with ``--strong-every K`` every ``K``-th game seats
the strong bot too) and the seed. After every action it checks:

- card conservation and valid melds (``check_invariants``);
- the views' secrecy: the view of the seat that acted (every ``--deep``-th
  action: of every seat) agrees with the spectator's
  except for its own hand and the private parts of its own log entries (a
  drawn card), its hand has the size the others see, and on the deep check
  every hand is exactly the engine's cards and a view is written as JSON.

At the end the game's record replays legally to the same standings, and the
game rebuilt from its record (``from_record``) shows every seat the same
views. Any exception or failed check counts as an error::

    python benchmarks/soak.py --game vatikanen --games 10000 --jobs 2
    python benchmarks/soak.py --game kontrakt --games 10000 --jobs 2 --strong-every 25
    python benchmarks/soak.py --game kontrakt --one 4711     # replay one game, to debug it
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummykit import games
from rummykit.game import Game
from rummykit.record import replay

MAX_ACTIONS = 200_000
"""A guard against a game that never ends (no game may: Kontrakt deals have a turn limit)."""


def setup(name: str, i: int, strong_every: int = 0) -> dict[str, Any]:
    """Game ``i`` of the soak: players, options, bot levels and seed, all from ``i``."""
    spec = games.get(name)
    rng = random.Random(f"{name}:{i}")
    n = rng.randint(spec.min_players, spec.max_players)
    options = {r.name: rng.random() < 0.5 for r in spec.house_rules if isinstance(r.default, bool)}
    mode = ("random", spec.default_bot, "mixed")[i % 3]
    levels = [
        rng.choice(["random", spec.default_bot]) if mode == "mixed" else mode for _ in range(n)
    ]
    if strong_every and i % strong_every == 0:
        levels[i % n] = "strong"
    return {"players": n, "options": options, "levels": levels, "seed": rng.randrange(2**32)}


def public_agrees(game: Game, start: int, seats: list[int], deep: bool) -> None:
    """The views of ``seats`` are the spectator's but for their own hand and their own
    private log parts.

    The log is compared from entry ``start`` on (what the last action added); ``deep``
    also writes every view as JSON.
    """
    spectator = game.spectator_view()
    assert spectator["hand"] is None, "a spectator has a hand"
    sizes = spectator["hand_sizes"]
    assert isinstance(sizes, list)
    public = game.log_entries(None, start)
    for seat in seats:
        view = game.view(seat)
        if deep and seat == seats[-1]:
            json.dumps(view)
        for key, value in spectator.items():
            if key not in ("seat", "hand", "log"):
                assert view[key] == value, f"seat {seat} sees {key!r} otherwise"
        hand = view["hand"]
        assert isinstance(hand, list) and len(hand) == sizes[seat], "a hand of the wrong size"
        own = game.log_entries(seat, start)
        assert len(own) == len(public)
        for mine, theirs in zip(own, public, strict=True):
            if mine != theirs:
                assert mine.get("seat") == seat, f"seat {seat} sees more of another's action"
                assert all(mine.get(k) == v for k, v in theirs.items()), "an entry differs"
    if deep:
        json.dumps(spectator)


def deal_deck_hands(game: Game) -> list[list[str]]:
    """Each seat's hand as the engine holds it, as card text (from the record's deck)."""
    deck = game.to_record().deals[-1].deck
    places = game.card_places()
    return [sorted(str(deck[i]) for i in places[f"hand{s}"]) for s in range(game.n_players)]


def play_one(name: str, i: int, strong_every: int = 0, deep: int = 50) -> dict[str, Any]:
    """Play and check soak game ``i``; its figures, or its error."""
    spec = games.get(name)
    setting = setup(name, i, strong_every)
    started = time.perf_counter()
    try:
        game = spec.new(setting["players"], seed=setting["seed"], options=setting["options"])
        bots = [
            spec.make_bot(level, setting["seed"] + seat)
            for seat, level in enumerate(setting["levels"])
        ]
        actions = 0
        while (seat := game.to_act) is not None:
            before = game.log_size
            game.apply(bots[seat].choose(game.view(seat)))
            actions += 1
            assert actions < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
            game.check_invariants()
            check = actions % deep == 0
            # every action: the seat that acted; every seat on a deep check
            seats = list(range(game.n_players)) if check else [seat]
            public_agrees(game, before if game.log_size >= before else 0, seats, check)
            if check and game.to_act is not None:
                hands = deal_deck_hands(game)
                for s in range(game.n_players):
                    hand = game.view(s)["hand"]
                    assert isinstance(hand, list)
                    assert sorted(hand) == hands[s], f"seat {s}'s view shows another hand"
        result = game.result()
        assert result is not None and game.over
        record = game.to_record()
        replayed = replay(record)
        assert replayed.ok and list(replayed.scores) == list(game.standings), replayed.to_json()
        rebuilt = spec.from_record(record, seed=setting["seed"])
        for s in range(game.n_players):
            assert rebuilt.view(s) == game.view(s), "the rebuilt game shows another view"
    except Exception:  # every failure is counted and reported
        return {"i": i, **setting, "error": traceback.format_exc(limit=6)}
    return {
        "i": i,
        **setting,
        "actions": actions,
        "winners": len(result.winners),
        "seconds": time.perf_counter() - started,
    }


def _chunk(args: tuple[str, list[int], int, int]) -> list[dict[str, Any]]:
    name, indices, strong_every, deep = args
    return [play_one(name, i, strong_every, deep) for i in indices]


def summarize(name: str, results: list[dict[str, Any]], wall: float, jobs: int) -> dict[str, Any]:
    """The soak's figures."""
    errors = [r for r in results if "error" in r]
    by_players: Counter[int] = Counter(r["players"] for r in results)
    actions = sum(r.get("actions", 0) for r in results)
    return {
        "game": name,
        "games": len(results),
        "errors": len(errors),
        "failed": [r["i"] for r in errors][:20],
        "games_with_strong": sum("strong" in r["levels"] for r in results),
        "jobs": jobs,
        "seconds": round(wall, 1),
        "actions": actions,
        "actions_per_second": round(actions / wall) if wall else 0,
        "games_by_players": dict(sorted(by_players.items())),
        "max_actions": max((r.get("actions", 0) for r in results), default=0),
    }


def run(
    name: str, total: int, jobs: int, first: int = 0, strong_every: int = 0, deep: int = 50
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Soak games ``first`` .. ``first + total - 1`` of ``name``: the summary and the errors."""
    started = time.perf_counter()
    indices = list(range(first, first + total))
    chunks = [indices[j :: max(1, jobs * 8)] for j in range(max(1, jobs * 8))]
    work = [(name, c, strong_every, deep) for c in chunks if c]
    results: list[dict[str, Any]] = []
    if jobs == 1:
        for w in work:
            results += _chunk(w)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for part in pool.map(_chunk, work):
                results += part
    summary = summarize(name, results, time.perf_counter() - started, jobs)
    return summary, [r for r in results if "error" in r]


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print its summary (JSON with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=games.names(), required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--start", type=int, default=0, help="the first game's number (for shards)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--strong-every", type=int, default=0, help="seat the strong bot in every K-th")
    p.add_argument("--deep", type=int, default=50, help="check hands exactly every N actions")
    p.add_argument("--one", type=int, help="play game N alone and print what happened")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.one is not None:
        row = play_one(args.game, args.one, args.strong_every, 1)
        print(row.pop("error", ""), file=sys.stderr)
        print(json.dumps(row))
        return 0 if "actions" in row else 1
    summary, errors = run(
        args.game, args.games, args.jobs, args.start, args.strong_every, args.deep
    )
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>20}: {value}")
    for e in errors[:5]:
        where = f"game {e['i']} ({e['players']} players, {e['levels']})"
        print(f"{where}:\n{e['error']}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
