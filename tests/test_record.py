"""Reading game records (RECORD.md): what is not a record at all exits 2."""

import json
from pathlib import Path

import pytest

from rummykit.cards import full_deck
from rummykit.cli import main
from rummykit.record import GameRecord, RecordError, load_record, parse_record


def vatikanen_doc(deck: list[str] | None = None) -> dict[str, object]:
    return {
        "format": "rummykit-record/1",
        "game": "vatikanen",
        "players": ["Anna", "Bo"],
        "options": {},
        "deals": [
            {
                "dealer": 1,
                "deck": deck if deck is not None else [str(c) for c in full_deck(2, 2)],
                "actions": [{"seat": 0, "type": "draw"}],
            }
        ],
    }


def write(tmp_path: Path, doc: object, raw: str | None = None) -> Path:
    path = tmp_path / "game.json"
    path.write_text(raw if raw is not None else json.dumps(doc))
    return path


def test_round_trip_through_json() -> None:
    record = parse_record(vatikanen_doc())
    again = parse_record(json.loads(record.dumps()))
    assert isinstance(again, GameRecord)
    assert again.to_json() == record.to_json()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(game="canasta"), "unknown game"),
        (lambda d: d.update(format="pgn"), "unknown format"),
        (lambda d: d.update(players="Anna"), "players"),
        (lambda d: d["deals"][0].update(dealer=5), "dealer"),
        (lambda d: d["deals"][0]["deck"].pop(), "the deck has 105 cards"),
        (lambda d: d["deals"][0]["deck"].__setitem__(0, "7x"), "is not a card"),
        (lambda d: d["deals"][0]["deck"].__setitem__(0, "2c"), "not vatikanen's deck"),
        (lambda d: d["deals"][0]["actions"].append({"seat": 0}), "type"),
        (
            lambda d: d["deals"][0]["actions"].append({"seat": 0, "type": "play", "add": ["Zz"]}),
            "is not a card",
        ),
    ],
)
def test_not_a_record(change, words: str) -> None:
    doc = vatikanen_doc()
    change(doc)
    with pytest.raises(RecordError, match=words):
        parse_record(doc)


def test_replay_exits_2_on_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, None, raw="{not json")
    assert main(["replay", str(path), "--json"]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out)["ok"] is False and "not valid JSON" in out.err


def test_replay_exits_2_on_unknown_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = vatikanen_doc()
    doc["deals"][0]["deck"][3] = "Xx"  # type: ignore[index]
    assert main(["replay", str(write(tmp_path, doc)), "--json"]) == 2
    assert "'Xx' is not a card" in capsys.readouterr().err


def test_replay_exits_2_on_missing_file(tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 2


def test_load_record_reads_a_file(tmp_path: Path) -> None:
    record = load_record(write(tmp_path, vatikanen_doc()))
    assert record.players == ("Anna", "Bo") and len(record.deals[0].actions) == 1
