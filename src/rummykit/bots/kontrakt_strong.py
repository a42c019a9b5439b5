"""The ``strong`` Kontraktsrummy bot: counts how far its hand is from the contract.

How it thinks (``docs/bots.md`` has the measurements):

- **Distance to the contract.** Like a mahjong player's *shanten*, the bot
  measures a hand by the fewest cards still missing to make the melds the
  contract still needs (:func:`distance`): it searches disjoint partial melds
  (pairs and single cards of a rank for groups, three-card windows of a suit
  for runs), the hand's jokers filling gaps (K5: every meld keeps a natural
  card). Among the best decompositions it prefers the one with the most
  *outs*: copies of the missing cards that are still unseen. The unseen cards
  are those the view does not place (:func:`~rummykit.bots.sampling.kontrakt_unseen`:
  not in the hand, on the table, in the discard pile, nor seen to go into
  another hand), so a card the others are collecting counts for less.
- **Drawing** (K8): it takes the discard pile's top when that lowers the
  distance after its best discard; also when it keeps the distance but
  multiplies the outs (at least ``outs_ratio`` times as many plus
  ``outs_take``: a stock card may lower the distance at once, the pile's top
  only leaves more chances for the draws after); once its contract is down,
  when the card goes straight onto the table or makes a new meld with two
  cards of the hand; a joker always.
- **The first upcard** (K7): förhand takes it on the same test; another
  player buys it (two cards more in hand) only when it lowers the distance
  of a hand still two or more cards away, or is a joker.
- **Laying down** (K9-K12): as soon as it can, the most contract melds at
  once; after the contract, joker swaps first (K11: a joker in hand fits
  anywhere), new melds, then lay-offs, jokers last.
- **The seventh deal** (K12: nothing is laid down before the whole contract):
  while the hand is ``dump_seventh`` (3) or more cards from its contract it
  will most likely be caught whole, so the bot discards its highest card
  (never a joker) instead of building.
- **Giving up** (K13: a hand caught before its contract is down pays for
  every card): while the contract is open, the chance to complete it
  before the deal ends (:mod:`rummykit.bots.kontrakt_odds`, a model of the
  view fitted to the bot's own games) decides whether to shed the highest
  card instead of the discard that builds: when ``(1 - p) * gain > p *
  give_up``, ``gain`` being the points shed over the other card's and
  ``give_up`` (25) what giving up a hand that would have completed costs.
- **After the contract** it discards its highest card, counting a card that
  could still make a new meld with the hand (a card of its rank, or of its
  suit at most two ranks away) as ``partner_weight`` (12) points lower: it
  takes the pile's top when that completes such a meld.
- **Discarding**: the card whose loss hurts the hand least (distance, then
  outs weighed against the card's points: ``point_weight`` outs per point,
  more when an opponent whose contract is down is near going out or the
  stock runs low, since most of a deal's penalty is a hand caught before its
  contract is down); and it does not
  feed the next player: no card that player could lay off once its contract
  is down, nor a rank or suit neighbour of cards that player took from the
  pile.

- **Search** (off by default: ``samples=0`` plays the heuristic alone;
  ``samples`` guessed deals per searched decision). Every draw where the
  pile's top is a real choice (the contract open, the hand keeps its
  distance with the card) and every
  discard among the heuristic's ``candidates`` (3) best is played forward
  on the same guessed deals (:mod:`rummykit.bots.kontrakt_search`): this
  bot's heuristic plays its seat (``own_policy``), ``basic`` the others.
  The guesses read the other hands (:mod:`rummykit.bots.reading`, ``read``):
  a hand that drew from the stock holds what a careful player keeps of
  ``extra`` (1) more cards, and lacks the ranks it passed over; with ``fit``
  it is also made to fit what its player's last turns showed. One extra
  card guesses the other players as near their contracts as they are
  (the ninth look); more make them nearer. The heuristic's choice stands unless
  another is better by more than ``z`` standard errors of the paired
  differences (noisy evidence must not overrule a good rule). Measured
  (``docs/bots.md``, the eighth and ninth looks): on the true hidden hands
  this search would gain much; on the read guesses it loses to the
  heuristic alone.

The bot is deterministic: its only randomness (the guessed deals of the
search) comes from ``random.Random(seed)``. ``time_cap`` (seconds, optional)
lets the search start no new guess once the move has thought that long
(two guesses at least, and the rollouts under way finish), so slow moves
stop early; the bot is then no longer reproducible. ``point_weight`` is how
many outs a point of card value is worth when the distance ties; ``shed_weight``
scales how much the danger of the deal's end (an opponent with the contract
down and few cards, a short stock) adds to it.
"""

