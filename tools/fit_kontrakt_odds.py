"""Fit the weights of :mod:`rummykit.bots.kontrakt_odds` from the strong bot's own games.

The strong bot (building to the end: ``give_up=None``) plays each deck in
every seat against three ``basic`` players. At each of its discards while its
contract is open (the seventh deal's shedding aside) the view's
:class:`~rummykit.bots.kontrakt_odds.DealState` is recorded, with whether the
contract was down when the deal ended. A logistic model (one intercept per
deal, a weight per feature) is fitted by Newton's method on the first 80% of
the decks, its AUC measured on the rest, then fitted again on all of them and
printed as the module's ``WEIGHTS``. Needs numpy (installed with the ``dev``
extra). The defaults reproduce the weights in the module (about ten minutes
on two cores):

    python tools/fit_kontrakt_odds.py --decks 1000 --workers 2
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from rummykit.bots.kontrakt_basic import BasicBot
from rummykit.bots.kontrakt_odds import FEATURES, DealState
from rummykit.bots.kontrakt_strong import StrongBot
from rummykit.cards import Card
from rummykit.games.kontrakt import Discard, KontraktGame

SEED = 50_000  # decks the measurements in docs/bots.md do not use
NAMES = ["f0", "f1", "f2", "f3"]

Row = tuple[int, DealState, bool]


def play_deck(deck: int) -> list[Row]:
    """The recorded positions of one deck, strong in each of the four seats."""
    rows: list[Row] = []
    for seat in range(4):
        game = KontraktGame(NAMES, seed=SEED + deck)
        strong = StrongBot(deck * 10 + seat + 7, give_up=None)
        bots: list[StrongBot | BasicBot] = [BasicBot(1000 * deck + j) for j in range(4)]
        bots[seat] = strong
        seen: list[DealState] = []
        completed: set[int] = set()
        while (turn := game.to_act) is not None:
            view = game.view(turn)
            action = bots[turn].choose(view)
            if turn == seat and isinstance(action, Discard):
                hand = [Card.parse(t).plain() for t in view["hand"]]
                state = strong.odds_state(view, hand, action.card)
                if state is not None:
                    seen.append(state)
            game.apply(action)
            mine = game.view(seat)
            if mine["laid"][seat]["complete"]:
                completed.add(mine["deal"])
        rows += [(deck, state, state.deal in completed) for state in seen]
    return rows


def design(states: list[DealState]) -> np.ndarray:
    """One column per deal (its intercept), then one per feature."""
    x = np.zeros((len(states), 7 + len(FEATURES)))
    for i, s in enumerate(states):
        x[i, s.deal] = 1.0
        x[i, 7:] = [float(getattr(s, name)) for name in FEATURES]
    return x


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-6) -> np.ndarray:
    """Logistic regression by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """The chance a completed position scores above one that was not (ties count half)."""
    order = np.argsort(score, kind="stable")
    ranks = np.empty(len(score))
    ranks[order] = np.arange(1, len(score) + 1)
    for value in np.unique(score):  # average ranks over ties
        tied = score == value
        ranks[tied] = ranks[tied].mean()
    pos = y.sum()
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(y) - pos)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    rows: list[Row] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(play_deck, range(args.decks), chunksize=10):
            rows += part
    x = design([s for _d, s, _c in rows])
    y = np.array([c for _d, _s, c in rows], dtype=float)
    held = np.array([d >= args.decks * 0.8 for d, _s, _c in rows])
    w = fit(x[~held], y[~held])
    score = auc(x[held] @ w, y[held])
    print(f"{len(rows)} positions, {y.mean():.3f} completed; held-out AUC {score:.4f}")
    w = fit(x, y)
    deal = ", ".join(f"{v:.4f}" for v in w[:7])
    feats = ", ".join(f"{v:.4f}" for v in w[7:])
    print(f'WEIGHTS = {{\n    "deal": ({deal}),\n    "features": ({feats}),\n}}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
