"""The review of Kontraktsrummy records (rummykit.review): crafted turns by rule id, the
laying search against the engine, and bot games."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kontrakt_helpers import game_with, play_bots, two_seats
from rummykit import games
from rummykit.cards import JOKER, Card, Meaning, Suit, full_deck, parse_cards
from rummykit.game import AnyAction
from rummykit.games.kontrakt import (
    CONTRACTS,
    DealEnded,
    DeclineUpcard,
    Discard,
    Draw,
    KontraktGame,
    LayDown,
    LayOff,
    PassUpcard,
    SwapJoker,
)
from rummykit.record import GameRecord
from rummykit.review import review
from rummykit.review.kontrakt import judge
from rummykit.review.laying import best_laying
from rummykit.review.walk import deals

SPEC = games.get("kontrakt")
ANNA = "7c 7d 7h 9c 9d 9h 2c 4d 6s Qh"
"""Seat 1 (förhand) in the crafted games: two groups, deal 1's contract (K4)."""


def start(stock: str = "") -> KontraktGame:
    """Two seats, seat 1 (förhand) dealt :data:`ANNA`; the upcard goes round untaken."""
    game = game_with(2, {1: ANNA, 0: "2d 3s 5h 8c Jd Kc Ks 4c 5c Th"}, upcard="Ad", stock=stock)
    game.apply(DeclineUpcard(1))
    game.apply(PassUpcard(0))
    return game


def turns_of(game: KontraktGame, seat: int) -> list[object]:
    return list(review(game.to_record(), seat=seat).turns)


def test_K9_review_finds_a_missed_contract() -> None:
    game = start(stock="Ks")
    game.apply(Draw(1))
    game.apply(Discard(1, parse_cards("Qh")[0]))
    (turn,) = review(game.to_record(), seat=1).turns
    assert turn.missed == ("contract",)
    assert (turn.played, turn.best) == (0, 6)
    assert turn.best_play is not None
    assert turn.best_play["actions"][0]["type"] == "meld"
    assert sorted(map(sorted, turn.best_play["actions"][0]["melds"])) == [
        ["7c", "7d", "7h"],
        ["9c", "9d", "9h"],
    ]


def test_K9_laying_the_contract_misses_nothing() -> None:
    game = start(stock="Ks")
    game.apply(Draw(1))
    game.apply(LayDown(1, (tuple(parse_cards("7c 7d 7h")), tuple(parse_cards("9c 9d 9h")))))
    game.apply(Discard(1, parse_cards("Qh")[0]))
    (turn,) = review(game.to_record(), seat=1).turns
    assert (turn.played, turn.best, turn.missed) == (6, 6, ())


def test_K10_review_finds_a_missed_lay_off() -> None:
    # seat 1 lays its contract; a turn later it draws the 7s and discards without laying it off
    game = start(stock="Ks 3h 7s")
    game.apply(Draw(1))
    game.apply(LayDown(1, (tuple(parse_cards("7c 7d 7h")), tuple(parse_cards("9c 9d 9h")))))
    game.apply(Discard(1, parse_cards("Qh")[0]))
    game.apply(Draw(0))
    game.apply(Discard(0, parse_cards("3h")[0]))
    game.apply(Draw(1))  # the 7s: the stock, not the 3h on the pile
    game.apply(Discard(1, parse_cards("Ks")[0]))
    first, second = review(game.to_record(), seat=1).turns
    assert first.missed == ()
    assert second.missed == ("lay_off",)
    assert (second.played, second.best) == (0, 1)
    assert second.best_play is not None
    assert second.best_play["actions"] == [{"seat": 1, "type": "layoff", "card": "7s", "meld": 0}]


def test_K10_no_lay_off_is_missed_before_the_contract_is_down() -> None:
    game = start(stock="Ks")
    game.apply(Draw(1))
    game.apply(Discard(1, parse_cards("Qh")[0]))
    (turn,) = review(game.to_record(), seat=1).turns
    assert "lay_off" not in turn.missed


