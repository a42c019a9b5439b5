"""Vatikanen for learners: a fixed action set of draw, pass and solver plays, and the observation.

A Vatikanen play can put any subset of the hand on a table that may be
rearranged at will (V8-V12), so its legal plays cannot be listed in a fixed
set of indices. The action set is instead a fixed list of *kinds* of play,
each made by the exact solver or read from the hand, and masked when the
position has none (``docs/envs.md`` has the table):

====  ================  =====================================================
 0    ``draw``          V4b: draw the top of the stock
 1    ``pass``          V14: pass, when the stock is empty
 2    ``most_cards``    the solver's play of the most cards (ties: points);
                        before the seat has opened, its longest opening run
 3    ``most_points``   the solver's play of the most points (ties: cards)
 4    ``keep_jokers``   the most cards without laying a joker from the hand
 5-17 ``group:A``..    a new group of every natural card of that rank in the
                        hand (three or more), the table untouched (opened only)
18-21 ``run:c``..       a new run: the longest run of natural cards of that
                        suit in the hand (ace low or high), the table
                        untouched; before opening this is an opening (V7)
====  ================  =====================================================

Two indices may stand for the same play (``keep_jokers`` is ``most_cards``
when the hand holds no joker). The observation is a float32 vector in
[0, 1], built from the seat's view alone: the hand, the table (natural
cards, and what each table joker stands for), every seat's hand size and
opening (the seat itself first, then to its left), the stock's size, the
passes in a row, and six features of the play at each index (whether there
is one, its cards, points and jokers, whether it goes out, and the cards
it leaves in the hand).

>>> from rummykit import games
>>> game = games.get("vatikanen").new(2, seed=6)
>>> view = game.view(0)
>>> actions = ENCODER.propose(view)
>>> [ENCODER.actions[i] for i in sorted(actions)]
['draw', 'most_cards', 'most_points', 'keep_jokers', 'run:d']
>>> ENCODER.observe(view, actions).shape == (ENCODER.size,)
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rummykit import solver
from rummykit.cards import Card, Suit, parse_cards, rank_text, vatikanen_value
from rummykit.envs.common import CARD_SLOTS, card_index, text_index
from rummykit.games.vatikanen.actions import Draw, Pass, Play
from rummykit.games.vatikanen.game import MAX_PLAYERS, Objective
from rummykit.games.vatikanen.view import vatikanen_view
from rummykit.melds import VATIKANEN, read_meld

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.game import AnyAction, Game

__all__ = ["ACTIONS", "ENCODER", "FEATURES", "VatikanenEncoder"]

SOLVER_PLAYS = ("most_cards", "most_points", "keep_jokers")
GROUPS = tuple(f"group:{rank_text(r)}" for r in range(1, 14))
RUNS = tuple(f"run:{s.letter}" for s in Suit)
ACTIONS: tuple[str, ...] = ("draw", "pass", *SOLVER_PLAYS, *GROUPS, *RUNS)
"""The name of every action index."""
DRAW, PASS, MOST_CARDS, MOST_POINTS, KEEP_JOKERS = range(5)
FIRST_GROUP = 5
FIRST_RUN = FIRST_GROUP + len(GROUPS)

FEATURES = ("present", "cards", "points", "jokers", "goes_out", "left")
"""The features of the play at each index, in the observation's last part."""

# the observation's parts, in order, with their lengths
_PARTS = (
    ("hand", CARD_SLOTS),
    ("table", 52),
    ("table_run_jokers", 52),
    ("table_group_jokers", 13),
    ("seats", 3 * MAX_PLAYERS),
    ("stock", 1),
    ("passes", 1),
    ("plays", len(FEATURES) * len(ACTIONS)),
)
SIZE = sum(n for _, n in _PARTS)
_OFFSET = {}
_at = 0
for _name, _n in _PARTS:
    _OFFSET[_name] = _at
    _at += _n

_HAND = _OFFSET["hand"]
MAX_STOCK = 106 - 2 * 13
MAX_HAND = 26
"""Hand sizes are scaled by this (and clipped at 1)."""
MAX_POINTS = 100


def _as_play(seat: int, found: solver.Play) -> Play:
    return Play(seat, tuple(found.cards), tuple(tuple(m.cards) for m in found.table))


