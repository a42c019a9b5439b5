"""The ``expert`` Kontraktsrummy bot: weighs the strong bot's choice against its rivals
by playing them out on guessed deals.

How it thinks (``docs/bots.md`` has the measurements):

1. **Candidates** from the ``strong`` bot (:mod:`.kontrakt_strong`, no search
   of its own): its choice first, then the few moves it ranks next or the
   move it turned down (:func:`candidates`):

   - the first upcard (K7) is not weighed: a guessed deal is set up as a game
     in the draw or the play phase only (``KontraktGame.from_position``), so
     the strong bot's choice stands there;
   - the draw (K8): the pile's top or the stock, when taking the top is a
     real choice (the contract open, the hand keeping its distance with it:
     :meth:`~.kontrakt_strong.StrongBot.draw_is_open`);
   - laying down (K9-K12), a lay-off (K10) or a joker swap (K11): doing it
     now, or holding the cards and discarding the heuristic's best card
     (the timing of the lay-down); a move that leaves one card or none
     (going out, K13) is made at once;
   - the discard: the heuristic's ``candidates`` best cards (while the
     contract is open, only those that leave the hand as near its contract
     as the best one).

2. **Determinized Monte Carlo** (perfect-information Monte Carlo):
   ``samples`` times it deals the hidden cards as :mod:`.reading` reads the
   other hands (known cards, one extra card per stock draw let go by a
   careful player's rule: ``extra``), and on each guess plays every
   candidate and then the rest of the deal with the fast ``basic`` policy
   (about 0.2 ms a move; ``own_policy`` and ``rivals``: a ``strong`` bot of
   its own plays the bot's seat, the others' seats, from that seat's view of
   the guess, twenty times slower). Every candidate meets the same guesses
   (common random numbers, :func:`~.kontrakt_search.outcomes`), and its
   value is the bot's penalty when the deal ends (K13).

3. **The choice** (:func:`~.kontrakt_search.overrule`): the strong choice
   stands unless another candidate's paired mean penalty is lower by more
   than ``z`` standard errors; noisy evidence must not overrule a good rule
   (the strong bot's own search lost by that: ``docs/bots.md``). With
   ``confirm`` (off: 0) a move that overrules it must win again on
   ``confirm`` times ``samples`` fresh guesses (the winner of a few guesses
   among several candidates is lucky as often as it is good).

The bot sees only its seat's view; its only randomness (the guesses and the
rollouts' new stocks) comes from ``random.Random(seed)``, so it is
reproducible from its seed. ``ms`` (optional) starts no new guess once the
move has thought that long (two guesses at least), at the cost of
reproducibility.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Mapping
from typing import ClassVar

from rummykit.bots.base import Bot, Setting, register, seat_and_hand
from rummykit.bots.kontrakt_search import outcomes, overrule
from rummykit.bots.kontrakt_strong import StrongBot
from rummykit.bots.reading import sample_kontrakt_read
from rummykit.cards import Card
from rummykit.games.kontrakt import (
    Action,
    Discard,
    Draw,
    LayDown,
    LayOff,
    SwapJoker,
)
from rummykit.games.kontrakt.view import kontrakt_view
from rummykit.i18n import N_

__all__ = ["ExpertBot", "candidates"]


def _laid(action: Action) -> int:
    """How many cards ``action`` takes out of the hand (a joker swap none: K11)."""
    if isinstance(action, LayDown):
        return sum(len(m) for m in action.melds)
    if isinstance(action, LayOff):
        return 1
    return 0


def candidates(
    view: Mapping[str, object], strong: StrongBot, first: Action, discards: int = 2
) -> list[Action]:
    """The actions the expert weighs in ``view``, ``first`` (the strong bot's choice)
    first; only ``first`` when there is nothing to weigh (the module docstring)."""
    v = kontrakt_view(view)
    seat, own = seat_and_hand(v)
    phase = v["phase"]
    if phase == "upcard_offer":
        return [first]  # a guessed deal starts in the draw or the play phase
    if phase == "draw":
        if not strong.draw_is_open(v):
            return [first]
        other = Draw(seat, "stock") if first == Draw(seat, "discard") else Draw(seat, "discard")
        return [first, other]
    ranked = strong.ranked_cards(v)
    if not isinstance(first, Discard):
        if isinstance(first, LayDown | LayOff | SwapJoker) and len(own) - _laid(first) > 1:
            return [first, Discard(seat, ranked[0])] if ranked else [first]
        return [first]
    out: list[Action] = [first]
    keep = _as_near(v, strong, ranked)
    for card in keep:
        if len(out) >= discards:
            break
        action = Discard(seat, card)
        if action not in out:
            out.append(action)
    return out


def _as_near(view: Mapping[str, object], strong: StrongBot, ranked: list[Card]) -> list[Card]:
    """The cards of ``ranked`` whose discard leaves the hand as near its contract as the
    best one's (all of them once the contract is down)."""
    v = kontrakt_view(view)
    seat, own = seat_and_hand(v)
    if v["laid"][seat]["complete"] or not ranked:
        return ranked
    hand = [Card.parse(t).plain() for t in own]
    distances = strong.discard_distances(v, hand, ranked)
    best = min(distances)
    return [c for c, d in zip(ranked, distances, strict=True) if d <= best]


@register(
    "kontrakt",
    "expert",
    N_("plays the strong bot's best moves out on guessed deals; makes the one that costs least"),
    N_("expert"),
)
class ExpertBot:
    """Determinized Monte Carlo over the strong bot's candidate moves (the module docstring).

    ``samples``: guessed deals per searched decision. ``ms``: optional cap in milliseconds
    per move (not reproducible). ``candidates``: discards weighed. ``z``: standard errors
    by which a rival must beat the strong choice. ``extra``: the read's extra cards per
    hand. ``confirm``: fresh guesses (times ``samples``) that must agree with an overrule.
    ``laying``: weigh holding a lay-down, lay-off or swap back. ``own_policy`` and
    ``rivals``: the strong bot plays the bot's seat, the other seats, in the rollouts
    (else basic).
    """

    READS_LOG = True
    """It reads the deal's log, as the strong bot does."""

    level = "expert"
    SETTINGS: ClassVar[Mapping[str, Setting]] = {
        "samples": Setting(int, N_("guessed deals per decision"), low=1, high=1000),
        "ms": Setting(
            float,
            N_("milliseconds per move at most (then not reproducible)"),
            low=1,
            high=60_000,
            none=True,
        ),
        "candidates": Setting(int, N_("discards the search weighs"), low=1, high=20),
        "z": Setting(
            float,
            N_("standard errors by which a move must beat the strong bot's choice"),
            low=0,
            high=10,
        ),
        "extra": Setting(int, N_("extra cards a guessed hand is read from"), low=0, high=20),
        "laying": Setting(bool, N_("also weigh holding back a lay-down, lay-off or swap")),
        "confirm": Setting(
            int,
            N_("times the guesses that must confirm a move that beats the strong choice"),
            low=0,
            high=20,
        ),
        "own_policy": Setting(bool, N_("the strong bot plays its own seat in the rollouts")),
        "rivals": Setting(bool, N_("the strong bot plays the other seats in the rollouts")),
    }

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = 8,
        ms: float | None = None,
        candidates: int = 2,
        z: float = 1.0,
        extra: int = 1,
        laying: bool = True,
        confirm: int = 0,
        own_policy: bool = False,
        rivals: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.ms = ms
        self.candidates = candidates
        self.z = z
        self.extra = extra
        self.laying = laying
        self.confirm = confirm
        self.own_policy = own_policy
        self.rivals = rivals
        self.strong = StrongBot(seed)
        self._players: dict[int, Bot] = {}

    def choose(self, view: Mapping[str, object]) -> Action:
        """Pick an action from the seat's view."""
        start = time.perf_counter()
        v = kontrakt_view(view)
        first = self.strong.choose(v)
        cands = candidates(v, self.strong, first, self.candidates)
        if not self.laying and not isinstance(first, Discard) and v["phase"] == "play":
            cands = [first]
        if len(cands) == 1:
            return first
        deadline = None if self.ms is None else start + self.ms / 1000
        guess = functools.partial(sample_kontrakt_read, extra=self.extra)
        players = self._rollout_players(len(v["hand_sizes"]), seat_and_hand(v)[0])
        values = outcomes(
            v, cands, self.rng, self.samples, guess=guess, deadline=deadline, players=players
        )
        best = overrule(values, self.z)
        if best != 0 and self.confirm > 0:
            # the winner of a few guesses is lucky as often as good: fresh guesses must agree
            pair = [cands[0], cands[best]]
            again = outcomes(
                v,
                pair,
                self.rng,
                self.confirm * self.samples,
                guess=guess,
                deadline=deadline,
                players=players,
            )
            best = best if overrule(again, self.z) == 1 else 0
        return cands[best]

    def _rollout_players(self, players: int, seat: int) -> Mapping[int, Bot]:
        """Who plays which seat in the rollouts besides basic: a strong bot of its own per
        seat (its shape cache follows that seat's unseen cards), the bot's own seat with
        ``own_policy``, the others with ``rivals``."""
        if not self._players:
            self._players = {s: StrongBot(s) for s in range(players)}
        return {
            s: bot
            for s, bot in self._players.items()
            if (self.own_policy if s == seat else self.rivals)
        }
