"""What a player types, in each language: the command words and the card letters.

This is the one home of the words a typed command is made of, for both
games and both languages. Terminal play reads commands through it
(:mod:`rummykit.tui.commands`); a host with a command line of its own (the
browser's) can be served the same tables (:func:`to_json`) or a file made
from them, instead of keeping a copy.

English is understood in every language. Swedish adds the words of the
Swedish rule texts, and the English stays as aliases:

- commands: ``spela`` (or ``lägg``) and ``dra``, ``passa`` in Vatikanen;
  ``ta``, ``avböj``, ``köp``, ``passa``, ``dra``, ``lägg``, ``bygg`` (lay
  off), ``byt`` (swap a joker) and ``saka`` (discard) in Kontraktsrummy;
  ``ok``/``ja``, ``ångra``, ``hjälp``, ``sortera``, ``tips``, ``protokoll``,
  ``nästa``, ``avsluta`` in both; inside a command ``på`` (on), ``som`` (as),
  ``mot`` (with), ``högen`` (the discard pile), ``talongen`` (the stock).
  Å, ä and ö may be typed as a, a and o (``angra``, ``kop``).
- cards: ranks E (ess) 2-10 Kn (knekt) D (dam) K (kung), suits k (klöver),
  r (ruter), h (hjärter), s (spader): ``Es`` is the ace of spades, ``Knr``
  the jack of diamonds, ``Dk`` the queen of clubs. The English letters (A T
  J Q K, c d h s) and the suit signs work too; no text reads as two
  different cards, since each letter means one thing in both notations
  (K is the king, and the clubs after a rank).

Cards are shown, and written in records, in the one notation of RECORD.md
(:meth:`rummykit.cards.Card.parse`); only what a person types is read here.

>>> parse_card("Knr", "sv"), parse_card("Dk", "sv"), parse_card("Qs", "sv")
(Card.parse('Jd'), Card.parse('Qc'), Card.parse('Qs'))
>>> command_of("lägg", "vatikanen", "sv"), command_of("lägg", "kontrakt", "sv")
('play', 'meld')
>>> command_of("spela", "vatikanen", "en") is None
True
>>> command_word("layoff", "kontrakt", "sv"), link_word("on", "sv")
('bygg', 'på')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rummykit import games
from rummykit.cards import Card, CardError
from rummykit.errors import quoted
from rummykit.games.spec import Words
from rummykit.i18n import DEFAULT, N_

__all__ = [
    "LINKS",
    "UI_COMMANDS",
    "card_forms",
    "check_tables",
    "command_of",
    "command_word",
    "completion_words",
    "fold",
    "game_commands",
    "interface_command_of",
    "link_of",
    "link_word",
    "parse_card",
    "parse_cards",
    "to_json",
]


def game_commands(game: str) -> Mapping[str, Words]:
    """Each game's own commands, in the order completion offers them: they live in the
    game's package and come through its spec (:attr:`rummykit.games.GameSpec.commands`).

    >>> list(game_commands("vatikanen"))
    ['play', 'draw', 'pass']
    """
    return games.get(game).commands


UI_COMMANDS: dict[str, Words] = {
    "hint": {"en": ("hint",), "sv": ("tips",)},
    "undo": {"en": ("undo", "u", "back"), "sv": ("ångra",)},
    "ok": {"en": ("ok", "yes", "y", "confirm"), "sv": ("ok", "ja", "j")},
    "help": {"en": ("help", "h", "?"), "sv": ("hjälp",)},
    "sort": {"en": ("sort",), "sv": ("sortera",)},
    "scores": {"en": ("scores", "score"), "sv": ("protokoll", "poäng")},
    "next": {"en": ("next", "new"), "sv": ("nästa", "ny")},
    "quit": {"en": ("quit", "exit", "q"), "sv": ("avsluta", "sluta")},
}
"""The commands of the interface itself, the same in both games (``scores``: Kontrakt)."""

LINKS: dict[str, Words] = {
    "on": {"en": ("on", "to"), "sv": ("på",)},
    "as": {"en": ("as",), "sv": ("som",)},
    "with": {"en": ("with",), "sv": ("mot",)},
    "discard": {"en": ("discard", "pile"), "sv": ("högen", "hög")},
    "stock": {"en": ("stock",), "sv": ("talongen", "talong")},
}
"""Words inside a command: ``layoff Th on 3 as 9h``, ``swap * on 2 with 7h``,
``draw discard``."""

RANKS: dict[str, dict[str, int]] = {
    "en": {
        "A": 1,
        "T": 10,
        "10": 10,
        "J": 11,
        "Q": 12,
        "K": 13,
        **{str(n): n for n in range(2, 10)},
    },
    "sv": {"E": 1, "10": 10, "KN": 11, "D": 12, "K": 13, **{str(n): n for n in range(2, 10)}},
}
"""Rank letters (upper case) per language."""

SUITS: dict[str, dict[str, str]] = {
    "en": {"C": "c", "D": "d", "H": "h", "S": "s"},
    "sv": {"K": "c", "R": "d", "H": "h", "S": "s"},
}
"""Suit letters (upper case) per language, to the suit letter of RECORD.md."""

_SIGNS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
_CANONICAL_RANK = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_SWEDISH_RANK = {1: "E", 10: "10", 11: "Kn", 12: "D", 13: "K"}
_SWEDISH_SUIT = {"c": "k", "d": "r", "h": "h", "s": "s"}

NOT_A_SWEDISH_CARD = N_(
    # TRANSLATORS: only shown in Swedish: the Swedish card letters, with the English kept
    "{text} is not a card: write rank then suit, like 7h, Dh, 10h or Es;"
    " ranks E 2-10 Kn D K, suits k r h s (A T J Q and c d work too); * is a joker"
)


def fold(word: str) -> str:
    """A typed word as the tables are looked up: lower case, å ä ö as a a o.

    >>> fold("Ångra"), fold("KÖP")
    ('angra', 'kop')
    """
    return word.lower().translate(_FOLD)


_FOLD = str.maketrans({"å": "a", "ä": "a", "ö": "o"})


def _languages(lang: str) -> tuple[str, ...]:
    return ("en",) if lang not in ("sv",) else (lang, "en")


def _find(table: Mapping[str, Words], word: str, lang: str) -> str | None:
    key = fold(word)
    for name, words in table.items():
        for language in _languages(lang):
            if key in (fold(w) for w in words.get(language, ())):
                return name
    return None


def command_of(word: str, game: str, lang: str = DEFAULT) -> str | None:
    """The command (its English name) a typed word means in ``game``, or None: a game's
    command, or a command of the interface (``hint``, ``undo``...)."""
    return _find(game_commands(game), word, lang) or interface_command_of(word, lang)


def interface_command_of(word: str, lang: str = DEFAULT) -> str | None:
    """The command of the interface (``hint``, ``undo``...) a typed word means, or None."""
    return _find(UI_COMMANDS, word, lang)


def link_of(word: str, lang: str = DEFAULT) -> str | None:
    """The link word (``on``, ``as``, ``with``, ``discard``, ``stock``) a typed word is."""
    return _find(LINKS, word, lang)


def _first(words: Words, lang: str) -> str:
    return words.get(lang, words["en"])[0]


def command_word(command: str, game: str, lang: str = DEFAULT) -> str:
    """The word shown for ``command`` in ``lang`` (what a hint puts in the command line)."""
    words = game_commands(game).get(command) or UI_COMMANDS[command]
    return _first(words, lang)


def link_word(link: str, lang: str = DEFAULT) -> str:
    """The word shown for a link word in ``lang``."""
    return _first(LINKS[link], lang)


def completion_words(game: str, lang: str = DEFAULT) -> tuple[str, ...]:
    """The command words completion offers, in order: the language's own first, then the
    English ones (understood too)."""
    spec = games.get(game)
    out: list[str] = []
    for language in _languages(lang):
        for table in (spec.commands, UI_COMMANDS):
            for command, words in table.items():
                if command == "scores" and not spec.score_sheet:
                    continue
                word = words.get(language, ())[:1]
                out += [w for w in word if w not in out]
    return tuple(out)


_NATURAL = re.compile(r"(10|KN|[2-9A-Z])([A-Z♣♦♥♠♧♢♡♤])?")


def _canonical(text: str, lang: str, suit_needed: bool) -> str | None:
    """A typed card (no joker) as RECORD.md writes it, or None when it is none."""
    m = _NATURAL.fullmatch(text.strip().upper())
    if m is None:
        return None
    rank_text, suit_text = m.group(1), m.group(2)
    rank = None
    for language in _languages(lang):
        rank = rank if rank is not None else RANKS[language].get(rank_text)
    if rank is None:
        return None
    if suit_text is None:
        return None if suit_needed else _CANONICAL_RANK.get(rank, str(rank))
    suit = _SIGNS.get(suit_text)
    for language in _languages(lang):
        suit = suit or SUITS[language].get(suit_text)
    if suit is None:
        return None
    return _CANONICAL_RANK.get(rank, str(rank)) + suit


def parse_card(text: str, lang: str = DEFAULT) -> Card:
    """One typed card in ``lang``'s letters (English always understood): a
    :class:`~rummykit.cards.Card`, or CardError saying how cards are written.

    >>> parse_card("*:Knh", "sv"), parse_card("*:D", "sv")
    (Card.parse('*:Jh'), Card.parse('*:Q'))
    """
    if lang not in ("sv",):
        return Card.parse(text)
    stripped = text.strip()
    if stripped.startswith("*"):
        meant = stripped[1:]
        if not meant:
            return Card.parse("*")
        if meant.startswith(":"):
            found = _canonical(meant[1:], lang, suit_needed=False)
            if found is not None:
                return Card.parse("*:" + found)
    else:
        found = _canonical(stripped, lang, suit_needed=True)
        if found is not None:
            return Card.parse(found)
    raise CardError(NOT_A_SWEDISH_CARD, text=quoted(text))


def parse_cards(text: str, lang: str = DEFAULT) -> list[Card]:
    """Typed cards separated by spaces or commas, in ``lang``'s letters."""
    return [parse_card(part, lang) for part in text.replace(",", " ").split()]


