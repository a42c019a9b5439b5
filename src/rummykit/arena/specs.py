"""Bot specs and seeds of an arena match: ``--bots`` text read, and every game's randomness.

A bot spec is a level of :func:`rummykit.bots.levels` (``greedy``), a level
with settings (``strong(samples=8)``), or ``cmd:COMMAND``, a program speaking
``rummykit-bot/1`` (:mod:`rummykit.bots.external`).
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Sequence

from rummykit.errors import MessageError
from rummykit.i18n import N_

__all__ = [
    "derive_seed",
    "fill_lineup",
    "level_settings",
    "normalize_spec",
    "split_specs",
]


def split_specs(text: str) -> list[str]:
    """Split ``--bots`` at the commas outside quotes and parentheses; quotes are kept for
    :func:`normalize_spec`.

    >>> split_specs('strong,cmd:"python bot.py --x 1,2",greedy')
    ['strong', 'cmd:"python bot.py --x 1,2"', 'greedy']
    >>> split_specs("strong(samples=8,margin=0.5),basic")
    ['strong(samples=8,margin=0.5)', 'basic']
    """
    out: list[str] = []
    part: list[str] = []
    quote = ""
    depth = 0
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append("".join(part).strip())
            part = []
            continue
        part.append(ch)
    out.append("".join(part).strip())
    return out


_SETTINGS = re.compile(r"^([a-z][a-z0-9_-]*)\s*\((.*)\)$", re.S | re.I)


def level_settings(spec: str) -> tuple[str, dict[str, object]]:
    """A built-in bot spec's level and settings: ``strong(samples=8)`` is the level
    ``strong`` built with ``samples=8`` (values are JSON: numbers, true, false, null;
    anything else is a string).

    >>> level_settings("strong(samples=8,own_policy=true)")
    ('strong', {'samples': 8, 'own_policy': True})
    >>> level_settings("greedy")
    ('greedy', {})
    """
    m = _SETTINGS.match(spec.strip())
    if m is None:
        return spec.strip().lower(), {}
    settings: dict[str, object] = {}
    for item in split_specs(m.group(2)):
        if not item:
            continue
        key, eq, text = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise MessageError(
                N_("bot setting {item} in {spec} is not of the form name=value"),
                item=repr(item),
                spec=repr(spec),
            )
        try:
            value: object = json.loads(text)
        except json.JSONDecodeError:
            value = text.strip()
        settings[key.strip()] = value
    return m.group(1).lower(), settings


def normalize_spec(spec: str) -> str:
    """The canonical name of a bot spec: ``cmd:`` followed by the command, shell-quoted.

    >>> normalize_spec('cmd:"python bot.py --depth 2"')
    'cmd:python bot.py --depth 2'
    >>> normalize_spec(" Greedy ")
    'greedy'
    >>> normalize_spec("Strong( samples = 8 )")
    'strong(samples=8)'
    """
    spec = spec.strip()
    if spec.startswith("cmd:"):
        argv = shlex.split(spec[4:])
        if len(argv) == 1 and any(ch.isspace() for ch in argv[0]):
            argv = shlex.split(argv[0])  # the whole command was quoted: cmd:"python bot.py"
        if not argv:
            raise MessageError(N_('cmd: needs a command, e.g. cmd:"python mybot.py"'))
        return "cmd:" + shlex.join(argv)
    level, settings = level_settings(spec)
    level = level.lower()
    if not settings:
        return level
    inner = ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(settings.items()))
    return f"{level}({inner})"


def fill_lineup(specs: Sequence[str], players: int) -> tuple[str, ...]:
    """One spec per seat: with fewer specs than players, the last one fills the other seats.

    >>> fill_lineup(["strong", "greedy"], 4)
    ('strong', 'greedy', 'greedy', 'greedy')
    """
    if not specs:
        raise MessageError(N_("name at least one bot"))
    if len(specs) > players:
        raise MessageError(
            N_("{n} bots for {players} players: name at most one per seat"),
            n=len(specs),
            players=players,
        )
    return (*specs, *[specs[-1]] * (players - len(specs)))


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the match seed and ``parts``, the same on every machine.

    >>> derive_seed(1, "deck", 0) == derive_seed(1, "deck", 0) != derive_seed(1, "deck", 1)
    True
    """
    text = ":".join(["rummykit-arena/1", str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1
