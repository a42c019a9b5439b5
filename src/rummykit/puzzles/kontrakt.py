"""Kontraktsrummy puzzles: lay the most cards this turn, the contract first (K9-K13).

A Kontrakt puzzle is one seat's view at the start of its play phase (after its
draw, K8): its hand, the table's melds with their owners, what each seat has
laid of its contract, the deal's contract. The question: **lay as many cards as
you can this turn** (the rest of the contract, lay-offs K10, joker swaps K11;
the last card may be the discard that goes out, K13). A view becomes a puzzle
when the best turn (:func:`~rummykit.review.laying.best_laying`, as the review
finds it) lays the contract now *and* lays more than the contract alone (a
lay-off or a joker swap after it), or goes out.

Everything is read from the view only (``game.view(seat)``, log left out); the
engine checks the stored answer and every answer given on the view's position
(:func:`~rummykit.review.kontrakt.position`: the cards the seat cannot see dealt
in a fixed order, so that they cannot matter). The number of different best
answers is not counted for Kontrakt (a turn is a sequence of actions, and the
engine, not a solver, judges it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import cast

from rummykit import games
from rummykit.cards import Card
from rummykit.errors import RuleError
from rummykit.games.kontrakt import (
    Action,
    DealEnded,
    Discard,
    Draw,
    KontraktGame,
    LayOff,
    Phase,
    SwapJoker,
)
from rummykit.games.kontrakt.view import KontraktView, kontrakt_view
from rummykit.i18n import N_
from rummykit.puzzles.analysis import GOES_OUT, JOKER
from rummykit.puzzles.checker import Verdict
from rummykit.puzzles.kind import PuzzleKind
from rummykit.puzzles.model import FORMAT
from rummykit.record import GameRecord
from rummykit.review.kontrakt import position
from rummykit.review.laying import best_laying_from
from rummykit.review.walk import deals, take

__all__ = [
    "CONTRACT",
    "LAY_OFF",
    "KontraktPuzzle",
    "Turn",
    "bot_records",
    "check",
    "estimate_rating",
    "from_record",
    "from_view",
    "play_turn",
    "solution_actions",
]

CONTRACT, LAY_OFF, PILE = "contract", "lay-off", "pile"
"""Kontrakt's ideas besides going out and a joker (swapped, K11): the pile's top taken
(K8) to lay the contract now."""

_KEPT = [
    "game",
    "seat",
    "players",
    "deal",
    "deals",
    "dealer",
    "forhand",
    "contract",
    "phase",
    "turn",
    "hand",
    "hand_sizes",
    "stock_size",
    "discard_pile",
    "picked_up",
    "table",
    "laid",
    "scores",
    "options",
]
"""The view's keys a puzzle keeps (no log, no totals: what the position needs)."""


