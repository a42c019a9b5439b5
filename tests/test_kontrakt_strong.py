"""The strong Kontrakt bot: its search (legal, reproducible, view-only) and K12 shedding."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kontrakt_helpers import two_seats
from rummykit.bots import kontrakt_strong, make_bot
from rummykit.bots.kontrakt_strong import StrongBot
from rummykit.games.kontrakt import DealEnded, KontraktGame, KontraktPosition


def _play_deal(seed: int, samples: int, **settings: Any) -> tuple[list[str], tuple[int, ...], int]:
    """One deal: a searching strong bot in seat 0 against three basic bots.

    Returns seat 0's actions, the penalties, and how many decisions it searched.
    """
    game = KontraktGame(4, seed=seed)
    bots = [StrongBot(seed, samples=samples, **settings)] + [
        make_bot("kontrakt", "basic", s) for s in (1, 2, 3)
    ]
    actions: list[str] = []
    searched = 0
    real = kontrakt_strong.outcomes

    def counted(*args: Any, **kwargs: Any) -> list[list[float]]:
        nonlocal searched
        searched += 1
        return real(*args, **kwargs)

    kontrakt_strong.outcomes = counted  # type: ignore[assignment]
    try:
        return _play(game, bots, actions, lambda: searched)
    finally:
        kontrakt_strong.outcomes = real


def _play(
    game: KontraktGame, bots: list[Any], actions: list[str], searched: Any
) -> tuple[list[str], tuple[int, ...], int]:
    while True:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if seat == 0:
            view = json.loads(json.dumps(view))  # plain data only: the bot never sees the game
        action = bots[seat].choose(view)
        if seat == 0:
            actions.append(str(action))
        event = game.apply(action)  # the engine judges every action
        if isinstance(event, DealEnded):
            return actions, event.penalties, searched()


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"read": False, "own_policy": False},
        {"search_draw": False, "candidates": 2},
        {"extra": 1, "fit": 20},
    ],
)
def test_K8_strong_search_plays_legally_and_reproducibly(settings: dict[str, Any]) -> None:
    """The search (draws and discards played forward on guessed deals) only ever
    chooses among legal actions, and the same seed gives the same deal."""
    searched = 0
    for seed in (2, 6):
        first = _play_deal(seed, samples=2, **settings)
        assert first == _play_deal(seed, samples=2, **settings)
        searched += first[2]
    assert searched > 0  # the rollouts were used, not skipped


def test_strong_without_samples_is_the_heuristic_bot() -> None:
    """``samples=0`` (the default) never plays a guessed deal forward."""
    assert StrongBot(1).search.samples == 0
    first = _play_deal(4, samples=0)
    assert first[2] == 0
    assert first == _play_deal(4, samples=0)


def test_strong_time_cap_stops_the_search_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """``time_cap`` (seconds) lets no move start a new guess once it has thought that
    long: with a tiny cap each searched decision plays two guesses, not ``samples``."""
    plays: list[int] = []
    real = kontrakt_strong.outcomes

    def counted(*args: Any, **kwargs: Any) -> list[list[float]]:
        values = real(*args, **kwargs)
        plays.append(len(values[0]))
        return values

    monkeypatch.setattr(kontrakt_strong, "outcomes", counted)
    game = KontraktGame(4, seed=6)
    bots = [StrongBot(6, samples=40, time_cap=1e-6)] + [
        make_bot("kontrakt", "basic", s) for s in (1, 2, 3)
    ]
    _play(game, bots, [], lambda: 0)
    assert plays and set(plays) == {2}


def _seventh_deal_discard(hand: str, stock: str, **settings: object) -> str:
    """The card a strong förhand (seat 1 of three) discards on its first turn of the
    seventh deal (K12), the others playing basic."""
    from kontrakt_helpers import build_deck, to_deal

    game = to_deal(3, 6, build_deck(3, {1: hand}, upcard="2c", stock=stock, dealer=0))
    assert game.forhand == 1 and game.contract.all_at_once
    bots = {1: StrongBot(1, samples=0, **settings), 0: make_bot("kontrakt", "basic", 0)}  # type: ignore[arg-type]
    bots[2] = make_bot("kontrakt", "basic", 2)
    while not (game.phase.value == "play" and game.to_act == 1):
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    action = bots[1].choose(game.view(1))
    assert action.type == "discard"
    return str(action.card)


def test_K12_far_from_the_seventh_contract_strong_sheds_its_highest_card() -> None:
    # singletons only: six cards from three groups or three runs, so caught whole most likely
    hand = "Ah Kd 9s 2h 3c 5d 6s 7c Th 4s"
    assert _seventh_deal_discard(hand, "8d") == "Ah"  # an ace costs 15 (K6)
    # without the rule (and without giving up, K13) the bot keeps building: the ace
    # stays as a run's low end
    assert _seventh_deal_discard(hand, "8d", dump_seventh=None, give_up=None) != "Ah"
    # giving up by the odds alone sheds it too, this far from the contract
    assert _seventh_deal_discard(hand, "8d", dump_seventh=None) == "Ah"


def _after_contract(pile_top: str, hand: str = "9c 9d 2s 4h", draw: bool = True) -> KontraktGame:
    """Seat 0 of two has its contract down (two groups: sevens and kings) and holds
    ``hand``; it is to draw (or to play), ``pile_top`` on the discard pile, 3c on the stock."""
    table = [(0, "7c 7d 7h", True), (0, "Kc Kd Kh", True)]
    laid = [(2, 0, True), (0, 0, False)]
    return two_seats(hand, pile_top, table=table, laid=laid, draw=draw, stock_top="3c")


def test_K10_with_the_contract_down_strong_takes_a_card_that_makes_a_new_meld() -> None:
    from rummykit.games.kontrakt import Draw

    bot = StrongBot(1, samples=0)
    # 9c 9d 9s: a new meld, so two cards leave the hand at once
    assert bot.choose(_after_contract("9s").view(0)) == Draw(0, "discard")
    # 7s lays off onto the sevens; Js fits nothing and makes no meld
    assert bot.choose(_after_contract("7s").view(0)) == Draw(0, "discard")
    assert bot.choose(_after_contract("Js").view(0)) == Draw(0, "stock")


def test_K10_after_the_contract_strong_keeps_cards_that_may_still_make_a_meld() -> None:
    from rummykit.cards import Card
    from rummykit.games.kontrakt import Discard

    # Qc Qd could become a group; 5s and 2h go nowhere: the 5s goes, not a queen
    game = _after_contract("Js", hand="Qc Qd 5s 2h", draw=False)
    assert StrongBot(1, samples=0).choose(game.view(0)) == Discard(0, Card.parse("5s"))
    assert StrongBot(1, samples=0, partner_weight=0).choose(game.view(0)) == Discard(
        0, Card.parse("Qc")
    )


def test_K8_strong_takes_a_pile_card_that_multiplies_its_outs() -> None:
    from collections import Counter

    from rummykit.bots.kontrakt_strong import _needs
    from rummykit.bots.sampling import kontrakt_unseen
    from rummykit.cards import Card
    from rummykit.games.kontrakt import Draw

    hand = "9c 9d 5h 5s Kc 2d Jc Qs 4d Ah"  # the third deal: two runs, two cards missing

    def outs(pile_top: str) -> tuple[int, int, int, int]:
        view = two_seats(hand, pile_top, deal=2).view(0)
        bot, needs = StrongBot(1, samples=0), _needs(view)
        unseen = Counter(kontrakt_unseen(view))
        cards = [Card.parse(t) for t in view["hand"]]
        now = bot._shape(cards, needs, unseen)
        after = bot._shape([*cards, Card.parse(pile_top)], needs, unseen)
        return now.missing, after.missing, now.outs, after.outs

    # 4h next to 5h keeps the distance and takes the outs from 6 to 10 (>= 1.25 * 6 + 2)
    assert outs("4h") == (2, 2, 6, 10)
    view = two_seats(hand, "4h", deal=2).view(0)
    assert StrongBot(1, samples=0).choose(view) == Draw(0, "discard")
    assert StrongBot(1, samples=0, outs_ratio=0).choose(view) == Draw(0, "stock")
    # 2h adds two outs only: a stock card's chance to lower the distance now is worth more
    assert outs("2h") == (2, 2, 6, 8)
    assert StrongBot(1, samples=0).choose(two_seats(hand, "2h", deal=2).view(0)) == Draw(0, "stock")


def test_K13_strong_keeps_two_cards_when_a_part_leaves_its_contract_open() -> None:
    from rummykit.games.kontrakt import LayDown

    # The sixth deal (a group and two runs). Both parts extended would leave one card
    # with a run still to lay, which K13 forbids: the bot lays them bare instead.
    hand = "9s 9h 9d 9c 9s 2c 3c 4c 5c 6c Kh"
    game = two_seats(hand, "Qd", deal=5, draw=False)
    action = StrongBot(1, samples=0).choose(game.view(0))
    assert isinstance(action, LayDown)
    assert sorted(map(len, action.melds)) == [3, 3]
    game.apply(action)
    assert len(game.view(0)["hand"]) == 5
    # a hand of four that makes one run of the two: laying it would leave one card
    game = two_seats(
        "4c 5c 6c Kh",
        "Qd",
        deal=5,
        draw=False,
        laid=[(1, 0, False), (0, 0, False)],
        table=[(0, "7d 7h 7s", True)],
    )
    action = StrongBot(1, samples=0).choose(game.view(0))
    assert not isinstance(action, LayDown)
    game.apply(action)  # a legal discard
    assert len(game.view(0)["hand"]) == 3


def test_has_partner_is_a_rank_mate_or_a_near_suit_card() -> None:
    from rummykit.bots.kontrakt_strong import _has_partner
    from rummykit.cards import JOKER, Card, parse_cards

    assert _has_partner(Card.parse("9c"), parse_cards("9d 2s"))
    assert _has_partner(Card.parse("9c"), parse_cards("Jc"))
    assert not _has_partner(Card.parse("9c"), parse_cards("Qc 6c 5d"))
    assert not _has_partner(JOKER, parse_cards("9c 9d"))


def _fourth_deal(hand: str, *, late: bool) -> KontraktGame:
    """Seat 0 of two holds ``hand`` (11 cards) in the fourth deal (three groups) and is
    to discard. ``late``: seat 1 has its contract down and one card left, the stock
    eight cards; otherwise seat 1 holds ten cards, nothing laid, the stock full."""
    from collections import Counter

    from rummykit.cards import full_deck, parse_cards
    from rummykit.games.kontrakt import Phase, deck_for

    mine = parse_cards(hand)
    if late:
        other = parse_cards("5c")
        table = [(1, parse_cards(m), True) for m in ("7c 7d 7h", "Jc Jd Jh", "3s 3d 3h")]
        laid = [(0, 0, False), (3, 0, True)]
    else:
        other, table, laid = parse_cards("5c 5d 6s 8h Qh Jd Tc 3h 2s 4c"), [], None
    rest = Counter(full_deck(*deck_for(2)))
    rest.subtract([*mine, *other, *(c for _o, m, _p in table for c in m)])
    cards = sorted(rest.elements(), key=str)
    stock, pile = (cards[:8], cards[8:]) if late else (cards[1:], cards[:1])
    return KontraktGame.from_position(
        KontraktPosition(
            [mine, other],
            deal=3,
            dealer=1,
            stock=stock,
            discard_pile=pile,
            table=table,
            laid=laid,
            turn=0,
            phase=Phase.PLAY,
        )
    )


def test_K13_strong_gives_up_building_when_its_contract_is_out_of_reach() -> None:
    from dataclasses import replace

    from rummykit.bots.kontrakt_odds import DealState, completion_odds
    from rummykit.cards import Card
    from rummykit.games.kontrakt import Discard

    # three pairs, three cards missing: the 9s is the one card that builds nothing
    hand = "Kh Kd Qs Qc 2h 2d 4s 5d 6c 7h 9s"
    # the other player will most likely go out next turn: the kings' 10 points go
    late = _fourth_deal(hand, late=True).view(0)
    assert StrongBot(1).choose(late) == Discard(0, Card.parse("Kh"))
    assert StrongBot(1, give_up=None).choose(late) == Discard(0, Card.parse("9s"))
    # early in the deal it keeps building
    early = _fourth_deal(hand, late=False).view(0)
    assert StrongBot(1).choose(early) == Discard(0, Card.parse("9s"))
    # the chance to complete falls with every card missing and as the deal nears its end
    early_state = DealState(deal=3, missing=1, outs=12, stock=60, danger=0, completed=0, fewest=12)
    odds = [completion_odds(replace(early_state, missing=m)) for m in (1, 2, 3)]
    assert 1 > odds[0] > odds[1] > odds[2] > 0
    late_state = replace(early_state, stock=8, danger=3, completed=1, fewest=1)
    assert completion_odds(late_state) < completion_odds(early_state)


def _meld_rich_position(rng: random.Random) -> KontraktGame:
    """Seat 0 of two in the play phase of a random deal, its contract open, some parts of
    it laid, and a hand of 2-12 cards built from groups and runs (so that big lay-downs,
    which test K9-K13 at their edges, are common)."""
    from collections import Counter

    from rummykit.cards import JOKER, Card, Suit, full_deck
    from rummykit.games.kontrakt import Phase
    from rummykit.games.kontrakt.contracts import CONTRACTS

    left = Counter(full_deck(2, 2))
    deal = rng.randrange(7)
    contract = CONTRACTS[deal]
    groups = 0 if contract.all_at_once else rng.randint(0, contract.groups)
    runs = 0 if contract.all_at_once else rng.randint(0, contract.runs)
    if (groups, runs) == (contract.groups, contract.runs):  # the contract stays open
        if runs:
            runs -= 1
        else:
            groups -= 1

    def take(cards: list[Card]) -> list[Card]:
        got = []
        for c in cards:
            if left[c] > 0:
                left[c] -= 1
                got.append(c)
        return got

    def run(length: int) -> list[Card]:
        suit, start = rng.choice(list(Suit)), rng.randint(1, 14 - length)
        return [Card(r, suit) for r in range(start, start + length)]

    def group(size: int) -> list[Card]:
        rank = rng.randint(1, 13)
        return [Card(rank, rng.choice(list(Suit))) for _ in range(size)]

    table: list[tuple[int, list[Card], bool]] = []
    for kind, count in ((group, groups), (run, runs)):
        for _ in range(count):
            while len(meld := take(kind(3))) < 3:
                left.update(meld)
            table.append((0, meld, True))
    hand: list[Card] = []
    size = rng.randint(2, 12)
    while len(hand) < size:
        pick = rng.random()
        if pick < 0.35:
            hand += take(run(rng.randint(3, 7)))
        elif pick < 0.7:
            hand += take(group(rng.randint(3, 6)))
        elif pick < 0.8:
            hand += take([JOKER])
        else:
            hand += take([rng.choice([c for c in left if left[c] > 0])])
    left.update(hand[size:])
    hand = hand[:size]
    rest = list(left.elements())
    rng.shuffle(rest)
    other, pile, stock = rest[:10], rest[10:11], rest[11:]
    return KontraktGame.from_position(
        KontraktPosition(
            [hand, other],
            deal=deal,
            dealer=1,
            stock=stock,
            discard_pile=pile,
            table=table,
            laid=[(groups, runs, False), (0, 0, False)],
            turn=0,
            phase=Phase.PLAY,
        )
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_K9_K13_strong_lays_down_only_what_the_rules_allow(seed: int) -> None:
    """Whatever the hand and the parts laid, every action strong picks in its turn is
    legal: contract parts with two cards kept (K13), the whole seventh contract at once
    (K12), lay-offs only once complete (K10), and a discard to end the turn."""
    game = _meld_rich_position(random.Random(seed))
    bot = StrongBot(seed, samples=0)
    for _ in range(40):
        if game.to_act != 0 or game.over or str(game.phase) != "play":
            break
        action = bot.choose(game.view(0))
        assert game.can(action), action
        if isinstance(game.apply(action), DealEnded):
            break
    else:
        pytest.fail("seat 0 never ended its turn")
