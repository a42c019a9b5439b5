"""Kontraktsrummy's lessons, in the order they are taught (issue 43 item 5,
docs/tutorial.md): the contract, taking the pile's top, buying the upcard, laying off,
swapping a joker, discarding, going out, and the seventh deal. Each position is set up
with :meth:`KontraktGame.from_position` (the upcard's, which no position starts in, is a
deal of a deck laid in order); the engine judges every move."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from rummykit.cards import full_deck, parse_cards
from rummykit.dealing import deal_indices
from rummykit.game import Game
from rummykit.games.kontrakt.actions import DeclineUpcard
from rummykit.games.kontrakt.game import KontraktGame
from rummykit.games.kontrakt.options import deck_for
from rummykit.games.kontrakt.position import KontraktPosition
from rummykit.games.kontrakt.state import Phase
from rummykit.i18n import N_
from rummykit.tutorial.lesson import Lesson

__all__ = ["lessons"]

_BO = "5c 5d 6s 8h Qs Jd Tc 3h 2d 4c"
"""Bo's hand in every lesson (never seen: only its size is)."""

_DONE = (2, 0, True)
"""What the learner has laid in the lessons after the contract: deal 1"s two groups."""


def _game(
    hand: str,
    pile: str,
    *,
    deal: int = 0,
    table: Sequence[tuple[int, str, bool]] = (),
    laid: tuple[int, int, bool] = (0, 0, False),
    draw: bool = False,
    stock_top: str = "Kd",
) -> KontraktGame:
    """Deal ``deal`` (from 0) of two players, the learner (seat 0) to draw or to play with
    ``hand``; ``pile`` on the discard pile, the stock from ``stock_top`` on."""
    hands = [parse_cards(hand), parse_cards(_BO)]
    melds = [(owner, parse_cards(cards), part) for owner, cards, part in table]
    top = parse_cards(stock_top)
    rest = Counter(c.plain() for c in full_deck(*deck_for(2)))
    placed = [*hands[0], *hands[1], *parse_cards(pile), *top]
    rest.subtract(c.plain() for c in [*placed, *(c for _o, m, _p in melds for c in m)])
    position = KontraktPosition(
        hands,
        deal=deal,
        dealer=1,
        stock=[*top, *sorted(rest.elements(), key=str)],
        discard_pile=parse_cards(pile),
        table=melds,
        laid=[laid, (0, 0, False)],
        turn=0,
        phase=Phase.DRAW if draw else Phase.PLAY,
    )
    return KontraktGame.from_position(position, players=["You", "Bo"])


def _offered(hand: str, upcard: str, penalty: str) -> KontraktGame:
    """Deal 1 of two players as it begins (K3, K7): the learner (seat 0) dealt ``hand``, Bo
    förhand; ``upcard`` turned up, ``penalty`` the stock's top. Bo has declined the
    upcard, so it is offered to the learner."""
    n, each, dealer = 2, 10, 0
    hands, rest = deal_indices(sum(1 for _ in full_deck(*deck_for(n))), n, each, dealer)
    order: dict[int, str] = {}
    for ids, cards in ((hands[0], hand), (hands[1], _BO), (rest[:2], f"{upcard} {penalty}")):
        order.update(zip(ids, (str(c) for c in parse_cards(cards)), strict=True))
    left = Counter(c.plain() for c in full_deck(*deck_for(n)))
    left.subtract(parse_cards(" ".join(order.values())))
    others = iter(sorted(left.elements(), key=str))
    deck = [
        parse_cards(order[i])[0] if i in order else next(others)
        for i in range(len(order) + left.total())
    ]
    game = KontraktGame(["You", "Bo"], decks=[deck], dealer=dealer, seed=1)
    game.apply(DeclineUpcard(1))
    return game


def _gone(cards: str) -> Callable[[Game], bool]:
    """Reached once none of ``cards`` is left in the learner's hand."""
    wanted = Counter(str(c) for c in parse_cards(cards))

    def reached(game: Game) -> bool:
        assert isinstance(game, KontraktGame)
        held = Counter(str(c) for c in game.hand(0))
        return all(held[card] < count for card, count in wanted.items())

    return reached


def _holds(card: str) -> Callable[[Game], bool]:
    def reached(game: Game) -> bool:
        assert isinstance(game, KontraktGame)
        return any(str(c) == card or (card == "*" and c.is_joker) for c in game.hand(0))

    return reached


def _complete(game: Game) -> bool:
    assert isinstance(game, KontraktGame)
    return game.laid(0)[2]


def _out(game: Game) -> bool:
    assert isinstance(game, KontraktGame)
    return game.deal > 0 or game.over


