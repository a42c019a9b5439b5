"""``rummykit puzzle``: solve a Vatikanen puzzle in the terminal.

It shows a puzzle of the shipped set (``docs/puzzles.md``) near ``--rating``
(or ``--id``, or one of ``--file``), then reads the answer from standard input
in the terminal game's syntax (:func:`~rummykit.tui.commands.parse_vatikanen`,
``docs/playing.md``): ``play 7h 8h`` (the table arranged for you) or ``play 7h
| 7h 8h 9h | Tc Th Ts`` (the whole new table). ``hint`` names the idea, ``help``
the syntax, ``quit`` shows the solution. Text that is no answer is said so and
asked again; the first play is judged (:func:`~rummykit.puzzles.check`): right,
or wrong and why (the rule broken, or how many more cards could be laid), and
the solution is shown.

Exit 0 for a right answer (or quit, or the end of the input), 1 for a wrong
one, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from rummykit.cards import Card
from rummykit.cli.words import Commands, speaker
from rummykit.errors import MessageError, as_sentence
from rummykit.games import kontrakt as k
from rummykit.games import vatikanen as v
from rummykit.games.kontrakt.view import kontrakt_view
from rummykit.i18n import DEFAULT, N_, Plural, translate
from rummykit.puzzles import Puzzle, check, load, near, shipped
from rummykit.puzzles import kontrakt as kp
from rummykit.puzzles.analysis import GOES_OUT, JOKER, REARRANGE, SPLIT
from rummykit.puzzles.checker import Verdict
from rummykit.puzzles.store import AnyPuzzle
from rummykit.tui.commands import (
    UiCommand,
    format_kontrakt,
    format_vatikanen,
    parse_kontrakt,
    parse_vatikanen,
)

THEME_WORDS = {
    GOES_OUT: N_("you can go out: every card of your hand can be laid"),
    JOKER: N_("a joker can be freed"),
    SPLIT: N_("split the run"),
    REARRANGE: N_("rearrange the table"),
    kp.LAY_OFF: N_("lay the contract, then lay cards off"),
    kp.CONTRACT: N_("lay the contract"),
    kp.PILE: N_("take the discard pile's top: with it the contract can be laid now"),
}
"""The hint of each idea (``analysis.THEMES``)."""

HOW = N_(
    "Type your play: play 7h 8h 9h (the table is arranged for you), or play 7h | 7h 8h 9h"
    " | Tc Th Ts (after the first |, the whole new table). hint: the idea; quit: the"
    " solution."
)


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "puzzle",
        help=_("solve a puzzle: the best play from a real position"),
        description=_(
            "A Vatikanen or Kontraktsrummy puzzle from a real position: find the play"
            " that lays the most cards (docs/puzzles.md)."
        ),
    )
    p.add_argument(
        "--game",
        choices=("vatikanen", "kontrakt"),
        default="vatikanen",
        help=_("the game (default vatikanen)"),
    )
    p.add_argument(
        "--rating", type=int, default=1200, help=_("a puzzle near this rating (default 1200)")
    )
    p.add_argument("--id", help=_("the puzzle with this id"))
    p.add_argument("--file", metavar="FILE", help=_("take the puzzle from this puzzle file"))
    p.add_argument("--seed", type=int, help=_("choose the puzzle with this seed"))
    p.set_defaults(handler=run)


def _pretty(cards: Sequence[str]) -> str:
    return " ".join(Card.parse(c).pretty() for c in cards)


def _show(puzzle: Puzzle, lang: str, out: TextIO) -> None:
    print(
        translate(
            "Puzzle {id} (rating {rating}): lay as many cards from your hand as you can.",
            lang,
            id=puzzle.id,
            rating=puzzle.rating,
        ),
        file=out,
    )
    print(translate("The table:", lang), file=out)
    for n, meld in enumerate(puzzle.table, 1):
        print(f"  {n:>2}  {_pretty(meld)}", file=out)
    print(translate("Your hand: {cards}", lang, cards=_pretty(puzzle.hand)), file=out)
    print(translate(HOW, lang), file=out)


def _solution(puzzle: Puzzle, lang: str, out: TextIO) -> None:
    add = tuple(Card.parse(c) for c in puzzle.solution_add)
    table = tuple(tuple(Card.parse(c) for c in m) for m in puzzle.solution_table)
    play = v.Play(0, add, table)
    print(
        translate(
            "The solution: {cards} ({laid})",
            lang,
            cards=_pretty(puzzle.solution_add),
            laid=Plural("{n} card", "{n} cards", puzzle.best),
        ),
        file=out,
    )
    print(translate("The new table:", lang), file=out)
    for n, meld in enumerate(puzzle.solution_table, 1):
        print(f"  {n:>2}  {_pretty(meld)}", file=out)
    print(translate("As typed: {text}", lang, text=format_vatikanen(play, lang)), file=out)
    if puzzle.answers > 1:
        print(
            translate(
                "{answers} lay as many cards.",
                lang,
                answers=Plural("{n} different answer", "{n} different answers", puzzle.answers),
            ),
            file=out,
        )


def _pick(args: argparse.Namespace, lang: str) -> AnyPuzzle | str:
    """The puzzle asked for, or what is wrong with the asking."""
    try:
        puzzles = load(args.file) if args.file else list(shipped(args.game))
    except (OSError, ValueError) as exc:
        return translate("cannot read {file}: {error}", lang, file=args.file, error=str(exc))
    if args.id is not None:
        for puzzle in puzzles:
            if puzzle.id == args.id:
                return puzzle
        return translate("there is no puzzle {id}", lang, id=args.id)
    if not puzzles:
        return translate("there are no puzzles in {file}", lang, file=args.file)
    return near(puzzles, args.rating, random.Random(args.seed))


def _judge(verdict: Verdict, lang: str, out: TextIO, *, stock: bool = False) -> bool:
    """Say whether the answer judged ``verdict`` is right and why; True when it is. With
    ``stock`` the answer is a draw from the stock: legal (K8), but not the pile's top."""
    if verdict.right:
        print(translate("Right! That is the most there is.", lang), file=out)
    elif stock:
        assert verdict.reason is not None
        print(
            translate(
                "Legal, but not the best ({rule}): {reason}",
                lang,
                rule=verdict.rule,
                reason=verdict.reason,
            ),
            file=out,
        )
    elif not verdict.legal:
        assert verdict.reason is not None
        print(
            translate(
                "Not legal ({rule}): {reason}",
                lang,
                rule=verdict.rule,
                reason=verdict.reason,
            ),
            file=out,
        )
    else:
        print(
            translate(
                "Legal, but it lays {laid}: {more} could be laid.",
                lang,
                laid=Plural("{n} card", "{n} cards", verdict.laid),
                more=Plural("{n} more card", "{n} more cards", verdict.more),
            ),
            file=out,
        )
    return verdict.right


