"""Helpers for the Kontrakt tests: decks that deal chosen hands, and bot play-outs."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from rummykit.bots.kontrakt_basic import BasicBot, RandomBot
from rummykit.cards import Card, full_deck, parse_cards
from rummykit.dealing import forhand
from rummykit.games.kontrakt import KontraktGame, KontraktOptions, KontraktPosition, Phase, deck_for


def engine_state(game: KontraktGame) -> object:
    """Everything the game holds (the views' caches left out), to compare: a rejected
    action changes nothing."""
    state = {k: v for k, v in vars(game).items() if k not in ("_log_views", "_rng")}
    rng = game._rng
    return copy.deepcopy(state), None if rng is None else rng.getstate()


# Cards unlikely to make melds with anything a test hands out: filler for hands.
_SEED = 12345


def build_deck(
    players: int,
    hands: Mapping[int, str] | None = None,
    upcard: str | None = None,
    stock: str = "",
    dealer: int = 0,
    seed: int = _SEED,
) -> list[Card]:
    """A whole deck (K2) that deals ``hands`` (seat -> cards, filled up to 10 with other
    cards), turns up ``upcard``, and has ``stock`` (top first) on top of the stock."""
    packs, jokers = deck_for(players)
    pool = Counter(full_deck(packs, jokers))
    fixed = {s: parse_cards(t) for s, t in (hands or {}).items()}
    up = parse_cards(upcard) if upcard else []
    top = parse_cards(stock)
    for c in [*(c for h in fixed.values() for c in h), *up, *top]:
        if pool[c] <= 0:
            raise ValueError(f"too many {c}")
        pool[c] -= 1
    rest = sorted(pool.elements(), key=str)
    random.Random(seed).shuffle(rest)
    # keep jokers out of the filler so that tests decide where jokers are
    rest.sort(key=lambda c: c.is_joker)
    full_hands = []
    for s in range(players):
        h = list(fixed.get(s, []))
        while len(h) < 10:
            h.append(rest.pop(0))
        full_hands.append(h)
    first = forhand(dealer, players)
    dealt = [full_hands[(first + i) % players][i // players] for i in range(10 * players)]
    if not up:
        up = [rest.pop(0)]
    return dealt + up + top + rest


def game_with(
    players: int,
    hands: Mapping[int, str] | None = None,
    upcard: str | None = None,
    stock: str = "",
    dealer: int = 0,
    options: KontraktOptions | None = None,
    names: Sequence[str] | None = None,
) -> KontraktGame:
    """A game whose first deal deals ``hands`` (one deck: it waits after the deal)."""
    deck = build_deck(players, hands, upcard, stock, dealer)
    return KontraktGame(names or players, decks=[deck], dealer=dealer, options=options)


def two_seats(
    hand: str,
    pile_top: str,
    *,
    deal: int = 0,
    table: Sequence[tuple[int, str, bool]] = (),
    laid: Sequence[tuple[int, int, bool]] = ((0, 0, False), (0, 0, False)),
    draw: bool = True,
    stock_top: str = "",
) -> KontraktGame:
    """Seat 0 of two holds ``hand`` in deal ``deal`` (0-based) and is to draw (or to
    play); ``pile_top`` on the discard pile, ``stock_top`` on the stock, ``table``'s
    melds (owner, cards, whether part of a contract) and ``laid`` as given."""
    hands = [parse_cards(hand), parse_cards("5c 5d 6s 8h Qs Jd Tc 3h 2d 4c")]
    melds = [(owner, parse_cards(cards), part) for owner, cards, part in table]
    pile = parse_cards(pile_top)
    top = parse_cards(stock_top)
    rest = Counter(full_deck(*deck_for(2)))
    rest.subtract([*hands[0], *hands[1], *pile, *top, *(c for _o, m, _p in melds for c in m)])
    position = KontraktPosition(
        hands,
        deal=deal,
        dealer=1,
        stock=[*top, *sorted(rest.elements(), key=str)],
        discard_pile=pile,
        table=melds,
        laid=list(laid),
        turn=0,
        phase=Phase.DRAW if draw else Phase.PLAY,
    )
    return KontraktGame.from_position(position)


def play_bots(
    game: KontraktGame,
    kinds: str = "b",
    seed: int = 0,
    *,
    until_deal: int | None = None,
    max_actions: int = 200_000,
) -> int:
    """Let bots ('r' random, 'b' basic, by seat, repeating) play; return actions taken."""
    bots = [
        (RandomBot if kinds[i % len(kinds)] == "r" else BasicBot)(seed * 100 + i)
        for i in range(game.n_players)
    ]
    taken = 0
    while (seat := game.to_act) is not None:
        if until_deal is not None and game.deal >= until_deal:
            break
        game.apply(bots[seat].choose(game.view(seat, log=False)))
        taken += 1
        assert taken < max_actions
    return taken


def to_deal(players: int, deal: int, last_deck: list[Card], seed: int = 1) -> KontraktGame:
    """A game whose deals before ``deal`` are played by basic bots, and whose
    deck for ``deal`` is ``last_deck`` (dealt by seat ``deal % players``, dealer 0 first)."""
    packs, jokers = deck_for(players)
    rng = random.Random(seed)
    decks: list[list[Card]] = []
    for _ in range(deal):
        d = full_deck(packs, jokers)
        rng.shuffle(d)
        decks.append(d)
    decks.append(last_deck)
    game = KontraktGame(players, decks=decks, dealer=0)
    play_bots(game, "b", seed, until_deal=deal)
    assert game.deal == deal and game.to_act is not None
    return game


def conserved(game: KontraktGame) -> bool:
    """Card conservation (RULES.md): every physical card of the deal is in one place once."""
    ids = [i for place in game.card_places().values() for i in place]
    return sorted(ids) == list(range(len(game._s.deck)))