from __future__ import annotations

import copy
import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import ClassVar

from rummykit.bots.base import Setting, register, seat_and_hand
from rummykit.bots.kontrakt_basic import _fits_table, after_contract, usefulness, whole_contract
from rummykit.bots.kontrakt_odds import DealState, completion_odds
from rummykit.bots.kontrakt_search import Guess, outcomes, overrule
from rummykit.bots.reading import sample_kontrakt_read
from rummykit.bots.sampling import kontrakt_known_cards, kontrakt_unseen, sample_kontrakt
from rummykit.cards import JOKER, Card, Suit, kontrakt_value
from rummykit.games.kontrakt import (
    Action,
    BuyUpcard,
    DeclineUpcard,
    Discard,
    Draw,
    LayDown,
    PassUpcard,
    TakeUpcard,
)
from rummykit.games.kontrakt.contracts import CONTRACTS, candidate_melds, largest_part
from rummykit.games.kontrakt.view import is_action_entry, kontrakt_view
from rummykit.i18n import N_
from rummykit.melds import MeldKind

__all__ = ["Shape", "StrongBot", "distance"]

_LAYING = ("meld", "layoff", "swap_joker")


@dataclass(frozen=True, slots=True)
class Shape:
    """How far a hand is from a contract: ``missing`` cards, ``outs`` unseen cards that help,
    and the ``kept`` cards the best decomposition uses."""

    missing: int
    outs: int
    kept: Counter[Card]


@dataclass(frozen=True, slots=True)
class _Part:
    use: tuple[tuple[Card, int], ...]
    missing: int
    wants: tuple[Card, ...]  # the cards that would fill it (a group: one card per rank)
    group: bool


def _parts(counts: Counter[Card], group: bool) -> list[_Part]:
    out: list[_Part] = []
    if group:
        by_rank: dict[int, list[Card]] = {}
        for card, n in counts.items():
            if not card.is_joker and n > 0:
                by_rank.setdefault(card.rank, []).extend([card] * n)
        for rank, cards in by_rank.items():
            take = Counter(cards[:3])
            out.append(
                _Part(tuple(take.items()), 3 - min(3, len(cards)), (Card(rank, Suit.CLUBS),), True)
            )
    else:
        singles: set[Card] = set()
        for suit in Suit:
            have = [False] + [counts[Card(r, suit)] > 0 for r in range(1, 14)]
            for start in range(1, 12):
                ranks = [r for r in range(start, start + 3) if have[r]]
                if len(ranks) >= 2:
                    gaps = tuple(Card(r, suit) for r in range(start, start + 3) if not have[r])
                    use = tuple((Card(r, suit), 1) for r in ranks)
                    out.append(_Part(use, 3 - len(ranks), gaps, False))
            for r in range(1, 14):
                if have[r] and Card(r, suit) not in singles:
                    singles.add(Card(r, suit))
                    lo = min(max(1, r - 1), 11)
                    gaps = tuple(Card(x, suit) for x in range(lo, lo + 3) if x != r)
                    out.append(_Part(((Card(r, suit), 1),), 2, gaps, False))
    out.sort(key=lambda p: p.missing)
    return out


def _wanted(part: _Part, unseen: Counter[Card]) -> set[Card]:
    """The unseen card types that would bring ``part`` one card nearer to a meld."""
    if part.group:
        rank = part.wants[0].rank
        return {c for c in unseen if c.rank == rank and not c.is_joker}
    return set(part.wants)


