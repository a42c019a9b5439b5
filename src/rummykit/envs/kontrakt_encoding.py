"""Kontraktsrummy for learners: every action of the game's help at a fixed index, and the
observation.

The help :func:`~rummykit.games.kontrakt.candidate_actions_for` lists, from
the seat's view, every upcard answer, draw, discard, lay-off and joker swap,
and representative contract melds the hand can make (the engine's
:meth:`~rummykit.games.kontrakt.KontraktGame.suggested_actions` are those its
``can`` accepts). Each of them has a fixed index
(``docs/envs.md`` has the table):

===========  ==================  =============================================
 0-3         upcard answers      ``take_upcard``, ``decline_upcard`` (förhand),
                                 ``buy_upcard``, ``pass_upcard`` (the others, K7)
 4-5         draws               ``draw:stock``, ``draw:discard`` (K8)
 6-58        discards            ``discard:Ac`` .. ``discard:Ks``, ``discard:*``
 59-71       a group             ``meld:group:A`` ..: the three-card group of
                                 that rank (jokers filling), K9/K10
 72-115      a run               ``meld:run:c1`` .. ``meld:run:s11``: the three
                                 cards of that suit from that rank up
 116         the contract        ``meld:contract``: melds that complete it
 117         a part              ``meld:part``: the most contract melds at once
 118-        lay-offs            ``layoff:M:CARD``: card on table meld ``M``
                                 (``*`` a joker on a group or a run's low end,
                                 ``*high`` at a run's high end), K10
 then        joker swaps         ``swap:M:CARD``: the card for a joker of
                                 table meld ``M`` (K11)
===========  ==================  =============================================

Table melds are numbered in laying order (the view's ``number``); lay-offs
and swaps reach the first :data:`MELD_SLOTS` of them. The observation is a
float32 vector in [0, 1] from the seat's view alone: the hand, the card
picked up this turn, the pile's top and every card in the pile, each table
meld (kind, rank or suit and ends, size, jokers, whether it is the seat's),
every seat's hand size, contract progress, total and förhand-ness (the seat
itself first, then to its left), the deal, what the contract still needs,
the phase, and the stock, pile and turn limit.

>>> from rummykit import games
>>> game = games.get("kontrakt").new(3, seed=7)
>>> seat = game.to_act
>>> [ENCODER.actions[i] for i in ENCODER.propose(game.view(seat))]
['take_upcard', 'decline_upcard']
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rummykit.cards import Card, Suit, rank_text
from rummykit.envs.common import CARD_SLOTS, JOKER_SLOT, card_index, card_of_index
from rummykit.games.kontrakt.actions import (
    BuyUpcard,
    DeclineUpcard,
    Discard,
    Draw,
    LayDown,
    LayOff,
    PassUpcard,
    SwapJoker,
    TakeUpcard,
)
from rummykit.games.kontrakt.contracts import CONTRACTS
from rummykit.games.kontrakt.help import candidate_actions_for
from rummykit.games.kontrakt.options import DEALS, MAX_PLAYERS, TURN_LIMIT
from rummykit.games.kontrakt.view import kontrakt_view
from rummykit.melds import KONTRAKT, MeldError, MeldKind, read_meld

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.game import AnyAction, Game

__all__ = ["ACTIONS", "ENCODER", "MELD_SLOTS", "KontraktEncoder", "indexed", "place"]

MELD_SLOTS = 32
"""Table melds that lay-offs and joker swaps can reach (meld numbers 0-31). Real tables
stay well below: the most seen in the soak is in ``docs/envs.md``."""

UPCARD = ("take_upcard", "decline_upcard", "buy_upcard", "pass_upcard")
DRAWS = ("draw:stock", "draw:discard")
_CARD_NAMES = tuple(str(card_of_index(i)) for i in range(CARD_SLOTS))
RUN_STARTS = 11
"""A three-card run starts at the ace up to the jack (K5: the king is highest)."""
_LAYOFF_CARDS = (*_CARD_NAMES, "*high")
_SWAP_CARDS = _CARD_NAMES[:JOKER_SLOT]

FIRST_DISCARD = len(UPCARD) + len(DRAWS)
FIRST_GROUP = FIRST_DISCARD + CARD_SLOTS
FIRST_RUN = FIRST_GROUP + 13
CONTRACT = FIRST_RUN + 4 * RUN_STARTS
PART = CONTRACT + 1
FIRST_LAYOFF = PART + 1
FIRST_SWAP = FIRST_LAYOFF + MELD_SLOTS * len(_LAYOFF_CARDS)
N_ACTIONS = FIRST_SWAP + MELD_SLOTS * len(_SWAP_CARDS)

ACTIONS: tuple[str, ...] = (
    *UPCARD,
    *DRAWS,
    *(f"discard:{c}" for c in _CARD_NAMES),
    *(f"meld:group:{rank_text(r)}" for r in range(1, 14)),
    *(f"meld:run:{s.letter}{start}" for s in Suit for start in range(1, RUN_STARTS + 1)),
    "meld:contract",
    "meld:part",
    *(f"layoff:{m}:{c}" for m in range(MELD_SLOTS) for c in _LAYOFF_CARDS),
    *(f"swap:{m}:{c}" for m in range(MELD_SLOTS) for c in _SWAP_CARDS),
)
"""The name of every action index."""
assert len(ACTIONS) == N_ACTIONS

_SIMPLE = {TakeUpcard: 0, DeclineUpcard: 1, BuyUpcard: 2, PassUpcard: 3}
_PHASES = ("upcard_offer", "draw", "play")
_MELD_FEATURES = 14
_SEAT_FEATURES = 7
_PARTS = (
    ("hand", CARD_SLOTS),
    ("picked_up", CARD_SLOTS),
    ("pile_top", CARD_SLOTS),
    ("pile", CARD_SLOTS),
    ("table", _MELD_FEATURES * MELD_SLOTS),
    ("seats", _SEAT_FEATURES * MAX_PLAYERS),
    ("deal", DEALS),
    ("need", 2),
    ("phase", len(_PHASES)),
    ("state", 5),
)
SIZE = sum(n for _, n in _PARTS)
_OFFSET: dict[str, int] = {}
_at = 0
for _name, _n in _PARTS:
    _OFFSET[_name] = _at
    _at += _n

_TABLE, _SEATS, _DEAL = _OFFSET["table"], _OFFSET["seats"], _OFFSET["deal"]
_PICKED, _TOP, _PILE = _OFFSET["picked_up"], _OFFSET["pile_top"], _OFFSET["pile"]
_NEED, _PHASE, _STATE = _OFFSET["need"], _OFFSET["phase"], _OFFSET["state"]
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
_SUITS = {s.letter: int(s) for s in Suit}
_SLOT = {name: i for i, name in enumerate(_CARD_NAMES)}
"""A plain card's slot by its text (as a view writes a hand or the pile)."""
THIRD = 1 / 3

