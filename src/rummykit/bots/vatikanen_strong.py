"""The ``strong`` Vatikanen bot: keeps its jokers, and looks at the hidden hands near the end.

How it thinks (``docs/bots.md`` has the measurements):

1. **Go out when it can** (V13): the solver's most-cards play; if it empties
   the hand, play it.
2. **Keep the jokers** for going out. A joker fits almost anywhere (the end
   of any run), so a joker in hand nearly guarantees the last card can be
   played; ``greedy`` spends its jokers on the first play that takes one. The
   bot asks the solver for its best play *without* its jokers (the opening
   too, V7) and draws when only a joker would go down. With an empty stock
   (V14) it plays jokers rather than pass.
3. **Watch the hidden hands** (determinized Monte Carlo): when another player
   is down to ``threat_cards`` cards or fewer, the bot deals the unseen cards
   ``samples`` times consistently with its view
   (:func:`~rummykit.bots.sampling.sample_vatikanen`) and asks the solver,
   for each deal, whether that player could lay down the whole hand on the
   table its candidate would leave (drawing leaves the table as it is), with
   :func:`~rummykit.solver.can_arrange_play`, which answers without laying
   out the melds. If playing raises the chance that an opponent goes out
   next by more than ``hold_margin``, and drawing is allowed, the bot holds
   its cards back and draws. If an opponent is very likely to go out anyway
   (at least ``dump_at``), the bot sheds points instead: its play with the
   most points (jokers included, 25 each), since the loser pays the hand's
   value (V13).

The work per move is bounded by iterations (``samples``), so the bot is
reproducible from its seed; ``time_cap`` (seconds, optional) stops the
sampling early, at the cost of reproducibility.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import ClassVar

from rummykit import solver
from rummykit.bots.base import Setting, register, seat_and_hand
from rummykit.bots.sampling import Deal, vatikanen_unseen
from rummykit.bots.vatikanen_basic import Table, no_play, opening_play, read_view_cards
from rummykit.cards import Card
from rummykit.games.vatikanen import Action, Draw, Play
from rummykit.games.vatikanen.view import VatikanenView, vatikanen_view
from rummykit.i18n import N_
from rummykit.melds import VATIKANEN

__all__ = ["StrongBot"]


def _as_play(seat: int, found: solver.Play) -> Play:
    return Play(seat, tuple(found.cards), tuple(tuple(m.cards) for m in found.table))


@register(
    "vatikanen",
    "strong",
    N_("keeps its jokers to go out, and holds back when a play would let another player out"),
    N_("strong"),
)
class StrongBot:
    """Keeps jokers for going out; holds back when a play would let an opponent out.

    ``samples``: determinized deals per decision in the endgame (0: heuristics
    only). ``threat_cards``: an opponent with this many cards or fewer is
    watched. ``hold_margin`` and ``dump_at``: see the module docstring.
    ``time_cap``: optional seconds per move for the sampling (not reproducible).
    """

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "strong"
    SETTINGS: ClassVar[Mapping[str, Setting]] = {
        "samples": Setting(int, N_("guessed deals per decision near the end"), low=0, none=True),
        "threat_cards": Setting(
            int, N_("an opponent with this many cards or fewer is watched"), low=0, none=True
        ),
        "hold_margin": Setting(
            float,
            N_("how much a play may raise an opponent's chance to go out"),
            low=-1,
            high=1,
            none=True,
        ),
        "dump_at": Setting(
            float, N_("the chance of an opponent going out that makes it shed points"), 0, 1
        ),
        "time_cap": Setting(float, N_("seconds per move for the sampling"), low=0, none=True),
    }

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int | None = None,
        threat_cards: int | None = None,
        hold_margin: float | None = None,
        dump_at: float = 0.75,
        time_cap: float | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.threat_cards = threat_cards
        self.hold_margin = hold_margin
        self.dump_at = dump_at
        self.time_cap = time_cap

    def _settings(self, players: int) -> tuple[int, int, float]:
        """(samples, threat_cards, hold_margin): the given ones, else the defaults for the table.

        Two players: 8 deals, watch 3 cards or fewer, hold back at +0.25; three
        or more (more hands to fear, and each play feeds more of them): 32
        deals, 8 cards, +0.05 (the finer estimate that more deals give lets
        the bot hold back at a smaller rise); with the default ``samples``
        and several opponents watched, :meth:`_endgame` cuts the deals to
        about 48 (deal, opponent) checks, at least 16 deals, to keep each
        move under a second. Both measured (docs/bots.md).
        """
        two = players == 2
        return (
            self.samples if self.samples is not None else (8 if two else 32),
            self.threat_cards if self.threat_cards is not None else (3 if two else 8),
            self.hold_margin if self.hold_margin is not None else (0.25 if two else 0.05),
        )

    def choose(self, view: Mapping[str, object]) -> Action:
        """The action for the seat's view (only called on the bot's turn)."""
        v = vatikanen_view(view)
        seat, hand, table, opened = read_view_cards(v)
        if not opened:
            return self._opening(v, seat, hand)
        free = bool(v["options"].get("free_jokers", False))
        full = solver.best_play(table, hand, rules=VATIKANEN, objective="cards", free_jokers=free)
        if full is None:
            return no_play(v)
        if full.count == len(hand):
            return _as_play(seat, full)  # V13: out
        naturals = [c for c in hand if not c.is_joker]
        play = full
        if len(naturals) < len(hand):
            kept = (
                solver.best_play(
                    table, naturals, rules=VATIKANEN, objective="cards", free_jokers=free
                )
                if naturals
                else None
            )
            if kept is None:
                if v["stock_size"] > 0:
                    return Draw(seat)
            else:
                play = kept
        return self._endgame(v, seat, hand, table, play, free)

    def _opening(self, view: VatikanenView, seat: int, hand: list[Card]) -> Action:
        """V7: the longest run from the hand, jokers kept unless the stock is empty."""
        naturals = [c for c in hand if not c.is_joker]
        found = solver.best_opening(naturals, rules=VATIKANEN, objective="cards")
        if found is None and (view["stock_size"] == 0 or len(naturals) == len(hand)):
            found = solver.best_opening(hand, rules=VATIKANEN, objective="cards")
        if found is None:
            return no_play(view)
        return opening_play(seat, found)

    # ------------------------------------------------------------ endgame

    def _threats(self, view: VatikanenView, seat: int, cards: int) -> list[int]:
        """Opponents with ``cards`` or fewer, in the order they play after ``seat``."""
        sizes = view["hand_sizes"]
        n = len(sizes)
        order = [(seat + k) % n for k in range(1, n)]
        return [s for s in order if sizes[s] <= cards]

    def _endgame(
        self,
        view: VatikanenView,
        seat: int,
        hand: list[Card],
        table: Table,
        play: solver.Play,
        free: bool,
    ) -> Action:
        samples, threat_cards, hold_margin = self._settings(len(view["hand_sizes"]))
        threats = self._threats(view, seat, threat_cards)
        if not threats or samples <= 0:
            return _as_play(seat, play)
        if self.samples is None and len(threats) > 1:
            # the default budget: about 48 (deal, opponent) checks per move, at least 16 deals
            samples = min(samples, max(16, 48 // len(threats)))
        now = table
        after = tuple(tuple(m.cards) for m in play.table)
        out_now = out_after = 0
        done = 0
        start = time.perf_counter()
        unseen = vatikanen_unseen(view)  # the same for every deal of this move
        for _ in range(samples):
            if self.time_cap is not None and time.perf_counter() - start > self.time_cap:
                break
            deal = _sample(view, unseen, self.rng)
            hands = [(deal.hands[s], bool(view["opened"][s])) for s in threats]
            out_now += any(self._can_go_out(now, h, o, free) for h, o in hands)
            out_after += any(self._can_go_out(after, h, o, free) for h, o in hands)
            done += 1
        if done == 0:
            return _as_play(seat, play)
        p_now, p_after = out_now / done, out_after / done
        if p_after - p_now > hold_margin and view["stock_size"] > 0:
            return Draw(seat)
        if p_now >= self.dump_at:
            dump = solver.best_play(
                table, hand, rules=VATIKANEN, objective="points", free_jokers=free
            )
            if dump is not None:
                return _as_play(seat, dump)
        return _as_play(seat, play)

    def _can_go_out(self, table: Table, hand: Sequence[Card], opened: bool, free: bool) -> bool:
        """Whether ``hand`` could go down whole on ``table`` (one solver call, no layout).

        A player who has not opened goes out only if the hand is one run (V7).
        """
        if not opened:
            run = solver.best_opening(hand, rules=VATIKANEN, objective="cards")
            return run is not None and run.count == len(hand)
        return solver.can_arrange_play(table, hand, rules=VATIKANEN, free_jokers=free)


def _sample(view: VatikanenView, unseen: Sequence[Card], rng: random.Random) -> Deal:
    """:func:`~rummykit.bots.sampling.sample_vatikanen` with the unseen cards counted once
    (``unseen``: :func:`~rummykit.bots.sampling.vatikanen_unseen` of the view): the same
    deal for the same state of ``rng``."""
    cards = list(unseen)
    rng.shuffle(cards)
    seat, own = seat_and_hand(view)
    sizes = view["hand_sizes"]
    if sum(s for i, s in enumerate(sizes) if i != seat) + view["stock_size"] != len(cards):
        raise ValueError("the view's hand and stock sizes do not add up to the unseen cards")
    hands: list[list[Card]] = []
    at = 0
    for i, size in enumerate(sizes):
        if i == seat:
            hands.append([Card.parse(t).plain() for t in own])
        else:
            hands.append(cards[at : at + size])
            at += size
    return Deal(hands, cards[at:])
