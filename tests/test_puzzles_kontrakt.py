"""Kontraktsrummy puzzles (issue 43, item 2): lay the most cards this turn, judged by the
engine; made from a seat's view only."""

from __future__ import annotations

import io
import random

import pytest

from rummykit import games
from rummykit.cards import Card
from rummykit.cli.main import main
from rummykit.games.kontrakt import Discard, LayOff
from rummykit.puzzles import kontrakt as kp
from rummykit.puzzles import shipped
from rummykit.tui.commands import format_kontrakt
from test_review_secrecy import hidden_all_deal, swapped


def kontrakt_set() -> list[kp.KontraktPuzzle]:
    out = [p for p in shipped("kontrakt") if isinstance(p, kp.KontraktPuzzle)]
    assert len(out) == len(shipped("kontrakt"))
    return out


def rejudged(puzzle: kp.KontraktPuzzle) -> None:
    """Made again from its own view, the puzzle is the same; its solution is right."""
    again = kp.from_view(puzzle.view, source=puzzle.source)
    assert again == puzzle, puzzle.id
    verdict = kp.check(puzzle, kp.solution_actions(puzzle))
    assert verdict.right and verdict.laid == puzzle.best, (puzzle.id, verdict)


def test_the_shipped_kontrakt_set_is_there_and_varied() -> None:
    puzzles = kontrakt_set()
    assert len(puzzles) >= 500
    assert len({p.id for p in puzzles}) == len(puzzles)
    for theme in ("goes-out", "joker", "lay-off", "pile"):
        assert any(theme in p.themes for p in puzzles), theme
    assert min(p.rating for p in puzzles) < 1200 < max(p.rating for p in puzzles)


def test_a_seeded_sample_of_kontrakt_puzzles_is_rejudged_as_stored() -> None:
    for puzzle in random.Random(7).sample(kontrakt_set(), 40):
        rejudged(puzzle)


@pytest.mark.slow
def test_every_shipped_kontrakt_puzzle_is_rejudged_as_stored() -> None:
    for puzzle in kontrakt_set():
        rejudged(puzzle)


def test_a_kontrakt_turn_that_lays_fewer_is_told_how_many_more() -> None:
    tried = 0
    for puzzle in kontrakt_set():
        actions = kp.solution_actions(puzzle)
        if not isinstance(actions[-1], LayOff):
            continue
        verdict = kp.check(puzzle, actions[:-1])
        assert (verdict.right, verdict.legal, verdict.laid, verdict.more) == (
            False,
            True,
            puzzle.best - 1,
            1,
        )
        tried += 1
        if tried == 5:
            break
    assert tried


def test_an_illegal_kontrakt_turn_names_the_rule() -> None:
    puzzle = next(p for p in kontrakt_set() if not p.out)
    actions = kp.solution_actions(puzzle)
    assert kp.check(puzzle, []).rule == "K8"
    hand = puzzle.view["hand"]
    assert isinstance(hand, list)
    early = kp.check(puzzle, [Discard(puzzle.seat, Card.parse(hand[0]))])
    assert early.rule == "K8" and not early.right  # a discard that does not go out
    offs = [a for a in actions if isinstance(a, LayOff)]
    if offs:  # a lay-off before the contract is down
        verdict = kp.check(puzzle, [offs[0]])
        assert not verdict.legal and verdict.rule is not None and verdict.rule.startswith("K")


def first_deal(puzzles: object) -> list[dict[str, object]]:
    """The puzzles of deal 0, as JSON (the deal's end shows every hand: later deals may
    differ through the scores, which every seat sees)."""
    assert isinstance(puzzles, list)
    return [p.to_json() for p in puzzles if p.view["deal"] == 0]


def test_a_kontrakt_puzzle_holds_only_what_its_seat_saw() -> None:
    """Swap cards the seat never saw in deal 0: its puzzles of that deal stay the same."""
    spec = games.get("kontrakt")
    made = 0
    for record in kp.bot_records(6, seed=5):
        rng = random.Random(len(record.players))
        for seat in range(len(record.players)):
            mine = first_deal(list(kp.from_record(record, seat=seat)))
            made += len(mine)
            unseen = sorted(hidden_all_deal(spec, record, 0, seat))
            deck = record.deals[0].deck
            a = rng.choice(unseen)
            b = rng.choice([x for x in unseen if deck[x] != deck[a]])
            twin = swapped(record, 0, a, b)
            assert first_deal(list(kp.from_record(twin, seat=seat))) == mine
    assert made > 0


