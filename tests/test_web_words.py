"""The browser's Swedish words follow the glossary (docs/i18n.md; issue 45).

One word for one thing: Kontrakt's scores are "straffpoäng" (never "minuspoäng"
beside them), and laying a card off is "bygga på" (never "lägga till").
"""

from __future__ import annotations

import json
from pathlib import Path

SWEDISH = Path(__file__).resolve().parents[1] / "src" / "rummykit" / "web" / "i18n" / "sv.json"


def test_the_browsers_swedish_says_straffpoang_and_bygga_pa_as_the_glossary() -> None:
    words: dict[str, str] = json.loads(SWEDISH.read_text(encoding="utf-8"))
    assert words["Penalty points"] == "Straffpoäng"
    assert words["Penalty"] == "Straffpoäng"
    for english, swedish in words.items():
        assert "minuspoäng" not in swedish.lower(), english
        assert "lägga till" not in swedish.lower(), english