def _opening(seat: int, found: solver.Play | None) -> Play | None:
    if found is None:
        return None
    (run,) = found.table
    return Play(seat, tuple(run.cards), None)


@functools.lru_cache(maxsize=16)
def _proposals(
    seat: int,
    hand_text: tuple[str, ...],
    table_text: tuple[tuple[str, ...], ...],
    opened: bool,
    stock: bool,
    free: bool,
) -> tuple[tuple[int, AnyAction], ...]:
    """The proposals of :meth:`VatikanenEncoder.propose`, by index, for one position."""
    out: dict[int, AnyAction] = {DRAW: Draw(seat)} if stock else {PASS: Pass(seat)}
    hand = parse_cards(hand_text)
    table = [read_meld(parse_cards(m), VATIKANEN) for m in table_text]
    base = tuple(tuple(m.cards) for m in table)
    plain = [c for c in hand if not c.is_joker]
    found: dict[int, Play | None]
    if not opened:
        found = {
            MOST_CARDS: _opening(seat, solver.best_opening(hand, objective="cards")),
            MOST_POINTS: _opening(seat, solver.best_opening(hand, objective="points")),
        }
        if len(plain) < len(hand):
            found[KEEP_JOKERS] = _opening(seat, solver.best_opening(plain, objective="cards"))
        else:
            found[KEEP_JOKERS] = found[MOST_CARDS]
    else:
        found = {}
        objectives: tuple[tuple[int, Objective], ...] = (
            (MOST_CARDS, "cards"),
            (MOST_POINTS, "points"),
        )
        for index, objective in objectives:
            play = solver.best_play(table, hand, objective=objective, free_jokers=free)
            found[index] = None if play is None else _as_play(seat, play)
        if len(plain) < len(hand):
            play = solver.best_play(table, plain, objective="cards", free_jokers=free)
            found[KEEP_JOKERS] = None if play is None else _as_play(seat, play)
        else:
            found[KEEP_JOKERS] = found[MOST_CARDS]
    out.update((i, p) for i, p in found.items() if p is not None)
    if opened:
        by_rank: dict[int, list[Card]] = {}
        for c in plain:
            by_rank.setdefault(c.rank, []).append(c)
        for rank, cards in sorted(by_rank.items()):
            if len(cards) >= 3:
                group = tuple(sorted(cards, key=lambda c: c.suit or 0))
                out[FIRST_GROUP + rank - 1] = Play(seat, group, (*base, group))
    for suit in Suit:
        run = longest_run(plain, suit)
        if run is None:
            continue
        if opened:
            out[FIRST_RUN + suit] = Play(seat, tuple(run), (*base, tuple(run)))
        else:
            out[FIRST_RUN + suit] = Play(seat, tuple(run), None)
    return tuple(sorted(out.items()))


def longest_run(cards: Sequence[Card], suit: Suit) -> list[Card] | None:
    """The longest run (at least 3) of the natural cards of ``suit`` in ``cards``, ace low or
    high; of two as long the higher. None when there is none.

    >>> [str(c) for c in longest_run(parse_cards("Qh Kh Ah 2h 3h 9h"), Suit.HEARTS)]
    ['Qh', 'Kh', 'Ah']
    """
    have = {c.rank for c in cards if c.suit == suit}
    if 1 in have:
        have.add(14)  # the ace may also close a run high (V5)
    best: tuple[int, int] | None = None  # (length, start)
    start = None
    for rank in range(1, 16):
        if rank in have and rank <= 14:
            if start is None:
                start = rank
            continue
        if start is not None:
            length = rank - start
            if length > 13:  # one ace cannot close both ends: the higher 13
                start, length = start + length - 13, 13
            if length >= 3 and (best is None or length >= best[0]):
                best = (length, start)
            start = None
    if best is None:
        return None
    length, start = best
    return [Card(r if r <= 13 else 1, suit) for r in range(start, start + length)]


