"""Terminal hints: a hint offers only what the engine then accepts, on the person's turn.

A hint's command is put in the command line, where Enter takes it: so every
hint with a command must be one the engine stages or takes as it stands, and
no hint offers a move when the person cannot move (a bot's turn, a staged
play that ends the turn).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit.cards import Card
from rummykit.games import vatikanen as v
from rummykit.tui.controller import Controller
from rummykit.tui.render import card_label
from rummykit.tui.setup import make_controller
from test_tui_play_resume_watch import kontrakt_position


def bots_move(c: Controller) -> None:
    while c.bot_to_act():
        c.bot_step()


def test_V4_best_play_is_none_when_it_is_not_the_seats_turn() -> None:
    game = v.VatikanenGame.from_position(["7h 8h 9h 5c", "3c 3d 3h Kc"], [], opened=[True, True])
    assert game.to_act == 0
    assert game.best_play(1) is None and game.best_opening(1) is None
    best = game.best_play(0)
    assert best is not None and game.can(best)


def test_V4_a_hint_on_a_bots_turn_offers_no_play(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, bots="greedy", seed=11, records=tmp_path)
    bots_move(c)
    assert c.submit("draw").kind == "done"
    assert c.bot_to_act()  # the bot has not moved yet (it thinks while the person types)
    reply = c.submit("hint")
    assert reply.prefill is None
    assert "Astrid" in reply.text and "your own turn" in reply.text


def test_V4_a_hint_with_a_staged_play_offers_no_second_play(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, bots="strong", seed=11, records=tmp_path)
    bots_move(c)
    for _ in range(5):
        assert c.submit("draw").kind == "done"
        bots_move(c)
    assert c.submit("play 7d * 9d Td").kind == "info" and c.staged
    reply = c.submit("hint")
    assert reply.prefill is None
    assert "staged" in reply.text and "undo" in reply.text
    assert c.submit("undo").kind == "info"
    again = c.submit("hint")
    assert again.prefill is not None and again.prefill.startswith("play ")
    assert c.submit(again.prefill).kind == "info" and c.staged


@pytest.mark.parametrize("seed", [3, 11])
def test_V4_every_vatikanen_hint_command_is_accepted_by_the_engine(
    seed: int, tmp_path: Path
) -> None:
    """A whole game (till it ends or 60 turns): on each of the person's turns the hint's
    command is staged as it stands; the person then draws (or plays when the stock is out)."""
    c = make_controller("vatikanen", players=3, bots="greedy", seed=seed, records=tmp_path)
    for _ in range(60):
        bots_move(c)
        if c.adapter.game_over():
            break
        reply = c.submit("hint")
        assert reply.prefill is not None, reply.text
        staged = c.submit(reply.prefill)
        assert staged.kind != "error", (reply.prefill, staged.text)
        if c.staged and c.adapter.current.stock_size:
            c.submit("undo")
            c.submit("draw")
        elif c.staged:
            c.submit("ok")
        if c.bot_to_act():  # and no hint offers the person a move on a bot's turn
            assert c.submit("hint").prefill is None


def test_K8_the_hint_before_drawing_takes_the_discard_when_it_helps(tmp_path: Path) -> None:
    c = kontrakt_position(tmp_path, "3c 3d 4h 5h 2h 9c Kd Qs 8d 7c", top="3s")
    reply = c.submit("hint")
    assert reply.prefill == "draw discard"
    assert "3♠" in reply.text and "discard pile" in reply.text and "contract" in reply.text
    assert c.submit(reply.prefill).kind == "done" and "3s" in c.hand()


def test_K8_the_hint_before_drawing_draws_from_the_stock_when_the_discard_does_not_help(
    tmp_path: Path,
) -> None:
    c = kontrakt_position(tmp_path, "3c 3d 4h 5h 2h 9c Kd Qs 8d 7c", top="Jd")
    reply = c.submit("hint")
    assert reply.prefill == "draw"
    assert "J♦" in reply.text and "does not help" in reply.text
    assert c.submit(reply.prefill).kind == "done"


@pytest.mark.parametrize(("seed", "answer"), [(0, "decline"), (1, "take")])
def test_K7_the_hint_at_the_upcard_offer_reads_the_upcard(
    seed: int, answer: str, tmp_path: Path
) -> None:
    c = make_controller("kontrakt", players=3, seed=seed, records=tmp_path)
    bots_move(c)
    view = c.real_view()
    assert view["phase"] == "upcard_offer" and view["turn"] == 0
    up = c.adapter.engine.view(0)["discard_pile"][-1]
    reply = c.submit("hint")
    assert reply.prefill == answer
    assert card_label(Card.parse(up)) in reply.text
    assert c.submit(reply.prefill).kind == "done"


@pytest.mark.parametrize(("seed", "answer"), [(0, "buy"), (6, "pass")])
def test_K7_the_hint_to_a_player_asked_to_buy_the_upcard_says_buy_or_pass(
    seed: int, answer: str, tmp_path: Path
) -> None:
    from rummykit.games.kontrakt import KontraktGame

    c = make_controller("kontrakt", players=3, seed=seed, records=tmp_path)
    c.adapter.game_obj = KontraktGame(c.adapter.names, seed=seed, dealer=0)  # förhand: seat 1
    bots_move(c)
    view = c.real_view()
    assert view["phase"] == "upcard_offer" and view["turn"] == 0 and view["forhand"] == 1
    reply = c.submit("hint")
    assert reply.prefill == answer and "upcard" in reply.text
    assert c.submit(reply.prefill).kind == "done"
