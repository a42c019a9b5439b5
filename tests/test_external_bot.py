"""Anyone's bot (docs/bot-protocol.md): the example bot plays whole matches; broken bots are
replaced by random moves and the match finishes."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from rummykit.arena import ArenaConfig, play_game, summarize
from rummykit.bots.external import BotFault, ExternalBot, parse_action
from rummykit.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "random_bot.py"
PY = shlex.quote(sys.executable)


def _bot(tmp_path: Path, name: str, body: str) -> str:
    """A bot program in ``tmp_path``; returns its ``cmd:`` spec."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"cmd:{PY} {shlex.quote(str(path))}"


def _example() -> str:
    return f"cmd:{PY} {shlex.quote(str(EXAMPLE))}"


@pytest.mark.parametrize(
    ("game", "players", "other"), [("vatikanen", 2, "greedy"), ("kontrakt", 3, "basic")]
)
def test_the_example_bot_plays_whole_matches(game: str, players: int, other: str) -> None:
    lineup = (other, *[_example()] * (players - 1))
    cfg = ArenaConfig(game, players, lineup, games=players, seed=8, bot_startup=20)
    results = [play_game(cfg, i) for i in range(cfg.games)]
    for r in results:
        assert r.error is None
        assert all(not f for f in r.faults), r.messages
        assert sum(r.substituted) == 0
    summary = summarize(cfg, results)
    assert summary["results"][_example()]["faults"] == 0
    assert summary["games"] == players


def test_the_example_bot_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            *("simulate", "--game", "kontrakt", "--players", "2", "--games", "2"),
            *("--bots", f"basic,{_example()}", "--seed", "4", "--workers", "2", "--json"),
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    entry = data["results"][_example()]
    assert entry["games"] == 2 and entry["faults"] == 0


GARBAGE = """
    import sys
    for line in sys.stdin:
        print("hello, I am not JSON", flush=True)
"""

SLEEPER = """
    import sys, time
    for line in sys.stdin:
        if '"type":"view"' in line:
            time.sleep(30)
"""

EXITER = """
    import sys
    sys.stdin.readline()
    sys.exit(3)
"""

WRONG = """
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "view":
            seat = msg["seat"]
            answers = [{"type": "pass"}, {"type": "discard", "card": "7h"}, [1, 2],
                       {"type": "draw", "seat": seat + 1}, {"type": "play", "add": ["Zz"]}]
            print(json.dumps(answers[len(msg["view"]["log"]) % len(answers)]), flush=True)
"""


@pytest.mark.parametrize(
    ("name", "body", "kinds", "given_up"),
    [
        ("garbage", GARBAGE, {"bad"}, False),
        ("sleeper", SLEEPER, {"timeout"}, True),
        ("exiter", EXITER, {"crash"}, True),
    ],
)
def test_a_broken_bot_is_replaced_by_random_and_the_game_finishes(
    tmp_path: Path, name: str, body: str, kinds: set[str], given_up: bool
) -> None:
    spec = _bot(tmp_path, name, body)
    cfg = ArenaConfig(
        "kontrakt", 2, ("basic", spec), games=2, seed=3, bot_timeout=0.3, bot_startup=0.0
    )
    result = play_game(cfg, 1)  # the broken bot at seat 0
    assert result.error is None
    assert result.bots[0] == spec
    faults = result.faults[0]
    assert set(faults) == kinds
    if given_up:
        assert sum(faults.values()) == 3  # the third timeout or crash gives it up
        assert "rest of the game" in result.messages[-1]
    else:
        assert sum(faults.values()) == result.decisions[0] > 10
    assert result.substituted[0] >= sum(faults.values())
    assert result.messages and result.messages[0].startswith(f"game 1, seat 0 ({spec})")


def test_bad_and_illegal_answers_in_vatikanen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _bot(tmp_path, "wrong", WRONG)
    code = main(
        [
            *("simulate", "--game", "vatikanen", "--games", "2", "--seed", "6", "--json"),
            *("--bots", f"greedy,{spec}", "--workers", "1", "--bot-startup", "5"),
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    entry = json.loads(captured.out)["results"][spec]
    assert entry["fault_kinds"].keys() == {"bad", "illegal"}
    assert entry["faults"] == entry["substituted_moves"] > 0
    assert "a random legal action was played instead" in captured.err


def test_parse_action_checks_the_seat_and_drops_restock() -> None:
    draw = parse_action("kontrakt", 2, {"type": "draw", "from": "stock", "restock": ["7h"]})
    assert draw.to_json() == {"seat": 2, "type": "draw", "from": "stock"}
    with pytest.raises(BotFault, match="seat"):
        parse_action("vatikanen", 0, {"seat": 1, "type": "draw"})
    with pytest.raises(BotFault) as err:
        parse_action("vatikanen", 0, {"type": "discard", "card": "7h"})
    assert err.value.kind == "bad"
    with pytest.raises(BotFault):
        parse_action("kontrakt", 0, "draw")


def test_a_command_that_does_not_exist_is_a_crash(tmp_path: Path) -> None:
    bot = ExternalBot(str(tmp_path / "no-such-bot"), timeout=1)
    with pytest.raises(BotFault) as err:
        bot.choose({"game": "vatikanen", "seat": 0})
    assert err.value.kind == "crash"
    assert bot.given_up
