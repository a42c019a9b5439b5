"""Kontraktsrummy (RULES.md K1-K15): contract rummy over seven deals.

- :mod:`~rummykit.games.kontrakt.actions`: the actions and their JSON codec;
- :mod:`~rummykit.games.kontrakt.contracts`: the seven contracts (K4) and finding their melds;
- :mod:`~rummykit.games.kontrakt.options`: players, decks, house rules, the turn limit;
- :mod:`~rummykit.games.kontrakt.state`: a deal's state; :mod:`~rummykit.games.kontrakt.events`:
  the log's entries;
- :mod:`~rummykit.games.kontrakt.laying`: laying down, off, and joker swaps (K9-K13);
- :mod:`~rummykit.games.kontrakt.game`: the game, :class:`KontraktGame`;
- :mod:`~rummykit.games.kontrakt.help`: legal actions and hints from a view;
- :mod:`~rummykit.games.kontrakt.view`: the view's shape;
- :mod:`~rummykit.games.kontrakt.records`: the game rebuilt from its record.

>>> game = SPEC.new(["Anna", "Bo", "Cilla"], seed=7)
>>> game.to_act, str(game.contract)
(1, '2 groups')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit.cards import Card
from rummykit.games.kontrakt import words
from rummykit.games.kontrakt.actions import (
    Action,
    BuyUpcard,
    DeclineUpcard,
    Discard,
    Draw,
    LayDown,
    LayOff,
    PassUpcard,
    SwapJoker,
    TakeUpcard,
    action_from_json,
)
from rummykit.games.kontrakt.contracts import CONTRACTS, Contract
from rummykit.games.kontrakt.events import ActionEvent, DealEnded, DealStarted, Event
from rummykit.games.kontrakt.game import KontraktGame
from rummykit.games.kontrakt.help import candidate_actions_for, hint_for, parse_card
from rummykit.games.kontrakt.options import (
    CARDS_EACH,
    DEALS,
    HOUSE_RULES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURN_LIMIT,
    KontraktOptions,
    deck_for,
    game_deck,
)
from rummykit.games.kontrakt.position import KontraktPosition
from rummykit.games.kontrakt.records import from_record, game_places
from rummykit.games.kontrakt.state import Phase, TableMeld
from rummykit.games.kontrakt.view import KontraktLogEntry, KontraktView
from rummykit.games.spec import CommandExample, GameSpec, OptionValue
from rummykit.i18n import N_
from rummykit.melds import KONTRAKT, read_meld

__all__ = [
    "CARDS_EACH",
    "CONTRACTS",
    "DEALS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SPEC",
    "TURN_LIMIT",
    "Action",
    "ActionEvent",
    "BuyUpcard",
    "Contract",
    "DealEnded",
    "DealStarted",
    "DeclineUpcard",
    "Discard",
    "Draw",
    "Event",
    "KontraktGame",
    "KontraktLogEntry",
    "KontraktOptions",
    "KontraktPosition",
    "KontraktView",
    "LayDown",
    "LayOff",
    "PassUpcard",
    "Phase",
    "SwapJoker",
    "TableMeld",
    "TakeUpcard",
    "action_from_json",
    "candidate_actions_for",
    "deck_for",
    "from_record",
    "game_deck",
    "hint_for",
    "parse_card",
]


def _start(
    names: tuple[str, ...],
    seed: int | None,
    decks: Sequence[Sequence[Card]] | None,
    options: dict[str, OptionValue],
    carried: Mapping[str, object] | None = None,
) -> KontraktGame:
    return KontraktGame(
        names,
        seed=seed,
        decks=decks,
        options=KontraktOptions(**{k: bool(v) for k, v in options.items()}),
    )


def _draft_melds(action: Mapping[str, object]) -> list[list[str]] | None:
    melds = action.get("melds") if action.get("type") == "meld" else None
    return (
        [[str(c) for c in m] for m in melds if isinstance(m, list)]
        if isinstance(melds, list)
        else None
    )


def _meld_kind(cards: Sequence[Card]) -> str:
    """K5: a meld read in any order."""
    return read_meld(cards, KONTRAKT).kind.value


BLURB = N_(
    "2-8 players, seven deals, each with its contract of groups and runs;"
    " the lowest penalty total wins."
)
"""A line on the game, for a player choosing one."""

COMMAND_EXAMPLES: tuple[CommandExample, ...] = (
    (("take", " / ", "decline"), N_("förhand: take or decline the first upcard")),
    (("buy", " / ", "pass"), N_("buy the upcard (with a penalty card) or pass")),
    (
        ("draw", " / ", "draw", " ", "@discard"),
        N_("draw from the stock / take the top of the discard pile"),
    ),
    (("meld", " 7h 7d 7s | 4c 5c 6c"), N_("lay down melds")),
    (("layoff", " Th ", "@on", " 3"), N_("lay Th off on meld #3")),
    (("swap", " 7h ", "@on", " 2"), N_("put 7h in place of the joker in meld #2")),
    (("discard", " Qs"), N_("discard Qs and end the turn")),
    (
        ("hint", " / ", "sort", " / ", "scores", " / ", "next"),
        N_("suggest moves / sort the hand / the score sheet / the next game"),
    ),
)
"""The help of the typed commands (the terminal's and the browser's command line)."""


SPEC = GameSpec(
    name="kontrakt",
    title="Kontraktsrummy",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    players_rule="K1",
    turn_rule="K8",
    higher_is_better=False,
    score_name=N_("penalty"),
    score_note=N_("total of the seven deals (K13, K14); lower is better"),
    house_rules=HOUSE_RULES,
    bot_modules=(
        "rummykit.bots.kontrakt_basic",
        "rummykit.bots.kontrakt_strong",
        "rummykit.bots.kontrakt_expert",
        "rummykit.envs.policy",
    ),
    default_bot="basic",
    terminal="rummykit.tui.kontrakt_play:KontraktAdapter",
    encoding="rummykit.envs.kontrakt_encoding:ENCODER",
    parts_are_games=False,
    record_only=("restock",),
    view_type=KontraktView,
    arranger=None,
    starter=_start,
    draft_melds=_draft_melds,
    meld_kind=_meld_kind,
    meld_rule="K5",
    searches=lambda action: False,
    rebuilder=from_record,
    reader=action_from_json,
    deck=game_deck,
    reviewer="rummykit.review.kontrakt:review_deal",
    narrator="rummykit.narration:kontrakt_sentences",
    command_reader="rummykit.tui.commands:parse_kontrakt",
    page_facts="rummykit.games.kontrakt.contracts:contract_facts",
    blurb=BLURB,
    command_examples=COMMAND_EXAMPLES,
    commands=words.COMMANDS,
    meld_syntax=words.MELD_SYNTAX,
    puzzles="rummykit.puzzles.kontrakt:kind",
    lessons="rummykit.games.kontrakt.lessons:lessons",
    advisor="rummykit.review.advice:advised_actions",
    score_sheet=True,
    placing=game_places,
)
"""Kontraktsrummy in the registry (:func:`rummykit.games.get`)."""
