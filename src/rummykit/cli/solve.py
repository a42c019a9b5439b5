"""``rummykit solve``: the best play from a hand onto a table (V7-V12).

The table is given as melds separated by ``|``; each table joker's meaning
follows from its place, or is written ``*:7h``. Exit 0 with an answer (also
when nothing can be played), 2 on bad input: malformed cards, a table that is
not a set of melds, or cards the game's decks do not hold.

``--batch FILE`` (``-`` for standard input) reads one question per line
(:data:`BATCH_HELP`); a bad line is answered with an error and the batch
goes on (exit 2 at the end when any line was bad).

What a person reads is in ``--lang``; ``--json`` answers are data: their
``"error"`` texts stay English.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit.cards import Card, format_cards, parse_cards
from rummykit.cli.words import Commands, speaker
from rummykit.errors import MessageError, describe_error, message_of
from rummykit.i18n import DEFAULT, N_, Plural, translate
from rummykit.melds import Meld, MeldError, MeldRules, read_meld, rules_named
from rummykit.solver import Play, best_opening, best_play, warm


class InputError(MessageError):
    """A question the solver cannot take: the message names the problem (a ValueError)."""


@dataclass(frozen=True)
class Question:
    """One position to solve, as the command line or a batch line gives it."""

    table: list[Meld]
    hand: list[Card]
    rules: MeldRules
    objective: str
    free_jokers: bool
    opening: bool


BATCH_HELP = N_(
    """\
batch questions (--batch FILE, or --batch - for standard input):
  one JSON object per line; blank lines are skipped. Keys:
    hand         the hand: "Th Jh Ks" or ["Th", "Jh", "Ks"]  (required)
    table        the table: "7h 8h 9h | Kc Kd *", or a list of melds as --json
                 prints it: [["7h", "8h", "9h"], ["Kc", "Kd", "*:K"]]  (default: empty)
    rules        vatikanen, kontrakt or rummikub  (default: --rules, else vatikanen)
    objective    cards or points  (default: --objective, else cards)
    free_jokers  true: table jokers are wild (not V11)
                 (default: --free-jokers, else false)
    opening      true: the first play, one run (V7)  (default: --opening, else false)
  --rules, --objective, --free-jokers and --opening apply to every line;
  a line's own key wins over them.
  for example:
    {"table": [["7h", "8h", "9h"]], "hand": "Th Jh"}
    {"hand": "5h 6h 7h", "opening": true}
  Each line gets one answer, in order. With --json: the answer object of a
  single question plus "line" (its line number, from 1); a bad line gets
  {"line": N, "error": "..."} and the batch goes on. As text: each answer
  under a "line N:" heading, answers separated by a blank line. The exit
  code is 2 when any line was bad, else 0. --table and --hand cannot be
  given with --batch.
"""
)


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "solve",
        help=_("find the best play from a hand onto a table"),
        description=_(
            "The best play from a hand onto a Vatikanen table, exact"
            " (docs/solver.md; the rules by id: docs/rules.md)."
        ),
        epilog=_(BATCH_HELP),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--table", help=_('melds separated by "|", e.g. "7h 8h 9h | Kc Kd *"'))
    p.add_argument("--hand", help=_('the hand, e.g. "Th Jh Ks"'))
    p.add_argument(
        "--objective",
        choices=("cards", "points"),
        default="cards",
        help=_("what the best play lays most of: cards, or their points (default cards)"),
    )
    p.add_argument(
        "--rules",
        choices=("vatikanen", "kontrakt", "rummikub"),
        default="vatikanen",
        help=_("whose melds count (default vatikanen)"),
    )
    p.add_argument("--free-jokers", action="store_true", help=_("table jokers are wild (not V11)"))
    p.add_argument("--opening", action="store_true", help=_("the first play: one run (V7)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object per answer"))
    p.add_argument(
        "--batch", metavar="FILE", help=_("one JSON question per line; - reads standard input")
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Answer the question(s); exit 2 with a message on bad input."""
    lang = getattr(args, "lang", DEFAULT)
    if args.batch is not None:
        if args.table is not None or args.hand is not None:
            return _fail(
                translate(
                    "--batch reads the table and hand from each line: give no --table or --hand",
                    lang,
                )
            )
        return _run_batch(args, lang)
    if args.hand is None:  # no question at all: say what to ask, never a silent 0
        return _fail(
            translate(
                'give the hand to play from: --hand "Th Jh Ks" (and the table: --table'
                ' "7h 8h 9h"), or --batch FILE',
                lang,
            )
        )
    try:
        question = _question(
            args.table or "",
            args.hand or "",
            args.rules,
            args.objective,
            args.free_jokers,
            args.opening,
        )
    except InputError as exc:
        return _fail(describe_error(exc, lang))
    warm(question.rules)  # load the compiled programmes before the clock starts
    play, ms = _timed(question)
    if args.json:
        print(json.dumps(_as_json(question, play, ms)))
    else:
        print(_as_text(question, play, ms, lang))
    return 0