@dataclass(frozen=True, slots=True)
class KontraktPuzzle:
    """One Kontrakt puzzle: the seat's ``view`` (see the module docstring), the most cards
    the turn lays (``best``), whether the best turn goes out (``out``), the ideas
    (``themes``), a starting ``rating`` and one best turn (``solution``: RECORD.md's
    actions)."""

    id: str
    view: Mapping[str, object]
    best: int
    out: bool
    themes: tuple[str, ...]
    rating: int
    solution: tuple[Mapping[str, object], ...]
    source: str = ""
    game: str = "kontrakt"

    @property
    def theme(self) -> str:
        """The main idea, which the hint names: the pile's top for a puzzle asked before the
        draw (its first choice, and the one a player misses), else the first theme."""
        if PILE in self.themes:
            return PILE
        return self.themes[0] if self.themes else ""

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        seat = self.view["seat"]
        assert isinstance(seat, int)
        return seat

    def to_json(self) -> dict[str, object]:
        """The puzzle as one JSON object (``docs/puzzles.md``)."""
        return {
            "v": FORMAT,
            "id": self.id,
            "game": "kontrakt",
            "view": dict(self.view),
            "best": self.best,
            "out": self.out,
            "themes": list(self.themes),
            "rating": self.rating,
            "solution": [dict(a) for a in self.solution],
            "source": self.source,
        }

    def dumps(self) -> str:
        """One compact JSON line."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> KontraktPuzzle:
        """The puzzle of one JSON object; ValueError when it is not one."""
        try:
            view = data["view"]
            solution = data["solution"]
            if not isinstance(view, Mapping) or not isinstance(solution, list):
                raise ValueError("a Kontrakt puzzle needs a view object and a solution list")
            kontrakt_view(view)
            return cls(
                id=str(data["id"]),
                view=dict(view),
                best=int(cast(int, data["best"])),
                out=bool(data["out"]),
                themes=tuple(str(t) for t in cast(list[object], data.get("themes", []))),
                rating=int(cast(int, data["rating"])),
                solution=tuple(dict(a) for a in solution),
                source=str(data.get("source", "")),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a Kontrakt puzzle: {exc}") from None


def _actions(puzzle: KontraktPuzzle) -> list[Action]:
    spec = games.get("kontrakt")
    return [cast(Action, spec.action_from_json(a)) for a in puzzle.solution]


@dataclass(frozen=True, slots=True)
class Turn:
    """A player's turn so far on a puzzle's position: the ``game`` after the moves that
    stand (before the discard that went out, if one did), how many moves ``stood``, the
    rule the next one broke (``refused``), and whether the turn went ``out`` (K13)."""

    game: KontraktGame
    seat: int
    stood: int
    refused: RuleError | None
    out: bool
    drawn: int = 0
    stock: bool = False
    """The turn drew from the stock (a puzzle asked before the draw): its card is unknown,
    so the turn stops there."""


def game_of(view: Mapping[str, object]) -> KontraktGame:
    """The puzzle's position: its seat to draw (a puzzle of the pile's top) or to play."""
    v = kontrakt_view(view)
    return position(v, phase=Phase.DRAW if v["phase"] == Phase.DRAW else Phase.PLAY)


def play_turn(view: Mapping[str, object], actions: Sequence[Action]) -> Turn:
    """Play ``actions`` on the view's position, each judged by the engine, until one is
    refused, a discard goes out, or the seat draws from the stock (whose card the puzzle
    cannot know). A discard that does not go out is refused (K8): a puzzle's turn lays
    cards."""
    v = kontrakt_view(view)
    seat = v["seat"]
    assert seat is not None
    game = game_of(v)
    drawn = 0
    for done, action in enumerate(actions):
        if isinstance(action, Draw) and game.phase == Phase.DRAW and action.from_ == "stock":
            return Turn(game, seat, done + 1, None, False, drawn, stock=True)
        if isinstance(action, Discard) and len(game.hand(seat)) > 1:
            rule = RuleError(
                "K8",
                N_("a puzzle's turn lays cards; it ends with a discard only when that goes out"),
            )
            return Turn(game, seat, done, rule, False, drawn)
        after = game.copy()
        try:
            event = after.apply(action)
        except RuleError as exc:
            return Turn(game, seat, done, exc, False, drawn)
        if isinstance(event, DealEnded):
            return Turn(game, seat, done + 1, None, event.out == seat, drawn)
        drawn += isinstance(action, Draw)
        game = after
    return Turn(game, seat, len(actions), None, False, drawn)


_STOCK = N_("the stock's card is unknown: the pile's top lets this hand lay more now")
"""Said of a stock draw in a puzzle of the pile's top (K8)."""


def _play(view: Mapping[str, object], actions: Sequence[Action]) -> tuple[int, bool]:
    """Play ``actions`` on the view's position (RuleError from the engine): the cards laid
    and whether the seat went out."""
    turn = play_turn(view, actions)
    if turn.refused is not None:
        raise turn.refused
    if turn.stock:
        raise RuleError("K8", _STOCK)
    held = kontrakt_view(view)["hand"]
    assert held is not None
    if turn.out:
        return len(held) + turn.drawn, True
    return len(held) + turn.drawn - len(turn.game.hand(turn.seat)), False


def estimate_rating(*, actions: int, best: int, melds: int, joker: bool, out: bool) -> int:
    """A Kontrakt puzzle's starting rating (about 700 to 2,400): harder with more actions
    in the turn, more cards, a larger table to lay off onto, a joker swap, going out."""
    score = 500 + 90 * actions + 35 * best + 25 * min(melds, 24)
    score += (250 if joker else 0) + (200 if out else 0)
    return int(min(2600, round(score / 10) * 10))


def from_view(view: Mapping[str, object], *, source: str = "") -> KontraktPuzzle | None:
    """The puzzle of this seat's turn, from its view alone (in its play phase, before it
    lays anything; or before its draw, when only the pile's top lets it lay the contract
    now); None when it is none. ValueError for a spectator's view."""
    v = kontrakt_view(view)
    seat, held = v["seat"], v["hand"]
    if seat is None or held is None:
        raise ValueError("a puzzle is a seat's position: this is a spectator's view")
    if v["turn"] != seat or v["laid"][seat]["complete"]:
        return None
    if v["phase"] == Phase.DRAW:
        return _pile_puzzle(v, source)
    if v["phase"] != Phase.PLAY:
        return None
    laying = best_laying_from(v, [Card.parse(c) for c in held])
    if not laying.complete or laying.count == 0:
        return None
    return _puzzle(v, [], list(laying.actions), source)


def _pile_puzzle(v: KontraktView, source: str) -> KontraktPuzzle | None:
    """A puzzle of the pile's top (K8): the hand cannot lay its contract this turn without
    it, and can with it."""
    held, pile, seat = v["hand"], v["discard_pile"], v["seat"]
    assert held is not None and seat is not None
    if not pile or v.get("stock_only", False):  # K7: the upcard went round unbought
        return None
    hand = [Card.parse(c) for c in held]
    if best_laying_from(v, hand).complete:
        return None
    laying = best_laying_from(v, [*hand, Card.parse(pile[-1])])
    if not laying.complete:
        return None
    try:
        return _puzzle(v, [Draw(seat, "discard")], list(laying.actions), source)
    except RuleError:  # the engine will not have it (the pile's top kept back, K8)
        return None


