"""``rummykit replay FILE [--json]``: check a game record (RECORD.md), or watch it.

Exit 0 when every action is legal, 1 at the first illegal one, 2 when the
file is not a record (unreadable JSON, unknown cards, a wrong deck). With
``--json`` every answer is one JSON object on standard output, a file that is
not a record included (``{"ok": false, "error": "not a record", ...}``).

What a person reads counts deals and actions from 1 ("deal 4, action 12");
the JSON keeps RECORD.md's indexes from 0 (``"deal": 3, "action": 11``).
``--show`` steps through the record in the terminal UI (:mod:`rummykit.tui.watch`).
What a person reads is in ``--lang``; the JSON answer is data and stays English.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rummykit import games
from rummykit.cli.words import Commands, speaker
from rummykit.errors import describe_error
from rummykit.i18n import DEFAULT, N_, Message, Plural, translate
from rummykit.record import GameRecord, RecordError, ReplayResult, load_record, replay

__all__ = ["add_parser", "describe_end", "run"]


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "replay",
        help=_("replay a game record and check every action, or watch it (--show)"),
        description=_(
            "Replay a game record (docs/record.md) and check every action by the"
            " rules (docs/rules.md). Exit 0 legal, 1 illegal, 2 not a record."
        ),
    )
    p.add_argument("file", help=_("a rummykit-record/1 JSON file"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument(
        "--show",
        action="store_true",
        help=_(
            "step through the record in the terminal UI, forwards and back (needs the tui"
            " extra): every hand when the game is over, else one seat's view"
        ),
    )
    p.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help=_("with --show: see the game as seat N (from 0) saw it"),
    )
    p.set_defaults(handler=run)


def _scores(scores: Sequence[float]) -> list[float | int]:
    return [int(s) if s == int(s) else s for s in scores]


def _not_a_record(exc: RecordError, as_json: bool, lang: str) -> int:
    if as_json:
        print(json.dumps({"ok": False, "error": "not a record", "message": str(exc)}))
    print(f"rummykit replay: {describe_error(exc, lang)}", file=sys.stderr)
    return 2


def describe_end(record: GameRecord, result: ReplayResult, lang: str = DEFAULT) -> str:
    """Where a legal record ends, in words: the game over, or where it stops and whose
    turn it is (deals counted from 1), in ``lang``."""
    deals = result.deals
    games_ = _sessions(record)  # a session's record: its deals are games (V16)
    replayed = (
        Plural("{n} game replayed", "{n} games replayed", deals)
        if games_
        else Plural("{n} deal replayed", "{n} deals replayed", deals)
    )
    if result.finished:
        return translate("legal: {replayed}; the game is over.", lang, replayed=replayed)
    if not record.deals:
        return translate("legal: the record holds no deal yet.", lang)
    actions = len(record.deals[-1].actions)
    if result.to_act is None:
        return translate(
            N_("legal: {replayed}; the record ends after game {deal}: the next game has not begun.")
            if games_
            else N_(
                "legal: {replayed}; the record ends mid-game, after deal {deal}:"
                " the next deal has not begun."
            ),
            lang,
            replayed=replayed,
            deal=deals,
        )
    who = record.players[result.to_act]
    if actions == 0:
        return translate(
            N_(
                "legal: {replayed}; the record ends as game {deal} is dealt:"
                " the player to act is {name} (seat {seat})."
            )
            if games_
            else N_(
                "legal: {replayed}; the record ends mid-game, as deal {deal} is dealt:"
                " the player to act is {name} (seat {seat})."
            ),
            lang,
            replayed=replayed,
            deal=deals,
            name=who,
            seat=result.to_act,
        )
    return translate(
        N_(
            "legal: {replayed}; the record ends in game {deal} after action"
            " {action}: the player to act is {name} (seat {seat})."
        )
        if games_
        else N_(
            "legal: {replayed}; the record ends mid-game, in deal {deal} after action"
            " {action}: the player to act is {name} (seat {seat})."
        ),
        lang,
        replayed=replayed,
        deal=deals,
        action=actions,
        name=who,
        seat=result.to_act,
    )


def _sessions(record: GameRecord) -> bool:
    """True when the record's deals are the games of a session (Vatikanen, V16)."""
    try:
        return games.get(record.game).parts_are_games
    except ValueError:
        return False


def _show(record: GameRecord, seat: int | None, lang: str) -> int:
    """``--show``: the watch app (needs the tui extra)."""
    try:
        from rummykit.tui.watch import watch
    except ImportError:
        print(
            translate(
                "rummykit replay: --show needs the tui extra: pip install 'rummykit[tui]'", lang
            )
        )
        return 2
    try:
        return watch(record, seat, lang)
    except ValueError as exc:
        print(f"rummykit replay: {describe_error(exc, lang)}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace) -> int:
    """Replay the record and print the standings or the first illegal action."""
    lang = getattr(args, "lang", DEFAULT)
    try:
        record = load_record(args.file)
        result = replay(record)
    except RecordError as exc:
        return _not_a_record(exc, args.json, lang)
    if args.show:
        return _show(record, args.seat, lang)
    claimed = (record.result or {}).get("scores")
    note = None
    if result.ok and isinstance(claimed, list) and claimed != list(result.scores):
        note = Message(
            N_("the record claims scores {claimed}, the replay gives {scores}"),
            claimed=claimed,
            scores=_scores(result.scores),
        )
    if args.json:
        answer = result.to_json()
        if note is not None:
            answer["claimed_scores"] = claimed
            answer["note"] = str(note)
        print(json.dumps(answer))
    elif result.ok:
        print(describe_end(record, result, lang))
        for name, score in zip(record.players, _scores(result.scores), strict=False):
            print(f"  {name:<16} {score:>6}")
    else:
        assert result.deal is not None and result.action is not None
        why = result.message if result.error is None else result.error.translated(lang)
        print(
            translate(
                N_("illegal: game {deal}, action {action} breaks {rule}: {reason}")
                if _sessions(record)
                else N_("illegal: deal {deal}, action {action} breaks {rule}: {reason}"),
                lang,
                deal=result.deal + 1,
                action=result.action + 1,
                rule=result.rule,
                reason=why,
            )
        )
    if note is not None:
        print(translate("rummykit replay: note: {note}", lang, note=note), file=sys.stderr)
    return 0 if result.ok else 1
