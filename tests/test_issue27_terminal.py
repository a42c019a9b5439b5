"""Issue 27, terminal play: each item a new user hit, as a test that failed before the mend.

Tests are named ``test_defect<N>_...`` (the issue's defects), ``test_friction_...``,
``test_resume_...`` and ``test_watch_...``.
"""

from __future__ import annotations

from pathlib import Path

from rummykit.games import vatikanen as v
from rummykit.tui.controller import Controller
from rummykit.tui.setup import make_controller


def vatikanen_position(
    tmp_path: Path, hands: list[str], table: list[str] = (), opened: list[bool] | None = None
) -> Controller:
    """A Vatikanen controller whose current game is set up from a position (seat 0 to act)."""
    c = make_controller("vatikanen", players=len(hands), seed=1, records=tmp_path)
    game = v.VatikanenGame.from_position(hands, list(table), opened=opened)
    game.players = c.adapter.session.players  # type: ignore[misc]
    c.adapter.session.games[-1] = game
    return c


def test_defect1_a_second_play_while_a_play_is_staged_says_the_play_is_staged(
    tmp_path: Path,
) -> None:
    c = vatikanen_position(tmp_path, ["7h 8h 9h 2c 5d", "Kc Kd Ks 4s 6s"], opened=[False, False])
    assert c.submit("play 7h 8h 9h").kind == "info" and c.staged
    for again in ("play 2c", "play 7h 8h 9h", "draw"):
        reply = c.submit(again)
        assert reply.kind == "error", again
        assert "staged" in reply.text and "confirm" in reply.text and "undo" in reply.text
        assert "turn" not in reply.text
        assert len(c.staged) == 1 and not c.adapter.current.opened(0)


def test_defect3_vatikanen_table_syntax_is_vatikanen_not_kontrakt(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["7h 8h 9h 2c 5d", "Kc Kd Ks 4s 6s"])
    for text in ("play 3s |", "play 3s | 3s 4s 5s |"):
        reply = c.submit(text)
        assert reply.kind == "error"
        assert "meld 7h" not in reply.text and "play 7h |" in reply.text
    assert (
        "discard Qs" in make_controller("kontrakt", seed=1, records=tmp_path).submit("discard").text
    )


def test_defect4_a_gap_in_a_run_is_named_once_not_an_ace(tmp_path: Path) -> None:
    c = vatikanen_position(tmp_path, ["3s 8s Qs 2c 5d", "Kc Kd Ks 4s 6s"], opened=[False, False])
    reply = c.submit("play 3s 8s Qs")
    assert reply.kind == "error"
    assert "ace" not in reply.text and "gap between 3 and 8" in reply.text
    assert reply.text.count("V5") + reply.text.count("V7") == 2  # V7 first play, V5 its reason
