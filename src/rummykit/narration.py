"""The games' logs in words: one home for every interface that tells a log.

:func:`narrate` turns one entry of a view's log (``docs/bot-protocol.md``) into
sentences in a language; the terminal draws them in colour (the names bold,
the cards in their suits' colours) and the server sends them to the browser as
text (:func:`narrate_log`). A sentence is a tuple of pieces: text, a seat's
name (``("name", seat)``: each interface names the seat as it likes, "You" for
the terminal's player) and cards (``("cards", ("7h", "*:8h"))``, in the order
they lie, a joker saying what it stands for).

>>> entry = {"seat": 0, "type": "play", "add": ["6d", "*", "2d", "3d", "4d", "7d"],
...          "opening": True,
...          "table": [["2d", "3d", "4d", "*:5d", "6d", "7d"]]}
>>> narrate_log("vatikanen", [entry], ["Anna", "Bo"], "en")
['Anna opened with 6: 2♦ 3♦ 4♦ ★=5♦ 6♦ 7♦']
>>> narrate_log("kontrakt", [{"seat": 1, "type": "layoff", "card": "Th", "meld": 3}],
...             ["Anna", "Bo"], "sv")
['Bo byggde på #3 med 10♥']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from rummykit.cards import Card
from rummykit.i18n import N_, translate

__all__ = [
    "Piece",
    "Sentence",
    "cards",
    "kontrakt_sentences",
    "narrate",
    "narrate_log",
    "plain",
    "sentence",
    "vatikanen_sentences",
    "who",
]

Piece = tuple[str, Any]
"""``("text", str)``, ``("name", seat)`` or ``("cards", tuple of card texts)``."""
Sentence = tuple[Piece, ...]
"""One sentence of a log entry, in pieces."""

_MARK = "\x00"


def sentence(message: str, lang: str, /, **params: object) -> Sentence:
    """``message`` (a catalog message) in ``lang`` as pieces: a parameter given as pieces
    (a :data:`Sentence`: a seat's name, cards, or more) is put in whole where its field is."""
    spliced = {k: v for k, v in params.items() if isinstance(v, tuple)}
    others = {k: v for k, v in params.items() if k not in spliced}
    marks = {k: f"{_MARK}{k}{_MARK}" for k in spliced}
    text = translate(message, lang, **marks, **others)
    out: list[Piece] = []
    for i, part in enumerate(text.split(_MARK)):
        if i % 2:
            out.extend(spliced[part])
        elif part:
            out.append(("text", part))
    return tuple(out)


def who(seat: int) -> Sentence:
    """A seat's name, as pieces."""
    return (("name", seat),)


def cards(texts: Sequence[str]) -> Sentence:
    """Cards, as pieces."""
    return (("cards", tuple(texts)),)


def plain(line: Sentence, names: Sequence[str]) -> str:
    """A sentence as plain text: the seats' names, the cards as people write them."""
    out = []
    for kind, value in line:
        if kind == "name":
            out.append(str(names[value]) if 0 <= value < len(names) else f"#{value + 1}")
        elif kind == "cards":
            out.append(" ".join(Card.parse(c).pretty() for c in value))
        else:
            out.append(str(value))
    return "".join(out)


def narrate(game: str, entry: Mapping[str, Any], lang: str) -> list[Sentence]:
    """Entry of a ``game``'s log in words, one sentence or more (none for an entry the
    narration does not know): the game's ``narrator`` (its spec) tells it."""
    from rummykit import games

    told = games.get(game).hook("narrator")
    if told is None:
        return []
    return cast(Callable[[Mapping[str, Any], str], list[Sentence]], told)(entry, lang)


def narrate_log(
    game: str, entries: Sequence[Mapping[str, Any]], names: Sequence[str], lang: str
) -> list[str]:
    """Each entry as text, its sentences on lines of their own (what the browser shows)."""
    return ["\n".join(plain(s, names) for s in narrate(game, e, lang)) for e in entries]


def _number(value: object) -> str:
    """A payment as people read it: +2, -1.5 (V13 splits can leave halves)."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:+.2f}"
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):+.2f}"
    return f"{int(value):+d}"  # type: ignore[call-overload]


def _joined(pieces: list[Sentence], sep: str) -> Sentence:
    out: list[Piece] = []
    for i, p in enumerate(pieces):
        if i:
            out.append(("text", sep))
        out.extend(p)
    return tuple(out)


# ------------------------------------------------------------------ Vatikanen


def _plain(card: str) -> str:
    return "*" if card.startswith("*") else card


def _laid(entry: Mapping[str, Any]) -> list[str]:
    """The cards a play added: an opening's run as it lies (a joker in its place, saying
    what it stands for); a later play's cards as given, each joker saying what it stands
    for in the meld that took most of the play's cards."""
    added = list(entry.get("add") or [])
    table = entry.get("table") or []
    want = Counter(_plain(c) for c in added)
    if entry.get("opening"):
        run = next((m for m in table if Counter(_plain(c) for c in m) == want), None)
        if run is not None:
            return list(run)
    jokers: list[str] = []
    for meld in sorted(table, key=lambda m: -sum((Counter(map(_plain, m)) & want).values())):
        jokers += [c for c in meld if c.startswith("*")][: want["*"] - len(jokers)]
    labels = iter(jokers)
    return [next(labels, c) if c.startswith("*") else c for c in added]


