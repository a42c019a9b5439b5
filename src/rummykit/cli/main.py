"""The ``rummykit`` command: one sub-command per module of :mod:`rummykit.cli`.

Each sub-command module has ``add_parser(subparsers)`` and ``run(args) -> int``.
Exit codes: 0 success, 1 a checked thing is illegal, 2 bad input.

``--lang sv|en`` (before or after the sub-command) chooses the language of
everything the command says while it runs; without it ``RUMMYKIT_LANG``, else
the locale (Swedish where the locale is Swedish). ``args.lang`` holds the
choice for the sub-commands. The ``--help`` texts and argparse's own words
(``usage:``, its errors) are in that language too (:mod:`rummykit.cli.words`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rummykit import __version__
from rummykit.cli.words import argparse_speaking, requested_language, speaker
from rummykit.i18n import LANGUAGES, N_, default_language

COMMANDS: tuple[str, ...] = (
    "serve",
    "play",
    "solve",
    "replay",
    "review",
    "simulate",
    "puzzle",
    "puzzles",
    "admin",
)
"""Sub-command modules under ``rummykit``, in the order ``--help`` lists them."""

LANG_HELP = N_(
    "the language of what rummykit says: sv (Swedish) or en (English); default: the"
    " RUMMYKIT_LANG environment variable, else the locale (sv where it is Swedish)"
)


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered, its help in ``lang``
    (default: :func:`~rummykit.i18n.default_language`)."""
    lang = default_language() if lang is None else lang
    _ = speaker(lang)
    parser = argparse.ArgumentParser(
        prog="rummykit",
        description=_("Vatikanen and Kontraktsrummy: play, solve, replay and simulate."),
        epilog=_(
            "The rules, by the ids every message cites (V7, K13): docs/rules.md; the record"
            " format: docs/record.md; what rummykit decides where the rules are silent:"
            " docs/rules-decisions.md. Each command's own --help says more."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"rummykit {__version__}",
        help=_("show program's version number and exit"),  # argparse's default is English
    )
    parser.add_argument("--lang", choices=LANGUAGES, help=_(LANG_HELP))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"rummykit.cli.{name}")
        module.add_parser(sub, lang)
        # also after the sub-command; SUPPRESS: an absent one leaves the global one alone
        sub.choices[name].add_argument(
            "--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=_(LANG_HELP)
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = requested_language(argv) or default_language()
    with argparse_speaking(lang):  # --help and usage errors, in the language chosen
        parser = build_parser(lang)
        args = parser.parse_args(argv)
        if args.lang is None:
            args.lang = lang
        handler = getattr(args, "handler", None)
        if handler is None:
            parser.print_help()
            return 2
    code: int = handler(args)
    return code


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
