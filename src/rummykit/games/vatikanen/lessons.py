"""Vatikanen's lessons, in the order they are taught (issue 43 item 5, docs/tutorial.md):
melds and the opening, groups, adding to the table, rearranging it, freeing a joker, going
out and the score, and drawing when nothing can be played. Each position is set up with
:meth:`VatikanenGame.from_position`; the engine judges every move."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rummykit.cards import Card, parse_cards
from rummykit.game import Game
from rummykit.games.vatikanen.game import VatikanenGame
from rummykit.games.vatikanen.session import Session
from rummykit.i18n import N_
from rummykit.tutorial.lesson import Lesson

__all__ = ["lessons"]

_BO = "3c 3d 9s Qd 4h Ks 2c"
"""Bo's hand in every lesson (never seen: only its size is)."""


def _game(hand: str, table: tuple[str, ...] = (), *, opened: bool = True) -> Game:
    game = VatikanenGame.from_position([hand, _BO], list(table), opened=[opened, True])
    return Session.playing(game, ["You", "Bo"])


def _hand(game: Game) -> list[Card]:
    assert isinstance(game, Session)
    return game.game.hand(0)


def _laid(cards: str) -> Callable[[Game], bool]:
    """Reached once none of ``cards`` is left in the learner's hand."""
    wanted = Counter(str(c) for c in parse_cards(cards))

    def reached(game: Game) -> bool:
        held = Counter(str(c) for c in _hand(game))
        return all(held[card] < count for card, count in wanted.items())

    return reached


def _out(game: Game) -> bool:
    return not _hand(game)


def _drew(game: Game) -> bool:
    assert isinstance(game, Session)
    return len(_hand(game)) == 8 and not game.game.table


def _paid(game: Game) -> int:
    assert isinstance(game, Session)
    return int(game.game.balances[0])


def lessons() -> list[Lesson]:
    """Vatikanen's lessons."""
    return [
        Lesson(
            "v-run",
            "vatikanen",
            ("V5", "V7"),
            N_("Your first play: a run"),
            N_(
                "A run is three or more cards of one suit in a row, like 5♥ 6♥ 7♥. Your"
                " first play must be exactly one run, all from your own hand."
            ),
            N_("Lay the run of hearts: tap 5♥, 6♥ and 7♥, then Arrange, then Play."),
            N_("That is a play, but not the run: lay 5♥ 6♥ 7♥."),
            N_("Well done: you have opened. From now on you may lay any cards that fit."),
            lambda: _game("5h 6h 7h Kc 2s 9d Jc", opened=False),
            _laid("5h 6h 7h"),
            solution=({"type": "play", "add": ["5h", "6h", "7h"]},),
        ),
        Lesson(
            "v-group",
            "vatikanen",
            ("V6", "V8"),
            N_("Groups"),
            N_(
                "A group is three or more cards of one rank; the suits may repeat. Once"
                " you have opened you may lay new melds whenever you like."
            ),
            N_("Lay a group of eights."),
            N_("That is legal, but the lesson is the group: lay the three eights."),
            N_("A group of three eights. Groups have no upper size: a fourth eight may join."),
            lambda: _game("8c 8d 8s Kc 2s Jd", ("4s 5s 6s",)),
            _laid("8c 8d 8s"),
            solution=({"type": "play", "add": ["8c", "8d", "8s"]},),
        ),
        Lesson(
            "v-add",
            "vatikanen",
            ("V8", "V10"),
            N_("Adding to the table"),
            N_(
                "The table belongs to nobody: you may add cards to any meld on it, to"
                " either end of a run or to a group."
            ),
            N_("Add 7♠ to the run of spades on the table."),
            N_("That is legal, but add 7♠ to the spades."),
            N_("7♠ now lengthens the run. One card is enough for a play."),
            lambda: _game("7s Kc 2s Jd 9h", ("4s 5s 6s", "Qh Qd Qc")),
            _laid("7s"),
            solution=({"type": "play", "add": ["7s"]},),
        ),
        Lesson(
            "v-rearrange",
            "vatikanen",
            ("V9",),
            N_("Rearranging the table"),
            N_(
                "You may split, join and rebuild the melds on the table, as long as you"
                " add at least one card from your hand and every meld is valid"
                " afterwards. No card goes back to a hand."
            ),
            N_(
                "Lay J♠: 10♠ must move from the group of tens to the run of spades first."
                " Drag the cards yourself, or tap J♠ and Arrange, then Play."
            ),
            N_("That is legal, but the point is J♠: lay it."),
            N_("The tens are still a group of three, and the run goes 7♠ to J♠."),
            lambda: _game("Js Kc 2d 5h", ("Tc Th Th Ts", "7s 8s 9s")),
            _laid("Js"),
            solution=({"type": "play", "add": ["Js"]},),
        ),
        Lesson(
            "v-joker",
            "vatikanen",
            ("V11",),
            N_("Jokers, and freeing one"),
            N_(
                "A joker on the table stands for the card it stood for when it was laid"
                " and stays there, until someone puts that very card in its place. The"
                " freed joker must be used in another meld in the same play."
            ),
            N_("Put 5♦ in the joker's place, and use the joker with J♥ and Q♥."),
            N_("That is legal, but free the joker: lay 5♦, J♥ and Q♥ together."),
            N_("The joker was freed by 5♦ and now stands in the run of hearts."),
            lambda: _game("5d Jh Qh 2s 9c", ("4d *:5d 6d",)),
            _laid("5d Jh Qh"),
            solution=({"type": "play", "add": ["5d", "Jh", "Qh"]},),
        ),
        Lesson(
            "v-out",
            "vatikanen",
            ("V13",),
            N_("Going out, and the score"),
            N_(
                "The first player with no cards left wins the game. Every other player"
                " pays the winner what is left in their hand: a joker 25, an ace 15, a"
                " king, queen, jack or ten 10, the others their face value."
            ),
            N_("Lay all your cards at once and go out."),
            N_("That is legal, but you can lay every card: go out."),
            N_("You went out: Bo pays you {paid} for the cards left in their hand."),
            lambda: _game("9h 9c 9d 7s", ("4s 5s 6s", "9s Ts Js")),
            _out,
            _paid,
            solution=({"type": "play", "add": ["9h", "9c", "9d", "7s"]},),
        ),
        Lesson(
            "v-draw",
            "vatikanen",
            ("V4",),
            N_("When you cannot play: draw"),
            N_(
                "On your turn you either play, or draw the top card of the stock. There is"
                " no discard: drawing ends your turn."
            ),
            N_("None of your cards fits anywhere: draw a card."),
            N_("Draw a card: that is the lesson."),
            N_("You drew a card and it is Bo's turn. Now try a game against the computer."),
            lambda: _game("2c 5d 9h Kh Qc Jd 3s", (), opened=False),
            _drew,
            solution=({"type": "draw"},),
        ),
    ]
