"""The command line of terminal play: text to an engine action or a UI command.

Pure functions, no Textual: :func:`parse_vatikanen` and :func:`parse_kontrakt`
read what the player typed; :func:`format_vatikanen` and
:func:`format_kontrakt` write an engine action back as the text that parses to
it (hints fill the input line with it); :func:`suggest` completes card text
from the hand as it is typed.

The parser only reads text: whether an action is legal is the engine's
business (``verify_*``). Bad card text raises the cards module's
``ValueError``; a sentence the parser cannot read raises :class:`CommandError`.
Both are :class:`~rummykit.errors.MessageError`: ``translated(language)``
says it in Swedish. The command words themselves (``play``, ``draw``,
``meld``…) are a notation, the same in every language, like card text.

>>> parse_vatikanen("play 7h 8h 9h", 0)
Play(seat=0, add=(Card.parse('7h'), Card.parse('8h'), Card.parse('9h')), table=None)
>>> parse_vatikanen("", 0)
UiCommand(name='ok')
>>> format_kontrakt(parse_kontrakt("layoff Th on 3", 0))
'layoff Th on 3'
>>> suggest("play 7", ["7h", "8h", "7s"])
'play 7h'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card, parse_cards
from rummykit.errors import MessageError, quoted
from rummykit.games import kontrakt as k
from rummykit.games import vatikanen as v
from rummykit.i18n import N_

__all__ = [
    "KONTRAKT_WORDS",
    "UI_WORDS",
    "VATIKANEN_WORDS",
    "CommandError",
    "UiCommand",
    "format_kontrakt",
    "format_vatikanen",
    "parse_kontrakt",
    "parse_vatikanen",
    "suggest",
]


class CommandError(MessageError):
    """Text that is no command; the message says what to type instead (a ValueError)."""


@dataclass(frozen=True, slots=True)
class UiCommand:
    """A command for the interface itself, not the game.

    ``ok`` (or an empty line) confirms what is staged, ``undo`` takes it back;
    ``help``, ``sort``, ``hint``, ``scores``, ``next`` (the next game or deal)
    and ``quit``.
    """

    name: str


UI_WORDS: dict[str, str] = {
    "ok": "ok",
    "yes": "ok",
    "y": "ok",
    "confirm": "ok",
    "undo": "undo",
    "u": "undo",
    "back": "undo",
    "help": "help",
    "h": "help",
    "?": "help",
    "sort": "sort",
    "hint": "hint",
    "scores": "scores",
    "score": "scores",
    "next": "next",
    "new": "next",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
}
"""Words of UI commands (both games) and the command each means."""

VATIKANEN_WORDS = ("play", "draw", "pass", "hint", "undo", "ok", "help", "sort", "next", "quit")
"""The Vatikanen command words, in the order completion offers them."""

KONTRAKT_WORDS = (
    "take",
    "decline",
    "buy",
    "pass",
    "draw",
    "meld",
    "layoff",
    "swap",
    "discard",
    "hint",
    "undo",
    "ok",
    "help",
    "sort",
    "scores",
    "next",
    "quit",
)
"""The Kontrakt command words, in the order completion offers them."""


def _split(text: str) -> tuple[str, str]:
    """The command word (lower case) and the rest of the line."""
    text = text.strip()
    if not text:
        return "", ""
    word, _, rest = text.partition(" ")
    return word.lower(), rest.strip()


def _ui(word: str, rest: str) -> UiCommand | None:
    if word == "":
        return UiCommand("ok")
    name = UI_WORDS.get(word)
    if name is None:
        return None
    if rest:
        raise CommandError(NOTHING_AFTER, word=quoted(word))
    return UiCommand(name)


NOTHING_AFTER = N_("{word} takes nothing after it")
UNKNOWN = N_("unknown command {word}: type help to see the commands")


def _cards(text: str, missing: str) -> tuple[Card, ...]:
    """The cards of ``text``; CommandError ``missing`` when it names none."""
    cards = tuple(parse_cards(text))
    if not cards:
        raise CommandError(missing)
    return cards


_MELD_SYNTAX = {
    "kontrakt": (
        N_("name the cards of each meld, like: meld 7h 7d 7s | 4c 5c 6c"),
        N_("a meld between two | is empty: write melds like: meld 7h 7d 7s | 4c 5c 6c"),
    ),
    "vatikanen": (
        N_(
            "after the first | write the whole new table, meld by meld,"
            " like: play 7h | 7h 8h 9h | Tc Th Ts"
        ),
        N_(
            "a meld between two | is empty: write the new table like: play 7h | 7h 8h 9h | Tc Th Ts"
        ),
    ),
}
"""Per game: what to say when no meld is named, and when one between bars is empty."""


def _melds(text: str, game: str) -> tuple[tuple[Card, ...], ...]:
    none, empty = _MELD_SYNTAX[game]
    if not text.strip():
        raise CommandError(none)
    parts = [p.strip() for p in text.split("|")]
    if any(not p for p in parts):
        raise CommandError(empty)
    return tuple(_cards(p, empty) for p in parts)


# ------------------------------------------------------------------ Vatikanen


def parse_vatikanen(text: str, seat: int) -> v.Action | UiCommand:
    """Read one Vatikanen command for ``seat``.

    - ``play 7h 8h 9h``: lay these cards; the engine arranges the table.
    - ``play 7h | 7h 8h 9h | Tc Th Ts``: lay 7h, and the whole new table is
      the melds after the first ``|``, meld by meld (V9).
    - ``draw``, ``pass``; and the UI commands of :class:`UiCommand`.

    >>> parse_vatikanen("play 7h | 7h 8h 9h", 1).table
    ((Card.parse('7h'), Card.parse('8h'), Card.parse('9h')),)
    >>> parse_vatikanen("fold", 0)
    Traceback (most recent call last):
    ...
    rummykit.tui.commands.CommandError: unknown command 'fold': type help to see the commands
    """
    word, rest = _split(text)
    ui = _ui(word, rest)
    if ui is not None:
        return ui
    if word in ("play", "p"):
        add_text, bar, table_text = rest.partition("|")
        add = _cards(add_text, N_("name the cards to play from your hand, like: play 7h 8h 9h"))
        table = _melds(table_text, "vatikanen") if bar else None
        return v.Play(seat, add, table)
    if word in ("draw", "d"):
        _nothing_after(word, rest)
        return v.Draw(seat)
    if word == "pass":
        _nothing_after(word, rest)
        return v.Pass(seat)
    raise CommandError(UNKNOWN, word=quoted(word))


def format_vatikanen(action: v.Action) -> str:
    """The command text of a Vatikanen action (the inverse of :func:`parse_vatikanen`).

    >>> format_vatikanen(parse_vatikanen("play 7h | 7h 8h 9h | *:Tc Th Ts", 0))
    'play 7h | 7h 8h 9h | *:Tc Th Ts'
    """
    if isinstance(action, v.Play):
        text = "play " + " ".join(str(c.plain()) for c in action.add)
        if action.table is not None:
            text += " | " + " | ".join(" ".join(str(c) for c in m) for m in action.table)
        return text
    if isinstance(action, v.Draw):
        return "draw"
    return "pass"


def _nothing_after(word: str, rest: str) -> None:
    if rest:
        raise CommandError(NOTHING_AFTER, word=quoted(word))


# ------------------------------------------------------------------ Kontrakt

_ON = re.compile(r"^(?P<card>\S+)\s+(?:on\s+|to\s+)?#?(?P<meld>\d+)(?P<tail>.*)$", re.IGNORECASE)


def _meld_number(text: str) -> int:
    return int(text)


def parse_kontrakt(text: str, seat: int) -> k.Action | UiCommand:
    """Read one Kontrakt command for ``seat``.

    - ``take`` / ``decline`` (förhand, the first upcard), ``buy`` / ``pass`` (the others, K7);
    - ``draw`` (from the stock), ``draw discard`` (the top of the discard pile, K8);
    - ``meld 7h 7d 7s | 4c 5c 6c``: lay down melds (K9-K12);
    - ``layoff Th on 3``: lay Th off onto table meld 3 (K10); a joker may say
      where it goes: ``layoff * on 3 as 9h``;
    - ``swap 7h on 2`` (or ``swap * on 2 with 7h``): put 7h in place of the
      joker in meld 2, the joker comes to your hand (K11);
    - ``discard Qs`` (K8, K13); and the UI commands of :class:`UiCommand`.

    >>> parse_kontrakt("swap * on 2 with 7h", 0) == parse_kontrakt("swap 7h on 2", 0)
    True
    >>> parse_kontrakt("draw discard", 3)
    Draw(seat=3, from_='discard', restock=None)
    """
    word, rest = _split(text)
    ui = _ui(word, rest)
    if ui is not None:
        return ui
    simple: dict[str, type[k.TakeUpcard | k.DeclineUpcard | k.BuyUpcard | k.PassUpcard]] = {
        "take": k.TakeUpcard,
        "decline": k.DeclineUpcard,
        "buy": k.BuyUpcard,
        "pass": k.PassUpcard,
    }
    if word in simple:
        _nothing_after(word, rest)
        return simple[word](seat)
    if word in ("draw", "d"):
        source = rest.lower()
        if source in ("", "stock"):
            return k.Draw(seat, "stock")
        if source in ("discard", "pile", "discard pile"):
            return k.Draw(seat, "discard")
        raise CommandError(
            N_("draw takes from the stock (draw) or the discard pile (draw discard)")
        )
    if word in ("meld", "m", "lay"):
        return k.LayDown(seat, _melds(rest, "kontrakt"))
    if word in ("layoff", "lo"):
        m = _ON.match(rest)
        if m is None:
            raise CommandError(
                N_("write a lay-off as: layoff Th on 3 (the card, then the meld number)")
            )
        card = Card.parse(m.group("card"))
        tail = m.group("tail").strip()
        as_ = None
        if tail:
            word2, _, meant = tail.partition(" ")
            if word2.lower() != "as" or not meant.strip():
                raise CommandError(
                    N_("after the meld number only 'as 9h' may follow (for a joker)")
                )
            as_ = Card.parse(meant)
        return k.LayOff(seat, card, _meld_number(m.group("meld")), as_)
    if word in ("swap", "sw"):
        m = _ON.match(rest)
        if m is None:
            raise CommandError(
                N_("write a joker swap as: swap 7h on 2 (your card, then the meld number)")
            )
        card_text, tail = m.group("card"), m.group("tail").strip()
        if card_text == "*":
            word2, _, real = tail.partition(" ")
            if word2.lower() != "with" or not real.strip():
                raise CommandError(N_("write a joker swap as: swap * on 2 with 7h"))
            card_text = real.strip()
        elif tail:
            raise CommandError(N_("write a joker swap as: swap 7h on 2"))
        return k.SwapJoker(seat, Card.parse(card_text), _meld_number(m.group("meld")))
    if word in ("discard", "x"):
        cards = _cards(rest, N_("name the card to discard, like: discard Qs"))
        if len(cards) != 1:
            raise CommandError(N_("discard exactly one card, like: discard Qs"))
        return k.Discard(seat, cards[0])
    raise CommandError(UNKNOWN, word=quoted(word))


def format_kontrakt(action: k.Action) -> str:
    """The command text of a Kontrakt action (the inverse of :func:`parse_kontrakt`).

    >>> format_kontrakt(parse_kontrakt("meld 7h 7d 7s | 4c 5c 6c", 0))
    'meld 7h 7d 7s | 4c 5c 6c'
    """
    match action:
        case k.TakeUpcard():
            return "take"
        case k.DeclineUpcard():
            return "decline"
        case k.BuyUpcard():
            return "buy"
        case k.PassUpcard():
            return "pass"
        case k.Draw(from_=source):
            return "draw discard" if source == "discard" else "draw"
        case k.LayDown(melds=melds):
            return "meld " + " | ".join(" ".join(str(c) for c in m) for m in melds)
        case k.LayOff(card=card, meld=meld, as_=as_):
            text = f"layoff {card.plain()} on {meld}"
            return text + (f" as {as_}" if as_ is not None else "")
        case k.SwapJoker(card=card, meld=meld):
            return f"swap {card} on {meld}"
        case k.Discard(card=card):
            return f"discard {card}"
    raise TypeError(f"{action!r} is not a Kontrakt action")  # pragma: no cover


# ------------------------------------------------------------------ completion

_CARD_WORDS = {"play", "p", "meld", "m", "lay", "layoff", "lo", "swap", "sw", "discard", "x"}


def _used(tokens: Sequence[str]) -> Counter[str]:
    used: Counter[str] = Counter()
    for t in tokens:
        try:
            used[str(Card.parse(t).plain())] += 1
        except ValueError:
            continue
    return used


def suggest(text: str, hand: Sequence[str], words: Sequence[str] = VATIKANEN_WORDS) -> str | None:
    """A completion of ``text``: a command word, or a card of ``hand`` for the last word.

    Cards already named on the line are not offered again (unless held twice).
    The answer starts with ``text`` exactly, so the input can show the rest.

    >>> suggest("pl", [])
    'play '
    >>> suggest("play 7h 7", ["7h", "7h", "8h"])
    'play 7h 7h'
    >>> suggest("discard q", ["Qs"], KONTRAKT_WORDS)
    'discard qs'
    >>> suggest("play 7h", ["7h"]) is None
    True
    >>> suggest("layoff Th on 3", ["3c"]) is None
    True
    >>> suggest("play 8c 9c t", ["Td", "Tc"])
    'play 8c 9c tc'

    """
    if not text or text != text.lstrip():
        return None
    if " " not in text:
        low = text.lower()
        for w in words:
            if w.startswith(low) and w != low:
                return text + w[len(low) :] + " "
        return None
    head, _, token = text.rpartition(" ")
    before = head.split()
    command = before[0].lower() if before else ""
    if command not in _CARD_WORDS or before[-1].lower() in ("on", "to"):
        return None
    token = token.lstrip("|")
    if not token:
        return None
    named = head.replace("|", " ").split()
    already = _used(named)
    left = Counter(str(Card.parse(c).plain()) for c in hand) - already
    low = token.lower().replace("10", "t")
    suit = _last_suit(named)
    for card in sorted(left, key=lambda c: (not c.endswith(suit), _card_order(c))):
        if card.lower().startswith(low) and card.lower() != low:
            rest = card[len(low) :]
            return text + rest.lower()
    return None


def _last_suit(tokens: Sequence[str]) -> str:
    """The suit letter of the last card named, so that a run completes in its suit."""
    for t in reversed(tokens):
        try:
            card = Card.parse(t)
        except ValueError:
            continue
        if card.suit is not None:
            return card.suit.letter
    return "?"


def _card_order(text: str) -> tuple[int, str]:
    card = Card.parse(text)
    return (card.rank if not card.is_joker else 99, text)