MAX_HAND = 20
MAX_TOTAL = 500
"""Penalty totals are scaled by this (and clipped at 1)."""
MAX_STOCK = 159 - 2 * 10
MAX_PILE = 100


def _read(cards: Sequence[Card]) -> tuple[MeldKind, int, Suit | None] | None:
    return _read_text(tuple(str(c) for c in cards))  # the text keeps what each joker means


@functools.lru_cache(maxsize=4096)
def _read_text(texts: tuple[str, ...]) -> tuple[MeldKind, int, Suit | None] | None:
    try:
        meld = read_meld([Card.parse(t) for t in texts], KONTRAKT)
    except MeldError:
        return None
    return meld.kind, meld.start, meld.suit


def place(action: AnyAction, view: Mapping[str, object]) -> int | None:
    """The index of a Kontrakt ``action`` in the seat's position ``view``; None when the
    encoding has none for it (a lay-off or swap onto a meld past :data:`MELD_SLOTS`, or a
    lay-down of another shape than the help makes)."""
    v = kontrakt_view(view)
    kind = type(action)
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if isinstance(action, Draw):
        return len(UPCARD) + (action.from_ == "discard")
    if isinstance(action, Discard):
        return FIRST_DISCARD + card_index(action.card)
    if isinstance(action, LayDown):
        return _lay_down_index(action, v)
    if isinstance(action, LayOff | SwapJoker):
        if not 0 <= action.meld < MELD_SLOTS:
            return None
        if isinstance(action, SwapJoker):
            if action.card.is_joker:
                return None
            return FIRST_SWAP + len(_SWAP_CARDS) * action.meld + card_index(action.card)
        slot = card_index(action.card)
        if action.card.is_joker and action.as_ is not None:
            meld = v["table"][action.meld]
            if meld["kind"] == "run" and action.as_.rank == meld["high"] + 1:
                slot = JOKER_SLOT + 1
        return FIRST_LAYOFF + len(_LAYOFF_CARDS) * action.meld + slot
    return None


def _lay_down_index(action: LayDown, view: Mapping[str, object]) -> int | None:
    v = kontrakt_view(view)
    read = [_read(m) for m in action.melds]
    if any(r is None for r in read):
        return None
    if len(action.melds) == 1 and len(action.melds[0]) == 3:
        (found,) = read
        assert found is not None
        kind, start, suit = found
        if kind is MeldKind.GROUP:
            return FIRST_GROUP + start - 1
        if suit is not None and start <= RUN_STARTS:
            return FIRST_RUN + RUN_STARTS * suit + start - 1
        return None
    seat = v["seat"]
    if seat is None:
        return None  # a spectator lays nothing down
    laid = v["laid"][seat]
    groups = laid["groups"] + sum(1 for r in read if r is not None and r[0] is MeldKind.GROUP)
    runs = laid["runs"] + sum(1 for r in read if r is not None and r[0] is MeldKind.RUN)
    contract = CONTRACTS[v["deal"]]
    if any(groups >= g and runs >= r for g, r in contract.choices):
        return CONTRACT
    return PART


