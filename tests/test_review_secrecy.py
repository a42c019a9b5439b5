"""Secrecy of the review (RULES.md's invariants): a seat's review holds nothing that seat
could not see. Two records whose decks differ only in cards hidden from the seat all
through a deal (other hands, the stock) give the seat the same review (the conformance
suite's swapped-card test, tests/test_conformance.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kontrakt_helpers import play_bots
from rummykit import games
from rummykit.game import AnyAction, Game
from rummykit.games.kontrakt import KontraktGame
from rummykit.games.spec import GameSpec
from rummykit.games.vatikanen import Session
from rummykit.record import GameRecord
from rummykit.review import TurnReview, review
from rummykit.review import vatikanen as vatikanen_review


def hidden_from(game: Game, seat: int) -> set[int]:
    """The physical cards ``seat`` cannot see now: the stock and the other hands."""
    places = game.card_places()
    out = set(places["stock"])
    for other in range(game.n_players):
        if other != seat:
            out.update(places[f"hand{other}"])
    return out


def hidden_all_deal(spec: GameSpec, record: GameRecord, deal: int, seat: int) -> set[int]:
    """The deck places of ``deal`` that ``seat`` never saw, from the deal to its end."""
    head = (*record.deals[:deal], replace(record.deals[deal], actions=()))
    game = spec.from_record(replace(record, deals=head, result=None))
    unseen = hidden_from(game, seat)
    actions = record.deals[deal].actions
    for j, raw in enumerate(actions):
        game.apply(spec.action_from_json(raw))
        if j == len(actions) - 1 and len(game.to_record().deals) > deal + 1:
            break  # the deal is over and the next one dealt
        unseen &= hidden_from(game, seat)
    return unseen


def swapped(record: GameRecord, deal: int, a: int, b: int) -> GameRecord:
    """The record with deck places ``a`` and ``b`` of ``deal`` exchanged."""
    old = record.deals[deal]
    deck = list(old.deck)
    deck[a], deck[b] = deck[b], deck[a]
    deals = list(record.deals)
    deals[deal] = replace(old, deck=tuple(deck))
    return replace(record, deals=tuple(deals), result=None)


def vatikanen_record(seed: int, players: int) -> GameRecord:
    spec = games.get("vatikanen")
    game = spec.new(players, seed=seed)
    bots = [spec.make_bot(("greedy", "random")[s % 2], seed + s) for s in range(players)]
    while (s := game.to_act) is not None:
        game.apply(bots[s].choose(game.view(s)))
    return game.to_record()


def kontrakt_record(seed: int, players: int) -> GameRecord:
    game = KontraktGame(players, seed=seed)
    play_bots(game, "b", seed, until_deal=2)
    return game.to_record()


def check_secrecy(record: GameRecord, rng: random.Random) -> int:
    """Swap hidden cards a few times; the seat's review stays the same. Returns the swaps."""
    spec = games.get(record.game)
    n = len(record.players)
    seat = rng.randrange(n)
    mine = [t.to_json() for t in review(record, seat).turns]
    done = 0
    for _ in range(3):
        deal = rng.randrange(len(record.deals))
        deck = record.deals[deal].deck
        unseen = sorted(hidden_all_deal(spec, record, deal, seat))
        if not unseen:
            continue
        a = rng.choice(unseen)
        others = [b for b in unseen if deck[b] != deck[a]]
        if not others:
            continue
        twin = swapped(record, deal, a, rng.choice(others))
        assert [t.to_json() for t in review(twin, seat).turns] == mine, (
            f"seat {seat}'s review changed when cards hidden from it were swapped"
        )
        done += 1
    return done


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_a_vatikanen_review_holds_only_what_its_seat_saw(seed: int, players: int) -> None:
    assert check_secrecy(vatikanen_record(seed, players), random.Random(seed)) > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_a_kontrakt_review_holds_only_what_its_seat_saw(seed: int, players: int) -> None:
    assert check_secrecy(kontrakt_record(seed, players), random.Random(seed)) > 0


def test_the_secrecy_check_catches_a_review_that_peeks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reviewer that read another seat's hand would be caught by the check above."""
    honest = vatikanen_review.review_deal

    def peeking(
        game: Game, deal: int, actions: list[AnyAction], seat: int | None
    ) -> list[TurnReview]:
        out = []
        for turn in honest(game.copy(), deal, actions, seat):
            assert isinstance(game, Session)
            deck = [str(c) for c in game.game.deck]  # every hand and the stock
            out.append(replace(turn, extra={"peek": deck}))
        return out

    monkeypatch.setattr(vatikanen_review, "review_deal", peeking)
    record = vatikanen_record(5, 3)
    with pytest.raises(AssertionError, match="review changed"):
        check_secrecy(record, random.Random(1))