def distance(hand: Sequence[Card], groups: int, runs: int, unseen: Counter[Card]) -> Shape:
    """The fewest cards missing for ``groups`` groups and ``runs`` runs of three, and outs.

    A slot no partial meld fills costs three cards. Jokers in the hand fill
    missing places (each meld keeps at least one natural card, K5). ``outs``
    counts the unseen cards that would complete some partial meld as good as
    the weakest one the best decomposition needs (mahjong's *ukeire*, roughly).
    """
    counts = Counter(c.plain() for c in hand)
    jokers = counts.pop(JOKER, 0)
    slots = [True] * groups + [False] * runs
    pools = {g: _parts(counts, g) for g in set(slots)}
    best: list[tuple[int, list[_Part], int]] = []

    def search(i: int, lower: int, left: Counter[Card], missing: int, chosen: list[_Part]) -> None:
        if best and missing - jokers >= best[0][0] and best[0][0] > 0:
            return
        if best and best[0][0] == 0:
            return
        if i == len(slots):
            d = max(0, missing - jokers)
            if not best or d < best[0][0]:
                best[:] = [(d, list(chosen), missing)]
            return
        kind = slots[i]
        start = lower if i > 0 and slots[i - 1] is kind else 0
        pool = pools[kind]
        placed = False
        for j in range(start, len(pool)):
            p = pool[j]
            if all(left[c] >= n for c, n in p.use):
                for c, n in p.use:
                    left[c] -= n
                chosen.append(p)
                search(i + 1, j, left, missing + p.missing, chosen)
                chosen.pop()
                for c, n in p.use:
                    left[c] += n
                placed = True
        if not placed:
            search(i + 1, len(pool), left, missing + 3, chosen)

    search(0, 0, counts, 0, [])
    d, chosen, _missing = best[0]
    kept: Counter[Card] = Counter()
    for p in chosen:
        kept.update(dict(p.use))
    if jokers:
        kept[JOKER] = jokers
    outs = 0
    if d > 0:
        avail = counts.copy()
        for p in chosen:
            if p.missing == 0:
                avail.subtract(dict(p.use))
        open_parts = [p for p in chosen if p.missing > 0]
        worst = max((p.missing for p in open_parts), default=3)
        kinds = {p.group for p in open_parts} or set(slots)
        wanted: set[Card] = set()
        for kind in kinds:
            for p in pools[kind]:
                if 0 < p.missing <= worst and all(avail[c] >= n for c, n in p.use):
                    wanted |= _wanted(p, unseen)
        outs = sum(unseen[c] for c in wanted)
    return Shape(d, outs, kept)


def _needs(view: Mapping[str, object]) -> list[tuple[int, int]]:
    """The (groups, runs) still wanted, one pair per way of meeting the contract."""
    v = kontrakt_view(view)
    laid = v["laid"][seat_and_hand(v)[0]]
    if laid["complete"]:
        return []
    contract = CONTRACTS[v["deal"]]
    return [(max(0, g - laid["groups"]), max(0, r - laid["runs"])) for g, r in contract.choices]


@dataclass(frozen=True, slots=True)
class Heuristic:
    """How the strong bot plays a turn without search (each a level setting by name)."""

    outs_take: int = 2
    outs_ratio: float = 1.25
    shed_weight: float = 0.5
    point_weight: float = 1.0
    dump_seventh: int | None = 3
    partner_weight: float = 12.0
    give_up: float | None = 25.0


@dataclass(frozen=True, slots=True)
class Search:
    """How the strong bot searches a decision over guessed deals (``samples`` 0: never)."""

    samples: int = 0
    candidates: int = 3
    z: float = 1.0
    own_policy: bool = True
    read: bool = True
    extra: int = 1
    fit: int = 0
    search_draw: bool = True
    time_cap: float | None = None


def _grouped(
    heuristic: Heuristic, search: Search, settings: Mapping[str, object]
) -> tuple[Heuristic, Search]:
    """``heuristic`` and ``search`` with the fields ``settings`` names changed (TypeError for
    a name neither has: :func:`~rummykit.bots.base.checked` has checked the values)."""
    mine = {f.name for f in fields(Heuristic)}
    theirs = {f.name for f in fields(Search)}
    unknown = set(settings) - mine - theirs
    if unknown:
        raise TypeError(f"the strong bot has no setting {sorted(unknown)[0]!r}")
    heuristic = replace(heuristic, **{k: v for k, v in settings.items() if k in mine})  # type: ignore[arg-type]
    search = replace(search, **{k: v for k, v in settings.items() if k in theirs})  # type: ignore[arg-type]
    return heuristic, search


