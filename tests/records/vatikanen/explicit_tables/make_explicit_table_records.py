"""Write the hand-written records of explicit tables (issue 28); run from the repository root.

The actions are written by hand below; the decks are built so that the hands
hold what the actions need (the rest of each hand and the stock are filler in
a fixed order, jokers last). Each file carries ``comment`` and ``expect``: the
exit code of ``rummykit replay`` and, for an illegal record, the deal, action
index and rule id. Readers ignore the extra fields (RECORD.md).

    .venv/bin/python tests/records/vatikanen/explicit_tables/make_explicit_table_records.py
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from rummykit.cards import Card, full_deck, parse_cards
from rummykit.dealing import forhand

HERE = Path(__file__).resolve().parent
PLAYERS = ["Anna", "Bo"]
DEALER = 1  # Anna (seat 0) is förhand


def deck_dealing(hands: dict[int, str], players: int = 2, dealer: int = DEALER) -> list[Card]:
    """A 106-card deck (V2) that deals ``hands`` (filled up to 13 cards each, V3)."""
    pool = Counter(full_deck(2, 2))
    fixed = {s: parse_cards(t) for s, t in hands.items()}
    for card in (c for h in fixed.values() for c in h):
        if pool[card] <= 0:
            raise ValueError(f"too many {card}")
        pool[card] -= 1
    rest = sorted(pool.elements(), key=str)
    random.Random(28).shuffle(rest)
    rest.sort(key=lambda c: c.is_joker)  # the filler holds no joker
    full = []
    for seat in range(players):
        hand = list(fixed.get(seat, []))
        while len(hand) < 13:
            hand.append(rest.pop(0))
        full.append(hand)
    first = forhand(dealer, players)
    return [full[(first + i) % players][i // players] for i in range(13 * players)] + rest


def play(seat: int, add: str, table: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": "play", "add": add.split()}
    if table is not None:
        out["table"] = [m.split() for m in table.split("|")]
    return out


def doc(
    comment: str,
    hands: dict[int, str],
    actions: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    deck = deck_dealing(hands)
    return {
        "format": "rummykit-record/1",
        "game": "vatikanen",
        "comment": comment,
        "players": PLAYERS,
        "options": options or {},
        "deals": [{"dealer": DEALER, "deck": [str(c) for c in deck], "actions": actions}],
        "expect": expect,
    }


HEARTS = {0: "* 5h 6h 7h Qc 3h", 1: "9c Tc Jc"}
OPENINGS = [play(0, "*:4h 5h 6h 7h"), play(1, "9c Tc Jc", "*:4h 5h 6h 7h | 9c Tc Jc")]


def records() -> dict[str, dict[str, Any]]:
    return {
        "illegal_V7_opening_relabels_a_table_joker": doc(
            "issue 28, case 1: an opening may not rewrite an old meld's joker as *:Kd (V7)",
            HEARTS,
            [OPENINGS[0], play(1, "9c Tc Jc", "*:Kd 5h 6h 7h | 9c Tc Jc")],
            {"exit": 1, "deal": 0, "action": 1, "rule": "V7"},
        ),
        "illegal_V7_opening_moves_a_table_joker": doc(
            "issue 28, case 2: an opening may not move the joker of Th *:Jh Qh (V7)",
            {0: "Th * Qh", 1: "9c Tc Jc"},
            [play(0, "Th * Qh"), play(1, "9c Tc Jc", "Th Qh * | 9c Tc Jc")],
            {"exit": 1, "deal": 0, "action": 1, "rule": "V7"},
        ),
        "illegal_V9_bare_table_joker_where_no_card_fits": doc(
            "issue 28, case 3: a bare table joker stands for the card of its place;"
            " between 6h and 7h none fits (V9)",
            HEARTS,
            [*OPENINGS, play(0, "Qc", "5h 6h * 7h | 9c Tc Jc Qc")],
            {"exit": 1, "deal": 0, "action": 2, "rule": "V9"},
        ),
        "illegal_V9_rearranging_adds_no_card": doc(
            "issue 28, case 4: a rearrangement must add a card from the hand (V9a)",
            HEARTS,
            [*OPENINGS, play(0, "", "9c Tc Jc | *:4h 5h 6h 7h")],
            {"exit": 1, "deal": 0, "action": 2, "rule": "V9"},
        ),
        "illegal_V11_bare_table_joker_moved_to_the_other_end": doc(
            "the joker stands for 4h; written bare after 7h it would stand for 8h (V11)",
            HEARTS,
            [*OPENINGS, play(0, "Qc", "5h 6h 7h * | 9c Tc Jc Qc")],
            {"exit": 1, "deal": 0, "action": 2, "rule": "V11"},
        ),
        "legal_free_jokers_bare_table_joker_moved_to_the_other_end": doc(
            "with free_jokers the table joker moves as a wild card and stands for 8h",
            HEARTS,
            [*OPENINGS, play(0, "Qc", "5h 6h 7h * | 9c Tc Jc Qc")],
            {"exit": 0, "table": [["5h", "6h", "7h", "*:8h"], ["9c", "Tc", "Jc", "Qc"]]},
            options={"free_jokers": True},
        ),
        "legal_bare_table_joker_keeps_its_place": doc(
            "written bare in its place, the table joker still stands for 4h (V11)",
            HEARTS,
            [*OPENINGS, play(0, "3h Qc", "3h * 5h 6h 7h | 9c Tc Jc Qc")],
            {"exit": 0, "table": [["3h", "*:4h", "5h", "6h", "7h"], ["9c", "Tc", "Jc", "Qc"]]},
        ),
    }


def main() -> None:
    for name, record in records().items():
        text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
