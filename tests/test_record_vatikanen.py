"""Vatikanen game records (RECORD.md) and ``rummykit replay`` on hand-written records."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import make_bot, play_out
from rummykit.cli import main
from rummykit.games.vatikanen import Session, VatikanenGame
from rummykit.record import load_record, replay

RECORDS = Path(__file__).parent / "records" / "vatikanen"

# file -> (exit code, expected JSON answer or None for exit 2)
EXPECTED: dict[str, tuple[int, dict[str, Any] | None]] = {
    "legal_going_out.json": (0, {"ok": True, "deals": 1, "scores": [106, -106]}),
    "legal_seed_rearrangement.json": (0, {"ok": True, "deals": 1, "scores": [0, 0]}),
    "legal_engine_arranges.json": (0, {"ok": True, "deals": 1, "scores": [0, 0]}),
    "legal_blocked_game.json": (0, {"ok": True, "deals": 1, "scores": [-28, 35, -7]}),
    "legal_blocked_no_winner.json": (0, {"ok": True, "deals": 1, "scores": [0, 0, 0]}),
    "legal_session.json": (0, {"ok": True, "deals": 2, "scores": [106, -106]}),
    "illegal_opening_group.json": (1, {"deal": 0, "action": 0, "rule": "V7"}),
    "illegal_out_of_turn.json": (1, {"deal": 0, "action": 0, "rule": "V4"}),
    "illegal_card_not_in_hand.json": (1, {"deal": 0, "action": 0, "rule": "V4"}),
    "illegal_pass_with_stock.json": (1, {"deal": 0, "action": 1, "rule": "V14"}),
    "illegal_table_no_meld.json": (1, {"deal": 0, "action": 2, "rule": "V9"}),
    "illegal_joker_moved.json": (1, {"deal": 0, "action": 2, "rule": "V11"}),
    "illegal_after_going_out.json": (1, {"deal": 0, "action": 3, "rule": "V13"}),
    "illegal_draw_empty_stock.json": (1, {"deal": 0, "action": 67, "rule": "V14"}),
    "illegal_deal_not_finished.json": (1, {"deal": 0, "action": 2, "rule": "V16"}),
    "broken_json.json": (2, None),
    "broken_unknown_card.json": (2, None),
    "broken_short_deck.json": (2, None),
}


def test_every_record_has_an_expected_answer() -> None:
    assert {p.name for p in RECORDS.glob("*.json")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_answers(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = EXPECTED[name]
    assert main(["replay", "--json", str(RECORDS / name)]) == code
    out, err = capsys.readouterr()
    if answer is None:
        assert json.loads(out)["error"] == "not a record" and err.startswith("rummykit replay: ")
        return
    got = json.loads(out)
    assert {k: got[k] for k in answer} == answer
    if code == 1:
        assert got["ok"] is False and got["message"]


def test_replay_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "illegal_table_no_meld.json")]) == 1
    out = capsys.readouterr().out
    assert "V9" in out and "the table would hold 5♥ 6♥, which is no meld" in out
    assert main(["replay", str(RECORDS / "legal_going_out.json")]) == 0
    out = capsys.readouterr().out
    assert "Anna" in out and "106" in out


def test_replay_command_exit_codes() -> None:
    for name in ("legal_going_out.json", "illegal_joker_moved.json", "broken_short_deck.json"):
        run = subprocess.run(
            [str(Path(sys.executable).parent / "rummykit"), "replay", str(RECORDS / name)],
            capture_output=True,
            text=True,
        )
        assert run.returncode == EXPECTED[name][0], run.stdout + run.stderr
        assert "Traceback" not in run.stderr


def test_written_record_reads_back(tmp_path: Path) -> None:
    session = Session(["Ann", "Bo", "Cy"], seed=5, blocked_game=False)
    for k in range(2):
        bots = [make_bot("vatikanen", "random", seed=k * 10 + s) for s in range(3)]
        play_out(session.game, bots)
        if k == 0:
            session.next_part()
    path = session.to_record().save(tmp_path / "game.json")
    record = load_record(path)
    assert record.options == {"blocked_game": False}
    assert [d.dealer for d in record.deals] == [2, 0]
    result = replay(record)
    assert result.ok and result.deals == 2
    assert list(result.scores) == json.loads(path.read_text())["result"]["scores"]


def test_every_play_records_its_table() -> None:
    game = VatikanenGame.from_position(["7h 8h 9h 2c", "3c"], opened=[False, False])
    game.play(game.best_opening(0) or pytest.fail("no opening"))
    assert game.log[0].table is not None
    with pytest.raises(ValueError, match="position"):
        game.to_record()


def test_record_of_a_seeded_game_is_exact() -> None:
    game = VatikanenGame(4, seed=21, dealer=2)
    bots = [make_bot("vatikanen", "random", seed=s) for s in range(4)]
    play_out(game, bots)
    record = game.to_record()
    assert record.deals[0].deck == game.deck and record.deals[0].dealer == 2
    assert len(record.deals[0].actions) == len(game.log)
    assert replay(record).ok