def card_forms(card: Card, lang: str = DEFAULT) -> tuple[str, ...]:
    """How a card may be typed in ``lang``: RECORD.md's text first, then the language's
    own (completion matches what was begun in either).

    >>> card_forms(Card.parse("Qc"), "sv"), card_forms(Card.parse("Qc"))
    (('Qc', 'Dk'), ('Qc',))
    """
    plain = str(card.plain())
    if lang != "sv" or card.is_joker:
        return (plain,)
    assert card.suit is not None
    own = _SWEDISH_RANK.get(card.rank, str(card.rank)) + _SWEDISH_SUIT[card.suit.letter]
    return (plain, own) if own != plain else (plain,)


def to_json() -> dict[str, object]:
    """The tables as plain data, for a host to serve or a file to be made from them."""

    def lists(table: Mapping[str, Words]) -> dict[str, dict[str, list[str]]]:
        return {
            name: {lang: list(ws) for lang, ws in words.items()} for name, words in table.items()
        }

    return {
        "games": {game: lists(game_commands(game)) for game in games.names()},
        "interface": lists(UI_COMMANDS),
        "links": lists(LINKS),
        "ranks": {lang: dict(table) for lang, table in RANKS.items()},
        "suits": {lang: dict(table) for lang, table in SUITS.items()},
        "fold": {"å": "a", "ä": "a", "ö": "o"},
    }


def check_tables(languages: Sequence[str] = ("en", "sv")) -> None:
    """No word means two commands of one game, in any language (a test runs this)."""
    for game in games.names():
        table = game_commands(game)
        for lang in languages:
            seen: dict[str, str] = {}
            for name, words in [*table.items(), *UI_COMMANDS.items()]:
                for language in _languages(lang):
                    for w in words.get(language, ()):
                        key = fold(w)
                        if seen.setdefault(key, name) != name:
                            raise AssertionError(f"{game}/{lang}: {w!r} is {seen[key]} and {name}")
