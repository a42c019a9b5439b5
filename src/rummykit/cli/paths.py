"""Paths a command writes to, checked before it starts: never a game or a match lost at the end.

``play --records DIR`` saves a game only when it ends or is quit, and
``simulate --plot FILE`` draws only after the whole match: a path that cannot
be written would lose the game, or the match's picture, long after the person
could have chosen another. So each command asks here first, and refuses the
path at once with what is wrong with it (a file where a folder is wanted, a
folder that cannot be made or written in, a missing folder for a file).

Each check answers a :class:`~rummykit.i18n.Message` saying why (None: the path
will do), for the command to print in its reader's language.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from rummykit.i18n import N_, Message

__all__ = ["file_problem", "folder_problem"]


def folder_problem(option: str, path: str | Path) -> Message | None:
    """Why ``path`` (given as ``option``) cannot hold the files a command writes, or None.

    A missing folder is made (as saving would make it), and a file is written
    in it and removed again, which is the only sure test of writing (a
    permission check says nothing of a read-only disk, nor to root).

    >>> print(folder_problem("--records", "/dev/null"))
    --records /dev/null: that is a file, not a folder
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        return Message(
            N_("{option} {path}: that is a file, not a folder"), option=option, path=str(folder)
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return Message(
            N_("{option} {path}: the folder cannot be made ({error})"),
            option=option,
            path=str(folder),
            error=exc.strerror or type(exc).__name__,
        )
    return _writable(option, folder)


def file_problem(option: str, path: str | Path) -> Message | None:
    """Why a file cannot be written at ``path`` (given as ``option``), or None: its folder
    must exist and take files, and the path must not be a folder. Nothing is made."""
    target = Path(path)
    if target.is_dir():
        return Message(
            N_("{option} {path}: that is a folder, not a file"), option=option, path=str(target)
        )
    folder = target.parent
    if not folder.is_dir():
        return Message(
            N_("{option} {path}: there is no folder {folder}"),
            option=option,
            path=str(target),
            folder=str(folder),
        )
    return _writable(option, folder)


def _writable(option: str, folder: Path) -> Message | None:
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".rummykit-", suffix=".probe"):
            pass
    except OSError as exc:
        return Message(
            N_("{option} {path}: nothing can be written in that folder ({error})"),
            option=option,
            path=str(folder),
            error=exc.strerror or type(exc).__name__,
        )
    return None