def test_K8_the_discard_pile_s_top_counts_when_the_seat_drew_from_the_stock() -> None:
    # seat 0 holds two nines; the 9s is on the pile but it draws the stock's 2h instead
    game = two_seats("9c 9d 4h 6s Jd Kc 2s 8c 5d", "9s", stock_top="2h")
    laying = best_laying(
        game.hand(0), [], seat=0, contract=CONTRACTS[0], laid=(0, 0), complete=False
    )
    assert laying.count == 0  # from the hand alone: nothing
    before = game.view(0, log=False)
    game.apply(Draw(0, "stock"))
    judged = judge(game.view(0, log=False), before)
    assert judged.discard == "9s" and judged.best == 3  # 9c 9d 9s: a part of two groups (K9)
    assert judged.play is not None and judged.play["draw"] == "discard"


def test_judge_refuses_a_spectators_view_it_has_no_seat_to_judge() -> None:
    game = two_seats("9c 9d 4h 6s Jd Kc 2s 8c 5d", "9s", stock_top="2h")
    game.apply(Draw(0, "stock"))
    with pytest.raises(ValueError, match="spectator"):
        judge(game.spectator_view(log=False))
    with pytest.raises(ValueError, match="spectator"):
        judge(game.view(0, log=False), game.spectator_view(log=False))
    with pytest.raises(ValueError, match="not a kontrakt view"):
        judge({**game.view(0, log=False), "game": "vatikanen"})


def test_K13_review_finds_a_missed_going_out() -> None:
    # the contract is down; the last card but one fits a meld: lay it off, discard the other
    game = two_seats(
        "5h",
        "Kd",
        table=[(0, "7c 7d 7h", True), (0, "9c 9d 9h", True)],
        laid=[(2, 0, True), (0, 0, False)],
        stock_top="7s",
    )
    before = game.view(0, log=False)
    game.apply(Draw(0, "stock"))
    judged = judge(game.view(0, log=False), before)
    assert judged.out and judged.best == 1


def test_K12_the_seventh_deal_is_laid_all_at_once() -> None:
    hand = parse_cards("7c 7d 7h 9c 9d 9h 2c 4d 6s Qh")
    laying = best_laying(hand, [], seat=0, contract=CONTRACTS[6], laid=(0, 0), complete=False)
    assert laying.count == 0 and not laying.contract  # two groups of three: no part (K12)
    more = parse_cards("7c 7d 7h 9c 9d 9h Qc Qd Qs 6s Qh")
    laying = best_laying(more, [], seat=0, contract=CONTRACTS[6], laid=(0, 0), complete=False)
    assert laying.contract and laying.count == 10  # three groups, the fourth queen on them


def test_K13_a_part_keeps_two_cards_in_hand() -> None:
    hand = parse_cards("7c 7d 7h 7s")
    laying = best_laying(hand, [], seat=0, contract=CONTRACTS[1], laid=(0, 0), complete=False)
    assert laying.count == 0  # a group of three would leave one card: K13
    hand = parse_cards("7c 7d 7h 7s 2d")
    laying = best_laying(hand, [], seat=0, contract=CONTRACTS[1], laid=(0, 0), complete=False)
    assert laying.count == 3


def test_K11_a_swapped_joker_is_laid_again() -> None:
    # the 8s frees the table's joker, which then makes a run with Th Jh: the hand empties
    table = [
        {
            "number": 0,
            "owner": 1,
            "kind": "group",
            "cards": ["8c", "8h", "*:8"],
            "contract": True,
            "rank": 8,
        }
    ]
    hand = parse_cards("8s Th Jh")
    laying = best_laying(hand, table, seat=0, contract=CONTRACTS[0], laid=(2, 0), complete=True)
    assert laying.count == 3
    assert [a.to_json()["type"] for a in laying.actions] == ["swap_joker", "meld"]


def test_discard_taken_and_laid_by_the_next_seat_is_told() -> None:
    game = start(stock="Ks 3h 8c")
    game.apply(Draw(1))
    game.apply(LayDown(1, (tuple(parse_cards("7c 7d 7h")), tuple(parse_cards("9c 9d 9h")))))
    game.apply(Discard(1, parse_cards("6s")[0]))
    game.apply(Draw(0, "discard"))
    turns = review(game.to_record()).turns
    assert turns[0].extra["discard"] == {"card": "6s", "taken": True, "laid": False}


