"""The ``rummykit`` command: one sub-command per module of :mod:`rummykit.cli`.

Each sub-command module has ``add_parser(subparsers)`` and ``run(args) -> int``.
Exit codes: 0 success, 1 a checked thing is illegal, 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from rummykit import __version__

COMMANDS: tuple[str, ...] = ("serve", "play", "solve", "replay", "simulate")
"""Sub-command modules under ``rummykit``, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="rummykit",
        description="Vatikanen and Kontraktsrummy: play, solve, replay and simulate.",
        epilog="The rules, by the ids every message cites (V7, K13): docs/rules.md; the record"
        " format: docs/record.md; what rummykit decides where the rules are silent:"
        " docs/rules-decisions.md. Each command's own --help says more.",
    )
    parser.add_argument("--version", action="version", version=f"rummykit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module: Any = importlib.import_module(f"rummykit.cli.{name}")
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    code: int = handler(args)
    return code


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
