"""A player's help on their turn, made in a worker (the solver may take a while): a hint,
an arrangement of cards into the table, the engine's verdict on a draft.

None of it changes a table, and only the asking connection hears it. Every
answer comes from the engine and the game's spec; nothing here knows a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import cast

from rummykit import games
from rummykit.cards import parse_cards
from rummykit.errors import ActionError, RuleError
from rummykit.game import AnyAction, Game
from rummykit.melds import MeldError

__all__ = ["arrange", "check", "hint"]


def hint(game: Game) -> dict[str, object]:
    """``{"actions": [...], "advised": N}``: actions for the seat to act, each once. A game
    with an advisor (its spec's ``advisor``: Kontrakt's is the review's search) puts the
    ``N`` it advises first, in the order to take them, and no other discard than the one
    it advises (none when every card is worth keeping); then the engine's other
    suggestions."""
    advisor = games.get(game.name).hook("advisor")
    advised = list(cast(Callable[[Game], Sequence[AnyAction]], advisor)(game)) if advisor else []
    rest = [
        a
        for a in game.suggested_actions()
        if advisor is None or a.to_json().get("type") != "discard"
    ]
    out: list[dict[str, object]] = []
    seen: set[str] = set()
    for action in [*advised, *rest]:
        data = dict(action.to_json())
        key = _key(data)
        if key not in seen:
            seen.add(key)
            out.append(data)
    return {"actions": out, "advised": len(advised)}


def _key(data: dict[str, object]) -> str:
    """An action as compared for sameness: melds in any order are the same lay-down."""
    same = {
        k: sorted(v, key=json.dumps) if isinstance(v, list) and v and isinstance(v[0], list) else v
        for k, v in data.items()
    }
    return json.dumps(same, sort_keys=True)


def arrange(game: Game, seat: int, cards: list[str], lang: str = "en") -> dict[str, object]:
    """``{"action": {...}}``: the play of ``cards`` with the whole table the game would make
    for it, or ``{"rule", "message"}`` (in ``lang``) when they cannot go on the table."""
    spec = games.get(game.name)
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
    that writes melds (the game's ``draft_melds``), one verdict per meld read
    alone as the game reads it: ``{"ok", "kind"}`` or ``{"ok": false, "rule",
    "message"}``.
    """
    out: dict[str, object] = {"ok": True, "rule": None, "message": None}
    try:
        game.copy().verify(action)
    except (RuleError, ActionError) as exc:
        out.update(ok=False, rule=getattr(exc, "rule", None), message=exc.translated(lang))
    spec = games.get(game.name)
    written = spec.draft_melds(action.to_json())
    if written is not None:
        out["melds"] = [_verdict(game.name, meld, lang) for meld in written]
    return out


def _verdict(name: str, cards: list[str], lang: str) -> dict[str, object]:
    spec = games.get(name)
    try:
        return {"ok": True, "kind": spec.meld_kind(parse_cards(cards))}
    except MeldError as exc:
        return {"ok": False, "rule": exc.rule or spec.meld_rule, "message": exc.translated(lang)}
    except ValueError as exc:
        return {"ok": False, "rule": None, "message": str(exc)}
