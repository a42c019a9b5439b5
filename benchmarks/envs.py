"""The learning environments' speed beside the raw engine's, measured in the same run.

For each game, whole games are played through the PettingZoo environment by a
random masked agent at every seat (in Kontrakt it lays cards 3 times in 4
when it can, as the ``random`` bot does), once through ``env()`` (with
PettingZoo's classic wrappers) and once through ``raw_env``. Then the very
same games, action for action, are played again through the game interface
alone:

- *engine: view + suggested actions + apply*: at every step the seat's view
  ``game.view(seat)``, ``game.suggested_actions()`` (legal actions the engine
  suggests: for Vatikanen the draw or pass and its solver plays, for Kontrakt
  the help checked by the engine) and ``game.apply(action)``: what a host gives an agent each step
  without the environment (what it sees, what it may do) and does with its
  answer. The overhead target is measured against this.
- *engine: suggested actions + apply*: the same without the view;
- *engine: apply only*: the games' records replayed through ``from_record``
  (every action checked), as ``benchmarks/engine.py`` measures it.

*steps/s* counts the environment's steps (``last()`` for the observation
and mask, then ``step``); the random agent's own choice is not timed. The
overhead is the time of an environment step over the time of an engine step
on the same positions; the target (issue 26) is at most 2x. Each game is
timed every way in turn, so the shared machine's load falls on all alike.
The Learning environments section of ``docs/benchmarks.md`` is rewritten
unless ``--no-write``::

    python benchmarks/envs.py [--vatikanen-games 40] [--kontrakt-games 8] [--players 4]
"""

from __future__ import annotations

import argparse
import platform
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from rummykit import games, solver
from rummykit.envs import kontrakt_v0, vatikanen_v0
from rummykit.game import AnyAction

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- envs:begin -->", "<!-- envs:end -->"
TARGET = 2.0
MODULES = {"vatikanen": vatikanen_v0, "kontrakt": kontrakt_v0}
LAYING = ("meld:", "layoff:", "swap:")


def pick(mask: np.ndarray, laying: np.ndarray, rng: random.Random) -> int:
    """A random legal index; one that lays cards (``laying``) 3 times in 4 when there is one."""
    legal = np.flatnonzero(mask)
    lays = legal[laying[legal]]
    if len(lays) and rng.random() < 0.75:
        return int(lays[rng.randrange(len(lays))])
    return int(legal[rng.randrange(len(legal))])


