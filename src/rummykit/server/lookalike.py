"""Names that look alike: the key two names at a table are compared by.

"Anna" and "Аnna" (a Cyrillic А), "Anna" with a combining accent, "ANNA" and
"Ａｎｎａ" look the same to the people at a table, so a table holds only one of
them (issue 40, item 9). The key follows Unicode TR39's skeleton: the name is
NFKC-casefolded and its spaces collapsed, decomposed (NFD), its combining marks
and invisible (default-ignorable) characters dropped, and each character replaced
by one representative of the characters it is confusable with; then decomposed
and casefolded again. A name has two keys, one folded before the mapping and one
after (see :func:`name_keys`).

The confusables come from Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it (a symmetric table, no prototype
direction), so each class of single characters that are confusable with one
another is closed over (a union-find at import, about 10 000 characters, a few
milliseconds) and stands for its ASCII letter or digit when it has one, else for
its smallest character. Confusables of more than one character ("rn" for "m")
are left out: a name a player types is compared character by character.

The core package keeps :func:`rummykit.bots.names.same_name` (case and spaces
aside) and has no dependency for this; the server, which needs it, passes
:func:`same_name` here to the bot names.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

_DATA: dict[str, list[dict[str, str]]] = confusables_data
"""Each character's confusables, as the package loads them from its ``confusables.json``."""

__all__ = ["name_keys", "same_name"]


def _classes() -> dict[str, str]:
    """Each confusable character's representative."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        root = c
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(c, c) != root:
            parent[c], c = root, parent[c]
        return root

    for char, alikes in _DATA.items():
        for alike in alikes:
            other = alike["c"]
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[a] = b
    members: dict[str, list[str]] = {}
    for c in list(parent):
        root = find(c)
        members.setdefault(root, [root]).append(c)
    out: dict[str, str] = {}
    for group in members.values():
        rep = min(group, key=_preference)
        for c in group:
            out[c] = rep
    return out


def _preference(c: str) -> tuple[bool, bool, bool, str]:
    """An ASCII letter first (lower case first), then an ASCII digit, then the smallest."""
    return (not (c.isascii() and c.isalnum()), not c.isalpha(), c.lower() != c, c)


_REPRESENTATIVE = _classes()


_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5")
"""Default-ignorable letters that print as nothing (the Hangul fillers) and marks not
in the categories below."""


def _shown(c: str) -> bool:
    """Whether ``c`` counts in a name's key: no combining mark (Mn, Me: accents,
    variation selectors), no format character (Cf) and no invisible filler."""
    return unicodedata.category(c) not in ("Mn", "Me", "Cf") and c not in _INVISIBLE


def _fold(text: str, casefold: bool) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = unicodedata.normalize("NFD", text.casefold() if casefold else text)
    return "".join(c for c in text if _shown(c))


def _skeleton(text: str, casefold_first: bool) -> str:
    key = _fold(text, casefold_first)
    for _ in range(2):  # a representative may fold or decompose further
        key = _fold("".join(_REPRESENTATIVE.get(c, c) for c in key), True)
    return key


@lru_cache(maxsize=4096)
def name_keys(name: str) -> frozenset[str]:
    """The skeletons a name is compared by: one of the casefolded name and one of the name
    as typed (a Cyrillic "В" looks like "B", its lower case "в" like nothing in Latin).
    Two names look alike when they share a key.

    >>> keys = [name_keys(n) for n in ("Anna", "\u0410nna", "Anna\u0301", "ANNA", "Ann\u0430")]
    >>> all(k & keys[0] for k in keys)
    True
    >>> bool(name_keys("Anna") & name_keys("Anja"))
    False
    """
    text = " ".join(name.split())
    return frozenset((_skeleton(text, True), _skeleton(text, False)))


def same_name(a: str, b: str) -> bool:
    """Whether two names look the same at a table (TR39 skeleton, case, accents and
    spaces aside)."""
    return not name_keys(a).isdisjoint(name_keys(b))
