"""The learning environments (issue 26): PettingZoo's and Gymnasium's checks, the action
encodings, and random masked play that checks legality, card conservation and secrecy.

``pytest -m slow tests/test_envs.py`` plays ``ENVS_SOAK`` games of each game (1,000 by
default, from seed ``ENVS_SOAK_START``, 10,000 by default) with the same checks as the
quick test.
"""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from rummykit import games
from rummykit.arena import ArenaConfig, play_game
from rummykit.cards import parse_cards
from rummykit.envs import kontrakt_v0, vatikanen_v0
from rummykit.envs.common import card_of_index, encoder_of
from rummykit.envs.core import EnvHost, IllegalIndex
from rummykit.envs.kontrakt_encoding import (
    ACTIONS as KONTRAKT_ACTIONS,
)
from rummykit.envs.kontrakt_encoding import (
    MELD_SLOTS,
    indexed,
    place,
)
from rummykit.envs.policy import Policy
from rummykit.envs.single import SingleAgentEnv
from rummykit.envs.vatikanen_encoding import ACTIONS as VATIKANEN_ACTIONS
from rummykit.envs.vatikanen_encoding import longest_run
from rummykit.game import Game
from rummykit.games.kontrakt import Discard, Draw, LayDown, LayOff, SwapJoker
from test_conformance import hidden_from, swapped

MODULES = [vatikanen_v0, kontrakt_v0]
IDS = ["vatikanen", "kontrakt"]
LAYING = ("meld:", "layoff:", "swap:")

# PettingZoo's api_test warns about dict observations of environments it does not list
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


# ---------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_api_test_passes(module: Any) -> None:
    api_test(module.env(), num_cycles=200)
    api_test(module.env(players=3), num_cycles=100)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_seed_test_passes(module: Any) -> None:
    seed_test(module.env, num_cycles=100)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_reset_with_a_seed_deals_the_registry_game_of_that_seed(module: Any) -> None:
    env = module.raw_env(players=3)
    env.reset(seed=11)
    name = env.host.spec.name
    game = games.get(name).new(["player_0", "player_1", "player_2"], seed=11)
    seat = game.to_act
    assert env.host.game.view(seat) == game.view(seat)
    env.reset()
    first = env.host.game.view(0)
    env.reset(seed=11)
    env.reset()
    assert env.host.game.view(0) == first  # the generator is seeded by the last seed


def _masked_random(env: Any, agent: str, rng: random.Random) -> int | None:
    obs, _, terminated, truncated, _ = env.last()
    if terminated or truncated:
        return None
    return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


def test_max_cycles_truncates_every_agent_after_that_many_cycles_vatikanen() -> None:
    # PettingZoo's max_cycles_test needs a parallel environment, which a turn-based game
    # has not; this is its AEC half: with max_cycles=4 every agent acts 4 times, then
    # is stepped once more (dead), truncated.
    for players in (2, 3):
        env = vatikanen_v0.env(players=players, max_cycles=4)
        env.reset(seed=5)
        counts = dict.fromkeys(env.possible_agents, 0)
        rng = random.Random(1)
        for agent in env.agent_iter():
            counts[agent] += 1
            if env.truncations[agent]:
                assert not env.terminations[agent]
            env.step(_masked_random(env, agent, rng))
        assert set(counts.values()) == {5}


def test_max_cycles_counts_actions_of_the_whole_table_kontrakt() -> None:
    env = kontrakt_v0.raw_env(players=3, max_cycles=10)
    env.reset(seed=5)
    rng = random.Random(2)
    actions = 0
    for agent in env.agent_iter():
        action = _masked_random(env, agent, rng)
        actions += action is not None
        truncated = env.truncations[agent]
        env.step(action)
        if truncated:
            continue
    assert actions == 30
    assert env.agents == []


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_max_cycles_must_be_positive_and_render_mode_known(module: Any) -> None:
    with pytest.raises(ValueError, match="max_cycles"):
        module.env(max_cycles=0)
    with pytest.raises(ValueError, match="render_mode"):
        module.env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="option"):
        module.env(no_such_rule=True)
    with pytest.raises(ValueError, match="players"):
        module.env(players=9)


