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
says it in Swedish.

The words themselves come from :mod:`rummykit.notation`, their one home:
English is understood in every language, and in Swedish (``lang="sv"``)
the Swedish words and card letters too (``spela Es 2s 3s``, ``bygg Dh på
3``); :func:`format_vatikanen` and :func:`format_kontrakt` write the
language's words (card text stays RECORD.md's, as the screen shows it).

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

from rummykit import games
from rummykit.cards import Card, rank_text
from rummykit.errors import MessageError, quoted
from rummykit.games import kontrakt as k
from rummykit.games import vatikanen as v
from rummykit.i18n import DEFAULT, N_
from rummykit.notation import (
    UI_COMMANDS,
    card_forms,
    command_of,
    command_word,
    completion_words,
    interface_command_of,
    link_of,
    link_word,
    parse_card,
    parse_cards,
)

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


UI_WORDS: dict[str, str] = {w: name for name, words in UI_COMMANDS.items() for w in words["en"]}
"""English words of UI commands (both games) and the command each means
(every language's: :data:`rummykit.notation.UI_COMMANDS`)."""

VATIKANEN_WORDS = completion_words("vatikanen")
"""The Vatikanen command words in English, in the order completion offers them."""

KONTRAKT_WORDS = completion_words("kontrakt")
"""The Kontrakt command words in English, in the order completion offers them."""


def _split(text: str) -> tuple[str, str]:
    """The command word (lower case) and the rest of the line."""
    text = text.strip()
    if not text:
        return "", ""
    word, _, rest = text.partition(" ")
    return word.lower(), rest.strip()


def _ui(word: str, rest: str, lang: str) -> UiCommand | None:
    if word == "":
        return UiCommand("ok")
    name = interface_command_of(word, lang)
    if name is None:
        return None
    if rest:
        raise CommandError(NOTHING_AFTER, word=quoted(word))
    return UiCommand(name)


NOTHING_AFTER = N_("{word} takes nothing after it")
UNKNOWN = N_("unknown command {word}: type help to see the commands")


def _cards(text: str, missing: str, lang: str = DEFAULT) -> tuple[Card, ...]:
    """The cards of ``text``; CommandError ``missing`` when it names none."""
    cards = tuple(parse_cards(text, lang))
    if not cards:
        raise CommandError(missing)
    return cards


def _melds(text: str, game: str, lang: str = DEFAULT) -> tuple[tuple[Card, ...], ...]:
    none, empty = games.get(game).meld_syntax
    if not text.strip():
        raise CommandError(none)
    parts = [p.strip() for p in text.split("|")]
    if any(not p for p in parts):
        raise CommandError(empty)
    return tuple(_cards(p, empty, lang) for p in parts)


# ------------------------------------------------------------------ Vatikanen


def parse_vatikanen(text: str, seat: int, lang: str = DEFAULT) -> v.Action | UiCommand:
    """Read one Vatikanen command for ``seat``, typed in ``lang`` (English always works).

    - ``play 7h 8h 9h``: lay these cards; the engine arranges the table.
    - ``play 7h | 7h 8h 9h | Tc Th Ts``: lay 7h, and the whole new table is
      the melds after the first ``|``, meld by meld (V9).
    - ``draw``, ``pass``; and the UI commands of :class:`UiCommand`.

    >>> parse_vatikanen("play 7h | 7h 8h 9h", 1).table
    ((Card.parse('7h'), Card.parse('8h'), Card.parse('9h')),)
    >>> parse_vatikanen("spela Es 2s 3s", 0, "sv") == parse_vatikanen("play As 2s 3s", 0)
    True
    >>> parse_vatikanen("fold", 0)
    Traceback (most recent call last):
    ...
    rummykit.tui.commands.CommandError: unknown command 'fold': type help to see the commands
    """
    word, rest = _split(text)
    ui = _ui(word, rest, lang)
    if ui is not None:
        return ui
    command = command_of(word, "vatikanen", lang)
    if command == "play":
        add_text, bar, table_text = rest.partition("|")
        add = _cards(
            add_text, N_("name the cards to play from your hand, like: play 7h 8h 9h"), lang
        )
        table = _melds(table_text, "vatikanen", lang) if bar else None
        return v.Play(seat, add, table)
    if command == "draw":
        _nothing_after(word, rest)
        return v.Draw(seat)
    if command == "pass":
        _nothing_after(word, rest)
        return v.Pass(seat)
    raise CommandError(UNKNOWN, word=quoted(word))