@register(
    "kontrakt",
    "strong",
    N_("plays for the fewest missing cards, and sheds points when its contract looks lost"),
    N_("strong"),
)
class StrongBot:
    """Plays for the fewest missing cards, sheds points when the deal nears its end."""

    READS_LOG = True
    """It reads the deal's log: what each player took and discarded."""

    level = "strong"
    SETTINGS: ClassVar[Mapping[str, Setting]] = {
        "outs_take": Setting(int, N_("outs the pile's top must add to be taken"), low=0, high=100),
        "outs_ratio": Setting(
            float,
            N_("how many times the outs the pile's top must give (0: off)"),
            low=0,
            high=100,
        ),
        "shed_weight": Setting(
            float, N_("how much the deal's end adds to shedding"), low=0, high=100
        ),
        "point_weight": Setting(float, N_("outs a point of card value is worth"), low=0, high=100),
        "samples": Setting(
            int, N_("guessed deals per searched decision (0: no search)"), low=0, high=1000
        ),
        "candidates": Setting(int, N_("discards the search weighs"), low=1, high=20),
        "z": Setting(float, N_("standard errors by which the search must win"), low=0, high=10),
        "own_policy": Setting(bool, N_("the bot's own heuristic plays its seat in the search")),
        "read": Setting(bool, N_("the guessed deals read the other hands")),
        "extra": Setting(int, N_("extra cards a guessed hand is read from"), low=0, high=20),
        "fit": Setting(
            int, N_("guessed hands made to fit their player's last turns"), low=0, high=200
        ),
        "search_draw": Setting(bool, N_("the search also weighs the draw")),
        "dump_seventh": Setting(
            int,
            N_("in the seventh deal, missing cards from which it sheds instead"),
            low=0,
            high=52,
            none=True,
        ),
        "partner_weight": Setting(
            float, N_("points a card that could still make a meld counts less"), low=0, high=1000
        ),
        "give_up": Setting(
            float,
            N_("what giving up a hand that would have completed costs"),
            low=0,
            high=1000,
            none=True,
        ),
        "time_cap": Setting(
            float, N_("seconds per move for the search"), low=0, high=60, none=True
        ),
    }

    def __init__(
        self,
        seed: int | None = None,
        *,
        heuristic: Heuristic | None = None,
        search: Search | None = None,
        **settings: object,
    ) -> None:
        """A bot playing by ``heuristic`` and searching by ``search``; ``settings`` (the
        level's settings by name, ``samples=16``) change single fields of either."""
        self.seed = seed
        self.heuristic, self.search = _grouped(
            heuristic or Heuristic(), search or Search(), settings
        )
        self._deadline: float | None = None
        self._inner: StrongBot | None = None
        self.rng = random.Random(seed)
        self._cache: dict[tuple[str, tuple[tuple[int, int], ...]], Shape] = {}
        self._seen_view: Mapping[str, object] | None = None
        self._seen: Counter[Card] = Counter()

    # ------------------------------------------------------------ helpers

    def _rollout_bot(self) -> StrongBot:
        """This bot with its heuristic settings and no rollouts: plays its own seat in them."""
        if self._inner is None:
            inner = copy.copy(self)
            inner.search = replace(self.search, samples=0)
            inner.rng = random.Random(self.seed)
            inner._cache = {}
            inner._seen_view = None
            inner._seen = Counter()
            self._inner = inner
        return self._inner

    def _unseen(self, view: Mapping[str, object]) -> Counter[Card]:
        """The view's unseen cards, worked out once per move (:meth:`choose` forgets the
        view). When they change, the remembered shapes go: their outs count them."""
        v = kontrakt_view(view)
        if self._seen_view is not v:
            unseen = Counter(kontrakt_unseen(v))
            if unseen != self._seen:
                self._cache.clear()
                self._seen = unseen
            self._seen_view = v
        return self._seen

    def _shape(
        self, hand: Sequence[Card], needs: list[tuple[int, int]], unseen: Counter[Card]
    ) -> Shape:
        key = (" ".join(sorted(str(c) for c in hand)), tuple(needs))
        found = self._cache.get(key)
        if found is None:
            found = min(
                (distance(hand, g, r, unseen) for g, r in needs),
                key=lambda s: (s.missing, -s.outs),
            )
            self._cache[key] = found
        return found

    def _best_discard(
        self, view: Mapping[str, object], hand: list[Card], banned: Card | None
    ) -> tuple[tuple[float, ...], Card]:
        """The discard that leaves the best hand, and its key (lower is better)."""
        v = kontrakt_view(view)
        return self._ranked_discards(v, hand, banned)[0]

    def _ranked_discards(
        self, view: Mapping[str, object], hand: list[Card], banned: Card | None
    ) -> list[tuple[tuple[float, ...], Card]]:
        """Every allowed discard with its key, best (lowest key) first."""
        v = kontrakt_view(view)
        needs = _needs(v)
        unseen = self._unseen(v)
        danger = _danger(v)
        feed = _feeds(v)
        ranked: list[tuple[tuple[float, ...], Card]] = []
        for card in dict.fromkeys(hand):
            if card == banned and hand.count(card) == 1 and len(hand) > 1:
                continue
            rest = list(hand)
            rest.remove(card)
            if needs:
                shape = self._shape(rest, needs, unseen)
                spare = usefulness(card, rest, *needs[0])
                key: tuple[float, ...] = (
                    shape.missing,
                    -shape.outs
                    - (danger * self.heuristic.shed_weight + self.heuristic.point_weight)
                    * kontrakt_value(card)
                    + feed(card),
                    spare,
                    -kontrakt_value(card),
                )
            else:
                mate = self.heuristic.partner_weight if _has_partner(card, rest) else 0.0
                key = (
                    1000 if card.is_joker else 0,
                    -kontrakt_value(card) + feed(card) + mate,
                )
            ranked.append((key, card))
        ranked.sort(key=lambda kc: kc[0])  # stable: hand order breaks ties
        if needs and self._dumping(v, hand, needs, unseen):
            # the highest card first (never a joker), the usual order among equals
            ranked.sort(key=lambda kc: _shed_order(kc[1]))
        return ranked

    def _dumping(
        self,
        view: Mapping[str, object],
        hand: list[Card],
        needs: list[tuple[int, int]],
        unseen: Counter[Card],
    ) -> bool:
        """Whether to shed points rather than build: the seventh deal (K12) with the hand
        at least ``dump_seventh`` cards from its contract, which will most likely be
        caught whole (nothing can be laid down before the whole contract)."""
        v = kontrakt_view(view)
        if self.heuristic.dump_seventh is None or not CONTRACTS[v["deal"]].all_at_once:
            return False
        return self._shape(hand, needs, unseen).missing >= self.heuristic.dump_seventh

    # ------------------------------------------------------------ choose

    def choose(self, view: Mapping[str, object]) -> Action:
        """Pick an action from the seat's view."""
        v = kontrakt_view(view)
        self._seen_view = None
        if self.search.time_cap is not None:
            self._deadline = time.perf_counter() + self.search.time_cap
        seat, own = seat_and_hand(v)
        hand = [Card.parse(t).plain() for t in own]
        phase = v["phase"]
        pile = v["discard_pile"]
        if phase == "upcard_offer":
            up = Card.parse(pile[-1]).plain()
            if seat == v["forhand"]:
                return TakeUpcard(seat) if self._wants(v, hand, up) else DeclineUpcard(seat)
            return BuyUpcard(seat) if self._buys(v, hand, up) else PassUpcard(seat)
        if phase == "draw":
            if pile and not v["stock_only"]:
                top = Card.parse(pile[-1]).plain()
                take = self._wants(v, hand, top)
                if (
                    self.search.samples > 0
                    and self.search.search_draw
                    and self._open_choice(v, hand, top)
                ):
                    take = self._search(v, [Draw(seat, "discard"), Draw(seat, "stock")], take)
                if take:
                    return Draw(seat, "discard")
            return Draw(seat, "stock")
        return self._play(v, seat, hand)

    def ranked_cards(self, view: Mapping[str, object]) -> list[Card]:
        """Every discard the seat may make now (K8: not the card just taken from the pile,
        unless the house rule allows it), the heuristic's best first: the candidates a
        search weighs (:mod:`rummykit.bots.kontrakt_expert`)."""
        v = kontrakt_view(view)
        _seat, own = seat_and_hand(v)
        hand = [Card.parse(t).plain() for t in own]
        picked = v["picked_up"]
        banned = (
            Card.parse(picked).plain() if picked and not v["options"]["rediscard_pickup"] else None
        )
        return [card for _key, card in self._ranked_discards(v, hand, banned)]

    def discard_distances(
        self, view: Mapping[str, object], hand: list[Card], cards: Sequence[Card]
    ) -> list[int]:
        """For each of ``cards``: the cards the hand would still miss for its contract
        after discarding it (:func:`distance`; 0 each once the contract is down)."""
        v = kontrakt_view(view)
        needs = _needs(v)
        if not needs:
            return [0] * len(cards)
        unseen = self._unseen(v)
        out = []
        for card in cards:
            rest = list(hand)
            rest.remove(card)
            out.append(self._shape(rest, needs, unseen).missing)
        return out

    def draw_is_open(self, view: Mapping[str, object]) -> bool:
        """Whether taking the discard pile's top is a real choice (the draw the strong
        search weighs): the pile may be taken, the contract is open, the card is no
        joker, and the hand keeps its distance with it after its best discard."""
        v = kontrakt_view(view)
        pile = v["discard_pile"]
        if v["phase"] != "draw" or not pile or v["stock_only"]:
            return False
        _seat, own = seat_and_hand(v)
        hand = [Card.parse(t).plain() for t in own]
        return self._open_choice(v, hand, Card.parse(pile[-1]).plain())

    def _open_choice(self, view: Mapping[str, object], hand: list[Card], top: Card) -> bool:
        """Whether taking ``top`` is a real choice worth searching: the contract is open,
        the card is no joker, and the hand can keep its distance after taking it."""
        v = kontrakt_view(view)
        needs = _needs(v)
        if top.is_joker or not needs:
            return False
        now = self._shape(hand, needs, self._unseen(v))
        key, _card = self._best_discard(v, [*hand, top], top)
        return key[0] <= now.missing

    def _search(self, view: Mapping[str, object], cands: list[Action], first: bool) -> bool:
        """Play the take (``cands[0]``) and the stock draw forward on the same guesses;
        the heuristic's choice (``first``: take) stands unless the other is clearly better."""
        v = kontrakt_view(view)
        order = cands if first else cands[::-1]
        values = outcomes(
            v, order, self.rng, self.search.samples, self._own(), self._guess(), self._deadline
        )
        return first if overrule(values, self.search.z) == 0 else not first

    def _own(self) -> StrongBot | None:
        """The player of the bot's seat in its rollouts: its heuristic, or basic (None)."""
        return self._rollout_bot() if self.search.own_policy else None

    def _guess(self) -> Guess:
        if not self.search.read:
            return sample_kontrakt
        return functools.partial(sample_kontrakt_read, extra=self.search.extra, fit=self.search.fit)

    def _wants(self, view: Mapping[str, object], hand: list[Card], card: Card) -> bool:
        """Whether taking ``card`` (instead of a stock card) improves the hand."""
        v = kontrakt_view(view)
        if card.is_joker:
            return True
        needs = _needs(v)
        if not needs:
            return _fits_table(card, v["table"]) or _makes_meld(card, hand)
        unseen = self._unseen(v)
        now = self._shape(hand, needs, unseen)
        after = self._shape([*hand, card], needs, unseen)
        if after.missing > now.missing:
            return False
        closer = after.missing < now.missing
        # More outs only: never a card it let go this deal (two such players
        # would pass one card back and forth for ever).
        if not closer:
            if card in _discarded(v):
                return False
            if not self._worth_a_draw(v, hand, now, after, needs, unseen):
                return False
        # The gain must survive the best discard of the bigger hand.
        key, _card = self._best_discard(v, [*hand, card], card)
        return bool(key[0] < now.missing if closer else key[0] <= now.missing)

    def _worth_a_draw(
        self,
        view: Mapping[str, object],
        hand: list[Card],
        now: Shape,
        after: Shape,
        needs: list[tuple[int, int]],
        unseen: Counter[Card],
    ) -> bool:
        """Whether a card that keeps the distance is worth more than a stock card.

        A stock card lowers the distance now with a chance of about ``outs / unseen``;
        the pile's top never does, but leaves more outs for the draws to come. Over a
        few draws it pays when it multiplies the outs: at least ``outs_ratio`` times as
        many plus ``outs_take``. Not while shedding in the seventh deal.
        """
        v = kontrakt_view(view)
        if self.heuristic.outs_ratio <= 0 or now.missing == 0:
            return False
        if after.outs < self.heuristic.outs_ratio * now.outs + self.heuristic.outs_take:
            return False
        return not self._dumping(v, hand, needs, unseen)

    def _buys(self, view: Mapping[str, object], hand: list[Card], card: Card) -> bool:
        v = kontrakt_view(view)
        if card.is_joker:
            return True
        needs = _needs(v)
        if not needs:
            return False
        unseen = self._unseen(v)
        now = self._shape(hand, needs, unseen)
        after = self._shape([*hand, card], needs, unseen)
        return after.missing < now.missing and now.missing >= 2

    def _play(self, view: Mapping[str, object], seat: int, hand: list[Card]) -> Action:
        v = kontrakt_view(view)
        contract = CONTRACTS[v["deal"]]
        laid = v["laid"][seat]
        if not laid["complete"]:
            melds: list[list[Card]] | None = None
            if contract.all_at_once:
                melds = whole_contract(hand, contract)
            else:
                part = largest_part(
                    hand, contract.groups - laid["groups"], contract.runs - laid["runs"]
                )
                melds = None if part is None else part[2]
            if melds:
                return LayDown(seat, tuple(tuple(m) for m in melds))
        elif (laying := after_contract(v)) is not None:
            return laying
        picked = v["picked_up"]
        banned = (
            Card.parse(picked).plain() if picked and not v["options"]["rediscard_pickup"] else None
        )
        ranked = self._ranked_discards(v, hand, banned)
        card = ranked[0][1]
        shed = self._give_up(v, hand, ranked)
        if shed is not None:
            return Discard(seat, shed)
        if self.search.samples > 0 and len(ranked) > 1:
            # The heuristic's few best discards played forward on the same guesses.
            cands = [c for _k, c in ranked[: self.search.candidates]]
            values = outcomes(
                v,
                [Discard(seat, c) for c in cands],
                self.rng,
                self.search.samples,
                self._own(),
                self._guess(),
                self._deadline,
            )
            card = cands[overrule(values, self.search.z)]
        return Discard(seat, card)

    def odds_state(
        self, view: Mapping[str, object], hand: list[Card], card: Card
    ) -> DealState | None:
        """What the completion model (:mod:`rummykit.bots.kontrakt_odds`) reads after
        discarding ``card``; None where giving up is not asked: the contract down, the
        last card, or the seventh deal's shedding already under way."""
        v = kontrakt_view(view)
        needs = _needs(v)
        if not needs or len(hand) < 2:
            return None
        unseen = self._unseen(v)
        if self._dumping(v, hand, needs, unseen):
            return None
        rest = list(hand)
        rest.remove(card)
        return _deal_state(v, self._shape(rest, needs, unseen))

    def _give_up(
        self,
        view: Mapping[str, object],
        hand: list[Card],
        ranked: list[tuple[tuple[float, ...], Card]],
    ) -> Card | None:
        """The highest allowed discard (a joker last) to let go instead of the best one
        of ``ranked``, when building most likely fails: with ``p`` the chance to complete
        the contract (:func:`~rummykit.bots.kontrakt_odds.completion_odds`) and ``gain``
        the points shed over the best discard's, when ``(1 - p) * gain > p * give_up``.
        ``give_up`` is what giving up a hand that would have completed costs, in points."""
        v = kontrakt_view(view)
        if self.heuristic.give_up is None:
            return None
        card = ranked[0][1]
        state = self.odds_state(v, hand, card)
        if state is None:
            return None
        allowed = {c for _key, c in ranked}
        high = min((c for c in hand if c in allowed), key=_shed_order)  # ties: hand order
        gain = kontrakt_value(high) - kontrakt_value(card)
        if gain <= 0:
            return None
        p = completion_odds(state)
        return high if (1.0 - p) * gain > p * self.heuristic.give_up else None


