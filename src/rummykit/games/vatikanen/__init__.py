"""Vatikanen (RULES.md V1-V16): the card ancestor of Rummikub, a table anyone may rearrange.

- :mod:`~rummykit.games.vatikanen.actions`: the actions and their JSON codec;
- :mod:`~rummykit.games.vatikanen.table`: reading a table a player wrote (V7-V12);
- :mod:`~rummykit.games.vatikanen.game`: one game, :class:`VatikanenGame`;
- :mod:`~rummykit.games.vatikanen.session`: a session of games (V16), what a host holds;
- :mod:`~rummykit.games.vatikanen.view`: the view's shape;
- :mod:`~rummykit.games.vatikanen.records`: records written and rebuilt.

>>> session = SPEC.new(["Anna", "Bo"], seed=7)
>>> session.apply(Draw(0)).card is not None
True
>>> "card" in session.view(1)["log"][0], "card" in session.view(0)["log"][0]
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rummykit.cards import Card
from rummykit.game import Game
from rummykit.games.spec import CommandExample, GameSpec, OptionValue
from rummykit.games.vatikanen import words
from rummykit.games.vatikanen.actions import Action, Draw, Pass, Play, action_from_json
from rummykit.games.vatikanen.events import Event, GameEnd, number
from rummykit.games.vatikanen.game import (
    CARDS_PER_PLAYER,
    JOKERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PACKS,
    Objective,
    VatikanenGame,
)
from rummykit.games.vatikanen.options import HOUSE_RULES
from rummykit.games.vatikanen.recording import session_places
from rummykit.games.vatikanen.records import from_record, game_deck
from rummykit.games.vatikanen.session import Session
from rummykit.games.vatikanen.table import read_as_written
from rummykit.games.vatikanen.view import VatikanenLogEntry, VatikanenView
from rummykit.i18n import N_

__all__ = [
    "CARDS_PER_PLAYER",
    "JOKERS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PACKS",
    "SPEC",
    "Action",
    "Draw",
    "Event",
    "GameEnd",
    "Objective",
    "Pass",
    "Play",
    "Session",
    "VatikanenGame",
    "VatikanenLogEntry",
    "VatikanenView",
    "action_from_json",
    "from_record",
    "game_deck",
    "number",
]


def _start(
    names: tuple[str, ...],
    seed: int | None,
    decks: Sequence[Sequence[Card]] | None,
    options: dict[str, OptionValue],
    carried: Mapping[str, object] | None = None,
) -> Session:
    number, balances, dealer = 1, None, None
    if carried:
        raw_number, raw_balances, raw_dealer = (
            carried["number"],
            carried["balances"],
            carried["dealer"],
        )
        if not isinstance(raw_number, int) or not isinstance(raw_dealer, int):
            raise ValueError("a carried Vatikanen session has a number and a dealer")
        if not isinstance(raw_balances, list) or len(raw_balances) != len(names):
            raise ValueError("a carried Vatikanen session has one balance a seat")
        number, dealer = raw_number, raw_dealer
        balances = [Fraction(str(b)) for b in raw_balances]
    return Session(
        names,
        seed=seed,
        decks=decks or (),
        dealer=dealer,
        free_jokers=bool(options["free_jokers"]),
        blocked_game=bool(options["blocked_game"]),
        number=number,
        balances=balances,
    )


def _draft_melds(action: Mapping[str, object]) -> list[list[str]] | None:
    table = action.get("table") if action.get("type") == "play" else None
    return (
        [[str(c) for c in m] for m in table if isinstance(m, list)]
        if isinstance(table, list)
        else None
    )


def _meld_kind(cards: Sequence[Card]) -> str:
    """V5, V6, V9: a meld read exactly as written."""
    kinds = sorted({r.kind.value for r in read_as_written(cards)})
    return kinds[0] if len(kinds) == 1 else "either"


def _arrange(unit: Game, seat: int, cards: list[Card]) -> Action:
    """The play of ``cards`` with the whole table the engine makes for it (V9), through the
    game interface alone: the play without a table is taken on a copy of the unit, and the
    copy's log keeps the table the engine made. The same play as :meth:`Session.arrange`;
    RuleError when the cards cannot go there (V4, V7, V9, V11). Nothing changes."""
    entry = unit.copy().apply(Play(seat, tuple(cards)))
    return action_from_json(entry.to_json(seat))


BLURB = N_(
    "2-5 players: lay runs and groups on a shared table that anyone may rearrange;"
    " the first to empty the hand wins."
)
"""A line on the game, for a player choosing one."""

COMMAND_EXAMPLES: tuple[CommandExample, ...] = (
    (("play", " 7h 8h 9h"), N_("play these cards; the server arranges the table")),
    (
        ("play", " 7h | 7h 8h 9h | Tc Th Ts"),
        N_("play 7h, and the whole new table, meld by meld"),
    ),
    (("arrange", " 7h 8h"), N_("let the solver fit these cards into the table (staged)")),
    (("ok",), N_("play what is staged")),
    (("undo", " / ", "reset"), N_("take back the last change / every change")),
    (("draw", " / ", "pass"), N_("draw from the stock / pass when it is empty")),
    (
        ("hint", " / ", "sort", " / ", "next"),
        N_("suggest plays / sort the hand / the next game"),
    ),
)
"""The help of the typed commands (the terminal's and the browser's command line)."""


SPEC = GameSpec(
    name="vatikanen",
    title="Vatikanen",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=3,
    players_rule="V1",
    turn_rule="V4",
    higher_is_better=True,
    score_name=N_("score"),
    score_note=N_("the game's zero-sum payment (V13, V15); higher is better"),
    house_rules=HOUSE_RULES,
    bot_modules=(
        "rummykit.bots.vatikanen_basic",
        "rummykit.bots.vatikanen_strong",
        "rummykit.bots.vatikanen_expert",
        "rummykit.envs.policy",
    ),
    default_bot="greedy",
    terminal="rummykit.tui.vatikanen_play:VatikanenAdapter",
    encoding="rummykit.envs.vatikanen_encoding:ENCODER",
    parts_are_games=True,
    record_only=(),
    view_type=VatikanenView,
    arranger=_arrange,
    starter=_start,
    draft_melds=_draft_melds,
    meld_kind=_meld_kind,
    meld_rule="V9",
    searches=lambda action: action.get("type") == "play" and action.get("table") is None,
    rebuilder=from_record,
    reader=action_from_json,
    deck=game_deck,
    reviewer="rummykit.review.vatikanen:review_deal",
    narrator="rummykit.narration:vatikanen_sentences",
    command_reader="rummykit.tui.commands:parse_vatikanen",
    blurb=BLURB,
    command_examples=COMMAND_EXAMPLES,
    commands=words.COMMANDS,
    meld_syntax=words.MELD_SYNTAX,
    puzzles="rummykit.puzzles.maker:kind",
    lessons="rummykit.games.vatikanen.lessons:lessons",
    placing=session_places,
)
"""Vatikanen in the registry (:func:`rummykit.games.get`)."""