def _puzzle(
    v: KontraktView, draw: list[Action], laying: list[Action], source: str
) -> KontraktPuzzle | None:
    """The puzzle of the turn ``draw`` + ``laying`` (+ the discard that goes out, when one
    card is left), if it is one: it goes out, lays off or swaps, or takes the pile's top."""
    seat = v["seat"]
    assert seat is not None
    kept: dict[str, object] = {k: val for k, val in v.items() if k in _KEPT}
    actions = [*draw, *laying]
    game = game_of(kept)
    for action in actions:
        game.apply(action)
    last = game.hand(seat)
    if len(last) == 1:  # the last card goes out as the discard (K13)
        actions.append(Discard(seat, last[0]))
    best, out = _play(kept, actions)
    extra = any(isinstance(a, LayOff | SwapJoker) for a in actions)
    if not (out or extra or draw):
        return None
    ideas = [GOES_OUT] if out else []
    if draw:
        ideas.append(PILE)
    if any(isinstance(a, SwapJoker) for a in actions):
        ideas.append(JOKER)
    if any(isinstance(a, LayOff) for a in actions):
        ideas.append(LAY_OFF)
    ideas.append(CONTRACT)
    rating = estimate_rating(
        actions=len(actions), best=best, melds=len(v["table"]), joker=JOKER in ideas, out=out
    )
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"))
    return KontraktPuzzle(
        id="k" + hashlib.sha256(text.encode()).hexdigest()[:9],
        view=kept,
        best=best,
        out=out,
        themes=tuple(ideas),
        rating=rating,
        solution=tuple(cast(Mapping[str, object], a.to_json()) for a in actions),
        source=source,
    )


def from_record(
    record: GameRecord, *, source: str = "", seat: int | None = None
) -> Iterator[KontraktPuzzle]:
    """The puzzles of a finished Kontrakt game (of ``seat``'s turns only, if given), in
    order; each asked from its seat's view before its draw and at the start of its play
    phase."""
    if record.game != "kontrakt":
        raise ValueError(f"these puzzles are made from Kontrakt records, not {record.game!r}")
    spec = games.get("kontrakt")
    for k, game, actions in deals(spec, record):
        asked: set[tuple[int, int, Phase]] = set()
        kg = cast(KontraktGame, game)
        for j, action in enumerate(actions):
            turn = kg.to_act
            if (
                kg.phase in (Phase.DRAW, Phase.PLAY)
                and turn == action.seat
                and seat in (None, turn)
                and (turn, len(kg.hand(turn)), kg.phase) not in asked
            ):
                asked.add((turn, len(kg.hand(turn)), kg.phase))
                where = f"{source}deal {k} action {j} seat {turn}".strip()
                puzzle = from_view(kg.view(turn, log=False), source=where)
                if puzzle is not None:
                    yield puzzle
            take(game, k, j, action)


def bot_records(games_wanted: int, *, seed: int = 0) -> Iterator[GameRecord]:
    """Finished Kontrakt games of basic bots, 2 to 5 players, seeds ``seed``, ``seed + 1``..."""
    spec = games.get("kontrakt")
    for g in range(games_wanted):
        s = seed + g
        players = 2 + s % 4
        game = spec.new(players, seed=s)
        bots = [spec.make_bot("basic", s * 10 + p) for p in range(players)]
        while (to := game.to_act) is not None:
            game.apply(bots[to].choose(game.view(to)))
        yield replace(game.to_record(), players=tuple(f"bot{p}" for p in range(players)))


def check(puzzle: KontraktPuzzle, actions: Sequence[Action]) -> Verdict:
    """The verdict on a turn of ``actions`` (lay-downs, lay-offs, joker swaps, and a last
    discard that goes out), played by the engine on the puzzle's position."""
    if not actions:
        rule = RuleError("K8", N_("a puzzle's turn lays at least one card"))
        return Verdict(False, 0, puzzle.best, rule.rule, rule.translatable)
    try:
        laid, _out = _play(puzzle.view, actions)
    except RuleError as exc:
        return Verdict(False, 0, puzzle.best, exc.rule, exc.translatable)
    return Verdict(laid >= puzzle.best, laid, max(0, puzzle.best - laid))


def solution_actions(puzzle: KontraktPuzzle) -> list[Action]:
    """The stored best turn as engine actions."""
    return _actions(puzzle)


def kind() -> PuzzleKind:
    """Kontrakt's puzzles for the tools (the game spec's ``puzzles`` hook)."""
    return PuzzleKind("kontrakt.jsonl.gz", KontraktPuzzle.from_json, from_record, bot_records)
