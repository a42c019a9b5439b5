"""The names bots sit under, in the terminal and on the server: one list, and names that
never repeat a player's at the same table.

>>> bot_names(3)
['Astrid', 'Bo', 'Cilla']
>>> bot_names(3, taken=["bo", "Eva"])
['Astrid', 'Cilla', 'Dag']
>>> free_bot_name(["Astrid", "Bo", "cilla"])
'Dag'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["BOT_NAMES", "bot_names", "free_bot_name", "same_name"]

BOT_NAMES = ("Astrid", "Bo", "Cilla", "Dag", "Eva", "Frans", "Greta", "Harald")
"""The names bots are given, the first bot first."""


def same_name(a: str, b: str) -> bool:
    """Whether two names are the same to the people at a table (case and spaces aside)."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def free_bot_name(taken: Iterable[str], same: Callable[[str, str], bool] = same_name) -> str:
    """The first bot name no one at the table has (one with a number after it when the
    eight are taken); ``same`` says when two names are one (the server passes its
    look-alike comparison, :mod:`rummykit.server.lookalike`)."""
    used = list(taken)
    for n in range(1, 100):
        for name in BOT_NAMES:
            candidate = name if n == 1 else f"{name} {n}"
            if not any(same(candidate, u) for u in used):
                return candidate
    raise ValueError("no free bot name")  # pragma: no cover - a table has eight seats


def bot_names(count: int, taken: Iterable[str] = ()) -> list[str]:
    """Names for ``count`` bots, none the same as a name in ``taken`` or another bot's."""
    used = list(taken)
    out: list[str] = []
    for _ in range(count):
        out.append(free_bot_name(used + out))
    return out
