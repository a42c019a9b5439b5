"""Every action of both games has its trio ``verify_X`` / ``can_X`` / ``X``, all three taking
the action itself, and the game's one dispatch table knows every action type.

The checks read the engine classes' signatures (so a verb that takes a seat
instead of the action fails), and play random positions to see that each
trio agrees with the generic ``verify`` / ``can`` / ``apply``.
"""

from __future__ import annotations

import inspect
import random
import typing
from types import UnionType

import pytest

from rummykit import games
from rummykit.errors import ActionError, RuleError
from rummykit.games.kontrakt import game as kontrakt_game
from rummykit.games.kontrakt.actions import Action as KontraktAction
from rummykit.games.vatikanen import game as vatikanen_game
from rummykit.games.vatikanen.actions import Action as VatikanenAction
from rummykit.games.verbs import Verbs

ENGINES: dict[str, tuple[type, Verbs[typing.Any, typing.Any], UnionType]] = {
    "vatikanen": (vatikanen_game.VatikanenGame, vatikanen_game.VERBS, VatikanenAction),
    "kontrakt": (kontrakt_game.KontraktGame, kontrakt_game.VERBS, KontraktAction),
}
"""Each game's engine class (where its trios are), its dispatch table, its actions."""

CURRENT: dict[str, typing.Callable[[typing.Any], object]] = {
    "vatikanen": lambda session: session.game,  # a session's part: the game being played
    "kontrakt": lambda game: game,
}
"""The engine object with the trios, in a hosted unit."""


def trio_of(cls: type, kind: type) -> dict[str, str]:
    """The public methods of ``cls`` whose one parameter is a ``kind``, by role."""
    found: dict[str, str] = {}
    for name, method in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith("_"):
            continue
        params = list(inspect.signature(method).parameters.values())[1:]
        if len(params) == 1 and params[0].annotation in (kind, kind.__name__):
            role = "verify" if name.startswith("verify_") else "can" if name[:4] == "can_" else "do"
            assert role not in found, f"{cls.__name__} has two {role} verbs for {kind.__name__}"
            found[role] = name
    return found


@pytest.mark.parametrize("game", list(ENGINES))
def test_every_action_has_its_trio_taking_the_action_itself(game: str) -> None:
    cls, verbs, union = ENGINES[game]
    assert set(verbs.kinds) == set(typing.get_args(union)), "the dispatch table misses an action"
    for kind in verbs.kinds:
        trio = trio_of(cls, kind)
        assert set(trio) == {"verify", "can", "do"}, (kind.__name__, trio)
        assert trio["verify"] == f"verify_{trio['do']}", trio
        assert trio["can"] == f"can_{trio['do']}", trio


@pytest.mark.parametrize("game", list(ENGINES))
def test_each_trio_agrees_with_verify_can_and_apply(game: str) -> None:
    cls, verbs, _ = ENGINES[game]
    spec = games.get(game)
    names = {kind: trio_of(cls, kind) for kind in verbs.kinds}
    rng = random.Random(11)
    for seed in range(3):
        unit = spec.new(3, seed=seed)
        for _ in range(40):
            seat = unit.to_act
            if seat is None:
                break
            part = CURRENT[game](unit.copy())
            for action in unit.suggested_actions():
                trio = names[type(action)]
                assert getattr(part, trio["can"])(action) == unit.can(action) is True
                getattr(part, trio["verify"])(action)
            wrong = type(action)(**{**_fields(action), "seat": (seat + 1) % unit.n_players})
            trio = names[type(wrong)]
            assert getattr(part, trio["can"])(wrong) is unit.can(wrong) is False
            with pytest.raises(RuleError):
                getattr(part, trio["verify"])(wrong)
            choice = rng.choice(list(unit.suggested_actions()))
            done = getattr(part, names[type(choice)]["do"])(choice)
            assert unit.apply(choice) == done
    with pytest.raises(ActionError):
        spec.new(2, seed=0).verify("draw")  # type: ignore[arg-type]


def _fields(action: object) -> dict[str, object]:
    return {f: getattr(action, f) for f in action.__dataclass_fields__}  # type: ignore[attr-defined]
