"""Train a Vatikanen policy with numpy alone, then measure it in the arena as a bot.

    python examples/train_vatikanen.py --minutes 20 --out examples/vatikanen_policy.npz
    rummykit simulate --game vatikanen --players 2 --games 1000 --seed 1 \\
        --bots "policy(path=examples/vatikanen_policy.npz),random"

The agent plays two-player games in the single-agent Gymnasium environment
(``rummykit.envs.vatikanen_v0.gym_env``), in a random seat, against the
``random`` and the ``greedy`` bot in turn (``--opponents``). The policy is linear: one logit
per action index from the observation vector (``docs/envs.md``), a softmax
over the legal indices (the action mask). It learns by REINFORCE with a
learned linear baseline: each game's payment to the agent (V13, V15, scaled
by 1/100) is the return of every decision in it; Adam steps on batches of
games, with a small entropy bonus. Episodes are played on ``--workers``
processes with the current weights.

The policy is saved after every batch (a few tens of kilobytes, float32) in
the format of :class:`rummykit.envs.policy.Policy`, which the ``policy``
bot plays (the legal index of highest logit). ``--arena N`` then plays
N-game arena matches against ``random`` and ``greedy`` and prints them as
``rummykit simulate`` does. Only the CPU is used.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummykit.envs.policy import Policy
from rummykit.envs.vatikanen_encoding import ACTIONS, SIZE

OPPONENTS = ("random", "greedy")
"""The bots the agent plays against by default, in turn."""
SCALE = 100.0
"""Payments are divided by this to make the return."""


@dataclass
class Episode:
    """One game from the agent's side: its observations, masks and actions, and the return."""

    opponent: str
    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    payment: float


_ENVS: dict[str, Any] = {}


def _env(opponent: str) -> Any:
    if opponent not in _ENVS:
        from rummykit import solver
        from rummykit.envs import vatikanen_v0

        solver.warm()
        _ENVS[opponent] = vatikanen_v0.gym_env(opponents=opponent, seat="random")
    return _ENVS[opponent]


def softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The softmax over the legal indices (zero elsewhere), row by row."""
    z = np.where(mask > 0, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=-1, keepdims=True)


def play(w: np.ndarray, b: np.ndarray, opponent: str, seed: int) -> Episode:
    """One game with the policy (w, b), actions drawn from its softmax."""
    env = _env(opponent)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    observations, masks, actions = [], [], []
    payment = 0.0
    done = False
    while not done:
        x, m = obs["observation"], obs["action_mask"]
        p = softmax(w @ x + b, m)
        a = int(rng.choice(len(p), p=p))
        observations.append(x)
        masks.append(m)
        actions.append(a)
        obs, reward, done, _, _ = env.step(a)
        payment += float(reward)
    return Episode(
        opponent,
        np.array(observations, np.float32),
        np.array(masks, np.int8),
        np.array(actions, np.int64),
        payment,
    )


def play_many(w: np.ndarray, b: np.ndarray, jobs: list[tuple[str, int]]) -> list[Episode]:
    """Several games (a worker's share of a batch)."""
    return [play(w, b, opponent, seed) for opponent, seed in jobs]


class Adam:
    """Adam on a list of arrays, in place."""

    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params, self.lr = params, lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        """One ascent step along ``grads``."""
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh = m / (1 - 0.9**self.t)
            vh = v / (1 - 0.999**self.t)
            p += self.lr * mh / (np.sqrt(vh) + 1e-8)


def gradients(
    episodes: list[Episode],
    w: np.ndarray,
    b: np.ndarray,
    vw: np.ndarray,
    vb: np.ndarray,
    entropy: float,
) -> tuple[list[np.ndarray], float]:
    """REINFORCE with a baseline: the ascent directions of (w, b, vw, vb), and the mean entropy."""
    x = np.concatenate([e.observations for e in episodes])
    m = np.concatenate([e.masks for e in episodes])
    a = np.concatenate([e.actions for e in episodes])
    g = np.concatenate([np.full(len(e.actions), e.payment / SCALE) for e in episodes])
    n = len(a)
    value = x @ vw + vb
    advantage = g - value
    p = softmax(x @ w.T + b, m)
    onehot = np.zeros_like(p)
    onehot[np.arange(n), a] = 1.0
    logp = np.log(np.where(p > 0, p, 1.0))
    h = -(p * logp).sum(axis=1)
    dz = (onehot - p) * advantage[:, None]
    dz += entropy * (-p * (logp + h[:, None]))  # the entropy's gradient
    gw = dz.T @ x / n
    gb = dz.mean(axis=0)
    gvw = advantage @ x / n  # descent on the squared error, as an ascent direction
    gvb = np.array(advantage.mean())
    return [gw, gb, gvw, gvb], float(h.mean())


def train(args: argparse.Namespace) -> Policy:
    """Train for ``args.minutes`` (or ``args.batches``) and return the policy."""
    n_actions = len(ACTIONS)
    w = np.zeros((n_actions, SIZE), np.float64)
    b = np.zeros(n_actions, np.float64)
    vw = np.zeros(SIZE, np.float64)
    vb = np.zeros((), np.float64)
    opt = Adam([w, b, vw, vb], args.lr)
    started = time.perf_counter()
    seed = args.seed * 1_000_003
    opponents = tuple(args.opponents.split(","))
    recent: dict[str, list[float]] = {o: [] for o in opponents}
    batch = 0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        while True:
            elapsed = time.perf_counter() - started
            if elapsed > 60 * args.minutes or (args.batches and batch >= args.batches):
                break
            jobs = []
            for k in range(args.batch):
                jobs.append((opponents[k % len(opponents)], seed))
                seed += 1
            shares = [jobs[i :: args.workers] for i in range(args.workers)]
            futures = [pool.submit(play_many, w, b, share) for share in shares if share]
            episodes = [e for f in futures for e in f.result()]
            grads, entropy = gradients(episodes, w, b, vw, vb, args.entropy)
            opt.step(grads)
            batch += 1
            for e in episodes:
                recent[e.opponent] = (recent[e.opponent] + [e.payment])[-200:]
            Policy("vatikanen", [(w.astype(np.float32), b.astype(np.float32))]).save(args.out)
            if batch % args.report == 0:
                parts = []
                for o in opponents:
                    pays = np.array(recent[o])
                    parts.append(f"{o}: won {np.mean(pays > 0):.0%}, mean {pays.mean():+.1f}")
                print(
                    f"batch {batch:4d}, {batch * args.batch:6d} games,"
                    f" {time.perf_counter() - started:6.0f} s, entropy {entropy:.2f}; "
                    + "; ".join(parts)
                    + " (last 200 each)",
                    flush=True,
                )
    print(
        f"trained {batch} batches ({batch * args.batch} games) in"
        f" {time.perf_counter() - started:.0f} s; saved {args.out}"
    )
    return Policy.load(args.out)


def arena(path: str, games: int, seed: int, workers: int) -> None:
    """The saved policy against ``random`` and ``greedy``, as ``rummykit simulate`` shows it."""
    from rummykit.arena import ArenaConfig, summarize
    from rummykit.arena.run import run_match
    from rummykit.cli.simulate import format_summary

    for other in ("random", "greedy"):
        config = ArenaConfig("vatikanen", 2, (f"policy(path={path})", other), games, seed)
        match = run_match(config, workers=workers)
        summary = summarize(config, match.results, seconds=match.seconds)
        print(format_summary(summary, config, match.backend), flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="examples/vatikanen_policy.npz", help="the policy file")
    p.add_argument("--minutes", type=float, default=20.0, help="training time (wall clock)")
    p.add_argument("--batches", type=int, default=0, help="stop after this many batches")
    p.add_argument("--batch", type=int, default=24, help="games per update")
    p.add_argument("--workers", type=int, default=2, help="processes playing the games")
    p.add_argument(
        "--opponents", default=",".join(OPPONENTS), help="bot levels played against, in turn"
    )
    p.add_argument("--lr", type=float, default=0.02, help="Adam's step size")
    p.add_argument("--entropy", type=float, default=0.01, help="the entropy bonus")
    p.add_argument("--seed", type=int, default=1, help="the training games' seeds start here")
    p.add_argument("--report", type=int, default=5, help="print progress every N batches")
    p.add_argument("--arena", type=int, default=0, help="then play N-game arena matches")
    p.add_argument("--arena-seed", type=int, default=20260101)
    args = p.parse_args(argv)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    train(args)
    if args.arena:
        arena(args.out, args.arena, args.arena_seed, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