def _text(card: Card, shown: bool, lang: str = DEFAULT) -> str:
    """A card as the screen shows it (``shown``), or as it is typed in ``lang``: Swedish
    letters in Swedish (``10s Kns Ds Es``, ``*:Knh``), so that a hint put in the command
    line reads as the person would type it."""
    if shown:
        return card.pretty()
    if lang != "sv":
        return str(card)
    if card.is_joker:
        meant = card.stands_for
        if meant is None:
            return "*"
        if meant.suit is None:
            return "*:" + card_forms(Card.parse(rank_text(meant.rank) + "c"), lang)[-1][:-1]
        return "*:" + card_forms(Card.parse(str(meant)), lang)[-1]
    return card_forms(card, lang)[-1]


def format_vatikanen(action: v.Action, lang: str = DEFAULT, *, shown: bool = False) -> str:
    """The command text of a Vatikanen action in ``lang``'s words (the inverse of
    :func:`parse_vatikanen`); ``shown``: its cards as the screen shows them, to read.

    >>> format_vatikanen(parse_vatikanen("play 7h | 7h 8h 9h | *:Tc Th Ts", 0))
    'play 7h | 7h 8h 9h | *:Tc Th Ts'
    >>> format_vatikanen(parse_vatikanen("draw", 0), "sv")
    'dra'
    >>> format_vatikanen(parse_vatikanen("play Th * Qh", 0), shown=True)
    'play 10♥ ★ Q♥'
    """
    if isinstance(action, v.Play):
        text = command_word("play", "vatikanen", lang) + " "
        text += " ".join(_text(c.plain(), shown, lang) for c in action.add)
        if action.table is not None:
            melds = (" ".join(_text(c, shown, lang) for c in m) for m in action.table)
            text += " | " + " | ".join(melds)
        return text
    if isinstance(action, v.Draw):
        return command_word("draw", "vatikanen", lang)
    return command_word("pass", "vatikanen", lang)


def _nothing_after(word: str, rest: str) -> None:
    if rest:
        raise CommandError(NOTHING_AFTER, word=quoted(word))


# ------------------------------------------------------------------ Kontrakt

_ON = re.compile(r"^(?P<card>\S+)\s+(?:(?P<on>\S+)\s+)?#?(?P<meld>\d+)(?P<tail>.*)$", re.IGNORECASE)


def _meld_number(text: str) -> int:
    return int(text)


def parse_kontrakt(text: str, seat: int, lang: str = DEFAULT) -> k.Action | UiCommand:
    """Read one Kontrakt command for ``seat``, typed in ``lang`` (English always works).

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
    >>> parse_kontrakt("bygg * på 3 som Dh", 0, "sv") == parse_kontrakt("layoff * on 3 as Qh", 0)
    True
    """
    word, rest = _split(text)
    ui = _ui(word, rest, lang)
    if ui is not None:
        return ui
    command = command_of(word, "kontrakt", lang)
    simple: dict[str, type[k.TakeUpcard | k.DeclineUpcard | k.BuyUpcard | k.PassUpcard]] = {
        "take": k.TakeUpcard,
        "decline": k.DeclineUpcard,
        "buy": k.BuyUpcard,
        "pass": k.PassUpcard,
    }
    if command in simple:
        _nothing_after(word, rest)
        return simple[command](seat)
    if command == "draw":
        source = link_of(rest, lang) if rest else "stock"
        if rest.lower() == "discard pile":
            source = "discard"
        if source == "stock":
            return k.Draw(seat, "stock")
        if source == "discard":
            return k.Draw(seat, "discard")
        raise CommandError(
            N_("draw takes from the stock (draw) or the discard pile (draw discard)")
        )
    if command == "meld":
        return k.LayDown(seat, _melds(rest, "kontrakt", lang))
    if command == "layoff":
        m = _on_meld(rest, lang)
        if m is None:
            raise CommandError(
                N_("write a lay-off as: layoff Th on 3 (the card, then the meld number)")
            )
        card = parse_card(m.group("card"), lang)
        tail = m.group("tail").strip()
        as_ = None
        if tail:
            word2, _, meant = tail.partition(" ")
            if link_of(word2, lang) != "as" or not meant.strip():
                raise CommandError(
                    N_("after the meld number only 'as 9h' may follow (for a joker)")
                )
            as_ = parse_card(meant, lang)
        return k.LayOff(seat, card, _meld_number(m.group("meld")), as_)
    if command == "swap":
        m = _on_meld(rest, lang)
        if m is None:
            raise CommandError(
                N_("write a joker swap as: swap 7h on 2 (your card, then the meld number)")
            )
        card_text, tail = m.group("card"), m.group("tail").strip()
        if card_text == "*":
            word2, _, real = tail.partition(" ")
            if link_of(word2, lang) != "with" or not real.strip():
                raise CommandError(N_("write a joker swap as: swap * on 2 with 7h"))
            card_text = real.strip()
        elif tail:
            raise CommandError(N_("write a joker swap as: swap 7h on 2"))
        return k.SwapJoker(seat, parse_card(card_text, lang), _meld_number(m.group("meld")))
    if command == "discard":
        cards = _cards(rest, N_("name the card to discard, like: discard Qs"), lang)
        if len(cards) != 1:
            raise CommandError(N_("discard exactly one card, like: discard Qs"))
        return k.Discard(seat, cards[0])
    raise CommandError(UNKNOWN, word=quoted(word))