def _fail(message: str) -> int:
    print(f"rummykit solve: {message}", file=sys.stderr)
    return 2


def _timed(q: Question) -> tuple[Play | None, float]:
    t0 = time.perf_counter()
    play = _solve(q)
    return play, (time.perf_counter() - t0) * 1000


def _run_batch(args: argparse.Namespace, lang: str) -> int:
    """Answer every line of the batch in order; a bad line is answered with its error."""
    try:
        lines = _batch_lines(args.batch)
    except InputError as exc:
        return _fail(describe_error(exc, lang))
    defaults = {
        "rules": args.rules,
        "objective": args.objective,
        "free_jokers": args.free_jokers,
        "opening": args.opening,
    }
    bad = 0
    first = True
    for n, line in lines:
        if not args.json and not first:
            print()
        first = False
        try:
            q = _batch_question(line, defaults)
        except InputError as exc:
            bad += 1
            if args.json:
                print(json.dumps({"line": n, "error": str(exc)}))
            else:
                error = describe_error(exc, lang)
                print(translate("line {n}: error: {error}", lang, n=n, error=error))
            continue
        warm(q.rules)
        play, ms = _timed(q)
        if args.json:
            print(json.dumps({"line": n, **_as_json(q, play, ms)}))
        else:
            print(translate("line {n}:", lang, n=n) + "\n" + _as_text(q, play, ms, lang))
    if bad:
        what = Plural(
            "rummykit solve: {n} line was bad: see its answer",
            "rummykit solve: {n} lines were bad: see its answer",
            bad,
        )
        print(what.translated(lang), file=sys.stderr)
    return 2 if bad else 0


def _solve(q: Question) -> Play | None:
    if q.opening:
        return best_opening(q.hand, rules=q.rules, objective=_objective(q.objective))
    return best_play(
        q.table,
        q.hand,
        rules=q.rules,
        objective=_objective(q.objective),
        free_jokers=q.free_jokers,
    )


def _objective(name: str) -> Literal["cards", "points"]:
    return "points" if name == "points" else "cards"


def _new_table(q: Question, play: Play | None) -> list[Meld]:
    if play is None:
        return list(q.table)
    if q.opening:
        return [*q.table, *play.table]
    return list(play.table)


def _as_json(q: Question, play: Play | None, ms: float) -> dict[str, object]:
    return {
        "playable": play is not None,
        "play": [str(c) for c in play.cards] if play else [],
        "table": [[str(c) for c in m.cards] for m in _new_table(q, play)],
        "cards": play.count if play else 0,
        "points": play.points if play else 0,
        "ms": round(ms, 3),
    }


def _as_text(q: Question, play: Play | None, ms: float, lang: str = DEFAULT) -> str:
    if play is None:
        if q.opening:
            none = translate("no card from the hand can be played as an opening run", lang)
        else:
            none = translate("no card from the hand can be played", lang)
        lines = [none, translate("table:", lang)] + [f"  {m}" for m in q.table]
        return "\n".join(lines)
    lines = [
        translate(
            "play: {cards}  ({count}, {points}, {ms} ms)",
            lang,
            cards=format_cards(play.cards),
            count=Plural("{n} card", "{n} cards", play.count),
            points=Plural("{n} point", "{n} points", play.points),
            ms=f"{ms:.1f}",
        ),
        translate("table ([ ] = from the hand):", lang),
    ]
    new = _new_table(q, play)
    marks = _marks(q.table, new, play)
    for meld, marked in zip(new, marks, strict=True):
        cells = [f"[{c}]" if m else str(c) for c, m in zip(meld.cards, marked, strict=True)]
        lines.append("  " + " ".join(cells))
    return "\n".join(lines)


def _marks(old: Sequence[Meld], new: Sequence[Meld], play: Play) -> list[list[bool]]:
    """Which cards of the new table to mark as played: changed melds first."""
    left = Counter(c.plain() for c in play.cards)
    unchanged = Counter(tuple(sorted(str(c.plain()) for c in m.cards)) for m in old)
    order = []
    for i, meld in enumerate(new):
        key = tuple(sorted(str(c.plain()) for c in meld.cards))
        same = unchanged[key] > 0
        if same:
            unchanged[key] -= 1
        order.append((same, i))
    marks = [[False] * len(m.cards) for m in new]
    for _, i in sorted(order):
        for j, card in enumerate(new[i].cards):
            if left[card.plain()] > 0:
                left[card.plain()] -= 1
                marks[i][j] = True
    return marks


