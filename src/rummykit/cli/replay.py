"""``rummykit replay FILE [--json]``: check a game record (RECORD.md).

Exit 0 when every action is legal, 1 at the first illegal one, 2 when the
file is not a record (unreadable JSON, unknown cards, a wrong deck).
"""

from __future__ import annotations

import argparse
import json
import sys

from rummykit.record import RecordError, load_record, replay


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    p = sub.add_parser("replay", help="replay a game record and check every action")
    p.add_argument("file", help="a rummykit-record/1 JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record and print the standings or the first illegal action."""
    try:
        record = load_record(args.file)
    except RecordError as exc:
        print(f"rummykit replay: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay(record)
    except RecordError as exc:
        print(f"rummykit replay: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
    elif result.ok:
        print(f"legal: {result.deals} deal(s) replayed")
        for name, score in zip(record.players, result.scores, strict=False):
            print(f"  {name:<16} {score:>6}")
    else:
        print(
            f"illegal: deal {result.deal}, action {result.action} breaks {result.rule}: "
            f"{result.message}"
        )
    claimed = (record.result or {}).get("scores")
    if result.ok and claimed is not None and list(claimed) != list(result.scores):
        print(
            f"rummykit replay: note: the record claims scores {claimed}, "
            f"the replay gives {list(result.scores)}",
            file=sys.stderr,
        )
    return 0 if result.ok else 1
