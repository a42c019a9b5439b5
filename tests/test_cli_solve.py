"""``rummykit solve``: answers, JSON, batches and bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_V9_solve_text_marks_played_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "Tc Th Th Ts | 7s 8s 9s", "--hand", "Js")
    assert code == 0
    assert "play: Js" in out
    assert "7s 8s 9s Ts [Js]" in out


def test_solve_json_exact_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "7h 8h 9h | Kc Kd *", "--hand", "Th Jh Ks", "--json")
    assert code == 0
    obj = json.loads(out)
    assert set(obj) == {"playable", "play", "table", "cards", "points", "ms"}
    assert obj["playable"] is True and obj["cards"] == 3 and obj["points"] == 30
    assert sorted(obj["play"]) == ["Jh", "Ks", "Th"]
    assert ["Kc", "Kd", "Ks", "*:K"] in obj["table"]


def test_solve_nothing_playable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "7h 8h 9h", "--hand", "2c", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["playable"] is False and obj["play"] == [] and obj["table"] == [["7h", "8h", "9h"]]


def test_V7_solve_opening(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--hand", "5h 6h 7h 9c", "--opening", "--json")
    assert code == 0
    assert json.loads(out)["table"] == [["5h", "6h", "7h"]]


def test_V11_solve_free_jokers_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    table = "7h 8h 9h *:Th | 6s 7s 8s"
    assert (
        json.loads(run(capsys, "--table", table, "--hand", "Ts", "--json")[1])["playable"] is False
    )
    out = run(capsys, "--table", table, "--hand", "Ts", "--free-jokers", "--json")[1]
    assert json.loads(out)["playable"] is True
    out = run(capsys, "--table", "Jh Qh Kh", "--hand", "Ah", "--rules", "kontrakt", "--json")[1]
    assert json.loads(out)["playable"] is False


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["--table", "7h 8h 9x", "--hand", "Th"], "9x"),
        (["--table", "7h 8h Tc", "--hand", "Th"], "not a meld"),
        (["--table", "7h 8h 9h | 7h 7d 7s", "--hand", "7h"], "7h"),
        (["--table", "7h 8h * | Kc Kd *", "--hand", "*"], "jokers"),
        (["--table", "7h 8h 9h", "--hand", "Zz"], "Zz"),
    ],
)
def test_solve_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert word in err


def test_solve_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = [
        {"table": "Tc Th Th Ts | 7s 8s 9s", "hand": "Js"},
        {"table": "", "hand": "5h 6h 7h", "opening": True},
        {"table": "Jh Qh Kh", "hand": "Ah", "rules": "kontrakt", "objective": "points"},
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    code, out, _ = run(capsys, "--batch", str(path), "--json")
    assert code == 0
    answers = [json.loads(x) for x in out.splitlines()]
    assert [a["playable"] for a in answers] == [True, True, False]
    path.write_text('{"table": "7h 8h 9h", "hand": "Th"}\n{"table": "7h", "hand": "8h"}\n')
    code, out, _ = run(capsys, "--batch", str(path))
    assert code == 2 and "line 2: error:" in out and "line 1:" in out


def test_V11_table_run_joker_in_a_group_of_its_rank(capsys: pytest.CaptureFixture[str]) -> None:
    # A table joker keeps standing for its card (V11) and counts as that card in a
    # group of its rank (V12), as the solver's own answers may place it.
    code, out, _ = run(capsys, "--table", "6c 6s *:6d", "--hand", "6h 2c", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["play"] == ["6h"]
    assert sorted(obj["table"][0]) == sorted(["6c", "6s", "6h", "*:6d"])
    # where a group's colours must differ, the joker takes its colour's place
    code, _, err = run(capsys, "--table", "6c 6d *:6d", "--hand", "2c", "--rules", "rummikub")
    assert code == 2 and "repeats a colour" in err
    code, out, _ = run(
        capsys, "--table", "6c 6s *:6d", "--hand", "6h", "--rules", "rummikub", "--json"
    )
    assert code == 0 and json.loads(out)["play"] == ["6h"]


def _batch(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_solve_batch_applies_the_command_lines_rules_to_every_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _batch(tmp_path, '{"hand": "Qh Kh Ah"}', '{"hand": "Qh Kh Ah", "rules": "vatikanen"}')
    code, out, _ = run(capsys, "--batch", path, "--rules", "kontrakt", "--json")
    assert code == 0
    kontrakt, own = (json.loads(line) for line in out.splitlines())
    assert kontrakt["playable"] is False  # K5: the ace is low only, Q-K-A is no run
    assert own["playable"] is True and own["cards"] == 3  # the line's own rules win


def test_solve_batch_applies_opening_and_objective_to_every_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _batch(
        tmp_path,
        '{"hand": "2h 3h 4h 5h Qs Ks As 9c 9d 9s"}',
        '{"hand": "2h 3h 4h 5h Qs Ks As 9c 9d 9s", "objective": "cards", "opening": false}',
    )
    code, out, _ = run(capsys, "--batch", path, "--opening", "--objective", "points", "--json")
    assert code == 0
    opening, own = (json.loads(line) for line in out.splitlines())
    assert sorted(opening["play"]) == ["As", "Ks", "Qs"]  # V7: one run, the most points
    assert own["cards"] == 10


def test_solve_batch_applies_free_jokers_to_every_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    line = '{"table": "4h 5h 6h *", "hand": "Qs Ks"}'
    code, out, _ = run(capsys, "--batch", _batch(tmp_path, line), "--free-jokers", "--json")
    assert code == 0
    assert json.loads(out)["playable"] is True  # the wild table joker completes Qs Ks
    code, out, _ = run(capsys, "--batch", _batch(tmp_path, line), "--json")
    assert json.loads(out)["playable"] is False  # V11: it stands for 7h
