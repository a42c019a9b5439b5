"""Kontrakt records (RECORD.md): hand-written ones through ``rummykit replay``, and
records the engine writes replaying to the same end."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kontrakt_helpers import play_bots
from rummykit.cli import main
from rummykit.games.kontrakt import (
    DeclineUpcard,
    Discard,
    Draw,
    KontraktGame,
    KontraktOptions,
    PassUpcard,
)
from rummykit.games.kontrakt.actions import action_from_json
from rummykit.record import load_record, parse_record, replay

RUMMYKIT = str(Path(sys.executable).parent / "rummykit")
RECORDS = sorted((Path(__file__).parent / "records" / "kontrakt").glob("*.json"))


def replay_cli(path: Path) -> tuple[int, dict[str, object] | None]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", "--json", str(path)])
    text = out.getvalue().strip()
    return code, json.loads(text) if text else None


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_hand_written_record_answers_as_expected(path: Path) -> None:
    expect = json.loads(path.read_text(encoding="utf-8"))["expect"]
    code, answer = replay_cli(path)
    assert code == expect["exit"]
    if code == 2:
        return
    assert answer is not None
    if code == 0:
        assert (answer["ok"], answer["scores"]) == (True, expect["scores"])
    else:
        got = {k: answer[k] for k in ("deal", "action", "rule")}
        assert got == {k: expect[k] for k in ("deal", "action", "rule")}
        assert isinstance(answer["message"], str) and answer["message"]


def test_every_rule_family_has_a_record() -> None:
    names = " ".join(p.stem for p in RECORDS)
    for rule in ("K4", "K5", "K7", "K8", "K10", "K11", "K12", "K13"):
        assert f"_{rule}_" in names
    assert any(p.stem.startswith("bad_") for p in RECORDS)


def test_replay_command_exit_codes() -> None:
    by_exit = {}
    for p in RECORDS:
        by_exit.setdefault(json.loads(p.read_text())["expect"]["exit"], p)
    for code, path in sorted(by_exit.items()):
        run = subprocess.run([RUMMYKIT, "replay", str(path)], capture_output=True, text=True)
        assert run.returncode == code, run.stdout + run.stderr


@pytest.mark.parametrize(("players", "kinds", "seed"), [(2, "b", 1), (4, "rb", 2), (8, "r", 3)])
def test_bot_game_record_replays_to_the_same_totals(players: int, kinds: str, seed: int) -> None:
    game = KontraktGame(players, seed=seed)
    play_bots(game, kinds, seed)
    record = parse_record(json.loads(game.to_record().dumps()))
    assert len(record.deals) == 7
    result = replay(record)
    assert result.ok and list(result.scores) == game.totals
    assert record.result is not None and record.result["scores"] == game.totals


def test_record_of_an_unfinished_game_replays_up_to_where_it_stops() -> None:
    game = KontraktGame(3, seed=9)
    play_bots(game, "b", 9, until_deal=2)
    for _ in range(5):
        seat = game.to_act
        assert seat is not None
        game.apply(game.suggested_actions()[0])
    result = replay(parse_record(game.to_record().to_json()))
    assert result.ok and result.deals == 3 and list(result.scores) == game.totals


def test_K15_restock_is_recorded_and_replayed(tmp_path: Path) -> None:
    game = KontraktGame(2, seed=5, options=KontraktOptions())
    game.decline_upcard(DeclineUpcard(game.forhand))
    game.pass_upcard(PassUpcard(1 - game.forhand))
    while game._s.stock:
        seat = game.to_act
        assert seat is not None
        game.draw(Draw(seat))
        game.discard(Discard(seat, game.hand(seat)[-1]))
    seat = game.to_act
    assert seat is not None
    game.draw(Draw(seat))  # shuffles the pile into a new stock
    game.discard(Discard(seat, game.hand(seat)[-1]))
    path = game.to_record().save(tmp_path / "restock.json")
    assert '"restock"' in path.read_text()
    result = replay(load_record(path))
    assert result.ok, result
    replayed = KontraktGame(2, decks=[d.deck for d in load_record(path).deals], dealer=0)
    for data in load_record(path).deals[0].actions:
        replayed.apply(action_from_json(data))
    assert replayed.stock == game.stock and replayed.discard_pile == game.discard_pile


def test_options_are_written_and_read() -> None:
    game = KontraktGame(2, seed=1, options=KontraktOptions(reshuffle_stock=False))
    doc = game.to_record().to_json()
    assert doc["options"] == {"reshuffle_stock": False}
    bad = dict(doc, options={"no_such_rule": True})
    with pytest.raises(ValueError, match="no_such_rule"):
        parse_record(bad)
