"""The page's stylesheet parses as written: every block it opens is closed, so that no rule
after a slip is swallowed by the block before it (a merge once left ``button.danger`` open,
and every rule after it, the chat's counter and the profile's, was silently dropped)."""

from __future__ import annotations

import re
from pathlib import Path

import rummykit

CSS = Path(rummykit.__file__).parent / "web" / "app.css"


def test_every_block_of_the_stylesheet_is_closed_where_it_opened() -> None:
    text = re.sub(r"/\*.*?\*/", "", CSS.read_text(encoding="utf-8"), flags=re.S)
    depth, line, opened = 0, 1, []
    for char in text:
        if char == "\n":
            line += 1
        elif char == "{":
            depth += 1
            opened.append(line)
        elif char == "}":
            assert opened, f"a block closed that never opened, near line {line}"
            opened.pop()
    assert not opened, f"blocks left open (after comments are taken out), from lines {opened}"
