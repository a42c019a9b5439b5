"""A Kontrakt puzzle played on the table's own board (docs/puzzles.md, "In the browser"):
the page sends every action of the turn so far, and the engine plays them on the puzzle's
position (:func:`~rummykit.puzzles.kontrakt.play_turn`). What comes back is what the seat
sees then, in the shape of the protocol's ``state`` message, so that the board draws it
as it draws a table; the page never holds a card the seat could not see, and the cards
the seat cannot see are dealt in a fixed order (:func:`~rummykit.review.kontrakt.position`)
that says nothing of the game the puzzle came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rummykit import games
from rummykit.errors import ActionError
from rummykit.games.kontrakt import Action, KontraktGame
from rummykit.i18n import N_, translate
from rummykit.narration import narrate_log
from rummykit.puzzles.kontrakt import (
    KontraktPuzzle,
    check,
    game_of,
    play_turn,
    solution_actions,
)
from rummykit.seat_state import seat_state
from rummykit.server import assist

__all__ = ["BadMoves", "kontrakt_answer", "kontrakt_help", "kontrakt_state", "kontrakt_try"]

_SHOWN_LAYING = ("layoff", "swap_joker")
"""The actions a puzzle's board may be told of (to offer "Lay off here" and "Swap" where the
selected card goes): the lay-downs, which are the puzzle's question, are never hinted."""


class BadMoves(ValueError):
    """The page's moves are not the game's actions (a bad message, not a broken rule)."""


def _names(puzzle: KontraktPuzzle, lang: str) -> list[str]:
    players = cast(Sequence[str], puzzle.view["players"])
    return [translate(N_("You"), lang) if s == puzzle.seat else p for s, p in enumerate(players)]


def _actions(puzzle: KontraktPuzzle, moves: Sequence[Mapping[str, object]]) -> list[Action]:
    spec = games.get("kontrakt")
    try:
        return [cast(Action, spec.action_from_json(dict(m), seat=puzzle.seat)) for m in moves]
    except (ActionError, TypeError, ValueError) as exc:
        raise BadMoves(str(exc)) from None


def kontrakt_state(
    puzzle: KontraktPuzzle, game: KontraktGame | None, lang: str
) -> dict[str, object]:
    """What the puzzle's seat sees of ``game`` (None: the puzzle's start), as a ``state``."""
    shown = game if game is not None else game_of(puzzle.view)
    return seat_state(shown, puzzle.seat, _names(puzzle, lang), lang)


def kontrakt_try(
    puzzle: KontraktPuzzle, moves: Sequence[Mapping[str, object]], lang: str
) -> dict[str, object]:
    """Where the turn's ``moves`` stand: ``going`` (each legal), ``out`` (the last went out:
    the answer is ready), ``stock`` (a draw from the stock, whose card a puzzle cannot know:
    the answer is ready) or ``refused`` (the last broke ``rule``; the ones before stand),
    with the seat's ``state`` after the moves that stand. BadMoves for moves that are not
    actions."""
    turn = play_turn(puzzle.view, _actions(puzzle, moves))
    out: dict[str, object] = {"steps": turn.stood, "rule": None, "message": None}
    if turn.refused is not None:
        out.update(verdict="refused", rule=turn.refused.rule)
        out["message"] = turn.refused.translated(lang)
    else:
        out["verdict"] = "out" if turn.out else "stock" if turn.stock else "going"
    state = kontrakt_state(puzzle, turn.game, lang)
    if turn.out:
        _gone_out(state, moves[-1])
    out["state"] = state
    return out


def _gone_out(state: dict[str, object], last: Mapping[str, object]) -> None:
    """Show the move that went out as made: the engine's game is the one before it (the
    next deal follows at once), so the hand is emptied by hand, a discard's card put on
    the pile."""
    view = cast(dict[str, object], state["view"])
    seat = cast(int, view["seat"])
    view["hand"] = []
    sizes = list(cast(Sequence[int], view["hand_sizes"]))
    sizes[seat] = 0
    view["hand_sizes"] = sizes
    if last.get("type") == "discard":
        view["discard_pile"] = [*cast(Sequence[str], view["discard_pile"]), str(last["card"])]


def kontrakt_help(
    puzzle: KontraktPuzzle,
    moves: Sequence[Mapping[str, object]],
    request: Mapping[str, object],
    lang: str,
) -> dict[str, object]:
    """A board's help in the turn so far, as a table answers it: ``checked`` (a draft
    judged by the engine) or ``hint`` (only the lay-offs and joker swaps, which the board
    offers on a meld; never the lay-downs, the puzzle's question)."""
    turn = play_turn(puzzle.view, _actions(puzzle, moves))
    if turn.refused is not None or turn.out:
        return {"type": "error", "code": "stale", "rule": None, "message": "set it up again"}
    kind = request.get("type")
    if kind == "check":
        (action,) = _actions(puzzle, [cast(Mapping[str, object], request.get("action"))])
        return {"type": "checked", **assist.check(turn.game, action, lang)}
    if kind == "hint":
        shown = [
            dict(a.to_json())
            for a in turn.game.suggested_actions()
            if a.to_json().get("type") in _SHOWN_LAYING
        ]
        return {"type": "hint", "actions": shown, "advised": 0}
    return {"type": "error", "code": "bad_message", "rule": None, "message": "no such help"}


def kontrakt_answer(
    puzzle: KontraktPuzzle, moves: Sequence[Mapping[str, object]], lang: str
) -> dict[str, object]:
    """The engine's verdict on the turn ``moves``, in ``lang``, with the stored best turn
    told in words and its table (BadMoves: not actions)."""
    verdict = check(puzzle, _actions(puzzle, moves))
    best = solution_actions(puzzle)
    shown = game_of(puzzle.view)
    for action in best:
        shown.apply(action)
    entries = [
        e
        for e in shown.log_entries(puzzle.seat, 0)
        if e.get("seat") == puzzle.seat and e.get("type") not in ("deal_end", "deal_start")
    ]
    table = play_turn(puzzle.view, best).game.view(puzzle.seat, log=False)["table"]
    return {
        **verdict.told(lang),
        "theme": puzzle.theme,
        "solution": {
            "steps": narrate_log("kontrakt", entries, _names(puzzle, lang), lang),
            "table": [list(m["cards"]) for m in cast(list[Mapping[str, list[str]]], table)],
            "best": puzzle.best,
            "out": puzzle.out,
        },
    }