# ---------------------------------------------------------------- bot games


def bot_record(seed: int, players: int, deals: int) -> GameRecord:
    game = KontraktGame(players, seed=seed)
    play_bots(game, "br"[seed % 2 :] + "b", seed, until_deal=deals)
    return game.to_record()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_review_never_puts_best_below_played(seed: int, players: int) -> None:
    record = bot_record(seed, players, 2)
    for turn in review(record).turns:
        assert 0 <= turn.played <= turn.best
        assert (turn.best_play is None) == (turn.best == 0)
        if "go_out" in turn.missed:
            assert turn.best_play is not None and len(turn.best_play["hand"]) <= 1


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_review_never_puts_best_below_played_in_whole_games(seed: int) -> None:
    record = bot_record(seed, 2 + seed % 7, 7)
    rng = random.Random(seed)
    result = review(record, seat=rng.randrange(len(record.players)))
    assert all(0 <= t.played <= t.best for t in result.turns)


def tables_at_turns(record: GameRecord) -> dict[tuple[int, int], list[dict[str, object]]]:
    """The table as every seat saw it before each action: (deal, action) -> its melds."""
    out = {}
    for k, game, actions in deals(SPEC, record):
        for j, action in enumerate(actions):
            out[(k, j)] = list(game.spectator_view()["table"])
            game.apply(action)
    return out


def marked(before: Sequence[str], after: Sequence[str]) -> list[bool]:
    """The replay viewer's marks on a best play's meld (review.js ``added``): each card
    text of ``after`` that ``before``, the meld as it was, does not hold (as many times)."""
    left = Counter(before)
    out = []
    for card in after:
        out.append(left[card] <= 0)
        left[card] -= 1
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_K10_K11_a_best_play_adds_to_the_table_just_the_cards_it_lays(
    seed: int, players: int
) -> None:
    # the viewer marks a best play's cards by comparing each meld with the table as it was:
    # the table melds keep their numbers and cards (but the jokers swapped out, K11), and
    # the cards new on them are the cards the play lays and the natural cards put in the
    # place of a table joker
    record = bot_record(seed, players, 3)
    tables = tables_at_turns(record)
    for turn in review(record).turns:
        if turn.best_play is None:
            continue
        old = {m["number"]: m["cards"] for m in tables[(turn.deal, turn.action)]}
        new = {m["number"]: m["cards"] for m in turn.best_play["table"]}
        swaps = [a["meld"] for a in turn.best_play["actions"] if a["type"] == "swap_joker"]
        assert set(old) <= set(new)
        for number, cards in old.items():
            gone = [c for c, lost in zip(cards, marked(new[number], cards), strict=True) if lost]
            assert all(c.startswith("*") for c in gone) and len(gone) == swaps.count(number)
        marks = sum(sum(marked(old.get(n, []), cards)) for n, cards in new.items())
        assert marks == turn.best + len(swaps), turn


# ---------------------------------------------------------------- the search, checked


