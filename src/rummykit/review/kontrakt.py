"""Reviewing Kontraktsrummy turns: the contract, lay-offs and going out a seat let pass.

A turn runs from its draw (or förhand's taking the first upcard, K7) to its
discard, or to going out (K13). It is judged from the seat's own view as the
draw left it (its hand, the table, what it has laid of its contract): the most
cards it could lay that turn (:func:`~rummykit.review.laying.best_laying`),
whether that lays the rest of its contract or empties its hand. When the seat
drew from the stock and could have taken the discard pile's top instead (K8),
the hand it would then have held is judged too: the pile's top was in view.

Every judgement is checked on the engine: the view becomes a game
(:meth:`~rummykit.games.kontrakt.KontraktGame.from_position`, the cards the
seat could not see dealt in a fixed order, so that they cannot matter) and the
actions found are played on it, so the engine alone says what is legal
(:mod:`~rummykit.games.kontrakt.laying`, :mod:`~rummykit.games.kontrakt.contracts`).

``missed`` names:

- ``contract``: the seat had not laid all its contract, could have this turn,
  and had not when the turn ended;
- ``lay_off``: the seat discarded, its contract down, while a card of its hand
  could still go onto a table meld (K10; the engine's legal lay-offs);
- ``go_out``: the seat could have gone out this turn and did not.

Each turn that ends with a discard also says what became of it (``discard``):
whether the next seat took it from the pile (K8) and laid it on the table that
same turn. That is told after the fact: every seat sees it happen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from rummykit.cards import Card, full_deck
from rummykit.game import AnyAction, Game
from rummykit.games.kontrakt import (
    Action,
    DealEnded,
    Discard,
    Draw,
    KontraktGame,
    KontraktOptions,
    KontraktPosition,
    LayOff,
    Phase,
    TakeUpcard,
    candidate_actions_for,
    deck_for,
)
from rummykit.games.kontrakt.view import KontraktView, TableMeldJSON, kontrakt_view
from rummykit.review.laying import Laying, best_laying_from
from rummykit.review.model import (
    CONTRACT,
    GO_OUT,
    LAY_OFF,
    KontraktPlayJSON,
    LayingStepJSON,
    TurnExtra,
    TurnReview,
)
from rummykit.review.walk import take

__all__ = ["Judgement", "judge", "position", "review_deal"]


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def _seat_and_hand(view: KontraktView) -> tuple[int, list[str]]:
    """The seat ``view`` is of and its hand; ValueError for a spectator's view."""
    seat, hand = view["seat"], view["hand"]
    if seat is None or hand is None:
        raise ValueError("the review judges a seat's turn: this is a spectator's view")
    return seat, hand


def position(
    view: Mapping[str, object],
    *,
    hand: Sequence[Card] | None = None,
    pile: Sequence[Card] | None = None,
    picked_up: Card | None = None,
    phase: Phase = Phase.PLAY,
) -> KontraktGame:
    """The game of ``view`` in its seat's play phase (or ``phase``: its draw), the cards it
    cannot see dealt in a fixed order (other hands by their sizes, the rest the stock).
    ``hand``, ``pile`` and ``picked_up`` replace the view's (another draw)."""
    v = kontrakt_view(view)
    seat, held = _seat_and_hand(v)
    sizes = list(v["hand_sizes"])
    own = [c.plain() for c in (hand if hand is not None else _cards(held))]
    shown = [c.plain() for c in (pile if pile is not None else _cards(v["discard_pile"]))]
    table = [(m["owner"], _cards(m["cards"]), bool(m["contract"])) for m in v["table"]]
    unseen = Counter(full_deck(*deck_for(len(sizes))))
    unseen.subtract(own + shown + [c.plain() for _, cards, _ in table for c in cards])
    hidden = sorted(unseen.elements(), key=str)
    hands: list[list[Card]] = []
    for s, size in enumerate(sizes):
        if s == seat:
            hands.append(own)
        else:
            hands.append(hidden[:size])
            hidden = hidden[size:]
    if picked_up is None and hand is None and v["picked_up"] is not None:
        picked_up = Card.parse(v["picked_up"])
    position = KontraktPosition(
        hands,
        deal=v["deal"],
        dealer=v["dealer"],
        stock=hidden,
        discard_pile=shown,
        table=table,
        laid=[(x["groups"], x["runs"], x["complete"]) for x in v["laid"]],
        turn=seat,
        phase=phase,
        picked_up=picked_up,
        scores=v["scores"],
    )
    return KontraktGame.from_position(
        position, players=v["players"], options=KontraktOptions(**v["options"])
    )


