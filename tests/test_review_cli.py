"""``rummykit review``: the text in both languages, the JSON, ``--seat``, and the exit codes
(0 reviewed, 1 an illegal action, 2 not a record or no such seat)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from review_helpers import BO, RUN5, played
from rummykit.cli import main

RECORDS = Path(__file__).parent / "records"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["review", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def missed(tmp_path: Path) -> Path:
    """Anna draws while she could open with five hearts (V7); Bo draws."""
    record = played([RUN5, BO], [{"seat": 0, "type": "draw"}, {"seat": 1, "type": "draw"}])
    path = tmp_path / "missed.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def test_review_text_in_english(missed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(missed), "--lang", "en")
    assert code == 0
    assert "Review of Vatikanen (Anna, Bo)" in out
    assert "Anna: at the best in 0 of 1 turn; 5 cards more could have been laid" in out
    assert "game 1, action 1: Anna drew, but could have laid 5 cards: 5h 6h 7h 8h 9h." in out
    assert "Bo: at the best in 1 of 1 turn" in out


def test_review_text_in_swedish(missed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(missed), "--lang", "sv")
    assert code == 0
    assert "Genomgång av Vatikanen (Anna, Bo)" in out
    assert "parti 1, drag 1: Anna drog, men hade kunnat lägga 5 kort: 5h 6h 7h 8h 9h." in out
    assert "Turer där mer hade gått:" in out


def test_review_json_is_the_protocol_document(
    missed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, str(missed), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == "vatikanen"
    assert [(t["seat"], t["played"], t["best"]) for t in doc["turns"]] == [(0, 0, 5), (1, 0, 0)]
    assert [p["cards_missed"] for p in doc["players"]] == [5, 0]


def test_review_seat_keeps_that_seats_turns(
    missed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, str(missed), "--json", "--seat", "1")
    assert code == 0
    doc = json.loads(out)
    assert [t["seat"] for t in doc["turns"]] == [1] and doc["seat"] == 1
    code, out, _ = run(capsys, str(missed), "--seat", "1", "--lang", "en")
    assert "Anna" not in out.splitlines()[1] and "No turn where more was possible." in out


def test_review_exits_1_at_an_illegal_action_like_replay(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = RECORDS / "vatikanen" / "illegal_joker_moved.json"
    code, out, err = run(capsys, str(path), "--json")
    assert code == 1
    answer = json.loads(out)
    assert answer["ok"] is False and answer["rule"] == "V11"
    assert (answer["deal"], answer["action"]) == (0, 2)
    code, _, err = run(capsys, str(path), "--lang", "sv")
    assert code == 1
    assert "otillåtet: parti 1, drag 3 bryter mot V11: jokern som står för Q♥" in err


@pytest.mark.parametrize("name", ["broken_json.json", "broken_unknown_card.json"])
def test_review_exits_2_for_what_is_not_a_record(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(RECORDS / "vatikanen" / name), "--json")
    assert code == 2
    assert json.loads(out)["error"] == "not a record"
    assert err.startswith("rummykit review:")


def test_review_exits_2_for_no_such_seat(missed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(missed), "--seat", "2")
    assert code == 2
    assert "no seat 2" in err


def test_review_of_a_kontrakt_record(capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / "kontrakt" / "legal_K13_out_by_discard.json"
    code, out, _ = run(capsys, str(path), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == "kontrakt"
    assert all(t["played"] <= t["best"] for t in doc["turns"])
    code, out, _ = run(capsys, str(path), "--lang", "sv")
    assert code == 0 and out.startswith("Genomgång av Kontraktsrummy")
