"""``rummykit puzzles make``: puzzles from finished games' records or bot games.

``--game`` says whose (``vatikanen``, the default, or ``kontrakt``): records of
the other game are skipped.

``--from`` takes record files (RECORD.md) and folders of them (every ``*.json``
inside); ``--bots N`` plays N bot games first (``--seed``). The puzzles go to
``--out`` as JSON lines, gzip-compressed when its name ends in ``.gz``
(``docs/puzzles.md``). The shipped sets are made with::

    nice -n 10 rummykit puzzles make --bots 700 --seed 1 --per-game 4 --count 2400 \\
        --out src/rummykit/puzzles/data/vatikanen.jsonl.gz
    nice -n 10 rummykit puzzles make --game kontrakt --bots 1500 --seed 1 --per-game 3 \\
        --count 600 --out src/rummykit/puzzles/data/kontrakt.jsonl.gz

Exit 0 when the file is written, 2 on bad input (no source, a record that
cannot be read or played).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from rummykit.cli.main import LANG_HELP
from rummykit.cli.words import Commands, speaker
from rummykit.errors import describe_error
from rummykit.i18n import DEFAULT, LANGUAGES, Plural, translate
from rummykit.puzzles import load, write
from rummykit.puzzles.kind import kind_of
from rummykit.puzzles.store import AnyPuzzle
from rummykit.record import GameRecord, IllegalAction, RecordError, load_record


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "puzzles",
        help=_("make Vatikanen or Kontraktsrummy puzzles from game records or bot games"),
        description=_(
            "Make Vatikanen or Kontraktsrummy puzzles: positions where the best play"
            " needs the table rearranged, a joker freed, a run split, or goes out; in"
            " Kontraktsrummy a turn that lays off, swaps a joker, takes the pile's top"
            " or goes out (docs/puzzles.md)."
        ),
    )
    actions = p.add_subparsers(dest="puzzles_action", metavar="ACTION")
    make = actions.add_parser(
        "make", help=_("make puzzles and write them to a file"), description=_("Make puzzles.")
    )
    make.add_argument(
        "--from",
        dest="sources",
        metavar="RECORDS",
        nargs="+",
        default=[],
        help=_("record files, or folders of them (*.json), of finished games of the --game"),
    )
    make.add_argument(
        "--game",
        choices=("vatikanen", "kontrakt"),
        default="vatikanen",
        help=_("the game whose puzzles to make (default vatikanen)"),
    )
    make.add_argument("--bots", type=int, default=0, metavar="N", help=_("play N bot games too"))
    make.add_argument("--seed", type=int, default=0, help=_("the first bot game's seed"))
    make.add_argument(
        "--per-game", type=int, default=0, metavar="N", help=_("at most N puzzles from a game")
    )
    make.add_argument("--count", type=int, default=0, metavar="N", help=_("stop after N puzzles"))
    make.add_argument(
        "--theme", metavar="IDEA", help=_("only puzzles of this idea (pile, joker, goes-out...)")
    )
    make.add_argument("--skip-theme", metavar="IDEA", help=_("no puzzles of this idea"))
    make.add_argument("--out", required=True, metavar="FILE", help=_("the puzzle file to write"))
    make.add_argument(
        "--append", action="store_true", help=_("add to the puzzles already in the file")
    )
    make.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=_(LANG_HELP))
    make.set_defaults(handler=run)
    p.set_defaults(handler=lambda args: _no_action(p))


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _record_paths(sources: list[str]) -> list[Path]:
    out: list[Path] = []
    for source in sources:
        path = Path(source)
        out += sorted(path.glob("*.json")) if path.is_dir() else [path]
    return out


def _records(args: argparse.Namespace) -> Iterator[tuple[str, GameRecord]]:
    for path in _record_paths(args.sources):
        yield f"{path.name} ", load_record(path)
    for g, record in enumerate(kind_of(args.game).bot_records(args.bots, seed=args.seed)):
        yield f"bots seed {args.seed + g} ", record


def _wanted(puzzle: AnyPuzzle, args: argparse.Namespace) -> bool:
    """Whether ``puzzle`` is of the idea asked (``--theme``) and not of the one refused."""
    if args.theme and args.theme not in puzzle.themes:
        return False
    return not (args.skip_theme and args.skip_theme in puzzle.themes)


def run(args: argparse.Namespace) -> int:
    """Make the puzzles and write them; exit 2 with a message on bad input."""
    lang = getattr(args, "lang", DEFAULT)
    if not args.sources and args.bots <= 0:
        print(
            translate(
                "give records to read (--from RECORDS) or bot games to play (--bots N)", lang
            ),
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    try:
        kept = load(args.out) if args.append and Path(args.out).exists() else []
    except (OSError, ValueError) as exc:
        print(describe_error(exc, lang), file=sys.stderr)
        return 2
    puzzles: list[AnyPuzzle] = []
    seen: set[str] = {p.id for p in kept}
    games = 0
    try:
        for source, record in _records(args):
            if record.game != args.game:
                continue
            games += 1
            taken = 0
            made: Iterable[AnyPuzzle] = kind_of(args.game).from_record(record, source=source)
            for puzzle in made:
                if puzzle.id in seen or not _wanted(puzzle, args):
                    continue
                seen.add(puzzle.id)
                puzzles.append(puzzle)
                taken += 1
                if args.per_game and taken >= args.per_game:
                    break
            if args.count and len(puzzles) >= args.count:
                puzzles = puzzles[: args.count]
                break
    except (OSError, RecordError, IllegalAction, ValueError) as exc:
        print(describe_error(exc, lang), file=sys.stderr)
        return 2
    write([*kept, *puzzles], args.out)
    seconds = time.perf_counter() - started
    count = Plural("{n} puzzle", "{n} puzzles", len(puzzles))
    print(
        translate(
            "{made} from {games} games written to {path} in {seconds:.1f} s",
            lang,
            made=count,
            games=games,
            path=args.out,
            seconds=seconds,
        )
    )
    return 0
