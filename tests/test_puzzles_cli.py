"""The terminal's puzzles (issue 43): ``rummykit puzzle`` with good and bad input, in both
languages, and ``rummykit puzzles make`` from records and from bot games."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rummykit.cli.main import main
from rummykit.puzzles import bot_records, load, shipped, write
from rummykit.puzzles.maker import from_position

ID = "1b0643c0f8"
"""A shipped puzzle (split the run): its one best answer lays 3c 2h 3h 2s."""


def solve(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["puzzle", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_puzzle_is_in_the_shipped_set() -> None:
    puzzle = next(p for p in shipped() if p.id == ID)
    assert sorted(puzzle.solution_add) == sorted(["3c", "2h", "3h", "2s"])
    assert puzzle.answers == 1 and puzzle.theme == "split"


def test_a_right_answer_is_told_right_after_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "hint\nfold\nplay Zz\ndraw\n\nhelp\nplay 3c 2h 3h 2s\n"
    code, out, _ = solve(monkeypatch, capsys, typed, "--id", ID, "--lang", "en")
    assert code == 0
    assert "Puzzle 1b0643c0f8" in out and "Your hand:" in out
    assert "split the run" in out  # the hint
    assert "Unknown command 'fold'" in out  # a sentence on its own line
    assert "'Zz' is not a card" in out
    assert "not by drawing or passing" in out
    assert "Right! That is the most there is." in out
    assert "As typed: play 3c 2h 3h 2s | " in out


def test_a_best_answer_with_its_whole_table_written_is_right(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    table = "4d 5d 6d 7d 8d 9d | 5c 5c 5s | 6c 6h 6h | 9c 9h 9h | 2c 3c 4c | Ah Ad Ad As"
    typed = f"play 2s 3h 3c 2h | {table} | 2h 2h 2s | 3h 3c 3h\n"
    code, out, _ = solve(monkeypatch, capsys, typed, "--id", ID, "--lang", "en")
    assert code == 0 and "Right!" in out


def test_a_smaller_answer_is_told_how_many_more(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """RULES.md V9's example as a puzzle file: Js alone is legal, Js Qs the most."""
    puzzle = from_position([["Tc", "Th", "Th", "Ts"], ["7s", "8s", "9s"]], ["Js", "Qs", "5d"])
    assert puzzle is not None
    write([puzzle], tmp_path / "v9.jsonl")
    code, out, _ = solve(
        monkeypatch, capsys, "play Js\n", "--file", str(tmp_path / "v9.jsonl"), "--lang", "en"
    )
    assert code == 1
    assert "Legal, but it lays 1 card: 1 more card could be laid." in out
    assert "The solution: J♠ Q♠ (2 cards)" in out


def test_an_illegal_answer_is_told_its_rule_in_swedish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = solve(monkeypatch, capsys, "spela Ks\n", "--id", ID, "--lang", "sv")
    assert code == 1
    assert "Inte tillåtet (V4): du har inte K♠ på handen" in out
    assert "Bordet:" in out and "Lösningen: " in out and "Som du skriver det: spela " in out
    code, out, _ = solve(
        monkeypatch, capsys, "spela 3k | 3k\n", "--id", ID, "--lang", "sv"
    )  # a table that drops every old meld
    assert code == 1 and "Inte tillåtet (V9)" in out


def test_the_end_of_input_or_quit_shows_the_solution(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = solve(monkeypatch, capsys, "", "--id", ID, "--lang", "en")
    assert code == 0 and "The solution: " in out
    code, out, _ = solve(monkeypatch, capsys, "quit\n", "--rating", "1800", "--seed", "2")
    assert code == 0 and "The solution: " in out


def test_a_puzzle_near_the_rating_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for rating in (700, 1500, 2300):
        _, out, _ = solve(monkeypatch, capsys, "", "--rating", str(rating), "--lang", "en")
        shown = int(out.split("(rating ", 1)[1].split(")", 1)[0])
        assert abs(shown - rating) <= 150


def test_bad_arguments_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = solve(monkeypatch, capsys, "", "--id", "nosuchid", "--lang", "en")
    assert code == 2 and "there is no puzzle nosuchid" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    code, _, err = solve(monkeypatch, capsys, "", "--file", str(bad), "--lang", "en")
    assert code == 2 and "cannot read" in err
    with pytest.raises(SystemExit) as exc:
        main(["puzzle", "--rating", "high"])
    assert exc.value.code == 2


def test_puzzles_make_from_records_and_bots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for g, record in enumerate(bot_records(2, seed=21)):
        record.save(folder / f"game{g}.json")
    out = tmp_path / "made.jsonl.gz"
    assert main(["puzzles", "make", "--from", str(folder), "--out", str(out)]) == 0
    from_records = load(out)
    assert from_records and "from 2 games written to" in capsys.readouterr().out
    assert main(["puzzles", "make", "--bots", "2", "--seed", "21", "--out", str(out)]) == 0
    assert [p.id for p in load(out)] == [p.id for p in from_records]  # the same games


def test_puzzles_make_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = str(tmp_path / "p.jsonl")
    assert main(["puzzles", "make", "--out", out, "--lang", "en"]) == 2
    assert "--from RECORDS" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nonsense"}')
    assert main(["puzzles", "make", "--from", str(bad), "--out", out]) == 2
    assert main(["puzzles"]) == 2


def test_the_help_of_both_commands_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    for lang, words in (("en", "find the play that lays the most"), ("sv", "flest kort")):
        for argv in (["puzzle"], ["puzzles"], ["puzzles", "make"]):
            with pytest.raises(SystemExit) as exc:
                main(["--lang", lang, *argv, "--help"])
            assert exc.value.code == 0
            text = " ".join(capsys.readouterr().out.split())
            assert "docs/puzzles.md" in text or argv == ["puzzles", "make"], (lang, argv)
            if argv == ["puzzle"]:
                assert words in text


def test_puzzles_make_keeps_one_idea_or_leaves_it_out_and_appends(tmp_path: Path) -> None:
    out = tmp_path / "k.jsonl"
    argv = ["puzzles", "make", "--game", "kontrakt", "--bots", "4", "--seed", "5001"]
    assert main([*argv, "--theme", "pile", "--out", str(out)]) == 0
    piles = load(out)
    assert piles and all("pile" in p.themes for p in piles)
    assert main([*argv, "--skip-theme", "pile", "--append", "--out", str(out)]) == 0
    both = load(out)
    assert [p.id for p in both[: len(piles)]] == [p.id for p in piles]  # kept, in order
    rest = both[len(piles) :]
    assert rest and not any("pile" in p.themes for p in rest)


def test_the_help_of_the_puzzle_commands_speaks_of_both_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Both commands make and ask Kontrakt puzzles too (--game kontrakt): their help says so,
    and says nothing of Vatikanen's games alone."""
    for lang, alone in (("en", "Vatikanen puzzle"), ("sv", "Vatikanenproblem")):
        for argv in (["puzzle"], ["puzzles"], ["puzzles", "make"], []):
            with pytest.raises(SystemExit) as exc:
                main(["--lang", lang, *argv, "--help"])
            assert exc.value.code == 0
            text = " ".join(capsys.readouterr().out.split())
            assert alone not in text and "finished Vatikanen" not in text, (lang, argv)
            assert "avslutade Vatikanen" not in text, (lang, argv)
            if argv != ["puzzles", "make"]:
                assert "Kontraktsrummy" in text, (lang, argv)