def env_game(
    name: str, players: int, seed: int, raw: bool = False
) -> tuple[float, int, list[AnyAction], Any]:
    """One game through ``env()`` (or ``raw_env`` without PettingZoo's wrappers): seconds
    (the agent's own choices left out), steps, the actions taken, and the record."""
    module = MODULES[name]
    env = module.raw_env(players=players) if raw else module.env(players=players)
    names = env.unwrapped.host.encoder.actions
    laying = np.array([n.startswith(LAYING) for n in names])
    rng = random.Random(seed)
    actions: list[AnyAction] = []
    steps = 0
    choosing = 0.0
    t0 = time.perf_counter()
    env.reset(seed=seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        t1 = time.perf_counter()
        index = pick(obs["action_mask"], laying, rng)
        actions.append(env.unwrapped.host.legal[index])  # kept for the engine's replay
        choosing += time.perf_counter() - t1
        env.step(index)
        steps += 1
    seconds = time.perf_counter() - t0 - choosing
    game = env.unwrapped.host.game
    assert game.over
    return seconds, steps, actions, game.to_record()


def engine_game(name: str, players: int, seed: int, actions: list[AnyAction], view: bool) -> float:
    """The same game through the game interface: (the seat's view,) its suggested actions, then
    apply, each step."""
    spec = games.get(name)
    t0 = time.perf_counter()
    game = spec.new([f"player_{i}" for i in range(players)], seed=seed)
    for action in actions:
        if view:
            game.view(action.seat)
        game.suggested_actions()
        game.apply(action)
    seconds = time.perf_counter() - t0
    assert game.over
    return seconds


def replay_game(name: str, record: Any) -> tuple[float, int]:
    """The game's record replayed (every action checked): seconds, actions."""
    spec = games.get(name)
    t0 = time.perf_counter()
    spec.from_record(record)
    seconds = time.perf_counter() - t0
    return seconds, sum(len(d.actions) for d in record.deals)


def measure(name: str, players: int, n_games: int, seed: int) -> dict[str, float]:
    """The speeds of ``name`` over ``n_games`` games, each game timed every way in turn."""
    time_of = dict.fromkeys(("env", "raw", "engine", "legal", "replay"), 0.0)
    steps = replayed = 0
    for k in range(n_games):
        s, n, actions, record = env_game(name, players, seed + k)
        time_of["env"] += s
        steps += n
        time_of["raw"] += env_game(name, players, seed + k, raw=True)[0]
        time_of["engine"] += engine_game(name, players, seed + k, actions, view=True)
        time_of["legal"] += engine_game(name, players, seed + k, actions, view=False)
        rs, rn = replay_game(name, record)
        time_of["replay"] += rs
        replayed += rn
    out = {"games": float(n_games), "steps": float(steps), "replay": replayed / time_of["replay"]}
    for key in ("env", "raw", "engine", "legal"):
        out[key] = steps / time_of[key]
    out["overhead"] = time_of["env"] / time_of["engine"]
    out["overhead_raw"] = time_of["raw"] / time_of["engine"]
    out["overhead_legal"] = time_of["env"] / time_of["legal"]
    return out


def table(rows: dict[str, dict[str, float]], players: int) -> str:
    """The figures as a Markdown table."""
    out = [
        "| game | players | games | steps | `env()` steps/s | `raw_env` steps/s"
        " | engine: view + suggested actions + apply /s | overhead `env()` | overhead `raw_env`"
        " | engine: suggested actions + apply /s (`env()` over it) | engine: apply only /s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        out.append(
            f"| {name} | {players} | {r['games']:.0f} | {r['steps']:,.0f} | {r['env']:,.0f}"
            f" | {r['raw']:,.0f} | {r['engine']:,.0f} | **{r['overhead']:.2f}x**"
            f" | {r['overhead_raw']:.2f}x | {r['legal']:,.0f} ({r['overhead_legal']:.2f}x)"
            f" | {r['replay']:,.0f} |"
        )
    return "\n".join(out)


def write_doc(text: str, args: argparse.Namespace, ok: bool) -> None:
    """Put the Envs section into docs/benchmarks.md (between its markers)."""
    doc = DOC.read_text(encoding="utf-8")
    when = time.strftime("%Y-%m-%d")
    body = (
        f"{START}\n## Learning environments\n\n"
        f"`python benchmarks/envs.py --vatikanen-games {args.vatikanen_games} --kontrakt-games"
        f" {args.kontrakt_games} --players {args.players}` on {platform.machine()} / Python"
        f" {platform.python_version()}, {when}: whole games through the PettingZoo"
        " environments by a random masked agent at every seat (`env()` with PettingZoo's"
        " classic wrappers, and `raw_env`), then the same games action for action through"
        " the game interface: the seat's `view(seat)`, `suggested_actions()` (the engine's"
        " suggested actions, for Vatikanen its solver plays) and `apply()` at every step, the"
        " same without the view, and the games' records replayed (apply only, every action"
        " checked). *Overhead*: an environment step's time over an engine step's (view +"
        " suggested actions + apply: what an agent is given and what is done with its answer)"
        f" on the same positions; target at most {TARGET:.0f}x for `env()`:"
        f" **{'met' if ok else 'not met'}**. Each game is timed every way in turn, so the"
        " shared machine's load falls on all alike; runs vary by about 20%.\n\n"
        f"{text}\n\n"
        "An environment step builds the seat's observation vector from its view and asks"
        " the engine for the mask. In Vatikanen the solver dominates both sides: the"
        " environment asks it for three plays (most cards, most points, and the most cards"
        " without the hand's jokers when it holds one) where `suggested_actions()` asks for two,"
        " and checks each distinct proposal with the engine's `can`. In Kontrakt the"
        " engine's help and `can` are the mask itself; the rest is the indexing, the"
        " observation vector and the bookkeeping of PettingZoo's API, of which its three"
        " wrappers (order enforcing, bounds, illegal moves) take the difference between"
        " `env()` and `raw_env`. Against suggested actions + apply without the view, Kontrakt's"
        " `env()` is slower by the figure in brackets.\n"
        f"{END}"
    )
    if START in doc:
        doc = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: body, doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n" + body + "\n"
    DOC.write_text(doc, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--vatikanen-games", type=int, default=40)
    p.add_argument("--kontrakt-games", type=int, default=8)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-write", action="store_true", help="print only")
    args = p.parse_args(argv)
    solver.warm()
    for name in MODULES:  # warm every cache before any clock starts
        measure(name, args.players, 1, args.seed + 10_000)
    count = {"vatikanen": args.vatikanen_games, "kontrakt": args.kontrakt_games}
    rows = {name: measure(name, args.players, count[name], args.seed) for name in MODULES}
    text = table(rows, args.players)
    print(text)
    ok = all(r["overhead"] <= TARGET for r in rows.values())
    print(f"overhead target (at most {TARGET:.0f}x) {'met' if ok else 'NOT met'}")
    if not args.no_write:
        write_doc(text, args, ok)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
