"""The message catalogs: every message in them, Swedish translated, everything compiled."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from rummykit.i18n import catalog, translate

TOOL = Path(__file__).resolve().parents[1] / "tools" / "i18n.py"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_catalogs_hold_every_message_translated_and_compiled() -> None:
    assert tool().problems() == [], "run: python tools/i18n.py update, translate, compile"


def test_swedish_is_read_from_the_compiled_catalog() -> None:
    line = "rummykit: open {url} in your browser (Ctrl+C stops)"
    assert translate(line, "sv", url="X") == "rummykit: öppna X i webbläsaren (Ctrl+C avslutar)"
    assert translate(line, "en", url="X") == "rummykit: open X in your browser (Ctrl+C stops)"
    assert catalog("xx").gettext(line) == line