def run(args: argparse.Namespace) -> int:
    """Show a puzzle, judge the answer read from standard input, show the solution."""
    lang = getattr(args, "lang", DEFAULT)
    out = sys.stdout
    picked = _pick(args, lang)
    if isinstance(picked, str):
        print(picked, file=sys.stderr)
        return 2
    if isinstance(picked, kp.KontraktPuzzle):
        return _run_kontrakt(picked, lang, out)
    puzzle = picked
    _show(puzzle, lang, out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = sys.stdin.readline(4096)
        if not line:
            print(file=out)
            _solution(puzzle, lang, out)
            return 0
        try:
            action = parse_vatikanen(line, 0, lang)
        except MessageError as exc:
            print(as_sentence(exc.translated(lang)), file=out)
            continue
        if isinstance(action, UiCommand):
            if action.name == "quit":
                _solution(puzzle, lang, out)
                return 0
            if action.name == "hint":
                print(translate(THEME_WORDS.get(puzzle.theme, REARRANGE_HINT), lang), file=out)
            elif action.name != "ok":
                print(translate(HOW, lang), file=out)
            continue
        if not isinstance(action, v.Play):
            print(
                translate("a puzzle is answered with a play, not by drawing or passing", lang),
                file=out,
            )
            continue
        right = _judge(check(puzzle, action.add, action.table), lang, out)
        _solution(puzzle, lang, out)
        return 0 if right else 1


REARRANGE_HINT = THEME_WORDS[REARRANGE]

# ------------------------------------------------------------------ Kontrakt

KONTRAKT_HOW = N_(
    "Type your turn one action a line: meld 7h 7d 7s | 4c 5c 6c, layoff Th on 3, swap 7h"
    " on 2, and a last discard Qs only if it goes out; an empty line (or ok) checks the"
    " turn, undo takes the last action back. hint: the idea; quit: the solution."
)


KONTRAKT_DRAW = N_(
    "You have not drawn yet: the discard pile's top is {card}. Begin with draw (the stock)"
    " or draw discard (the pile's top)."
)


def _show_kontrakt(puzzle: kp.KontraktPuzzle, lang: str, out: TextIO) -> None:
    view = kontrakt_view(puzzle.view)
    print(
        translate(
            "Puzzle {id} (rating {rating}): lay as many cards from your hand as you can"
            " this turn. The contract: {contract}.",
            lang,
            id=puzzle.id,
            rating=puzzle.rating,
            contract=k.CONTRACTS[view["deal"]].describe(),
        ),
        file=out,
    )
    print(translate("The table:", lang), file=out)
    for meld in view["table"]:
        owner = view["players"][meld["owner"]]
        print(f"  {meld['number']:>2}  {_pretty(meld['cards'])}  ({owner})", file=out)
    print(translate("Your hand: {cards}", lang, cards=_pretty(view["hand"] or [])), file=out)
    if view["phase"] == k.Phase.DRAW:  # a puzzle of the pile's top: asked before the draw
        top = view["discard_pile"][-1]
        print(translate(KONTRAKT_DRAW, lang, card=_pretty([top])), file=out)
    print(translate(KONTRAKT_HOW, lang), file=out)


def _solution_kontrakt(puzzle: kp.KontraktPuzzle, lang: str, out: TextIO) -> None:
    print(
        translate(
            "The solution lays {laid}:",
            lang,
            laid=Plural("{n} card", "{n} cards", puzzle.best),
        ),
        file=out,
    )
    for action in kp.solution_actions(puzzle):
        print("  " + format_kontrakt(action, lang), file=out)


def _run_kontrakt(puzzle: kp.KontraktPuzzle, lang: str, out: TextIO) -> int:
    _show_kontrakt(puzzle, lang, out)
    turn: list[k.Action] = []
    while True:
        print("> ", end="", file=out, flush=True)
        line = sys.stdin.readline(4096)
        if not line:
            print(file=out)
            if not turn:
                _solution_kontrakt(puzzle, lang, out)
                return 0
            line = "ok"
        try:
            action = parse_kontrakt(line, puzzle.seat, lang)
        except MessageError as exc:
            print(as_sentence(exc.translated(lang)), file=out)
            continue
        if isinstance(action, UiCommand):
            if action.name == "quit":
                _solution_kontrakt(puzzle, lang, out)
                return 0
            if action.name == "hint":
                print(translate(THEME_WORDS.get(puzzle.theme, REARRANGE_HINT), lang), file=out)
            elif action.name == "undo":
                turn = turn[:-1]
            elif action.name == "ok" and turn:
                right = _judge(kp.check(puzzle, turn), lang, out)
                _solution_kontrakt(puzzle, lang, out)
                return 0 if right else 1
            else:
                print(translate(KONTRAKT_HOW, lang), file=out)
            continue
        if not isinstance(action, k.Draw | k.LayDown | k.LayOff | k.SwapJoker | k.Discard):
            print(
                translate("a puzzle's turn lays cards: meld, layoff, swap, discard", lang),
                file=out,
            )
            continue
        turn.append(action)
        if isinstance(action, k.Draw) and action.from_ == "stock":  # its card is unknown
            right = _judge(kp.check(puzzle, turn), lang, out, stock=True)
            _solution_kontrakt(puzzle, lang, out)
            return 0 if right else 1
