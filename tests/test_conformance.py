"""One conformance suite for every registered game, through the game interface alone.

Whole games are played by the game's own bots (random and the default level)
and at every step the suite checks what every game must keep
(rummykit.game.Game, RULES.md "Invariants every implementation must keep"):

- card conservation and valid melds (``check_invariants``);
- no hidden card in any view or log entry: two games whose decks differ only
  in cards hidden from a seat (other hands, the stock) show that seat the
  same views (a metamorphic test: the cards are swapped in the record, the
  game rebuilt from it);
- a rejected action (another seat's, or a mangled one) changes nothing;
- the record round trip: ``from_record(to_record())`` is the live game, view
  for view, and goes on the same way;
- copies are independent of the original, and take the next action the same way;
- every legal action of the help is accepted;
- views are fresh (editing one changes nothing else), JSON, and of the
  documented schema (``docs/schemas/``); ``log_entries`` is the views' log.

Hypothesis picks the seeds and the table sizes; ``pytest -m slow`` plays many more.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit import games
from rummykit.errors import ActionError, RuleError
from rummykit.game import AnyAction, Game
from rummykit.games.spec import GameSpec
from rummykit.record import DealRecord, GameRecord

SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "schemas"
SPECS = [games.get(name) for name in games.names()]
MAX_STEPS = {"vatikanen": 400, "kontrakt": 900}
"""Actions played per game: a whole Vatikanen game, about two Kontrakt deals and more."""


def spectator_and_seats(game: Game) -> list[object]:
    """Every view there is: the spectator's and each seat's."""
    return [game.spectator_view(), *(game.view(s) for s in range(game.n_players))]


def fingerprint(game: Game) -> str:
    """All a host can learn of a game, as text: views, record, whose turn, standings."""
    return json.dumps(
        [
            spectator_and_seats(game),
            game.to_record().to_json(),
            game.to_act,
            game.over,
            list(game.standings),
        ],
        sort_keys=True,
    )


def strict(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with no keys besides the documented ones (the docs must be complete)."""
    if schema.get("type") == "object" and "properties" in schema:
        schema["additionalProperties"] = False
    for value in schema.values():
        if isinstance(value, dict):
            strict(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    strict(item)
    return schema


VALIDATORS = {
    spec.name: jsonschema.Draft202012Validator(
        strict(json.loads((SCHEMAS / f"{spec.name}-view.json").read_text(encoding="utf-8")))
    )
    for spec in SPECS
}


def hidden_from(game: Game, viewer: int | None) -> set[int]:
    """The physical cards ``viewer`` (a seat, or None) cannot see: the stock, other hands."""
    places = game.card_places()
    out = set(places["stock"])
    for seat in range(game.n_players):
        if seat != viewer:
            out.update(places[f"hand{seat}"])
    return out


def swapped(record: GameRecord, a: int, b: int) -> GameRecord:
    """The record with deck places ``a`` and ``b`` of its last deal exchanged."""
    last = record.deals[-1]
    deck = list(last.deck)
    deck[a], deck[b] = deck[b], deck[a]
    deals = (*record.deals[:-1], DealRecord(last.dealer, tuple(deck), last.actions))
    return GameRecord(record.game, record.players, deals, record.options, record.result)


def mangled(action: AnyAction, rng: random.Random) -> object:
    """An action's JSON spoiled in one way: a field dropped or of the wrong kind, a card
    changed, another type."""
    data: dict[str, object] = dict(action.to_json())
    way = rng.randrange(4)
    fields = [k for k in data if k not in ("seat", "type")]
    if way == 0 and fields:
        del data[rng.choice(fields)]
    elif way == 1 and fields:
        data[rng.choice(fields)] = rng.choice([None, 7, "Zz", [], {"x": 1}, True])
    elif way == 2:
        data["type"] = rng.choice(["discard", "play", "draw", "pass", "meld", "buy_upcard", "x"])
    else:
        text = json.dumps(data)
        cards = ["7h", "As", "Kd", "*", "Tc", "2s"]
        for card in cards:
            if f'"{card}"' in text:
                text = text.replace(f'"{card}"', f'"{rng.choice(cards)}"', 1)
                break
        return json.loads(text)
    return data


class Checker:
    """Plays one game with bots and checks the interface at each step."""

    def __init__(self, spec: GameSpec, seed: int, players: int) -> None:
        self.spec = spec
        self.seed = seed
        self.rng = random.Random(seed)
        self.game = spec.new(players, seed=seed)
        levels = ["random", spec.default_bot]
        self.bots = [spec.make_bot(levels[s % 2], seed * 10 + s) for s in range(players)]
        self.deals = 1
        self.unseen = self._unseen_now()
        self.steps = 0
        self.schema_checked: dict[int | None, int] = {}

    def _unseen_now(self) -> list[set[int]]:
        return [hidden_from(self.game, v) for v in (None, *range(self.game.n_players))]

    def run(self, every: int) -> None:
        """Play until the game is over (or the step cap); deep checks every ``every`` steps."""
        checks: list[Callable[[AnyAction], object]] = [
            self.suggested_actions_are_accepted,
            self.rejected_actions_change_nothing,
            self.copies_are_independent,
            self.record_rebuilds_the_game,
            self.hidden_cards_are_hidden,
            self.views_are_fresh_json_of_the_schema,
        ]
        game = self.game
        while (seat := game.to_act) is not None and self.steps < MAX_STEPS[self.spec.name]:
            action = self.bots[seat].choose(game.view(seat))
            if self.steps % every == 0:
                check = checks[(self.steps // every) % len(checks)]
                if check(action) == "taken":
                    continue
            game.apply(action)
            self.steps += 1
            game.check_invariants()
            self._track_unseen()
        self.record_rebuilds_the_game(None)
        self.views_are_fresh_json_of_the_schema(None)

    def _track_unseen(self) -> None:
        """Cards hidden from each viewer at every step of the current deal."""
        deals = len(self.game.to_record().deals)
        now = self._unseen_now()
        if deals != self.deals:
            self.deals, self.unseen = deals, now
        else:
            self.unseen = [u & n for u, n in zip(self.unseen, now, strict=True)]

    # ------------------------------------------------------------ the checks

    def suggested_actions_are_accepted(self, _: AnyAction) -> None:
        game = self.game
        offered = game.suggested_actions()
        assert offered, "the seat to act has no legal action offered"
        for action in offered:
            assert game.can(action), action
            trial = game.copy()
            trial.apply(action)
            trial.check_invariants()

    def rejected_actions_change_nothing(self, action: AnyAction) -> None:
        game = self.game
        before = fingerprint(game)
        tries: list[object] = [dict(action.to_json(), seat=s) for s in range(game.n_players)]
        tries.remove(action.to_json())  # the bot's own action is legal: leave it out
        tries += [mangled(action, self.rng) for _ in range(4)]
        for data in tries:
            try:
                candidate = self.spec.action_from_json(data)
            except ActionError:
                continue
            if game.can(candidate):
                continue
            with pytest.raises((RuleError, ActionError)):
                game.apply(candidate)
            assert fingerprint(game) == before, f"the rejected {data} changed the game"

    def copies_are_independent(self, action: AnyAction) -> str:
        """(The action is taken here: the original and its copy both take it.)"""
        game = self.game
        before = fingerprint(game)
        twin = game.copy()
        assert fingerprint(twin) == before
        twin.apply(action)
        assert fingerprint(game) == before, "applying to a copy changed the original"
        game.apply(action)
        self.steps += 1
        game.check_invariants()
        self._track_unseen()
        assert fingerprint(twin) == fingerprint(game), "a copy went on differently"
        if (seat := game.to_act) is not None:
            nxt = self.bots[seat].choose(game.view(seat))
            twin_before = fingerprint(twin)
            game.copy().apply(nxt)
            assert fingerprint(twin) == twin_before
        return "taken"

    def record_rebuilds_the_game(self, action: AnyAction | None) -> None:
        game = self.game
        rebuilt = self.spec.from_record(game.to_record(), seed=self.seed)
        assert fingerprint(rebuilt) == fingerprint(game), "from_record differs from the game"
        assert [a.to_json() for a in rebuilt.suggested_actions()] == [
            a.to_json() for a in game.suggested_actions()
        ]
        if action is not None:
            rebuilt.apply(action)
            trial = game.copy()
            trial.apply(action)
            assert fingerprint(rebuilt) == fingerprint(trial), "the rebuilt game went on otherwise"

    def hidden_cards_are_hidden(self, _: AnyAction) -> None:
        game = self.game
        if game.over:
            return
        record = game.to_record()
        deck = record.deals[-1].deck
        k = self.rng.randrange(game.n_players + 1)  # one viewer a check, in turn at random
        viewer = None if k == 0 else k - 1
        unseen = self.unseen[k]
        stock = [i for i in game.card_places()["stock"] if i in unseen]
        hands = sorted(unseen - set(stock))
        picks = [stock[-1:], hands, sorted(unseen)]  # the stock's top, another hand, any
        for first in picks:
            if not first:
                continue
            a = self.rng.choice(first)
            others = [b for b in sorted(unseen) if deck[b] != deck[a]]
            if not others:
                continue
            twin = self.spec.from_record(swapped(record, a, self.rng.choice(others)))
            if viewer is None:
                assert twin.spectator_view() == game.spectator_view(), "a spectator sees a card"
            else:
                assert twin.view(viewer) == game.view(viewer), f"seat {viewer} sees a hidden card"
                start = max(0, game.log_size - 3)
                assert twin.log_entries(viewer, start) == game.log_entries(viewer, start)

    def views_are_fresh_json_of_the_schema(self, _: AnyAction | None) -> None:
        game = self.game
        validator = VALIDATORS[self.spec.name]
        for seat in (None, *range(game.n_players)):
            view = game.spectator_view() if seat is None else game.view(seat)
            text = json.dumps(view, sort_keys=True)
            # each log entry is checked against the schema once, when it is new (checking
            # the whole log every time made long games quadratic)
            fresh = json.loads(text)
            done = self.schema_checked.get(seat, 0)
            fresh["log"] = fresh["log"][done if done <= len(fresh["log"]) else 0 :]
            self.schema_checked[seat] = len(view["log"])
            errors = sorted(validator.iter_errors(fresh), key=str)
            assert not errors, f"{errors[0].message} at {list(errors[0].absolute_path)}"
            assert view["seat"] == seat
            assert json.loads(json.dumps(game.log_entries(seat))) == view["log"]
            k = game.log_size // 2
            assert game.log_entries(seat, k) == view["log"][k:]
            _spoil(view)
            again = game.spectator_view() if seat is None else game.view(seat)
            assert json.dumps(again, sort_keys=True) == text, "editing a view changed another"


def _spoil(value: object) -> None:
    """Change every list and dict in a view, however deep; read-only ones refuse."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _spoil(item)
        with contextlib.suppress(TypeError):  # a read-only log entry (rummykit.game.frozen)
            value["spoiled"] = True
    elif isinstance(value, list):
        for item in list(value):
            _spoil(item)
        with contextlib.suppress(TypeError):
            value.append("spoiled")


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_game_keeps_the_interface_in_whole_games(spec: GameSpec, data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 10**6), label="seed")
    players = data.draw(st.integers(spec.min_players, min(spec.max_players, 5)), label="players")
    Checker(spec, seed, players).run(every=7)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
@pytest.mark.parametrize("seed", range(40))
def test_every_game_keeps_the_interface_in_many_games(spec: GameSpec, seed: int) -> None:
    players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    Checker(spec, 1000 + seed, players).run(every=3)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_view_rejects_a_seat_that_does_not_exist(spec: GameSpec) -> None:
    game = spec.new(spec.min_players, seed=1)
    for seat in (-1, spec.min_players, 99):
        with pytest.raises(ValueError, match="no seat"):
            game.view(seat)
        with pytest.raises(ValueError, match="no seat"):
            game.log_entries(seat)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_an_action_of_another_game_is_an_action_error(spec: GameSpec) -> None:
    game = spec.new(spec.min_players, seed=2)
    other = next(s for s in SPECS if s is not spec)
    foreign = other.new(other.min_players, seed=2).suggested_actions()[0]
    with pytest.raises(ActionError):
        game.verify(foreign)
    assert not game.can(foreign)
    with pytest.raises(ActionError):
        spec.action_from_json({"seat": 0, "type": "no such action"})


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_the_schemas_in_docs_are_made_from_the_views(spec: GameSpec) -> None:
    tool = SCHEMAS.parents[1] / "tools" / "view_schemas.py"
    module_spec = importlib.util.spec_from_file_location("view_schemas", tool)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    path = SCHEMAS / f"{spec.name}-view.json"
    assert path.read_text(encoding="utf-8") == module.text(spec.name), "run tools/view_schemas.py"