def _question(
    table: str | list[object],
    hand: str | list[object],
    rules: str,
    objective: str,
    free_jokers: bool,
    opening: bool,
) -> Question:
    try:
        game = rules_named(rules)
    except ValueError as exc:
        raise InputError(message_of(exc)) from None
    if objective not in ("cards", "points"):
        raise InputError(
            N_("unknown objective {objective}: choose cards or points"), objective=repr(objective)
        )
    parts: list[object] = (
        [p for p in table.split("|") if p.strip()] if isinstance(table, str) else table
    )
    melds = []
    for part in parts:
        if not isinstance(part, str | list):
            raise InputError(
                N_("table: each meld is a list of cards or card text, not {part}"),
                part=repr(part),
            )
        written = part.strip() if isinstance(part, str) else " ".join(map(str, part))
        try:
            cards = parse_cards(part if isinstance(part, str) else [str(c) for c in part])
        except ValueError as exc:
            raise InputError(N_("table: {error}"), error=message_of(exc)) from None
        try:
            melds.append(read_meld(cards, game))
        except MeldError as exc:
            raise InputError(
                N_("table meld {meld} is not a meld: {error}"),
                meld=repr(written),
                error=exc.reason_message(),
            ) from None
    try:
        hand_cards = parse_cards(hand if isinstance(hand, str) else [str(c) for c in hand])
    except ValueError as exc:
        raise InputError(N_("hand: {error}"), error=message_of(exc)) from None
    _check_deck([c for m in melds for c in m.cards] + hand_cards, game)
    return Question(melds, [c.plain() for c in hand_cards], game, objective, free_jokers, opening)


def _check_deck(cards: list[Card], rules: MeldRules) -> None:
    """Raise unless the game's decks hold all these cards (V2, K2)."""
    count = Counter(c.plain() for c in cards)
    for card, n in sorted(count.items(), key=lambda kv: str(kv[0])):
        limit = rules.jokers if card.is_joker else rules.packs
        if n > limit and card.is_joker:
            raise InputError(
                N_("{n} jokers on the table and in the hand, but {game} has only {limit}"),
                n=n,
                game=rules.name,
                limit=limit,
            )
        if n > limit:
            raise InputError(
                N_(
                    "{n} copies of {card} on the table and in the hand, but {game} has only {limit}"
                ),
                n=n,
                card=str(card),
                game=rules.name,
                limit=limit,
            )


def _batch_lines(path: str) -> list[tuple[int, str]]:
    """The batch's non-blank lines with their numbers (from 1); ``-`` is standard input."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        raise InputError(N_("cannot read {path}: {error}"), path=path, error=exc.strerror) from None
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


_BATCH_KEYS = ("table", "hand", "rules", "objective", "free_jokers", "opening")


def _batch_question(line: str, defaults: dict[str, object] | None = None) -> Question:
    """One batch line as a question; InputError saying what is wrong with it.

    ``defaults`` (the command line's ``--rules``, ``--objective``,
    ``--free-jokers``, ``--opening``) fill the keys the line leaves out.

    >>> _batch_question('{"hand": "Qh Kh Ah"}', {"rules": "kontrakt"}).rules.name
    'kontrakt'
    >>> _batch_question('{"hand": "Qh", "rules": "rummikub"}', {"rules": "kontrakt"}).rules.name
    'rummikub'
    """
    given = defaults or {}
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(N_("not JSON: {error}"), error=exc.msg) from None
    if not isinstance(obj, dict) or "hand" not in obj:
        raise InputError(N_('each line is a JSON object with at least "hand"'))
    unknown = sorted(set(obj) - set(_BATCH_KEYS))
    if unknown:
        raise InputError(
            N_("unknown key {key}: the keys are {keys}"),
            key=repr(unknown[0]),
            keys=", ".join(_BATCH_KEYS),
        )
    table, hand = obj.get("table", ""), obj["hand"]
    if not isinstance(table, str | list) or not isinstance(hand, str | list):
        raise InputError(N_('"table" and "hand" are card text or lists of cards'))
    flags = {k: obj.get(k, given.get(k, False)) for k in ("free_jokers", "opening")}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise InputError(
                N_('"{key}" is true or false, not {value}'), key=key, value=repr(value)
            )
    return _question(
        table,
        hand,
        str(obj.get("rules", given.get("rules", "vatikanen"))),
        str(obj.get("objective", given.get("objective", "cards"))),
        flags["free_jokers"],
        flags["opening"],
    )
