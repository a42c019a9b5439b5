"""Public ids: the short random names of tables, seeks, reports and sanctions.

They appear in links and in the host's commands (``rummykit admin remove-chat
TABLE N``). An id that began with ``-`` would be read there as an option, so
such draws are thrown away and drawn again; every other URL-safe text is as
likely as before.
"""

from __future__ import annotations

import secrets

__all__ = ["public_id"]


def public_id(nbytes: int = 9) -> str:
    """A fresh random id of ``nbytes`` random bytes as URL-safe text, never starting with ``-``."""
    while True:
        drawn = secrets.token_urlsafe(nbytes)
        if not drawn.startswith("-"):
            return drawn
