"""The command line as a new user meets it: what ``replay``, ``solve`` (with ``--batch``)
and ``simulate`` say, on good input and bad, and that the help and the docs name the rules.

Each test is something a new user hit, written so that it failed before the mend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kontrakt_helpers import build_deck
from rummykit.cards import full_deck
from rummykit.cli import main
from rummykit.games.vatikanen import Session

RECORDS = Path(__file__).parent / "records" / "vatikanen"


def kontrakt_meld_record(tmp_path: Path, meld: str) -> Path:
    """A two-player Kontrakt record in which förhand takes the upcard and lays ``meld``."""
    deck = build_deck(2, {0: "4c 5c 8c 4d 5d 6h 9s Ts Js Ks"}, dealer=1)
    doc = {
        "format": "rummykit-record/1",
        "game": "kontrakt",
        "players": ["You", "Astrid"],
        "deals": [
            {
                "dealer": 1,
                "deck": [str(c) for c in deck],
                "actions": [
                    {"seat": 0, "type": "take_upcard"},
                    {"seat": 0, "type": "meld", "melds": [meld.split()]},
                ],
            }
        ],
    }
    path = tmp_path / "meld.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("meld", "words"),
    [("4c 5c 8c", "there is a gap between 5 and 8"), ("4c 5d 8c", "nor a group")],
)
def test_kontrakt_meld_errors_name_the_cause_and_the_rule_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], meld: str, words: str
) -> None:
    path = kontrakt_meld_record(tmp_path, meld)
    assert main(["replay", "--json", str(path)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["rule"] == "K5" and words in answer["message"]
    assert "ace" not in answer["message"] and "K5" not in answer["message"]
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("K5") == 1 and "(K5, K5)" not in out and words in out


def test_replay_json_on_a_file_that_is_not_a_record_prints_a_json_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a record at all")
    assert main(["replay", "--json", str(path)]) == 2
    answer = json.loads(capsys.readouterr().out)
    assert answer["ok"] is False and answer["error"] == "not a record"
    assert "not valid JSON" in answer["message"]


def test_replay_json_includes_the_claimed_scores_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((RECORDS / "legal_going_out.json").read_text())
    doc["result"] = {"scores": [1, -1]}
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", "--json", str(path)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["claimed_scores"] == [1, -1]
    assert "the record claims scores [1, -1], the replay gives [106, -106]" in answer["note"]


def unfinished_record(tmp_path: Path) -> Path:
    session = Session(["You", "Astrid"], seed=3)
    for _ in range(5):
        seat = session.to_act
        assert seat is not None
        session.apply(session.suggested_actions()[0])
    return session.to_record().save(tmp_path / "unfinished.json")


def test_an_unfinished_record_says_it_ends_mid_game_where_and_whose_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = unfinished_record(tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ends in game 1 after action 5" in out  # Vatikanen: a session of games
    assert "the player to act is Astrid" in out and "deal(s)" not in out
    assert main(["replay", "--json", str(path)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["finished"] is False and answer["to_act"] == 1


def test_a_finished_record_says_the_game_is_over(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(RECORDS / "legal_going_out.json")]) == 0
    assert "1 game replayed; the game is over." in capsys.readouterr().out


def test_replay_counts_deals_and_actions_from_1_for_people_and_0_in_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = RECORDS / "illegal_table_no_meld.json"  # deal index 0, action index 2
    assert main(["replay", str(path)]) == 1
    assert "illegal: game 1, action 3 breaks V9" in capsys.readouterr().out
    assert main(["replay", "--json", str(path)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["deal"], answer["action"]) == (0, 2)


def vatikanen_doc() -> dict[str, Any]:
    return {
        "format": "rummykit-record/1",
        "game": "vatikanen",
        "players": ["Anna", "Bo"],
        "deals": [
            {
                "dealer": 1,
                "deck": [str(c) for c in full_deck(2, 2)],
                "actions": [{"seat": 0, "type": "draw"}, {"seat": 1, "type": "draw"}],
            }
        ],
    }


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda d: d["deals"][0]["actions"].append({"seat": 0, "type": "play", "add": ["Zz"]}),
            "deal 1, action 3, field 'add': 'Zz' is not a card",
        ),
        (
            lambda d: d["deals"][0]["deck"].__setitem__(0, "Ks"),
            "deal 1: the deck is not vatikanen's deck: it has too many of Ks (3 of 2)"
            " and too few of Ac (1 of 2)",
        ),
        (
            lambda d: d.update(players=["Anna", "Bo", "Cy"]) or d["deals"][0].update(dealer=3),
            "deal 1: the dealer is seat 3, but the record names 3 players (seats 0 to 2)",
        ),
        (
            lambda d: d["deals"][0].pop("dealer"),
            "deal 1 has no 'dealer'",
        ),
    ],
)
def test_replay_errors_say_where_deal_action_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, words: str
) -> None:
    doc = vatikanen_doc()
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 2
    assert words in capsys.readouterr().err


def solve(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_batch_line_format_is_documented_in_help_and_docs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = capsys.readouterr().out
    for words in ('"hand"', '"table"', "--batch -", '"line"', "opening"):
        assert words in text
    docs = (Path(__file__).parent.parent / "docs" / "solver.md").read_text()
    assert "--batch -" in docs and '"line"' in docs


def test_solve_batch_reads_json_tables_optional_tables_and_goes_on_after_a_bad_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = solve(capsys, "--table", "7h 8h 9h", "--hand", "Th", "--json")
    printed = json.loads(out)["table"]
    lines = [
        json.dumps({"table": printed, "hand": "Jh"}),
        json.dumps({"hand": "5h 6h 7h", "opening": True}),
        "not json",
        json.dumps({"table": "7h", "hand": "8h"}),
        json.dumps({"table": [["Kc", "Kd", "*:K"]], "hand": ["Ks"]}),
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = solve(capsys, "--batch", str(path), "--json")
    answers = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and [a["line"] for a in answers] == [1, 2, 3, 4, 5]
    assert answers[0]["playable"] and answers[0]["cards"] == 1
    assert answers[1]["playable"] and answers[1]["cards"] == 3
    assert "error" in answers[2] and "error" in answers[3]
    assert answers[4]["playable"] and answers[4]["play"] == ["Ks"]
    assert "2 lines were bad" in err


def test_solve_batch_dash_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO('{"table": "7h 8h 9h", "hand": "Th"}\n'))
    code, out, _ = solve(capsys, "--batch", "-", "--json")
    assert code == 0 and json.loads(out)["play"] == ["Th"]


def test_solve_batch_with_table_or_hand_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"hand": "Th"}\n')
    for extra in (["--table", "7h 8h 9h"], ["--hand", "Th"]):
        code, out, err = solve(capsys, "--batch", str(path), *extra)
        assert code == 2 and out == "" and "--batch" in err


def test_solve_batch_text_output_separates_answers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"table": "7h 8h 9h", "hand": "Th"}\n{"table": "7h 8h 9h", "hand": "2c"}\n')
    code, out, _ = solve(capsys, "--batch", str(path))
    assert code == 0
    first, second = out.split("\n\n")
    assert first.startswith("line 1:") and second.startswith("line 2:")


def test_solve_says_1_card_not_1_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = solve(capsys, "--table", "7h 8h 9h", "--hand", "Th")
    assert code == 0 and "(1 card, 10 points" in out


def test_simulate_help_says_95_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "95%%" not in text and "95% interval" in text.replace("\n", " ").replace("  ", " ")


def test_simulate_names_the_bots_settings_for_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--game", "kontrakt", "--bots", "strong(foo=2)", "--games", "2"]
    assert main([*argv, "--workers", "1", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "the kontrakt bot 'strong' has no setting 'foo': its settings are" in err
    assert "__init__" not in err and "unexpected keyword" not in err
    assert err.count("\n") == 1


def test_simulate_quiet_prints_no_seed_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "vatikanen", "--bots", "random", "--games", "2"]
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "seed" in out


ROOT = Path(__file__).parent.parent


def test_the_rules_and_the_record_format_ship_in_docs_by_rule_id() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    for rule in [f"V{i}" for i in range(1, 17)] + [f"K{i}" for i in range(1, 16)]:
        assert f"**{rule} " in rules, rule
    record = (ROOT / "docs" / "record.md").read_text()
    for words in ('"finished"', '"to_act"', '"terminal"', "from 1", "not a record"):
        assert words in record
    assert (ROOT / "docs" / "rules-decisions.md").exists()


def test_readme_help_screens_and_help_link_the_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rummykit.tui.kontrakt_play import HELP as KONTRAKT_HELP
    from rummykit.tui.vatikanen_play import HELP as VATIKANEN_HELP

    readme = (ROOT / "README.md").read_text()
    for doc in ("docs/rules.md", "docs/record.md", "docs/rules-decisions.md"):
        assert f"({doc})" in readme
    assert "shared folder" not in readme
    for text in (VATIKANEN_HELP, KONTRAKT_HELP):
        assert "docs/rules.md" in text
    for argv in ([], ["play"], ["solve"], ["replay"], ["simulate"]):
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        assert "docs/rules.md" in capsys.readouterr().out.replace("\n", " "), argv


def test_the_help_says_what_the_engine_does_with_blocked_games_and_jokers() -> None:
    from rummykit.tui.vatikanen_play import HELP as text

    HELP = " ".join(text.replace("**", "").split())
    assert "V15" in HELP and "pays the winner the difference" in HELP
    assert "divided by the number" in HELP
    assert "V11" in HELP and "even from the joker's own" in HELP
    assert "One real card frees one joker" in HELP and "same play" in HELP


def test_a_record_that_stops_as_a_deal_is_dealt_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummykit.games.kontrakt import DealEnded, KontraktGame

    game = KontraktGame(["You", "Astrid"], seed=5)
    while True:
        if isinstance(game.apply(game.suggested_actions()[0]), DealEnded):
            break
    path = game.to_record().save(tmp_path / "between.json")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ends mid-game, as deal 2 is dealt: the player to act is" in out