def lessons() -> list[Lesson]:
    """Kontraktsrummy's lessons."""
    mine = ((0, "7c 7d 7h", True), (0, "4s 4h 4d", True))
    return [
        Lesson(
            "k-contract",
            "kontrakt",
            ("K4", "K9"),
            N_("The contract"),
            N_(
                "A game is seven deals, each with a contract: the melds you must lay"
                " down before anything else. The first deal's is two groups (three or"
                " more cards of one rank)."
            ),
            N_("Lay down the contract: the sevens and the fours, as two groups."),
            N_("That is legal, but lay down the two groups before you discard."),
            N_("Contract laid. Now you may lay off cards onto any meld on the table."),
            lambda: _game("7c 7d 7h 4s 4h 4d Kc 9s 2c Jh Qs", "6c"),
            _complete,
            solution=({"type": "meld", "melds": [["7c", "7d", "7h"], ["4s", "4h", "4d"]]},),
        ),
        Lesson(
            "k-pile",
            "kontrakt",
            ("K8",),
            N_("Taking the pile's top"),
            N_(
                "Each turn begins with a draw: the top of the stock, or the card on top"
                " of the discard pile, which the last player threw."
            ),
            N_("The pile's top, 7♠, makes a third seven: take it from the pile."),
            N_("That is legal, but take 7♠ from the pile."),
            N_("7♠ is yours. Then lay down, and end the turn with a discard."),
            lambda: _game("7c 7d 4s 4h 4d Kc 9s 2c Jh Qs", "7s", draw=True),
            _holds("7s"),
            one_move=True,
            solution=({"type": "draw", "from": "discard"},),
        ),
        Lesson(
            "k-buy",
            "kontrakt",
            ("K7",),
            N_("Buying the upcard"),
            N_(
                "A deal begins with the stock's top card turned up. Förhand, left of the"
                " dealer, may take it as the first draw; if förhand does not, the others"
                " are asked in turn. Whoever buys it takes the stock's top card too, as a"
                " penalty card, and lays nothing down now; then förhand plays as usual."
            ),
            N_("Bo, förhand, said no to the upcard 7♠. It makes a third seven for you: buy it."),
            N_("That is legal, but buy 7♠: it makes a third seven."),
            N_(
                "7♠ is yours, and the stock's top with it: two cards more than Bo. Bo now"
                " draws and plays, then it is your turn."
            ),
            lambda: _offered("7c 7d 4s 4h 4d Kc 9s 2c Jh Qs", "7s", "8d"),
            _holds("7s"),
            one_move=True,
            solution=({"type": "buy_upcard"},),
        ),
        Lesson(
            "k-layoff",
            "kontrakt",
            ("K10",),
            N_("Laying off"),
            N_(
                "Once your whole contract is down, you may lay off cards onto any meld"
                " on the table, your own or the others'."
            ),
            N_("Lay off 7♠ onto the group of sevens."),
            N_("That is legal, but lay off 7♠ first."),
            N_("Every card you lay off is one less to pay for when the deal ends."),
            lambda: _game("7s Kc 9s 2c Qs", "6c", table=mine, laid=_DONE),
            _gone("7s"),
            one_move=True,
            solution=({"type": "layoff", "card": "7s", "meld": 0},),
        ),
        Lesson(
            "k-swap",
            "kontrakt",
            ("K11",),
            N_("Swapping a joker"),
            N_(
                "Once your contract is down, you may take a joker from any meld by"
                " putting the real card it stands for in its place. The joker goes to"
                " your hand."
            ),
            N_("The joker in Bo's run stands for 6♥, which you hold: swap it."),
            N_("That is legal, but take the joker: swap 6♥ for it."),
            N_("The joker is in your hand: it fits any meld you lay later."),
            lambda: _game(
                "6h Kc 9s 2c Qs",
                "6c",
                table=(*mine, (1, "5h *:6h 7h", True)),
                laid=_DONE,
            ),
            _holds("*"),
            one_move=True,
            solution=({"type": "swap_joker", "card": "6h", "meld": 2},),
        ),
        Lesson(
            "k-discard",
            "kontrakt",
            ("K6", "K8"),
            N_("Discarding"),
            N_(
                "Every turn ends with a discard. When the deal ends, the cards left in"
                " your hand count against you: a joker or an ace 15, a king, queen,"
                " jack or ten 10, the others their face value."
            ),
            N_("Your ace fits nothing: throw it on the pile."),
            N_("That is legal, but the lone ace costs 15 if the deal ends: throw it."),
            N_("The lowest total after seven deals wins, so high cards that fit nothing go."),
            lambda: _game("Ac 7c 7d 4s 4h 9h Th Jh 2c 3d 5s", "6c"),
            _gone("Ac"),
            one_move=True,
            solution=({"type": "discard", "card": "Ac"},),
        ),
        Lesson(
            "k-out",
            "kontrakt",
            ("K13",),
            N_("Going out"),
            N_(
                "The first player with no cards left goes out and the deal ends: the"
                " others count the cards left in their hands. The last card may be"
                " discarded."
            ),
            N_("Lay off 7♠, then discard K♣ and go out."),
            N_("That is legal, but you can go out: lay off 7♠ and discard K♣."),
            N_("You went out and scored 0 for this deal; Bo counts the cards in their hand."),
            lambda: _game("7s Kc", "6c", table=mine, laid=_DONE),
            _out,
            solution=(
                {"type": "layoff", "card": "7s", "meld": 0},
                {"type": "discard", "card": "Kc"},
            ),
        ),
        Lesson(
            "k-seventh",
            "kontrakt",
            ("K4", "K12"),
            N_("The seventh deal"),
            N_(
                "The last deal's contract is three groups or three runs, and nothing may"
                " be laid down until the whole of it goes down in one turn. A run is"
                " three or more of one suit in a row; the ace is low only."
            ),
            N_("Lay down three runs at once."),
            N_("That is legal, but lay down the three runs before you discard."),
            N_("That is the whole game. Now play one against the computer."),
            lambda: _game("3h 4h 5h 8c 9c Tc Js Qs Ks 2d 6d", "6c", deal=6),
            _complete,
            one_move=True,
            solution=(
                {
                    "type": "meld",
                    "melds": [["3h", "4h", "5h"], ["8c", "9c", "Tc"], ["Js", "Qs", "Ks"]],
                },
            ),
        ),
    ]
