"""The arena: duplicate deals, determinism across workers and Ray, the CLI's JSON and records."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rummykit.arena import (
    ArenaConfig,
    comparable,
    derive_seed,
    fill_lineup,
    level_settings,
    normalize_spec,
    play_game,
    schedule,
    seat_bots,
    split_specs,
    summarize,
)
from rummykit.arena.run import Progress, run_match
from rummykit.cli import main
from rummykit.record import load_record, replay

RESULT_KEYS = {"games", "wins", "win_rate", "ci95", "mean_score"}


def _cfg(game: str = "kontrakt", players: int = 2, lineup: tuple[str, ...] | None = None,
         games: int = 4, seed: int = 11, **kw: Any) -> ArenaConfig:  # fmt: skip
    if lineup is None:
        lineup = fill_lineup(
            ["basic", "random"] if game == "kontrakt" else ["greedy", "random"], players
        )
    return ArenaConfig(game, players, lineup, games=games, seed=seed, **kw)


def _outcomes(results: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.index, r.bots, r.winners, r.scores, r.actions, r.faults) for r in results]


# ---------------------------------------------------------------- specs


def test_specs_split_outside_quotes_and_cmd_is_normalized() -> None:
    specs = split_specs('strong,cmd:"python my bot.py --x 1,2" , greedy')
    assert specs == ["strong", 'cmd:"python my bot.py --x 1,2"', "greedy"]
    assert normalize_spec(specs[1]) == "cmd:python my bot.py --x 1,2"
    assert normalize_spec('cmd:python "my bot.py"') == "cmd:python 'my bot.py'"
    assert normalize_spec("cmd:python bot.py") == "cmd:python bot.py"


def test_the_last_bot_fills_the_other_seats() -> None:
    assert fill_lineup(["strong", "greedy"], 4) == ("strong", "greedy", "greedy", "greedy")
    assert fill_lineup(["strong", "greedy", "greedy", "greedy"], 4) == (
        "strong",
        "greedy",
        "greedy",
        "greedy",
    )
    with pytest.raises(ValueError):
        fill_lineup(["a", "b", "c"], 2)


def test_config_rejects_unknown_bots_and_odd_game_counts() -> None:
    with pytest.raises(ValueError, match="levels are"):
        ArenaConfig("vatikanen", 2, ("greedy", "nobody"), games=2, seed=1)
    with pytest.raises(ValueError, match="multiple"):
        ArenaConfig("vatikanen", 2, ("greedy", "random"), games=3, seed=1)
    with pytest.raises(ValueError, match="2 to 5"):
        ArenaConfig("vatikanen", 6, ("greedy",) * 6, games=6, seed=1)


# ---------------------------------------------------------------- duplicate deals


def test_every_deck_is_played_once_in_every_rotation() -> None:
    cfg = _cfg("kontrakt", 3, ("basic", "random", "random"), games=9)
    seen: Counter[tuple[int, int]] = Counter()
    for i in range(cfg.games):
        deck, rotation = schedule(i, 3)
        seen[deck, rotation] += 1
        bots = seat_bots(cfg, i)
        assert bots[rotation] == "basic"  # lineup position 0 sits at seat `rotation`
        assert sorted(bots) == sorted(cfg.lineup)
    assert seen == Counter({(d, r): 1 for d in range(3) for r in range(3)})


def test_rotations_of_a_deck_deal_the_same_cards(tmp_path: Path) -> None:
    cfg = _cfg("vatikanen", 2, games=4, records=True)
    results = [play_game(cfg, i) for i in range(4)]
    decks = [json.loads(r.record)["deals"][0]["deck"] for r in results]  # type: ignore[arg-type]
    assert decks[0] == decks[1] != decks[2] == decks[3]
    assert results[0].bots == ("greedy", "random") and results[1].bots == ("random", "greedy")


def test_seeds_depend_only_on_seed_game_and_seat() -> None:
    assert derive_seed(5, "bot", 3, 1) == derive_seed(5, "bot", 3, 1)
    assert len({derive_seed(5, "bot", g, s) for g in range(10) for s in range(4)}) == 40


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("game", ["kontrakt", "vatikanen"])
def test_same_seed_same_results_with_one_and_two_workers(game: str) -> None:
    games = 4 if game == "kontrakt" else 2  # Vatikanen's bots think longer
    cfg = _cfg(game, 2, games=games, seed=2024)
    one = run_match(cfg, workers=1)
    two = run_match(cfg, workers=2)
    assert _outcomes(one.results) == _outcomes(two.results)
    assert comparable(summarize(cfg, one.results)) == comparable(summarize(cfg, two.results))
    if game == "kontrakt":
        other = run_match(_cfg(game, 2, games=games, seed=2025), workers=1)
        assert _outcomes(other.results) != _outcomes(one.results)


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="ray is not installed (pip install 'rummykit[cluster]'); the dev extra installs it",
)
def test_same_seed_same_results_on_ray() -> None:
    cfg = _cfg("kontrakt", 2, games=4, seed=7)
    local = run_match(cfg, workers=1)
    on_ray = run_match(cfg, workers=2, ray_address="")
    assert on_ray.backend.startswith("ray")
    assert _outcomes(local.results) == _outcomes(on_ray.results)
    assert comparable(summarize(cfg, local.results)) == comparable(summarize(cfg, on_ray.results))


# ---------------------------------------------------------------- the summary


def test_summary_counts_seat_games_and_shares_ties() -> None:
    from rummykit.arena import GameResult

    cfg = _cfg("vatikanen", 2, games=2)
    none: tuple[dict[str, int], ...] = ({}, {})
    results = [
        GameResult(0, 0, 0, ("greedy", "random"), (0,), (10.0, -10.0), 5, none, (0, 0),
                   (0.1, 0.1), (3, 2), 0.2),
        GameResult(1, 0, 1, ("random", "greedy"), (0, 1), (0.0, 0.0), 5, none, (0, 0),
                   (0.1, 0.1), (3, 2), 0.2),
    ]  # fmt: skip
    out = summarize(cfg, results)
    greedy, random_ = out["results"]["greedy"], out["results"]["random"]
    assert (greedy["games"], greedy["wins"], greedy["win_rate"]) == (2, 1.5, 0.75)
    assert (random_["wins"], random_["mean_score"]) == (0.5, -5)
    assert greedy["elo"] == 1500 and random_["elo"] < 1500
    assert greedy["ci95_method"] == "wilson"


# ---------------------------------------------------------------- the command


def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_prints_one_object_of_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _simulate(
        capsys,
        *("--game", "kontrakt", "--players", "2", "--bots", "basic,random"),
        *("--games", "3", "--seed", "5", "--workers", "1", "--json"),
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"game", "players", "games", "results", "seconds"}
    assert (data["game"], data["players"], data["games"]) == ("kontrakt", 2, 4)
    assert set(data["results"]) == {"basic", "random"}
    for entry in data["results"].values():
        assert set(entry) >= RESULT_KEYS
        lo, hi = entry["ci95"]
        assert lo <= entry["win_rate"] <= hi
        assert lo >= 0 and hi <= 1
    assert "rounded up to 4" in err
    assert "\r" not in err  # no progress bar under --json


def test_table_output_and_a_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "rates.png"
    code, out, _ = _simulate(
        capsys,
        *("--game", "kontrakt", "--bots", "basic,random", "--games", "2", "--seed", "1"),
        *("--workers", "1", "--plot", str(plot), "--quiet"),
    )
    assert code == 0
    assert "win rate" in out and "basic" in out and "Elo" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _simulate(capsys, "--game", "kontrakt", "--bots", "nobody", "--games", "2")
    assert code == 2 and "levels are" in err
    code, _, err = _simulate(
        capsys, "--game", "kontrakt", "--bots", "basic", "--plot", "x.gif", "--games", "2"
    )
    assert code == 2 and "--plot" in err


@pytest.mark.parametrize("game", ["kontrakt", "vatikanen"])
def test_records_are_written_and_replay(
    game: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bots = "basic,random" if game == "kontrakt" else "greedy,random"
    code, _, _ = _simulate(
        capsys,
        *("--game", game, "--bots", bots, "--games", "2", "--seed", "3", "--workers", "1"),
        *("--records", str(tmp_path), "--json"),
    )
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"{game}-000000.json", f"{game}-000001.json"]
    for f in files:
        record = load_record(f)
        result = replay(record)
        assert result.ok, result.to_json()
        assert list(result.scores) == list(record.result["scores"])  # type: ignore[index]
    first = load_record(files[0])
    assert first.players[0] == f"bot:{bots.split(',')[0]}"


def test_progress_lines_and_bar() -> None:
    import io

    plain = io.StringIO()
    p = Progress(plain, bar=False, every=0.0)
    p(0, 10)
    p(5, 10)
    p(10, 10)
    lines = plain.getvalue().splitlines()
    assert len(lines) == 2 and "5/10 games" in lines[0] and "left" in lines[0]
    bar = io.StringIO()
    b = Progress(bar, bar=True)
    b(3, 10)
    b(10, 10)
    assert bar.getvalue().startswith("\r[") and bar.getvalue().endswith("\n")


def test_bot_settings_in_the_spec_build_the_bot_with_them() -> None:
    # A researcher's variant of a built-in bot: strong(setting=value,...).
    specs = [normalize_spec(s) for s in split_specs("Strong(point_weight=0.5, samples=0),basic")]
    assert specs == ["strong(point_weight=0.5,samples=0)", "basic"]
    config = ArenaConfig("kontrakt", 4, fill_lineup(specs, 4), games=4, seed=11)
    result = play_game(config, 0)
    assert result.error is None
    summary = summarize(config, [result])
    assert set(summary["results"]) == {"strong(point_weight=0.5,samples=0)", "basic"}
    with pytest.raises(ValueError, match="has no setting 'nonsense': its settings are outs_take"):
        ArenaConfig("kontrakt", 4, ("strong(nonsense=1)", "basic", "basic", "basic"), 4, 1)
    with pytest.raises(ValueError, match="name=value"):
        level_settings("strong(samples)")
