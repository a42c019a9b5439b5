"""Kontraktsrummy's hints (issue 45 items 1, 2 and 11): the hint is the review's own search,
so the two agree; the whole contract is listed once; the advised discard keeps jokers and
the melds the hand has made; the pile's top is advised when it lets the turn lay more (a
card that takes a joker's place in the player's own meld included)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kontrakt_helpers import two_seats
from rummykit.cards import full_deck, parse_cards
from rummykit.games.kontrakt import KontraktGame, deck_for
from rummykit.games.kontrakt.contracts import candidate_melds
from rummykit.melds import MeldKind
from rummykit.review.advice import advise, advised_actions, keeper_discard
from rummykit.review.kontrakt import judge
from rummykit.server.assist import hint

DECK = [str(c) for c in full_deck(*deck_for(2))]


def test_K9_a_hand_holding_the_whole_contract_is_hinted_it_once_and_first() -> None:
    game = two_seats("8d 8d 8h 7c 7h * Ac 2s 9d Kc", "5s", draw=False)
    answer = hint(game)
    actions: list = answer["actions"]  # type: ignore[assignment]
    whole = [a for a in actions if a["type"] == "meld" and len(a["melds"]) == 2]
    assert len(whole) == 1
    assert actions[0] == whole[0] and answer["advised"] == 2


def test_K6_the_advised_discard_is_never_a_joker_nor_a_card_of_a_made_meld() -> None:
    assert keeper_discard(parse_cards("Ac Ad Ad * 5s 9h")) == parse_cards("9h")[0]
    assert keeper_discard(parse_cards("* Kc 4d 4h")) == parse_cards("Kc")[0]
    assert keeper_discard(parse_cards("* * 7c 7d 7h")) is None  # every card is kept
    game = two_seats("8d 8d 8h 7c 7h * Ac 2s 9d Kc", "5s", draw=False)
    discards = [a for a in hint(game)["actions"] if a["type"] == "discard"]  # type: ignore[index, union-attr]
    assert discards == [{"seat": 0, "type": "discard", "card": "Ac"}]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(2, 12))
def test_K6_no_hand_is_advised_to_throw_a_joker_or_break_a_meld_it_made(
    rng: random.Random, size: int
) -> None:
    hand = parse_cards(" ".join(rng.sample(DECK, size)))
    card = keeper_discard(hand)
    if card is None:
        return
    assert not card.is_joker
    made = {c.plain() for kind in MeldKind for m in candidate_melds(hand, kind) for c in m}
    assert card.plain() not in made


def test_K8_K11_the_pile_s_top_that_frees_the_joker_of_one_s_own_meld_is_advised() -> None:
    game = two_seats(
        "Kc 2s 5h",
        "8d",
        table=[(0, "7d *:8d 9d", True), (0, "4c 4h 4s", True), (1, "Jc Jd Jh", True)],
        laid=((2, 0, True), (0, 0, False)),
        draw=True,
    )
    assert advise(game.view(0, log=False)).draw == "discard"
    assert hint(game)["actions"][0] == {"seat": 0, "type": "draw", "from": "discard"}  # type: ignore[index]
    useless = two_seats("Kc 2s 5h", "6c", table=[(0, "4c 4h 4s", True)], draw=True)
    assert advise(useless.view(0, log=False)).draw == "stock"


def _play_phase_positions(seed: int, wanted: int) -> list[KontraktGame]:
    """Positions of real games where a seat is to play: basic bots play, snapshots kept."""
    from rummykit.bots import make_bot

    out: list[KontraktGame] = []
    game = KontraktGame(2, seed=seed)
    bots = [make_bot("kontrakt", "basic", seed * 10 + s) for s in range(2)]
    while (seat := game.to_act) is not None and len(out) < wanted:
        view = game.view(seat, log=False)
        if view["phase"] == "play" and len(game.hand(seat)) > 3:
            out.append(game.copy())
        game.apply(bots[seat].choose(view))
    return out


def test_K10_the_hint_lays_as_many_cards_as_the_review_says_the_turn_could() -> None:
    checked = 0
    for seed in range(4):
        for game in _play_phase_positions(seed, 15):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat, log=False)
            before = len(game.hand(seat))
            trial = game.copy()
            for action in advised_actions(game):
                if action.to_json()["type"] == "discard":
                    break
                trial.apply(action)
            laid = before - len(trial.hand(seat)) if trial.to_act == seat else before
            assert laid == judge(view).best, (seed, view["hand"])
            checked += 1
    assert checked >= 40


def test_K13_a_turn_that_went_out_by_a_discard_is_not_marked_for_cards_it_could_have_laid() -> None:
    from rummykit.games.kontrakt import Discard, Draw, LayOff
    from rummykit.review.kontrakt import review_deal

    game = two_seats(
        "7s Kc",
        "5d",
        table=[(0, "7c 7d 7h", True), (0, "9c Tc Jc", True)],
        laid=((2, 0, True), (0, 0, False)),
        draw=True,
        stock_top="Qc",
    )
    [qc] = parse_cards("Qc")
    [seven, king] = parse_cards("7s Kc")
    actions = [Draw(0, "stock"), LayOff(0, seven, 0), LayOff(0, qc, 1), Discard(0, king)]
    [turn] = review_deal(game, 0, actions, 0)
    assert turn.kind == "out" and turn.played == 2 and turn.best == 3  # laying Kc too
    assert turn.went_out and turn.at_best and not turn.missed