def indexed(
    actions: Sequence[AnyAction], view: Mapping[str, object]
) -> tuple[dict[int, AnyAction], list[AnyAction]]:
    """The actions by their indices, and those left out: with no index (:func:`place`),
    or at an index an earlier, different action holds (different also in what a joker
    stands for, which ``==`` of cards does not compare)."""
    v = kontrakt_view(view)
    out: dict[int, AnyAction] = {}
    left: list[AnyAction] = []
    for action in actions:
        i = place(action, v)
        if i is None or repr(out.setdefault(i, action)) != repr(action):
            left.append(action)
    return out, left


class KontraktEncoder:
    """Kontraktsrummy's actions and observations (see the module docstring)."""

    game = "kontrakt"
    actions = ACTIONS
    size = SIZE

    def propose(self, view: Mapping[str, object]) -> dict[int, AnyAction]:
        """The help's actions from the seat's view (:func:`candidate_actions_for`), indexed."""
        v = kontrakt_view(view)
        return indexed(candidate_actions_for(v), v)[0]

    def view(self, game: Game, seat: int) -> Mapping[str, object]:
        """The seat's view without its log (``game.view(seat, log=False)``), which the
        encoding does not read: a Kontrakt log grows over seven deals."""
        return game.view(seat, log=False)

    def engine_legal(self, game: Game, view: Mapping[str, object]) -> dict[int, AnyAction]:
        """The engine's legal actions, indexed: the help's actions that the engine's ``can``
        accepts, which is how ``game.suggested_actions()`` makes them (here from the view the
        environment holds, rather than a second one)."""
        v = kontrakt_view(view)
        if v["seat"] is None or game.to_act != v["seat"]:
            return {}
        return indexed([a for a in candidate_actions_for(v) if game.can(a)], v)[0]

    def observe(
        self, view: Mapping[str, object], actions: Mapping[int, AnyAction]
    ) -> npt.NDArray[np.float32]:
        """The observation vector of the seat viewing ``view`` (see the module docstring).

        ``actions`` is not read: the index of each action already says all it is.
        """
        v = kontrakt_view(view)
        import numpy as np

        obs = [0.0] * SIZE
        slot = _SLOT
        for text in v["hand"] or ():
            obs[slot[text]] += THIRD  # the hand is the first part
        picked = v["picked_up"]
        if picked is not None:
            obs[_PICKED + slot[picked]] = 1.0
        pile = v["discard_pile"]
        if pile:
            obs[_TOP + slot[pile[-1]]] = 1.0
        for text in pile:
            obs[_PILE + slot[text]] += THIRD
        seat = v["seat"]
        me = 0 if seat is None else seat
        for meld in v["table"][:MELD_SLOTS]:
            k = _TABLE + _MELD_FEATURES * meld["number"]
            cards = meld["cards"]
            obs[k] = 1.0
            if meld["kind"] == "group":
                obs[k + 1] = 1.0
                obs[k + 3] = meld["rank"] / 13
            else:
                obs[k + 2] = 1.0
                obs[k + 4 + _SUITS[meld["suit"]]] = 1.0
                obs[k + 8] = meld["low"] / 13
                obs[k + 9] = meld["high"] / 13
            n_cards = len(cards)
            obs[k + 10] = n_cards / 13 if n_cards < 13 else 1.0
            obs[k + 11] = (n_cards - sum(1 for t in cards if t[0] != "*")) * THIRD
            obs[k + 12] = float(meld["owner"] == seat)
            obs[k + 13] = float(meld["contract"])
        n = len(v["players"])
        sizes, laid, totals, forhand = (
            v["hand_sizes"],
            v["laid"],
            v["totals"],
            v["forhand"],
        )
        for j in range(n):
            s = (me + j) % n
            k = _SEATS + _SEAT_FEATURES * j
            done = laid[s]
            obs[k] = 1.0
            obs[k + 1] = min(1.0, sizes[s] / MAX_HAND)
            obs[k + 2] = min(1.0, done["groups"] * THIRD)
            obs[k + 3] = min(1.0, done["runs"] * THIRD)
            obs[k + 4] = float(done["complete"])
            obs[k + 5] = min(1.0, totals[s] / MAX_TOTAL)
            obs[k + 6] = float(forhand == s)
        deal = v["deal"]
        obs[_DEAL + deal] = 1.0
        contract = CONTRACTS[deal]
        mine = laid[me]
        if not mine["complete"]:
            obs[_NEED] = max(0, contract.groups - mine["groups"]) * THIRD
            obs[_NEED + 1] = max(0, contract.runs - mine["runs"]) * THIRD
        phase = _PHASE_INDEX.get(v["phase"])
        if phase is not None:
            obs[_PHASE + phase] = 1.0
        obs[_STATE] = float(v["offer_to"] == seat)
        obs[_STATE + 1] = float(v["stock_only"])
        obs[_STATE + 2] = min(1.0, v["stock_size"] / MAX_STOCK)
        obs[_STATE + 3] = min(1.0, len(pile) / MAX_PILE)
        obs[_STATE + 4] = min(1.0, v["turns_left"] / (TURN_LIMIT * n))
        return np.fromiter(obs, dtype=np.float32, count=SIZE)


ENCODER = KontraktEncoder()
"""The Kontrakt encoder (it holds no state)."""
