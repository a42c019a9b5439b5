"""Cards, hands and melds drawn as Rich text: pure functions of card text from a view.

Red suits (♥ ♦) are red, black suits (♣ ♠) take the terminal's own colour,
a joker is a magenta ★ (on the table with what it stands for: ★=8♥).

>>> card_text("Th").plain
'10♥'
>>> hand_text(["Ks", "3c", "*", "Kd"], by="rank").plain
'3♣  K♠ K♦  ★'
>>> meld_text(["7h", "*:8h", "9h"]).plain
'7♥ ★=8♥ 9♥'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from rummykit.cards import Card, Suit, rank_text
from rummykit.i18n import DEFAULT, translate

if TYPE_CHECKING:
    from rummykit.games.kontrakt.view import KontraktView
    from rummykit.games.vatikanen.view import VatikanenView

__all__ = [
    "RED",
    "SortOrder",
    "card_label",
    "card_text",
    "cards_text",
    "fit",
    "hand_text",
    "join_names",
    "meld_text",
    "sort_hand",
    "status_line",
]

SortOrder = Literal["suit", "rank"]

RED = "bold red"
JOKER_STYLE = "bold magenta"
NEW_STYLE = "reverse"
"""Cards just added in a staged play."""

_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}
"""Suits shown black, red, black, red, so that neighbours differ in colour."""


def _rank(rank: int) -> str:
    return "10" if rank == 10 else rank_text(rank)


def card_label(card: Card) -> str:
    """A card for people: 10♥, A♠, ★, ★=8♥ (a table joker), ★=8 (in a group); see
    :meth:`rummykit.cards.Card.pretty`.

    >>> card_label(Card.parse("*:Q"))
    '★=Q'
    """
    return card.pretty()


def _style(card: Card) -> str:
    if card.suit is None:
        return JOKER_STYLE
    return RED if card.suit.is_red else ""


def card_text(text: str | Card, *, highlight: bool = False) -> Text:
    """One card as coloured text; ``highlight`` marks a card just added."""
    card = text if isinstance(text, Card) else Card.parse(text)
    style = _style(card)
    if highlight:
        style = f"{style} {NEW_STYLE}".strip()
    return Text(card_label(card), style=style)


def cards_text(cards: Iterable[str | Card], sep: str = " ") -> Text:
    """Cards in the given order, separated by ``sep``."""
    return Text(sep).join(card_text(c) for c in cards)


def meld_text(cards: Sequence[str], new: Counter[str] | None = None) -> Text:
    """A meld in its order; cards counted in ``new`` are highlighted (and used up from it)."""
    parts = []
    for c in cards:
        plain = str(Card.parse(c).plain())
        mark = new is not None and new[plain] > 0
        if mark and new is not None:
            new[plain] -= 1
        parts.append(card_text(c, highlight=mark))
    return Text(" ").join(parts)


def _suit_place(card: Card) -> int:
    return _SUIT_ORDER[card.suit] if card.suit is not None else 9


def sort_hand(hand: Iterable[str], by: SortOrder = "suit") -> list[Card]:
    """The hand's cards sorted by suit (then rank) or by rank (then suit); jokers last.

    >>> [str(c) for c in sort_hand(["Ks", "3c", "*", "Kd", "2s"], "suit")]
    ['2s', 'Ks', '3c', 'Kd', '*']
    """
    cards = [Card.parse(t) for t in hand]
    if by == "suit":
        return sorted(cards, key=lambda c: (c.suit is None, _suit_place(c), c.rank))
    return sorted(cards, key=lambda c: (c.suit is None, c.rank, _suit_place(c)))


def hand_text(hand: Iterable[str], by: SortOrder = "suit") -> Text:
    """The hand sorted, with a wider gap between suits (or ranks), jokers last."""
    cards = sort_hand(hand, by)
    out = Text()
    last: object = None
    for i, card in enumerate(cards):
        key: object = (card.suit if by == "suit" else card.rank) if not card.is_joker else "joker"
        if i:
            out.append("  " if key != last else " ")
        out.append_text(card_text(card))
        last = key
    return out


def join_names(names: Sequence[str], lang: str = DEFAULT) -> str:
    """Names as a list in words: "Anna", "Anna and Bo", "Anna, Bo and Cilla".

    >>> join_names(["Anna", "Bo", "Cilla"]), join_names(["Anna", "Bo"], "sv")
    ('Anna, Bo and Cilla', 'Anna och Bo')
    """
    if len(names) < 2:
        return "".join(names)
    return translate("{names} and {last}", lang, names=", ".join(names[:-1]), last=names[-1])


def append_turn(
    out: Text,
    view: VatikanenView | KontraktView,
    me: int,
    paused: str | None = None,
    lang: str = DEFAULT,
) -> Text:
    """Add whose turn it is to a status line: game over, ``paused`` (between deals),
    your turn, or the player to act."""
    if view["over"]:
        out.append(translate("game over", lang), style="bold")
    elif paused is not None:
        out.append(paused, style="bold")
    elif view["turn"] == me:
        out.append(translate("your turn", lang), style="bold green")
    elif view["turn"] is not None:
        who = view["players"][view["turn"]]
        out.append(translate("to act: {name}", lang, name=who), style="bold")
    return out


def status_line(*parts: Text) -> Text:
    """A status line: the parts after a space, separated by ``·``.

    >>> status_line(Text("Vatikanen"), Text("game 1")).plain
    ' Vatikanen · game 1'
    """
    return Text(" ").append_text(Text(" · ").join(parts))


def fit(candidates: Sequence[Text], width: int | None) -> Text:
    """The first of ``candidates`` (from the most said to the least) that fits in ``width``
    cells; when none does, the last cut with an ellipsis. ``None``: the first.

    >>> fit([Text("a long line"), Text("short")], 8).plain
    'short'
    >>> fit([Text("a long line")], 8).plain
    'a long …'
    """
    if width is None:
        return candidates[0]
    for line in candidates:
        if line.cell_len <= width:
            return line
    last = candidates[-1].copy()
    last.truncate(width, overflow="ellipsis")
    return last


def players_table(caption: str, *columns: tuple[str, JustifyMethod], lang: str = DEFAULT) -> Table:
    """The players panel's table: a turn mark, the player, then ``columns``
    as (heading, justify)."""
    table = Table(
        box=None,
        padding=(0, 1),
        collapse_padding=True,
        pad_edge=False,
        expand=True,
        caption=caption,
        caption_justify="left",
        caption_style="dim",
    )
    table.add_column("", width=1, no_wrap=True)
    table.add_column(translate("player", lang), no_wrap=True, overflow="ellipsis", ratio=1)
    for heading, justify in columns:  # headings whole, cells on one line (80x24 fits)
        table.add_column(heading, justify=justify, no_wrap=True, min_width=len(heading))
    return table
