"""The ``rummykit`` command line: ``play``, ``solve``, ``replay``, ``simulate``.

Each sub-command is a module here with ``add_parser(subparsers)`` and
``run(args) -> int``; :mod:`rummykit.cli.main` puts them together.
"""

from rummykit.cli.main import build_parser, entry, main

__all__ = ["build_parser", "entry", "main"]