def _shed_order(card: Card) -> tuple[bool, int]:
    """The order to shed cards in: the highest first, a joker last."""
    return card.is_joker, -kontrakt_value(card)


def _deal_state(view: Mapping[str, object], shape: Shape) -> DealState:
    """What the completion model reads from a view and the hand's shape after a discard."""
    v = kontrakt_view(view)
    seat = v["seat"]
    sizes = v["hand_sizes"]
    done = [s for s in range(len(sizes)) if s != seat and v["laid"][s]["complete"]]
    return DealState(
        deal=v["deal"],
        missing=shape.missing,
        outs=shape.outs,
        stock=v["stock_size"],
        danger=_danger(v),
        completed=len(done),
        fewest=min((sizes[s] for s in done), default=12),
    )


def _has_partner(card: Card, others: Sequence[Card]) -> bool:
    """Whether ``card`` could still make a new meld with ``others``: a card of its rank,
    or of its suit at most two ranks away."""
    if card.is_joker:
        return False
    for c in others:
        if c.is_joker:
            continue
        if c.rank == card.rank or (c.suit == card.suit and 0 < abs(c.rank - card.rank) <= 2):
            return True
    return False


def _makes_meld(card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` makes a new meld of natural cards with two of the hand's (K10):
    taken from the pile with the contract down, it leaves the hand with them at once."""
    for kind in (MeldKind.GROUP, MeldKind.RUN):
        for meld in candidate_melds([*hand, card], kind):
            if card in meld and not any(c.is_joker for c in meld):
                return True
    return False


def _danger(view: Mapping[str, object]) -> float:
    """How near the deal is to its end: 0 (early) to about 3 (someone is about to go out)."""
    v = kontrakt_view(view)
    seat = v["seat"]
    risk = 0.0
    for s, laid in enumerate(v["laid"]):
        if s == seat:
            continue
        size = v["hand_sizes"][s]
        if laid["complete"]:
            risk = max(risk, 3.0 if size <= 3 else 2.0 if size <= 6 else 1.0)
    if v["stock_size"] < 10:
        risk = max(risk, 1.0)
    return risk


def _feeds(view: Mapping[str, object]) -> Callable[[Card], float]:
    """A cost for discarding a card the next player is likely to take."""
    v = kontrakt_view(view)
    seat, _ = seat_and_hand(v)
    n = len(v["hand_sizes"])
    nxt = (seat + 1) % n
    complete = v["laid"][nxt]["complete"]
    table = v["table"]
    taken = kontrakt_known_cards(v)[nxt]

    def cost(card: Card) -> float:
        if card.is_joker:
            return 50.0
        if complete:
            return 20.0 if _fits_table(card, table) else 0.0
        c = 0.0
        for t in taken:
            if t.is_joker:
                continue
            if t.rank == card.rank:
                c += 8.0
            elif t.suit == card.suit and abs(t.rank - card.rank) <= 2:
                c += 4.0
        return c

    return cost


def _discarded(view: Mapping[str, object]) -> set[Card]:
    """The cards the viewer has discarded this deal."""
    v = kontrakt_view(view)
    seat, deal = v["seat"], v["deal"]
    return {
        Card.parse(e["card"]).plain()
        for e in v.get("log") or []
        if is_action_entry(e) and e["deal"] == deal and e["seat"] == seat and e["type"] == "discard"
    }
