"""Bots on the server: they think in worker processes, off the event loop.

:func:`think` runs in a process of the pool: it makes the seat's bot (seeded
from the table's seed, the version and the seat, so the same position gets
the same move, also after a restart) and returns its action as JSON. The bot
sees only the seat's view, as every bot does.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from rummykit import games
from rummykit.cards import parse_cards
from rummykit.errors import ActionError, RuleError
from rummykit.game import AnyAction, Game
from rummykit.melds import KONTRAKT, MeldError, read_meld

__all__ = ["assist", "bot_seed", "check", "make_pool", "think"]


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of a bot's move: from the table, the version it moves at, and the seat."""
    text = f"rummykit-bot:{table_seed}:{version}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def think(game: str, level: str, seed: int, view: Mapping[str, object]) -> dict[str, object]:
    """The action ``level``'s bot chooses from ``view``, as RECORD.md JSON (in a worker)."""
    bot = games.get(game).make_bot(level, seed)
    return dict(bot.choose(view).to_json())


def assist(
    game: Game, seat: int, kind: str, cards: list[str], lang: str = "en"
) -> dict[str, object]:
    """A player's help, in a worker (the solver may take a while): the ``hint`` (the
    engine's legal actions for the seat) or the ``arrange`` of ``cards`` into the table.
    Messages are in ``lang`` (``sv``, ``en``).

    Answers ``{"actions": [...]}``, ``{"action": {...}}``, or ``{"rule", "message"}``
    when the cards cannot go on the table.
    """
    spec = games.get(game.name)
    if kind == "hint":
        return {"actions": [dict(a.to_json()) for a in game.suggested_actions()]}
    if spec.arranger is None:
        return {"rule": None, "message": f"{spec.title} has no arranging: lay your melds yourself"}
    try:
        play = spec.arranger(game, seat, parse_cards(cards))
    except RuleError as exc:
        return {"rule": exc.rule, "message": exc.translated(lang)}
    return {"action": dict(play.to_json())}


def check(game: Game, action: AnyAction, lang: str = "en") -> dict[str, object]:
    """The engine's verdict on ``action`` for a player's draft: it changes nothing.
    Messages are in ``lang`` (``sv``, ``en``).

    Answers ``{"ok", "rule", "message", "melds"}``: ``ok`` and the rule and
    message :meth:`~rummykit.game.Game.verify` gives; ``melds``, for an action
    that names melds (a Vatikanen play's ``table``, a Kontrakt ``meld``), one
    verdict per meld read alone, as the engine reads it: ``{"ok", "kind"}`` or
    ``{"ok": false, "rule", "message"}``.
    """
    out: dict[str, object] = {"ok": True, "rule": None, "message": None}
    try:
        game.copy().verify(action)
    except (RuleError, ActionError) as exc:
        out.update(ok=False, rule=getattr(exc, "rule", None), message=exc.translated(lang))
    data = action.to_json()
    written = data.get("table") if game.name == "vatikanen" else data.get("melds")
    if isinstance(written, list):
        out["melds"] = [_meld_verdict(game.name, list(map(str, m)), lang) for m in written]
    return out


def _meld_verdict(name: str, cards: list[str], lang: str) -> dict[str, object]:
    """One meld read alone: Vatikanen's exactly as written (V5, V6, V9), Kontrakt's in any
    order (K5)."""
    try:
        parsed = parse_cards(cards)
        if name == "vatikanen":
            from rummykit.games.vatikanen.table import read_as_written

            kinds = sorted({r.kind.value for r in read_as_written(parsed)})
            return {"ok": True, "kind": kinds[0] if len(kinds) == 1 else "either"}
        return {"ok": True, "kind": read_meld(parsed, KONTRAKT).kind.value}
    except MeldError as exc:
        rule = exc.rule or ("V9" if name == "vatikanen" else "K5")
        return {"ok": False, "rule": rule, "message": exc.translated(lang)}
    except ValueError as exc:
        return {"ok": False, "rule": None, "message": str(exc)}


def make_pool(workers: int) -> Executor:
    """The pool bots think in: ``workers`` processes (0: a thread, for tests and tiny hosts)."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-bots")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
