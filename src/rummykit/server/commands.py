"""The browser's command line, read by the terminal's parser: one grammar for both.

``POST /api/games/{name}/command`` answers what a typed line means: a game action (as
PROTOCOL.md's JSON, without the seat: the connection says whose it is), or a command for
the page (``ok``, ``undo``, ``help``, ``hint``, ``sort``, ``scores``, ``next``, ``quit``,
the terminal's; and the page's own ``reset`` and ``arrange CARDS``), or why it is neither,
in the player's language. The words and card letters are :mod:`rummykit.notation`'s: in
Swedish ``spela``, ``dra``, ``bygg``, ``saka``..., ``Knr`` ``Dk`` ``Es``, with English as
aliases. Whether the action is legal is the engine's word, later.

>>> read_command("vatikanen", "play 7h 8h 9h", "en")
{'action': {'type': 'play', 'add': ['7h', '8h', '9h']}}
>>> read_command("kontrakt", "bygg Knr på 3", "sv")
{'action': {'type': 'layoff', 'card': 'Jd', 'meld': 3}}
>>> read_command("vatikanen", "ordna 7h Dk", "sv")
{'ui': 'arrange', 'cards': ['7h', 'Qc']}
>>> read_command("vatikanen", "fold", "sv")["error"]
"okänt kommando 'fold': skriv hjälp för att se kommandona"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from rummykit import games
from rummykit.errors import MessageError
from rummykit.i18n import N_, translate
from rummykit.notation import command_word, fold, link_word, parse_cards
from rummykit.tui.commands import CommandError, UiCommand

if TYPE_CHECKING:
    from rummykit.game import AnyAction

__all__ = ["PAGE_WORDS", "command_help", "read_command"]

PAGE_WORDS = {"reset": "reset", "arrange": "arrange", "a": "arrange", "ordna": "arrange"}
"""The page's own commands on top of the terminal's: ``reset`` (every change of the draft
taken back; Swedish ``börja om``) and ``arrange CARDS`` (the solver fits the cards into
the draft; Swedish ``ordna``)."""


def read_command(game: str, text: str, lang: str) -> dict[str, object]:
    """What ``text`` typed at a ``game`` table means: ``{"action": {...}}``, ``{"ui": name}``
    (``"cards"`` too for ``arrange``), or ``{"error": message}`` in ``lang``."""
    word, _, rest = text.strip().partition(" ")
    page = PAGE_WORDS.get(fold(word))
    if fold(word) == "borja" and fold(rest.strip()) == "om":  # Swedish "börja om": reset
        page, rest = "reset", ""
    try:
        if page == "arrange":
            cards = parse_cards(rest, lang)
            if not cards:
                raise CommandError(N_("name the cards to arrange, like: arrange 7h 8h"))
            return {"ui": "arrange", "cards": [str(c.plain()) for c in cards]}
        if page == "reset":
            if rest.strip():
                raise CommandError(N_("'{word}' takes nothing after it"), word=word)
            return {"ui": "reset"}
        reader = games.get(game).hook("command_reader")
        if reader is None:
            return {"error": f"{game} has no typed commands"}
        parse = cast(Callable[[str, int, str], "AnyAction | UiCommand"], reader)
        read = parse(text, 0, lang)
    except MessageError as exc:
        return {"error": exc.translated(lang)}
    except ValueError as exc:
        return {"error": str(exc)}
    if isinstance(read, UiCommand):
        return {"ui": read.name}
    action = {k: v for k, v in read.to_json().items() if k != "seat"}
    return {"action": action}


def _example(game: str, parts: tuple[str, ...], lang: str) -> str:
    out = []
    for part in parts:
        if part.startswith("@"):
            out.append(link_word(part[1:], lang))
        elif part in ("arrange", "reset"):
            swedish = {"arrange": "ordna", "reset": "börja om"}
            out.append(swedish[part] if lang == "sv" else part)
        elif part.strip() and not part.startswith(" ") and part.isalpha():
            out.append(command_word(part, game, lang))
        else:
            out.append(part)
    return "".join(out)


def command_help(game: str, lang: str) -> list[tuple[str, str]]:
    """The help of ``game``'s command line in ``lang`` (its spec's ``command_examples``):
    (example in ``lang``'s words, what it does)."""
    return [
        (_example(game, parts, lang), translate(what, lang))
        for parts, what in games.get(game).command_examples
    ]
