"""Terminal play for both games: one Textual UI, a pure command parser and renderers.

- :mod:`.commands`: typed text to engine actions and back, card completion (no Rich, no
  Textual: the server reads the browser's typed commands with it too);
- :mod:`.render`: cards, hands and melds as Rich text;
- :mod:`.controller`: staging, confirming, bots and records, without Textual;
- :mod:`.vatikanen_play`, :mod:`.kontrakt_play`: each game's adapter;
- :mod:`.app`: the Textual app (needs the ``tui`` extra).

``rummykit play vatikanen`` (:mod:`rummykit.cli.play`) starts it. The names below are
imported when first asked for, so that ``rummykit.tui.commands`` needs nothing but
rummykit itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummykit.game import Game
    from rummykit.tui.controller import Controller, GameAdapter, Reply

__all__ = ["Controller", "GameAdapter", "Reply", "make_controller"]


def __getattr__(name: str) -> object:
    if name in ("Controller", "GameAdapter", "Reply"):
        from rummykit.tui import controller

        return getattr(controller, name)
    raise AttributeError(name)


def make_controller(*args: object, **kwargs: object) -> Controller[Game]:
    """See :func:`rummykit.tui.setup.make_controller`."""
    from rummykit.tui.setup import make_controller as make

    return make(*args, **kwargs)  # type: ignore[arg-type]