def _on_meld(rest: str, lang: str) -> re.Match[str] | None:
    """``card [on] [#]N tail``, the link word (on, to, på) checked."""
    m = _ON.match(rest)
    if m is None or (m.group("on") is not None and link_of(m.group("on"), lang) != "on"):
        return None
    return m


def format_kontrakt(action: k.Action, lang: str = DEFAULT, *, shown: bool = False) -> str:
    """The command text of a Kontrakt action in ``lang``'s words (the inverse of
    :func:`parse_kontrakt`); ``shown``: its cards as the screen shows them, to read.

    >>> format_kontrakt(parse_kontrakt("meld 7h 7d 7s | 4c 5c 6c", 0))
    'meld 7h 7d 7s | 4c 5c 6c'
    >>> format_kontrakt(parse_kontrakt("layoff * on 3 as 9h", 0), "sv")
    'bygg * på 3 som 9h'
    """

    def word(command: str) -> str:
        return command_word(command, "kontrakt", lang)

    on = link_word("on", lang)

    def cards(melds: Sequence[Sequence[Card]]) -> str:
        return " | ".join(" ".join(_text(c, shown, lang) for c in m) for m in melds)

    match action:
        case k.TakeUpcard():
            return word("take")
        case k.DeclineUpcard():
            return word("decline")
        case k.BuyUpcard():
            return word("buy")
        case k.PassUpcard():
            return word("pass")
        case k.Draw(from_=source):
            return word("draw") + (" " + link_word("discard", lang) if source == "discard" else "")
        case k.LayDown(melds=melds):
            return word("meld") + " " + cards(melds)
        case k.LayOff(card=card, meld=meld, as_=as_):
            text = f"{word('layoff')} {cards([[card.plain()]])} {on} {meld}"
            return text + (f" {link_word('as', lang)} {cards([[as_]])}" if as_ is not None else "")
        case k.SwapJoker(card=card, meld=meld):
            return f"{word('swap')} {cards([[card]])} {on} {meld}"
        case k.Discard(card=card):
            return f"{word('discard')} {cards([[card]])}"
    raise TypeError(f"{action!r} is not a Kontrakt action")  # pragma: no cover


# ------------------------------------------------------------------ completion

_CARD_COMMANDS = {"play", "meld", "layoff", "swap", "discard"}
"""The commands whose words are followed by cards."""


def _takes_cards(word: str, lang: str) -> bool:
    return any(command_of(word, game, lang) in _CARD_COMMANDS for game in games.names())


def _card(text: str, lang: str) -> Card | None:
    try:
        return parse_card(text, lang)
    except ValueError:
        return None


def _used(tokens: Sequence[str], lang: str = DEFAULT) -> Counter[str]:
    used: Counter[str] = Counter()
    for t in tokens:
        card = _card(t, lang)
        if card is not None:
            used[str(card.plain())] += 1
    return used


def suggest(
    text: str, hand: Sequence[str], words: Sequence[str] = VATIKANEN_WORDS, lang: str = DEFAULT
) -> str | None:
    """A completion of ``text``: a command word of ``words``, or a card of ``hand`` for the
    last word, as begun in ``lang``'s letters or RECORD.md's.

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
    >>> suggest("saka d", ["Qs"], KONTRAKT_WORDS, "sv"), suggest("spela kn", ["Jh"], lang="sv")
    ('saka ds', 'spela knh')
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
    command = before[0] if before else ""
    if not _takes_cards(command, lang) or link_of(before[-1], lang) == "on":
        return None
    token = token.lstrip("|")
    if not token:
        return None
    named = head.replace("|", " ").split()
    already = _used(named, lang)
    left = Counter(str(Card.parse(c).plain()) for c in hand) - already
    typed = {token.lower(), token.lower().replace("10", "t")}
    suit = _last_suit(named, lang)
    for card in sorted(left, key=lambda c: (not c.endswith(suit), _card_order(c))):
        for form in card_forms(Card.parse(card), lang):
            low = form.lower()
            for begun in sorted(typed, key=len, reverse=True):
                if low.startswith(begun) and low != begun:
                    return text + low[len(begun) :]
    return None


def _last_suit(tokens: Sequence[str], lang: str = DEFAULT) -> str:
    """The suit letter of the last card named, so that a run completes in its suit."""
    for t in reversed(tokens):
        card = _card(t, lang)
        if card is not None and card.suit is not None:
            return card.suit.letter
    return "?"


def _card_order(text: str) -> tuple[int, str]:
    card = Card.parse(text)
    return (card.rank if not card.is_joker else 99, text)