def _written(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every way to write ``cards`` as one Kontrakt meld (K5): a group of the naturals' rank,
    or a run of their suit with the jokers in its gaps and at its ends, labelled."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    if not naturals:
        return []
    out = []
    if len({c.rank for c in naturals}) == 1:
        rank = naturals[0].rank
        out.append((*naturals, *[Card(0, None, Meaning(rank))] * jokers))
    suits = {c.suit for c in naturals}
    ranks = sorted(c.rank for c in naturals)
    if len(suits) == 1 and len(set(ranks)) == len(ranks):
        suit = naturals[0].suit
        assert suit is not None
        for start in range(1, 15 - len(cards)):
            span = range(start, start + len(cards))
            if all(r in span for r in ranks):
                out.append(
                    tuple(
                        Card(r, suit) if r in ranks else Card(0, None, Meaning(r, suit))
                        for r in span
                    )
                )
    return out


def _engine_most(game: KontraktGame, seat: int, memo: dict[str, int]) -> int:
    """The most cards ``seat`` can lay now, by trying every action on the engine: every
    meld of three cards or more of the hand, every lay-off (a joker at either end), every
    joker swap; one action at a time, remembered by hand and table."""
    hand = game.hand(seat)
    key = repr((sorted(map(str, hand)), [m.to_json()["cards"] for m in game.table]))
    if key in memo:
        return memo[key]
    tries: list[AnyAction] = []
    picks = {
        tuple(sorted(pick, key=str))
        for size in range(3, len(hand) + 1)
        for pick in itertools.combinations(hand, size)
    }
    for pick in picks:
        tries += [LayDown(seat, (meld,)) for meld in _written(pick)]
    for m in game.table:
        for card in {str(c): c for c in hand}.values():
            if card.is_joker:
                ends = [Card(r, s) for r in range(1, 14) for s in Suit]
                tries += [LayOff(seat, card, m.number, at) for at in ends]
                tries.append(LayOff(seat, card, m.number))
            else:
                tries += [LayOff(seat, card, m.number), SwapJoker(seat, card, m.number)]
    best = 0
    for action in tries:
        if not game.can(action):
            continue
        trial = game.copy()
        before = len(trial.hand(seat))
        event = trial.apply(action)
        if isinstance(event, DealEnded):
            best = max(best, before)
            continue
        laid = before - len(trial.hand(seat))
        best = max(best, laid + _engine_most(trial, seat, memo))
    memo[key] = best
    return best


OTHER = parse_cards("5c 5d 6s 8h Qs Jd Tc 3h 2d 4c")
"""Seat 1's hand in :func:`kontrakt_helpers.two_seats`."""


@st.composite
def small_positions(draw: st.DrawFn) -> KontraktGame:
    """Seat 0 of two in its play phase with a small hand, a table of a few melds and its
    contract laid, in part or not at all."""
    deal = draw(st.integers(0, 6), label="deal")
    rng = random.Random(draw(st.integers(0, 10**6), label="seed"))
    free = Counter(full_deck(2, 2))
    free.subtract([*OTHER, Card.parse("Kd")])
    melds: list[tuple[int, str, bool]] = []
    for _ in range(rng.randrange(4)):
        if rng.random() < 0.5:
            rank = rng.randrange(1, 14)
            cards = [Card(rank, Suit(s)) for s in rng.sample(range(4), 3)]
        else:
            start, suit = rng.randrange(1, 12), Suit(rng.randrange(4))
            cards = [Card(r, suit) for r in range(start, start + 3)]
        if rng.random() < 0.3 and free[JOKER] > 0:
            k = rng.randrange(3)
            means = Meaning(cards[k].rank) if cards[0].rank == cards[1].rank else None
            means = means or Meaning(cards[k].rank, cards[k].suit)
            cards[k] = Card(0, None, means)
        if all(free[c.plain()] >= n for c, n in Counter(c.plain() for c in cards).items()):
            free.subtract([c.plain() for c in cards])
            melds.append((1, " ".join(map(str, cards)), True))
    pool = sorted(free.elements(), key=str)
    rng.shuffle(pool)
    table = [c for _, m, _ in melds for c in parse_cards(m)]
    near = [c for c in pool if c.is_joker or any(abs(c.rank - t.rank) <= 1 for t in table)]
    size = draw(st.integers(3, 7), label="cards")
    hand: list[Card] = []
    for card in near[: rng.randrange(0, size + 1)] + pool:
        if len(hand) < size and Counter(hand)[card] < free[card]:
            hand.append(card)
    contract = CONTRACTS[deal]
    state = rng.randrange(3) if not contract.all_at_once else rng.choice((0, 2))
    mine = [(0, 0, False), (min(1, contract.groups), 0, False), (*contract.choices[0], True)]
    laid = [mine[state], (contract.groups, contract.runs, True)]
    text = " ".join(map(str, hand))
    return two_seats(text, "Kd", deal=deal, table=melds, laid=laid, draw=False)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=small_positions())
def test_the_laying_search_finds_what_the_engine_allows_at_most(game: KontraktGame) -> None:
    g, r, complete = game.laid(0)
    laying = best_laying(
        game.hand(0),
        [m.to_json() for m in game.table],
        seat=0,
        contract=CONTRACTS[game.deal],
        laid=(g, r),
        complete=complete,
    )
    assert laying.count == _engine_most(game, 0, {})
