"""The Kontrakt ``expert`` bot: views only, determinism, legal play, bounded settings.

Its strength is the arena's job (``rummykit simulate``, ``docs/bots.md``); here a
few deals keep the suite fast, and a slow-marked soak plays whole games.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rummykit.bots import kontrakt_expert, kontrakt_search, levels, make_bot
from rummykit.bots.kontrakt_expert import ExpertBot, candidates
from rummykit.bots.kontrakt_strong import StrongBot
from rummykit.bots.levels import check_settings, describe_level, level_label
from rummykit.errors import MessageError
from rummykit.games.kontrakt import DealEnded, Discard, Draw, KontraktGame


def _plain(view: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(view))
    return out


def _play(game: KontraktGame, bots: list[Any], deals: int = 1) -> list[str]:
    """Play ``deals`` deals (the engine judges every action); the actions of every seat
    whose bot is an expert, in order."""
    actions: list[str] = []
    ended = 0
    while ended < deals and game.to_act is not None:
        seat = game.to_act
        bot = bots[seat]
        view = _plain(game.view(seat)) if isinstance(bot, ExpertBot) else game.view(seat)
        action = bot.choose(view)
        if isinstance(bot, ExpertBot):
            actions.append(str(action))
        if isinstance(game.apply(action), DealEnded):
            ended += 1
    return actions


def _table(seed: int, **settings: Any) -> list[Any]:
    return [ExpertBot(seed, **settings)] + [make_bot("kontrakt", "strong", s) for s in (1, 2, 3)]


def test_expert_is_registered_with_a_label_and_about_in_both_languages() -> None:
    assert "expert" in levels("kontrakt")
    assert level_label("kontrakt", "expert").translated("sv") == "mästare"
    about = describe_level("kontrakt", "expert")
    assert about is not None
    assert about.translated("sv") != about.translated("en")


def test_expert_settings_are_bounded() -> None:
    assert check_settings("kontrakt", "expert", {"samples": 4, "ms": 50}) == {
        "samples": 4,
        "ms": 50.0,
    }
    for bad in (
        {"samples": 0},
        {"samples": 100_000},
        {"ms": 0},
        {"candidates": 50},
        {"confirm": 99},
    ):
        with pytest.raises(MessageError):
            check_settings("kontrakt", "expert", bad)


def test_K8_K13_expert_plays_legally_and_reproducibly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole deals against three strong bots: the engine accepts every action, the same
    seed plays the same actions, and the search was used, not skipped."""
    searched = 0
    real = kontrakt_search.outcomes

    def counted(*args: Any, **kwargs: Any) -> list[list[float]]:
        nonlocal searched
        searched += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(kontrakt_expert, "outcomes", counted)
    for seed in (3, 8):
        settings = {"samples": 2, "confirm": seed % 2}
        first = _play(KontraktGame(4, seed=seed), _table(seed, **settings))
        assert first == _play(KontraktGame(4, seed=seed), _table(seed, **settings))
    assert searched > 0


def _searched_view(seed: int) -> tuple[KontraktGame, int]:
    """A game at a decision where the expert in seat 0 weighs more than one move."""
    game = KontraktGame(4, seed=seed)
    bots = [make_bot("kontrakt", "strong", s) for s in range(4)]
    strong = StrongBot(0)
    for _ in range(400):
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if seat == 0 and view["phase"] != "upcard_offer":
            first = StrongBot(0).choose(view)
            if len(candidates(view, strong, first)) > 1 and view["stock_size"] > 10:
                return game, seat
        game.apply(bots[seat].choose(view))
    raise AssertionError("no searched decision")  # pragma: no cover


def test_expert_never_sees_a_hidden_card() -> None:
    """Swap a card of another hand with the stock and reorder the stock: the seat's view is
    the same, and so is the expert's action."""
    game, seat = _searched_view(5)
    twin = copy.deepcopy(game)
    s = twin._s
    s.stock.reverse()
    other = (seat + 1) % game.n_players
    for h, card in enumerate(s.hands[other]):
        if card != s.picked and s.deck[card] != s.deck[s.stock[0]]:
            s.hands[other][h], s.stock[0] = s.stock[0], card
            break
    assert twin.hand(other) != game.hand(other)
    assert twin.view(seat) == game.view(seat)
    for seed in range(3):
        first = ExpertBot(seed, samples=4).choose(game.view(seat))
        again = ExpertBot(seed, samples=4).choose(twin.view(seat))
        assert first == again


def test_expert_weighs_the_strong_choice_first() -> None:
    game, seat = _searched_view(5)
    view = game.view(seat)
    first = StrongBot(0).choose(view)
    cands = candidates(view, StrongBot(0), first)
    assert cands[0] == first and len(set(cands)) == len(cands) > 1
    assert all(game.can(a) for a in cands)
    if isinstance(first, Draw):
        assert {a.type for a in cands} == {"draw"}
    if isinstance(first, Discard):
        assert all(isinstance(a, Discard) for a in cands)


def test_expert_ms_stops_the_search_early() -> None:
    """With a tiny ``ms`` a searched move plays two guesses, not ``samples``."""
    game, seat = _searched_view(5)
    bot = ExpertBot(1, samples=500, ms=1)
    assert game.can(bot.choose(game.view(seat)))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_expert_soak_whole_legal_games(players: int) -> None:
    for game_seed in range(40):
        game = KontraktGame(players, seed=60_000 + game_seed)
        seat = game_seed % players
        bots: list[Any] = [
            ExpertBot(
                game_seed,
                samples=1 + game_seed % 2,
                confirm=game_seed % 3,
                own_policy=game_seed % 5 == 0,
            )
            if s == seat
            else make_bot("kontrakt", ("strong", "basic", "random")[s % 3], s)
            for s in range(players)
        ]
        _play(game, bots, deals=7)
        assert game.to_act is None  # the seventh deal ended: the game is over
