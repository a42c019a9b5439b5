"""The command line's words in the chosen language: the sub-commands' ``--help`` texts,
and what :mod:`argparse` itself says (``usage:``, ``options``, its errors).

A sub-command's ``add_parser(sub, lang)`` writes its help texts as
``_ = speaker(lang)`` and ``help=_("...")`` (``_`` is a keyword the catalogs
are extracted by; a long text kept in a constant is marked with ``N_(...)``
where it is written). A help text is an argparse template, not a
:class:`~rummykit.i18n.Message`: a literal ``%`` is written ``%%``, and
``%(default)s`` is argparse's; the catalog keeps them as they are.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import TypeAlias

from rummykit.i18n import LANGUAGES, N_, catalog

__all__ = ["ARGPARSE_WORDS", "Commands", "argparse_speaking", "requested_language", "speaker"]

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers`` gives: each command module's ``add_parser`` adds its command."""

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("can't open '%(filename)s': %(error)s"),
)
"""What argparse says through its own ``gettext`` calls, to a person running the
command: in the catalog so that :func:`argparse_speaking` can say it in Swedish."""


def speaker(lang: str) -> Callable[[str], str]:
    """The catalog's text of a help message in ``lang`` (not formatted: argparse
    formats help texts itself, with ``%``)."""
    return catalog(lang).gettext


def requested_language(argv: Sequence[str]) -> str | None:
    """The language ``--lang`` (or ``--lang=``) asks for in ``argv``, the last one that
    names one, before any ``--``; None without one.

    The parser reads ``--lang`` again and checks it; this is to speak the chosen
    language while it parses (``rummykit play --help --lang sv``).

    >>> requested_language(["play", "--help", "--lang", "sv"])
    'sv'
    >>> requested_language(["--lang=en", "solve"]), requested_language(["--", "--lang", "sv"])
    ('en', None)
    """
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        if value in LANGUAGES:
            found = value
    return found


@contextlib.contextmanager
def argparse_speaking(lang: str) -> Iterator[None]:
    """While inside, argparse says its own words (:data:`ARGPARSE_WORDS`) in ``lang``.

    argparse translates them with the module-level ``_`` and ``ngettext`` it takes
    from :mod:`gettext`; these are swapped for the catalog's and put back on the
    way out. An argparse without them keeps its English words.
    """
    names = ("_", "ngettext")
    saved = {name: getattr(argparse, name, None) for name in names}
    if any(value is None for value in saved.values()):
        yield
        return
    words = catalog(lang)
    setattr(argparse, "_", words.gettext)  # noqa: B010 (not a name typeshed knows)
    setattr(argparse, "ngettext", words.ngettext)  # noqa: B010
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(argparse, name, value)