@dataclass(frozen=True, slots=True)
class Judgement:
    """What a seat could do in a turn: the most cards (``best``), the turn that lays them
    (``play``), whether it lays the rest of the contract (``contract``) or goes out
    (``out``), and the pile's top when that needed it instead of the stock's card
    (``discard``)."""

    best: int = 0
    play: KontraktPlayJSON | None = None
    contract: bool = False
    out: bool = False
    discard: str | None = None


DrawnFrom = Literal["stock", "discard"]
"""Where a turn's card comes from (K8)."""


def _step(action: Action) -> LayingStepJSON:
    """A lay-down, lay-off or joker swap as RECORD.md writes it (the engine's writer)."""
    # cast: the engine's Action.to_json is typed dict[str, Any]; for the three actions a
    # laying holds it writes exactly LayingStepJSON's keys (RECORD.md's Kontrakt table).
    return cast(LayingStepJSON, action.to_json())


def _checked(
    game: KontraktGame, seat: int, laying: Laying, draw: DrawnFrom
) -> tuple[int, KontraktPlayJSON, bool]:
    """Play ``laying`` on ``game`` (the engine checks every action): the cards it laid, the
    turn as JSON, and whether the seat went out."""
    before = len(game.hand(seat))
    table: list[TableMeldJSON] = []
    out = False
    for action in laying.actions:
        event = game.apply(action)  # RuleError here is a fault of the search
        if isinstance(event, DealEnded):
            out = event.out == seat
            table = [m.to_json() for m in event.table]
            break
    if not out:
        table = [m.to_json() for m in game.table]
    left = [] if out else [str(c) for c in game.hand(seat)]
    laid = before - len(left)
    play: KontraktPlayJSON = {
        "seat": seat,
        "draw": draw,
        "actions": [_step(a) for a in laying.actions],
        "table": table,
        "hand": left,
    }
    return laid, play, out or len(left) == 1


def judge(view: Mapping[str, object], alternative: Mapping[str, object] | None = None) -> Judgement:
    """The judgement of a turn from ``view`` (the seat's view after its draw), and from
    ``alternative`` (its view before drawing from the stock, when it could have taken the
    pile's top instead), from those views alone. The search reads the view; the engine is
    set up (:func:`position`) only to check a play that lays cards. ValueError for a
    spectator's view."""
    v = kontrakt_view(view)
    seat, held = _seat_and_hand(v)
    # (hand, the position the engine checks it on, the draw, the pile's top taken)
    options: list[tuple[list[Card], Callable[[], KontraktGame], DrawnFrom, str | None]] = []
    if v["phase"] == Phase.PLAY and v["turn"] == seat:
        drawn: DrawnFrom = "stock" if v["picked_up"] is None else "discard"
        options.append((_cards(held), lambda: position(v), drawn, None))
    if alternative is not None:
        a = kontrakt_view(alternative)
        top = Card.parse(a["discard_pile"][-1])
        hand = [*_cards(_seat_and_hand(a)[1]), top]
        pile = _cards(a["discard_pile"][:-1])

        def other() -> KontraktGame:
            return position(a, hand=hand, pile=pile, picked_up=top)

        options.append((hand, other, "discard", str(top)))
    best = Judgement()
    contract = False
    for hand, setup, draw, taken in options:
        laying = best_laying_from(v, hand)
        contract = contract or laying.contract
        if laying.count <= best.best:
            continue
        laid, play, out = _checked(setup(), seat, laying, draw)
        assert laid == laying.count, "the engine laid other cards than the search found"
        best = Judgement(laid, play, False, out, taken)
    return Judgement(best.best, best.play, contract, best.out, best.discard)


def can_lay_off(view: Mapping[str, object]) -> bool:
    """Whether the seat of ``view`` (in its play phase, two cards or more in hand) could
    lay a card off now (K10): the engine's legal lay-offs."""
    v = kontrakt_view(view)
    seat, hand = _seat_and_hand(v)
    if len(hand) < 2 or not v["laid"][seat]["complete"]:
        return False
    offs = [a for a in candidate_actions_for(v) if isinstance(a, LayOff)]
    if not offs:
        return False
    game = position(v)
    return any(game.can(a) for a in offs)