def test_a_whole_vatikanen_game_pays_the_result_as_zero_sum_rewards() -> None:
    env = vatikanen_v0.env(players=3)
    env.reset(seed=2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(3)
    for agent in env.agent_iter():
        _, reward, *_ = env.last()
        totals[agent] += reward
        env.step(_masked_random(env, agent, rng))
    result = env.unwrapped.host.game.result()
    assert result is not None
    assert [totals[a] for a in env.possible_agents] == list(result.scores)
    assert sum(totals.values()) == 0


@pytest.mark.parametrize("mode", ["deal", "game"])
def test_kontrakt_rewards_are_the_penalties_negated(mode: str) -> None:
    env = kontrakt_v0.raw_env(players=2, reward=mode)
    env.reset(seed=4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    given_before_end = 0
    rng = random.Random(4)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        given_before_end += reward != 0 and not terminated
        if terminated or truncated:
            env.step(None)
            continue
        env.step(_laying_random(obs["action_mask"], KONTRAKT_ACTIONS, rng))
    result = env.host.game.result()
    assert result is not None
    assert [totals[a] for a in env.possible_agents] == [-s for s in result.scores]
    assert (given_before_end > 0) == (mode == "deal")


def test_an_illegal_index_ends_the_game_for_the_wrapped_env_and_raises_for_the_raw() -> None:
    env = vatikanen_v0.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert env.rewards[agent] == -1000.0
    assert all(env.terminations.values())
    raw = vatikanen_v0.raw_env()
    raw.reset(seed=1)
    before = raw.host.game.view(0)
    with pytest.raises(IllegalIndex, match="not legal now"):
        raw.step(illegal)
    assert raw.host.game.view(0) == before


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_render_ansi_shows_what_a_spectator_sees(
    module: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    env = module.env(render_mode="ansi", players=3)
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "to act" in text
    game = env.unwrapped.host.game
    for seat in range(3):
        hand = game.view(seat)["hand"]
        assert " ".join(hand) not in text
    human = module.env(render_mode="human")
    human.reset(seed=3)
    obs, *_ = human.last()
    human.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "to act" in capsys.readouterr().out


# ---------------------------------------------------------------- Gymnasium


@pytest.mark.filterwarnings("ignore:.*not having a spec")
@pytest.mark.parametrize(("game", "opponents"), [("vatikanen", "greedy"), ("kontrakt", "basic")])
def test_check_env_passes(game: str, opponents: str) -> None:
    check_env(SingleAgentEnv(game, opponents=opponents, players=3, seat="random"))
    made = gymnasium.make(f"rummykit/{game.capitalize()}-v0", opponents=opponents)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and without a warning
        check_env(made.unwrapped)  # with a spec: every render mode too


def test_the_agent_plays_against_bots_that_see_only_their_view() -> None:
    env = SingleAgentEnv("vatikanen", players=3, opponents=["random", "strong(samples=2)"])
    obs, info = env.reset(seed=9)
    assert info["seat"] == 0 and env.host.to_act == 0
    done, total, steps = False, 0.0, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, truncated, info = env.step(int(legal[-1]))
        assert not truncated
        total += float(reward)
        steps += 1
        if not done:
            assert env.host.to_act == 0
    result = env.host.game.result()
    assert result is not None and total == result.scores[0] == info["scores"][0]


def test_an_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    env = SingleAgentEnv("kontrakt", opponents="random", illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    before = env.host.game.view(0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert "not legal now" in info["illegal"]
    assert env.host.game.view(0) == before


@pytest.mark.parametrize(("game", "bot"), [("vatikanen", "greedy"), ("kontrakt", "basic")])
def test_with_no_opponents_named_each_game_plays_its_own_default_bot(game: str, bot: str) -> None:
    env = SingleAgentEnv(game, players=3)
    assert [level for level, _ in env._opponents] == [bot, bot]
    obs, _ = env.reset(seed=2)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)


def test_opponents_and_seat_are_checked() -> None:
    with pytest.raises(ValueError, match="no vatikanen bot called 'genius'"):
        SingleAgentEnv("vatikanen", opponents="genius")
    with pytest.raises(ValueError, match="setting"):
        SingleAgentEnv("vatikanen", opponents="strong(depth=3)")
    with pytest.raises(ValueError, match="one for each"):
        SingleAgentEnv("vatikanen", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("vatikanen", seat=2)
    with pytest.raises(ValueError, match="unknown game"):
        SingleAgentEnv("chess")


# ---------------------------------------------------------------- the encodings


def test_the_action_names_are_distinct_and_fixed() -> None:
    assert len(set(VATIKANEN_ACTIONS)) == len(VATIKANEN_ACTIONS) == 22
    assert len(set(KONTRAKT_ACTIONS)) == len(KONTRAKT_ACTIONS) == 118 + MELD_SLOTS * (54 + 52)
    assert KONTRAKT_ACTIONS[:6] == (
        "take_upcard",
        "decline_upcard",
        "buy_upcard",
        "pass_upcard",
        "draw:stock",
        "draw:discard",
    )


def test_longest_run_takes_the_ace_low_or_high_never_both() -> None:
    def run(text: str) -> str | None:
        found = longest_run(parse_cards(text), parse_cards(text)[0].suit)  # type: ignore[arg-type]
        return None if found is None else " ".join(map(str, found))

    assert run("4h 5h 7h") is None
    assert run("Ah 2h 3h Qh Kh") == "Qh Kh Ah"  # of two as long, the higher
    assert run("Ah 2h 3h 4h Qh Kh") == "Ah 2h 3h 4h"
    assert run("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah") == "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert run("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh") == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh"


def _kontrakt_view(**changes: Any) -> dict[str, Any]:
    game = games.get("kontrakt").new(2, seed=3)
    view = dict(game.view(game.to_act or 0))
    view.update(changes)
    return view


def test_kontrakt_actions_go_to_their_indices() -> None:
    card = parse_cards
    run = {"number": 0, "owner": 1, "kind": "run", "cards": ["4h", "5h", "6h"], "contract": True}
    run.update(suit="h", low=4, high=6)
    group = {"number": 1, "owner": 0, "kind": "group", "cards": ["7c", "7d", "*:7"]}
    group.update(contract=True, rank=7)
    view = _kontrakt_view(table=[run, group])
    names = KONTRAKT_ACTIONS

    def name(action: Any) -> str | None:
        i = place(action, view)
        return None if i is None else names[i]

    assert name(Draw(0, "discard")) == "draw:discard"
    assert name(Discard(0, card("Td")[0])) == "discard:Td"
    assert name(Discard(0, card("*")[0])) == "discard:*"
    assert name(LayDown(0, (tuple(card("9s 9h *:9")),))) == "meld:group:9"
    assert name(LayDown(0, (tuple(card("Jc *:Qc Kc")),))) == "meld:run:c11"
    assert name(LayOff(0, card("7h")[0], 0)) == "layoff:0:7h"
    assert name(LayOff(0, card("*")[0], 0, card("3h")[0])) == "layoff:0:*"
    assert name(LayOff(0, card("*")[0], 0, card("7h")[0])) == "layoff:0:*high"
    assert name(LayOff(0, card("*")[0], 1)) == "layoff:1:*"
    assert name(SwapJoker(0, card("7s")[0], 1)) == "swap:1:7s"
    assert name(LayOff(0, card("7h")[0], MELD_SLOTS)) is None  # past the meld slots
    whole = LayDown(0, (tuple(card("2c 2d 2h")), tuple(card("5s 5d 5h 5c"))))
    assert name(whole) == "meld:contract"  # deal 1: two groups
    part = LayDown(0, (tuple(card("4c 5c 6c 7c")),))
    assert name(part) == "meld:part"
    kept, left = indexed([whole, part, Discard(0, card("Td")[0])], view)
    assert left == [] and len(kept) == 3
    assert str(card_of_index(51)) == "Ks"


# ---------------------------------------------------------------- random masked play


def _laying_random(mask: np.ndarray, names: tuple[str, ...], rng: random.Random) -> int:
    """A random legal index; in Kontrakt one that lays cards, 3 times in 4 when there is one
    (as the ``random`` bot plays: uniform play seldom finishes a deal)."""
    legal = np.flatnonzero(mask).tolist()
    laying = [i for i in legal if names[i].startswith(LAYING)]
    if laying and rng.random() < 0.75:
        return int(rng.choice(laying))
    return int(rng.choice(legal))


def _texts(actions: dict[int, Any]) -> dict[int, str]:
    """Actions as text: with what every joker stands for (``==`` of cards ignores it)."""
    return {i: repr(a) for i, a in actions.items()}


class Soak:
    """Random masked play through the raw AEC environment, checked at every step."""

    def __init__(self, module: Any, seed: int) -> None:
        self.rng = random.Random(seed)
        spec = games.get(module.raw_env.metadata["name"].removesuffix("_v0"))
        players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
        options = {r.name: self.rng.random() < 0.5 for r in spec.house_rules}
        self.env = module.raw_env(players=players, **options)
        self.env.reset(seed=seed)
        self.encoder = encoder_of(spec.name)
        self.spec = spec
        self.secrecy_every = SECRECY_EVERY[spec.name]
        self.steps = 0
        self.max_melds = 0
        self.unseen: list[set[int]] = []
        self.deals = -1

    @property
    def game(self) -> Game:
        game: Game = self.env.host.game
        return game

    def run(self) -> Iterator[int]:
        env, game = self.env, self.game
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            assert game.to_act == seat
            assert env.observation_space(agent).contains(obs)
            view = game.view(seat)
            proposed = self.encoder.propose(view)  # the bot's side, from the view alone
            legal = env.host.legal  # the engine's side
            assert _texts(proposed) == _texts(legal), "the view's actions differ from the engine's"
            assert sorted(legal) == np.flatnonzero(obs["action_mask"]).tolist()
            if self.spec.name == "kontrakt":
                engine = game.suggested_actions()
                kept, left = indexed(engine, view)
                assert left == [], f"actions without an index: {left}"
                assert sorted(_texts(kept).values()) == sorted(set(map(repr, engine)))
                self.max_melds = max(self.max_melds, len(view["table"]))
            index = _laying_random(obs["action_mask"], self.encoder.actions, self.rng)
            action = legal[index]
            assert game.can(action)
            self._track()
            if self.steps % self.secrecy_every == 0:
                self.check_secrecy(seat)
            env.step(index)
            game.check_invariants()
            self.steps += 1
            yield self.steps
        assert game.over

    def _track(self) -> None:
        """The cards each seat has not seen at any moment of the current deal."""
        deals = int(self.game.spectator_view().get("deal", 0))  # type: ignore[call-overload]
        now = [hidden_from(self.game, s) for s in range(self.game.n_players)]
        if deals != self.deals:
            self.deals, self.unseen = deals, now
        else:
            self.unseen = [u & n for u, n in zip(self.unseen, now, strict=True)]

    def check_secrecy(self, seat: int) -> None:
        """Swapping two cards the seat has never seen changes neither its observation nor
        its mask (the conformance suite's metamorphic test, on the encoder)."""
        game = self.game
        record = game.to_record()
        deck = record.deals[-1].deck
        unseen = sorted(self.unseen[seat])
        pairs = [(a, b) for a in unseen[:1] + unseen[-1:] for b in unseen if deck[a] != deck[b]]
        if not pairs:
            return
        a, b = self.rng.choice(pairs)
        twin = self.spec.from_record(swapped(record, a, b))
        assert twin.to_act == seat
        legal = self.encoder.engine_legal(twin, twin.view(seat))
        assert _texts(legal) == _texts(self.env.host.legal), "the mask depends on a hidden card"
        mine = self.encoder.observe(game.view(seat), self.env.host.legal)
        theirs = self.encoder.observe(twin.view(seat), legal)
        assert np.array_equal(mine, theirs), "an observation shows a hidden card"


def _soak(module: Any, games_: int, start: int) -> tuple[int, int, int]:
    steps = max_melds = 0
    for seed in range(start, start + games_):
        soak = Soak(module, seed)
        for _ in soak.run():
            pass
        steps += soak.steps
        max_melds = max(max_melds, soak.max_melds)
    return games_, steps, max_melds


SECRECY_EVERY = {"vatikanen": 10, "kontrakt": 150}
"""Steps between two secrecy checks (each rebuilds the game from its record)."""


@pytest.mark.parametrize(("module", "n"), [(vatikanen_v0, 6), (kontrakt_v0, 1)], ids=IDS)
def test_random_masked_play_is_legal_conserves_cards_and_keeps_secrets(module: Any, n: int) -> None:
    _soak(module, n, start=0)


SOAK = int(os.environ.get("ENVS_SOAK", "1000"))
SOAK_START = int(os.environ.get("ENVS_SOAK_START", "10000"))
"""The first game's seed: shards of a soak run side by side with different starts."""


@pytest.mark.slow
@pytest.mark.timeout(max(3600, 6 * SOAK))
@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_soak_random_masked_play(module: Any) -> None:
    """ENVS_SOAK games of each game (1,000 by default), with the quick test's checks."""
    played, steps, max_melds = _soak(module, SOAK, start=SOAK_START)
    melds = f", most melds on a table {max_melds}" if module is kontrakt_v0 else ""
    print(f"{module.__name__}: {played} games from seed {SOAK_START}, {steps} actions{melds}")


# ---------------------------------------------------------------- the policy bot


def _linear_policy(game: str, prefer: str, path: Path) -> Path:
    encoder = encoder_of(game)
    w = np.zeros((len(encoder.actions), encoder.size), np.float32)
    b = np.zeros(len(encoder.actions), np.float32)
    b[encoder.actions.index(prefer)] = 1.0
    Policy(game, [(w, b)]).save(path)
    return path


def test_a_saved_policy_plays_in_the_arena_as_a_bot(tmp_path: Path) -> None:
    path = _linear_policy("vatikanen", "most_cards", tmp_path / "p.npz")
    assert path.stat().st_size < 20_000
    config = ArenaConfig("vatikanen", 2, (f"policy(path={path})", "random"), games=2, seed=3)
    for i in range(2):
        result = play_game(config, i)
        assert result.error is None and not any(result.faults), result
    kpath = _linear_policy("kontrakt", "meld:contract", tmp_path / "k.npz")
    config = ArenaConfig("kontrakt", 2, (f"policy(path={kpath},sample=true)", "basic"), 2, 3)
    result = play_game(config, 0)
    assert result.error is None and not any(result.faults), result


def test_the_policy_bot_takes_its_best_legal_index(tmp_path: Path) -> None:
    path = _linear_policy("vatikanen", "most_points", tmp_path / "p.npz")
    bot = games.get("vatikanen").make_bot("policy", 1, path=str(path))
    game = games.get("vatikanen").new(2, seed=6)
    assert bot.choose(game.view(0)) == encoder_of("vatikanen").propose(game.view(0))[3]


def test_a_policy_file_must_fit_the_game_and_the_encoding(tmp_path: Path) -> None:
    spec = games.get("vatikanen")
    with pytest.raises(ValueError, match="needs the setting path"):
        spec.make_bot("policy", 1)
    kpath = _linear_policy("kontrakt", "draw:stock", tmp_path / "k.npz")
    with pytest.raises(ValueError, match="is a kontrakt policy"):
        spec.make_bot("policy", 1, path=str(kpath))
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="not a rummykit-policy/1"):
        Policy.load(bad)
    other = tmp_path / "other.npz"
    encoder = encoder_of("vatikanen")
    n, d = len(encoder.actions), encoder.size
    np.savez(
        other,
        format=np.array("rummykit-policy/1"),
        game=np.array("vatikanen"),
        actions=np.array(["draw"] * n),
        w0=np.zeros((n, d), np.float32),
        b0=np.zeros(n, np.float32),
    )
    with pytest.raises(ValueError, match="another vatikanen encoding"):
        Policy.load(other)
    with pytest.raises(ValueError, match="maps"):
        Policy("vatikanen", [(np.zeros((3, 3), np.float32), np.zeros(3, np.float32))])


def test_the_table_refuses_a_game_without_an_encoding() -> None:
    with pytest.raises(ValueError, match="cannot encode"):
        EnvHost("kontrakt", encoder_of("vatikanen"), players=2)
    with pytest.raises(ValueError, match="reward"):
        EnvHost("kontrakt", encoder_of("kontrakt"), players=2, reward="hand")  # type: ignore[arg-type]