def vatikanen_sentences(entry: Mapping[str, Any], lang: str) -> list[Sentence]:
    name = who(entry["seat"])
    kind = entry["type"]
    if kind == "draw":
        if "card" in entry:
            lines = [
                sentence(N_("{name} drew {cards}"), lang, name=name, cards=cards([entry["card"]]))
            ]
        else:
            lines = [sentence(N_("{name} drew a card"), lang, name=name)]
    elif kind == "pass":
        lines = [sentence(N_("{name} passed"), lang, name=name)]
    else:
        laid = _laid(entry)
        said = (
            N_("{name} opened with {n}: {cards}")
            if entry.get("opening")
            else N_("{name} played {n}: {cards}")
        )
        lines = [sentence(said, lang, name=name, cards=cards(laid), n=len(laid))]
    end = entry.get("end")
    if end is not None:
        lines.append(_vatikanen_end(end, lang))
    return lines


def _vatikanen_end(end: Mapping[str, Any], lang: str) -> Sentence:
    winners = list(end["winners"])
    if end["reason"] == "out":
        head = sentence(N_("{name} went out! "), lang, name=who(winners[0]))
    elif end["reason"] == "blocked":
        lowest = _joined([who(w) for w in winners], ", ")
        head = sentence(N_("Blocked: lowest hand {names}. "), lang, names=lowest)
    else:
        head = sentence(N_("Blocked, no winner. "), lang)
    pays = [(*who(seat), ("text", " " + _number(p))) for seat, p in enumerate(end["payments"]) if p]
    tail = _joined(pays, ", ") if pays else (("text", translate("no payments", lang)),)
    return head + tail


# ------------------------------------------------------------------ Kontrakt


def kontrakt_sentences(entry: Mapping[str, Any], lang: str) -> list[Sentence]:
    from rummykit.games.kontrakt.contracts import CONTRACTS

    kind = entry["type"]
    if kind == "deal_start":
        head = sentence(
            N_("Deal {deal} of 7 — contract: {contract}; upcard "),
            lang,
            deal=entry["deal"] + 1,
            contract=CONTRACTS[entry["deal"]].describe(),
        )
        return [(*head, *cards([entry["upcard"]]))]
    if kind == "deal_end":
        if entry["out"] is not None:
            said = sentence(
                N_("Deal {deal} over: {name} went out. Penalties: "),
                lang,
                deal=entry["deal"] + 1,
                name=who(entry["out"]),
            )
        else:
            said = sentence(
                N_("Deal {deal} over: nobody went out. Penalties: "), lang, deal=entry["deal"] + 1
            )
        penalties = _by_name(entry["penalties"])
        totals = _by_name(entry["totals"])
        return [(*said, *penalties, ("text", translate(". Totals: ", lang)), *totals)]
    name = who(entry["seat"])
    shown = cards(entry.get("shown") or [])
    drawn = cards(entry.get("drawn") or [])
    line: Sentence
    if kind == "take_upcard":
        line = sentence(N_("{name} took the upcard {cards}"), lang, name=name, cards=shown)
    elif kind == "decline_upcard":
        line = sentence(N_("{name} declined the upcard"), lang, name=name)
    elif kind == "buy_upcard":
        line = sentence(
            N_("{name} bought the upcard {cards} and the stock's top card"),
            lang,
            name=name,
            cards=shown,
        )
        if entry.get("drawn"):
            line = (*line, ("text", " ("), *drawn, ("text", ")"))
    elif kind == "pass_upcard":
        line = sentence(N_("{name} passed on the upcard"), lang, name=name)
    elif kind == "draw":
        if entry.get("from") == "discard":
            took = N_("{name} took {cards} from the discard pile")
            line = sentence(took, lang, name=name, cards=shown)
        elif entry.get("drawn"):
            line = sentence(N_("{name} drew from the stock: {cards}"), lang, name=name, cards=drawn)
        else:
            line = sentence(N_("{name} drew from the stock"), lang, name=name)
        if entry.get("restocked"):
            restocked = translate(" (the discard pile was shuffled into a new stock)", lang)
            line = (*line, ("text", restocked))
    elif kind == "meld":
        laid = _joined([cards(m) for m in entry["melds"]], " | ")
        line = sentence(N_("{name} laid down {cards}"), lang, name=name, cards=laid)
    elif kind == "layoff":
        line = sentence(
            N_("{name} laid off {cards} on #{meld}"),
            lang,
            name=name,
            cards=cards([entry["card"]]),
            meld=entry["meld"],
        )
    elif kind == "swap_joker":
        line = sentence(
            N_("{name} swapped {cards} for the joker on #{meld}"),
            lang,
            name=name,
            cards=cards([entry["card"]]),
            meld=entry["meld"],
        )
    elif kind == "discard":
        line = sentence(
            N_("{name} discarded {cards}"), lang, name=name, cards=cards([entry["card"]])
        )
    else:
        line = (*name, ("text", f" {kind}"))
    if entry.get("went_out"):
        line = (*line, ("text", translate(" and went out!", lang)))
    return [line]


def _by_name(numbers: Sequence[int]) -> Sentence:
    return _joined([(*who(seat), ("text", f" {n}")) for seat, n in enumerate(numbers)], ", ")
