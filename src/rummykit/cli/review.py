"""``rummykit review FILE [--seat N] [--json]``: what each player did, and could have done.

The record (RECORD.md) is replayed with its game's engine and every turn judged
from what the seat to play could see then (:mod:`rummykit.review`). As text, in
``--lang``, it says how each player did and lists the turns where more was
possible; ``--json`` prints PROTOCOL.md's document ("Review of a finished
game"). ``--seat N`` keeps that seat's turns only.

Exit codes, as ``rummykit replay``'s: 0 the record is reviewed, 1 it holds an
illegal action (which is reported, like ``replay``), 2 the file is not a
record (unreadable JSON, unknown cards, a wrong deck) or there is no such seat.
With ``--json`` every answer is one JSON object on standard output: the review,
or ``{"ok": false, ...}`` as ``replay --json`` writes it.
"""

from __future__ import annotations

import argparse
import json
import sys

from rummykit import games
from rummykit.cli.words import speaker
from rummykit.errors import describe_error
from rummykit.i18n import DEFAULT, N_, translate
from rummykit.record import IllegalAction, RecordError, load_record
from rummykit.review import review
from rummykit.review.text import describe

__all__ = ["add_parser", "run"]


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = DEFAULT
) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "review",
        help=_("review a finished game: what each player could have laid at every turn"),
        description=_(
            "Review a game record (docs/record.md): every turn judged from what its player"
            " could see then, by the exact solver (docs/review.md). Exit 0 reviewed,"
            " 1 an illegal action, 2 not a record."
        ),
    )
    p.add_argument("file", help=_("a rummykit-record/1 JSON file"))
    p.add_argument("--seat", type=int, metavar="N", help=_("only the turns of seat N (from 0)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(handler=run)


def _fail(code: int, answer: dict[str, object], text: str, as_json: bool) -> int:
    if as_json:
        print(json.dumps(answer))
    print(f"rummykit review: {text}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    """Review the record; print the review, or say why it cannot be reviewed."""
    lang = getattr(args, "lang", DEFAULT)
    try:
        record = load_record(args.file)
        result = review(record, args.seat)
    except IllegalAction as exc:
        answer: dict[str, object] = {
            "ok": False,
            "deal": exc.deal,
            "action": exc.action,
            "rule": exc.rule,
            "message": exc.message,
        }
        sessions = games.get(record.game).parts_are_games  # a session's deals are games
        text = translate(
            N_("illegal: game {deal}, action {action} breaks {rule}: {reason}")
            if sessions
            else N_("illegal: deal {deal}, action {action} breaks {rule}: {reason}"),
            lang,
            deal=exc.deal + 1,
            action=exc.action + 1,
            rule=exc.rule,
            reason=exc.translated(lang),
        )
        return _fail(1, answer, text, args.json)
    except (RecordError, ValueError) as exc:  # not a record, or no such seat
        answer = {"ok": False, "error": "not a record", "message": str(exc)}
        if not isinstance(exc, RecordError):
            answer["error"] = "bad request"
        return _fail(2, answer, describe_error(exc, lang), args.json)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    spec = games.get(record.game)
    for line in describe(result, spec, record.players, lang):
        print(line)
    return 0