def test_the_terminal_solves_a_kontrakt_puzzle(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = kontrakt_set()[0]
    typed = "".join(format_kontrakt(a) + "\n" for a in kp.solution_actions(puzzle))
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nfold\n" + typed + "\n"))
    code = main(["puzzle", "--game", "kontrakt", "--id", puzzle.id, "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "The contract:" in out and "Unknown command 'fold'" in out
    assert "Right! That is the most there is." in out


def test_the_terminal_tells_a_wrong_kontrakt_turn_in_swedish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = next(p for p in kontrakt_set() if isinstance(kp.solution_actions(p)[-1], LayOff))
    actions = kp.solution_actions(puzzle)[:-1]
    typed = "".join(format_kontrakt(a, "sv") + "\n" for a in actions)
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "ok\n"))
    code = main(["puzzle", "--game", "kontrakt", "--id", puzzle.id, "--lang", "sv"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "Tillåtet, men det lägger" in out and "1 kort till" in out


def pile_puzzles() -> list[kp.KontraktPuzzle]:
    return [p for p in kontrakt_set() if kp.PILE in p.themes]


def test_k8_a_pile_puzzle_needs_the_pile_s_top_and_a_stock_draw_is_told_why() -> None:
    """Asked before the draw (K8): the hand alone cannot lay its contract this turn, with
    the pile's top it can; the stored turn takes the top and is right; a draw from the
    stock (whose card nobody can know) is wrong, told by K8, with the cards missed."""
    from rummykit.games.kontrakt import Draw
    from rummykit.games.kontrakt.view import kontrakt_view
    from rummykit.review.laying import best_laying_from

    puzzles = pile_puzzles()
    assert len(puzzles) >= 100
    for puzzle in random.Random(3).sample(puzzles, 20):
        view = kontrakt_view(puzzle.view)
        assert view["phase"] == "draw" and view["turn"] == puzzle.seat
        hand = [Card.parse(c) for c in view["hand"] or []]
        top = Card.parse(view["discard_pile"][-1])
        assert not best_laying_from(view, hand).complete
        assert best_laying_from(view, [*hand, top]).complete
        actions = kp.solution_actions(puzzle)
        assert actions[0] == Draw(puzzle.seat, "discard")
        assert kp.check(puzzle, actions).right
        stock = kp.check(puzzle, [Draw(puzzle.seat, "stock")])
        assert (stock.right, stock.rule, stock.laid, stock.more) == (False, "K8", 0, puzzle.best)
        rejudged(puzzle)


def test_the_terminal_tells_a_stock_draw_in_a_pile_puzzle_then_takes_the_top(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = pile_puzzles()[0]
    monkeypatch.setattr("sys.stdin", io.StringIO("draw\n"))
    code = main(["puzzle", "--game", "kontrakt", "--id", puzzle.id, "--lang", "sv"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "K8" in out and "högens översta kort" in out
    typed = "".join(format_kontrakt(a) + "\n" for a in kp.solution_actions(puzzle))
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    code = main(["puzzle", "--game", "kontrakt", "--id", puzzle.id, "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "draw discard" in out and "Right! That is the most there is." in out


def test_a_pile_puzzle_s_hint_names_the_pile_s_top_even_when_the_turn_goes_out() -> None:
    """A pile puzzle is asked before the draw, and its idea is the pile's top: a hint of
    "you can go out" leaves the player to draw from the stock, which is wrong at once."""
    puzzles = pile_puzzles()
    assert any(kp.GOES_OUT in p.themes for p in puzzles)
    assert all(p.theme == kp.PILE for p in puzzles)
    others = [p for p in kontrakt_set() if kp.PILE not in p.themes]
    assert all(p.theme == p.themes[0] for p in others)


def test_the_terminal_does_not_call_a_stock_draw_illegal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Drawing from the stock is a legal draw (K8), only not the best one in a puzzle of
    the pile's top: the terminal says so, in both languages, not "Not legal"."""
    puzzle = pile_puzzles()[0]
    for lang, illegal, legal in (("en", "Not legal", "Legal"), ("sv", "Inte tillåtet", "Tillåtet")):
        monkeypatch.setattr("sys.stdin", io.StringIO("draw\n"))
        code = main(["puzzle", "--game", "kontrakt", "--id", puzzle.id, "--lang", lang])
        out = capsys.readouterr().out
        assert code == 1, out
        told = next(line for line in out.splitlines() if "K8" in line)
        assert illegal not in told and legal in told, told
