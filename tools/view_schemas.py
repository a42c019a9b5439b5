"""Write the JSON Schema of every game's view to ``docs/schemas/`` (from the TypedDicts).

Run ``python tools/view_schemas.py`` after changing a view's TypedDict; the test
suite checks that the files are up to date. The schemas describe what a view
holds today; clients ignore keys they do not know (PROTOCOL.md), so the
schemas allow more.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from rummykit import games

OUT = Path(__file__).resolve().parents[1] / "docs" / "schemas"


def view_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the game ``name``'s view."""
    spec = games.get(name)
    schema: dict[str, Any] = TypeAdapter(spec.view_type).json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"rummykit:{name}-view"
    return schema


def text(name: str) -> str:
    """The schema file's text."""
    return json.dumps(view_schema(name), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in games.names():
        path = OUT / f"{name}-view.json"
        path.write_text(text(name), encoding="utf-8")
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