@dataclass
class _Turn:
    """A turn in progress."""

    seat: int
    start: int
    judged: Judgement | None
    drawn: int  # cards in hand after the draw
    complete: bool  # the contract was down when the turn began
    held: int = 0  # cards in hand before the discard
    completed: bool = False  # the contract was down when the turn ended
    kind: str = "discard"
    lay_off: bool = False
    out: bool = False
    extra: TurnExtra = field(default_factory=TurnExtra)


def review_deal(
    game: Game, deal: int, actions: Sequence[AnyAction], seat: int | None
) -> list[TurnReview]:
    """The reviews of one Kontrakt deal's turns (of ``seat`` only, if given); ``game`` is
    the game as the deal is dealt, taken through every action."""
    assert isinstance(game, KontraktGame)
    done: list[_Turn] = []
    turn: _Turn | None = None
    fed: tuple[_Turn, int, int] | None = None  # a discard: its turn, the card's id, who is next
    for j, action in enumerate(actions):
        s = action.seat
        wanted = seat is None or s == seat
        if isinstance(action, TakeUpcard | Draw):
            before = game.view(s, log=False) if wanted else None
            complete = game.laid(s)[2]
            if fed is not None:
                taken = isinstance(action, Draw) and action.from_ == "discard" and s == fed[2]
                fed[0].extra["discard"]["taken"] = taken
                if not taken:
                    fed = None
            event = take(game, deal, j, action)
            ended = isinstance(event, DealEnded)
            after = None if ended or not wanted else game.view(s, log=False)
            turn = _Turn(s, j, None, 0 if ended else len(game.hand(s)), complete)
            if before is not None:
                alternative = before if _could_take_pile(before, action) else None
                turn.judged = judge(_no_play(before) if after is None else after, alternative)
            if ended:
                turn.kind = "draw"
                done.append(turn)
                turn = None
            continue
        if turn is None or s != turn.seat:
            take(game, deal, j, action)  # the first upcard's offer (K7)
            continue
        if isinstance(action, Discard):
            turn.held = len(game.hand(s))
            turn.completed = game.laid(s)[2]
            if wanted:
                turn.lay_off = can_lay_off(game.view(s, log=False))
        event = take(game, deal, j, action)
        if fed is not None and fed[0] is not turn and s == fed[2]:
            ids = _table_ids(game, event)
            fed[0].extra["discard"]["laid"] = fed[1] in ids
        if isinstance(event, DealEnded):
            turn.out = event.out == s
            turn.kind = "out" if turn.out else turn.kind
            done.append(turn)
            turn, fed = None, None
            continue
        if isinstance(action, Discard):
            turn.extra["discard"] = {"card": str(action.card), "taken": False, "laid": False}
            done.append(turn)
            fed = (turn, game.card_places()["pile"][-1], (s + 1) % game.n_players)
            turn = None
    if turn is not None:  # the record stops in the middle of a turn
        turn.held = len(game.hand(turn.seat))
        turn.completed = game.laid(turn.seat)[2]
        turn.kind = "unfinished"
        done.append(turn)
    return [_review(deal, t) for t in done if seat is None or t.seat == seat]


def _could_take_pile(before: KontraktView, action: AnyAction) -> bool:
    """Whether a draw from the stock could have been the pile's top instead (K7, K8)."""
    return (
        isinstance(action, Draw)
        and action.from_ == "stock"
        and before["phase"] == Phase.DRAW
        and not before["stock_only"]
        and bool(before["discard_pile"])
    )


def _no_play(view: KontraktView) -> KontraktView:
    """``view`` with no play phase (the draw ended the deal): only the alternative counts."""
    return {**view, "phase": Phase.DRAW}


def _table_ids(game: KontraktGame, event: object) -> set[int]:
    if isinstance(event, DealEnded):
        return {i for m in event.table for i in m.ids}
    return set(game.card_places()["table"])


def _review(deal: int, t: _Turn) -> TurnReview:
    judged = t.judged or Judgement()
    played = t.drawn - t.held  # no card held: out by laying down, or no turn played
    missed = []
    if judged.contract and not t.complete and not t.out and not t.completed:
        missed.append(CONTRACT)
    if t.lay_off:
        missed.append(LAY_OFF)
    if judged.out and not t.out:
        missed.append(GO_OUT)
    extra = t.extra.copy()
    if judged.discard is not None and judged.best > 0:
        extra["take_discard"] = judged.discard
    return TurnReview(
        deal, t.start, t.seat, t.kind, played, judged.best, judged.play, tuple(missed), extra
    )
