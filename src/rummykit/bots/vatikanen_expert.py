"""The ``expert`` Vatikanen bot: plays its candidate actions out on guesses of the hidden cards.

How it thinks (``docs/bots.md`` has the measurements and what was read):

1. **Candidates** from the exact solver: before the opening (V7) the longest
   run of natural cards, the longest run with jokers, and drawing; after it
   (V8-V12) the most-cards play, the same without the jokers (holding them
   back), the play of the most points, the most-cards play without each of
   the few highest cards it would lay (holding one back, for going out
   later or to give the others less table), and drawing (V4b; passing with
   an empty stock, V14). A play that empties the hand is made at once (V13).
   Plays that lay the same cards are one candidate: what can be played
   later depends only on the cards on the table (V12).
2. **Determinized Monte Carlo** (perfect-information Monte Carlo, PIMC):
   ``samples`` times it deals the unseen cards consistently with its view
   (the other hands by their sizes, the rest the stock in a random order),
   and on each such deal plays every candidate out to the end, every seat
   then playing the fast policy of :mod:`.vatikanen_rollout` (the ``strong``
   bot's rules without its sampling; one or two solver calls a move). Every
   candidate meets the same deals (common random numbers), so their
   difference is measured with far less noise than their values.
3. A draw when a play was possible is played out as a plan: the bot's
   seat holds its cards (draws) until its whole hand can go down at once
   (``hold``). Played out as one turn's delay, a draw looked best turn
   after turn and the bot held for many turns that no play-out had valued.
4. It makes the candidate with the best mean of its share of the win plus
   ``score_weight`` times its payment (V13, V15) / 100, if that beats the
   ``strong`` bot's choice (candidate 0) by more than ``margin`` standard
   errors of their paired difference; else the ``strong`` choice (few
   deals and many candidates would otherwise pick a lucky one).

Why flat PIMC and not a tree (ISMCTS, Cowling, Powley and Whitehouse 2012): a
Vatikanen move is chosen from few real alternatives once the solver has named
the best plays, and a play-out costs a few milliseconds, so a server's budget
buys tens of play-outs a move, not the thousands a tree needs to grow below
the root. The policy decides from each seat's own hand and the table alone,
so no player in a play-out knows the guess; strategy fusion (Frank and Basin
1998; Long, Sturtevant, Buro and Furtak 2010 on when PIMC succeeds) is left
only at the root.

The work is a count of deals (``samples``), so the bot is reproducible from
its seed; ``ms`` (optional) stops after that many milliseconds of the move,
at the cost of reproducibility; ``horizon`` cuts each play-out after so many
moves (then it is scored as a blocked game, V15).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import ClassVar

from rummykit import solver
from rummykit.bots.base import Setting, register, seat_and_hand
from rummykit.bots.sampling import vatikanen_unseen
from rummykit.bots.vatikanen_basic import read_view_cards
from rummykit.bots.vatikanen_rollout import Sim, Step, policy_play
from rummykit.cards import Card, vatikanen_value
from rummykit.games.vatikanen import Action, Draw, Pass, Play
from rummykit.games.vatikanen.view import VatikanenView, vatikanen_view
from rummykit.i18n import N_
from rummykit.melds import VATIKANEN

__all__ = ["ExpertBot", "candidates"]

Table = tuple[tuple[Card, ...], ...]


def _key(step: Step) -> tuple[str, ...]:
    """The cards a move lays, sorted: two plays of the same cards are one candidate (V12)."""
    return tuple(sorted(str(c.plain()) for c in step.cards))


def _step(found: solver.Play, opening: bool = False) -> Step:
    if opening:
        return Step(found.cards, (tuple(found.table[0].cards),), opening=True)
    return Step(found.cards, tuple(tuple(m.cards) for m in found.table))


def candidates(
    hand: list[Card], table: Table, opened: bool, stock: int, free: bool, holds: int = 3
) -> list[Step]:
    """The moves the bot weighs (see the module docstring), the ``strong`` bot's choice
    first; an empty ``cards`` is the draw (or the pass, V14). ``holds``: how many of the
    highest cards of the most-cards play are each held back in a candidate of their own."""
    out: list[Step] = [policy_play(hand, table, opened, stock, free)]
    naturals = [c for c in hand if not c.is_joker]
    if not opened:
        for cards in (naturals, hand):
            found = solver.best_opening(cards, rules=VATIKANEN) if cards else None
            if found is not None:
                out.append(_step(found, opening=True))
    else:
        full = solver.best_play(table, hand, rules=VATIKANEN, free_jokers=free)
        if full is not None:
            out.append(_step(full))
            if naturals and len(naturals) < len(hand):
                kept = solver.best_play(table, naturals, rules=VATIKANEN, free_jokers=free)
                if kept is not None:
                    out.append(_step(kept))
            most = solver.best_play(
                table, hand, rules=VATIKANEN, objective="points", free_jokers=free
            )
            if most is not None:
                out.append(_step(most))
            # in the solver's order among equal values: a set's order would follow the
            # joker's hash, which differs from one process to the next
            laid = sorted(dict.fromkeys(full.cards), key=vatikanen_value, reverse=True)
            for card in laid[:holds] if full.count > 1 else []:
                rest = list(hand)
                rest.remove(card)
                held = solver.best_play(table, rest, rules=VATIKANEN, free_jokers=free)
                if held is not None:
                    out.append(_step(held))
    out.append(Step((), table))
    seen: set[tuple[str, ...]] = set()
    unique = []
    for step in out:
        key = _key(step)
        if key not in seen:
            seen.add(key)
            unique.append(step)
    return unique


def _action(seat: int, step: Step, stock: int) -> Action:
    if not step.cards:
        return Draw(seat) if stock > 0 else Pass(seat)
    if step.opening:
        return Play(seat, step.table[0], None)
    return Play(seat, step.cards, step.table)


@register(
    "vatikanen",
    "expert",
    N_("plays its best moves out on guesses of the hidden cards; makes the one that wins most"),
    N_("expert"),
)
class ExpertBot:
    """Determinized Monte Carlo over the solver's candidate plays (the module docstring).

    ``samples``: guessed deals per decision. ``ms``: optional cap in milliseconds per
    move (not reproducible). ``horizon``: moves per play-out. ``score_weight``: how much
    the payment counts beside the win. ``holds``: hold-back candidates per move.
    """

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "expert"
    SETTINGS: ClassVar[Mapping[str, Setting]] = {
        "samples": Setting(int, N_("guessed deals per decision"), low=1, high=10_000, none=True),
        "ms": Setting(
            float,
            N_("milliseconds per move at most (then not reproducible)"),
            low=1,
            high=60_000,
            none=True,
        ),
        "horizon": Setting(int, N_("moves per play-out"), low=1, high=10_000),
        "score_weight": Setting(
            float, N_("how much the payment counts beside the win"), low=0, high=100, none=True
        ),
        "holds": Setting(int, N_("cards held back one at a time as candidates"), low=0, high=13),
        "margin": Setting(
            float,
            N_("standard errors by which a move must beat the strong bot's choice"),
            low=0,
            high=10,
        ),
        "hold": Setting(bool, N_("a hold lasts until the whole hand can go down")),
        "once": Setting(bool, N_("also weigh drawing once and playing on")),
        "keep": Setting(
            int,
            N_("candidates still played out after the first quarter of the deals"),
            low=1,
            high=100,
        ),
    }

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int | None = None,
        ms: float | None = None,
        horizon: int = 200,
        score_weight: float | None = None,
        holds: int = 3,
        keep: int = 2,
        hold: bool = True,
        margin: float = 1.0,
        once: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.ms = ms
        self.horizon = horizon
        self.score_weight = score_weight
        self.holds = holds
        self.keep = keep
        self.hold = hold
        self.margin = margin
        self.once = once

    def choose(self, view: Mapping[str, object]) -> Action:
        """The action for the seat's view (only called on the bot's turn)."""
        start = time.perf_counter()
        v = vatikanen_view(view)
        seat, hand, table, opened = read_view_cards(v)
        free = bool(v["options"].get("free_jokers", False))
        stock = v["stock_size"]
        steps = candidates(hand, table, opened, stock, free, self.holds)
        for step in steps:
            if step.cards and len(step.cards) == len(hand):
                return _action(seat, step, stock)  # V13: out
        if len(steps) == 1:
            return _action(seat, steps[0], stock)
        until = [self.hold and not step.cards and i != 0 for i, step in enumerate(steps)]
        if self.once and any(until):
            steps.append(Step((), table))  # drawing once, then the policy
            until.append(False)
        values = self._search(v, seat, steps, until, start)
        return _action(seat, steps[self._pick(values)], stock)

    def _samples(self, players: int) -> int:
        """The given ``samples``, else 8 deals at two players, 24 at three and 96 at four or
        five: more players make a noisier outcome, and the bot searches fewer of the moves
        (measured against three strong, 300 games: 0.26 of the wins with 24 deals, 0.36
        with 48, 0.41 with 96, over the 1.5 times par that issue 44 asks; docs/bots.md)."""
        if self.samples is not None:
            return self.samples
        return {2: 8, 3: 24}.get(players, 96)

    def _score_weight(self, players: int) -> float:
        """The given ``score_weight``, else 0.5 at two players and 0 (wins only) at more:
        weighing the payment at three players made the bot play for small losses instead
        of wins (measured, docs/bots.md)."""
        if self.score_weight is not None:
            return self.score_weight
        return 0.5 if players == 2 else 0.0

    def _pick(self, values: list[list[float]]) -> int:
        """The candidate to make: the best mean among those played out on every deal, if
        it beats the ``strong`` bot's choice (candidate 0) by more than ``margin``
        standard errors of their paired difference; else candidate 0."""
        n = max(len(v) for v in values)
        full = [i for i, v in enumerate(values) if len(v) == n]
        best = max(full, key=lambda i: (sum(values[i]), -i))
        if best == 0 or len(values[0]) < n or n < 2:
            return best
        diff = [a - b for a, b in zip(values[best], values[0], strict=True)]
        mean = sum(diff) / n
        var = sum((d - mean) ** 2 for d in diff) / (n - 1)
        return best if mean > self.margin * math.sqrt(var / n) else 0

    def _search(
        self,
        view: VatikanenView,
        seat: int,
        steps: list[Step],
        until: list[bool],
        start: float,
    ) -> list[list[float]]:
        """Every candidate's value on each guessed deal it was played out on.

        Successive halving: the first quarter of the deals (at least 4) plays
        every candidate; the rest plays only the ``keep`` best of them and the
        ``strong`` bot's choice (candidate 0).
        """
        deal = self._dealer(view, seat)
        weight = self._score_weight(len(view["hand_sizes"]))
        values: list[list[float]] = [[] for _ in steps]
        live = list(range(len(steps)))
        samples = self._samples(len(view["hand_sizes"]))
        first = min(samples, max(4, samples // 4))
        for done in range(samples):
            if self.ms is not None and done and (time.perf_counter() - start) * 1000 > self.ms:
                break
            if done == first and len(live) > self.keep + 1:
                ranked = sorted(live, key=lambda i: (-sum(values[i]), i))
                live = sorted({0, *ranked[: self.keep]})
            base = deal()
            for i in live:
                sim = base.copy()
                if until[i]:
                    sim.holder = seat  # a hold lasts until the hand can go out
                sim.step(steps[i])
                sim.play_out(self.horizon)
                result = sim.outcome(seat)
                values[i].append(result.win + weight * result.score / 100)
        return values

    def _dealer(self, view: VatikanenView, seat: int) -> Callable[[], Sim]:
        """A function that deals one guess at the hidden cards (from the bot's rng) as a Sim
        at the seat's turn: the other hands by their sizes, the rest the stock."""
        unseen = vatikanen_unseen(view)
        sizes = view["hand_sizes"]
        _, own = seat_and_hand(view)
        hand = [Card.parse(t).plain() for t in own]
        table = tuple(tuple(Card.parse(t) for t in m) for m in view["table"])
        opened = list(view["opened"])
        free = bool(view["options"].get("free_jokers", False))
        passes = view["passes_in_row"]

        def deal() -> Sim:
            cards = list(unseen)
            self.rng.shuffle(cards)
            hands: list[list[Card]] = []
            at = 0
            for s, size in enumerate(sizes):
                if s == seat:
                    hands.append(hand)
                else:
                    hands.append(cards[at : at + size])
                    at += size
            return Sim(hands, table, cards[at:], opened, seat, passes=passes, free=free)

        return deal
