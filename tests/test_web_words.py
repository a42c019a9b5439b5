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
    # the score table's column head may break at a soft hyphen, to fit a phone
    assert words["Penalty"].replace("\u00ad", "") == "Straffpoäng"
    for english, swedish in words.items():
        assert "minuspoäng" not in swedish.lower(), english
        assert "lägga till" not in swedish.lower(), english


def test_the_reviews_swedish_sentences_read_as_swedish_not_word_for_word() -> None:
    words: dict[str, str] = json.loads(SWEDISH.read_text(encoding="utf-8"))
    said = {
        "That would have gone out.": "Då hade spelaren gått ut.",
        "That lays the rest of the contract.": "Då hade resten av kontraktet kunnat läggas ut.",
        "It takes the discard pile's top, {card}, instead of the stock's card.": (
            "Ta högens översta kort, {card}, i stället för att dra från talongen."
        ),
        "Before the discard, a card could still have gone onto a meld on the table.": (
            "Innan spelaren sakade hade ett kort kunnat byggas på en kombination på bordet."
        ),
        "It moves 1 card already on the table.": (
            "Det bästa draget flyttar 1 kort som redan ligger på bordet."
        ),
    }
    for english, swedish in said.items():
        assert words[english] == swedish, english


def test_the_puzzles_swedish_says_ratingtal_as_the_rest_of_the_site_and_the_terminal() -> None:
    """A player's and a bot's rating is a *ratingtal* in the lobby and the profile: the
    puzzle page's and the terminal's puzzles say it too, and a right answer is told in
    Swedish, not word for word ("ett bästa drag")."""
    words: dict[str, str] = json.loads(SWEDISH.read_text(encoding="utf-8"))
    assert "ratingtal" in words["Your puzzle rating: {r}"]
    assert not any("problembetyg" in s or "ett bästa drag" in s for s in words.values())
    from rummykit.i18n import translate

    for english in (
        "Puzzle {id} (rating {rating}): lay as many cards from your hand as you can.",
        "Puzzle {id} (rating {rating}): lay as many cards from your hand as you can this"
        " turn. The contract: {contract}.",
        "a puzzle near this rating (default 1200)",
    ):
        assert "ratingtal" in translate(english, "sv", id="x", rating=1, contract="x"), english