class VatikanenEncoder:
    """Vatikanen's actions and observations (see the module docstring)."""

    game = "vatikanen"
    actions = ACTIONS
    size = SIZE

    def propose(self, view: Mapping[str, object]) -> dict[int, AnyAction]:
        """The play of every kind the seat has now, from its view (hand and table) alone.

        The answers for the last few positions are remembered (the environment and a
        check of it may ask twice).
        """
        v = vatikanen_view(view)
        seat, hand = v["seat"], v["hand"]
        if seat is None or hand is None or v["turn"] != seat:
            return {}
        return dict(
            _proposals(
                seat,
                tuple(hand),
                tuple(tuple(m) for m in v["table"]),
                bool(v["opened"][seat]),
                v["stock_size"] > 0,
                bool(v["options"]["free_jokers"]),
            )
        )

    def view(self, game: Game, seat: int) -> Mapping[str, object]:
        """The seat's view, ``game.view(seat)``."""
        return game.view(seat)

    def engine_legal(self, game: Game, view: Mapping[str, object]) -> dict[int, AnyAction]:
        """Every proposal the engine's ``can`` accepts (each distinct play asked once)."""
        verdict: dict[str, bool] = {}
        out = {}
        for i, action in self.propose(view).items():
            key = repr(action)  # with what each joker stands for, which == does not compare
            if key not in verdict:
                verdict[key] = game.can(action)
            if verdict[key]:
                out[i] = action
        return out

    def observe(
        self, view: Mapping[str, object], actions: Mapping[int, AnyAction]
    ) -> npt.NDArray[np.float32]:
        """The observation vector of the seat viewing ``view`` (see the module docstring)."""
        v = vatikanen_view(view)
        import numpy as np

        obs = [0.0] * SIZE
        seat = v["seat"]
        n = len(v["players"])
        hand = v["hand"] or []
        for text in hand:
            obs[_HAND + text_index(text)] += 0.5
        for meld in v["table"]:
            for text in meld:
                part, k = table_slot(text)
                obs[part + k] += 0.5
        at = _OFFSET["seats"]
        me = 0 if seat is None else seat
        sizes, opened = v["hand_sizes"], v["opened"]
        for k in range(n):
            s = (me + k) % n
            obs[at + 3 * k] = 1.0
            obs[at + 3 * k + 1] = min(1.0, sizes[s] / MAX_HAND)
            obs[at + 3 * k + 2] = float(opened[s])
        obs[_OFFSET["stock"]] = min(1.0, v["stock_size"] / MAX_STOCK)
        obs[_OFFSET["passes"]] = min(1.0, v["passes_in_row"] / MAX_PLAYERS)
        at = _OFFSET["plays"]
        width = len(FEATURES)
        held = len(hand)
        for i, action in actions.items():
            k = at + width * i
            obs[k] = 1.0
            if isinstance(action, Play):
                cards = action.add
                obs[k + 1] = min(1.0, len(cards) / 13)
                obs[k + 2] = min(1.0, sum(vatikanen_value(c) for c in cards) / MAX_POINTS)
                obs[k + 3] = sum(1 for c in cards if c.is_joker) / 2
                obs[k + 4] = float(len(cards) == held)
                obs[k + 5] = min(1.0, (held - len(cards)) / MAX_HAND)
            else:
                obs[k + 5] = min(1.0, (held + isinstance(action, Draw)) / MAX_HAND)
        return np.fromiter(obs, dtype=np.float32, count=SIZE)


@functools.lru_cache(maxsize=512)
def table_slot(text: str) -> tuple[int, int]:
    """Where a card written ``text`` counts in the observation: (part offset, index).

    A natural card counts in the table's 52 natural slots; a table joker by
    what it stands for (a run joker by its card, a group joker by its rank).

    >>> table_slot("7h") == (_OFFSET["table"], 32), table_slot("*:7")[1]
    (True, 6)
    """
    card = Card.parse(text)
    if card.suit is not None:
        return _OFFSET["table"], card_index(card)
    means = card.stands_for
    if means is None:
        raise ValueError(f"a joker on the table stands for a card: {text!r} does not")
    if means.suit is not None:
        return _OFFSET["table_run_jokers"], 13 * int(means.suit) + means.rank - 1
    return _OFFSET["table_group_jokers"], means.rank - 1


ENCODER = VatikanenEncoder()
"""The Vatikanen encoder (it holds no state)."""
