"""Write the hand-written Kontrakt records of this folder (run from the repository root).

The actions are written by hand below; the decks are built so that the hands
hold what the actions need (``tests/kontrakt_helpers.build_deck``). Each file
carries ``expect``: the exit code of ``rummykit replay`` and, for an illegal
record, the deal, action index and rule id; for a legal one the scores.
Readers ignore the extra field (RECORD.md).

    .venv/bin/python tests/records/kontrakt/make_records.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from kontrakt_helpers import build_deck, play_bots  # noqa: E402
from rummykit.cards import Card, kontrakt_value  # noqa: E402
from rummykit.dealing import deal as deal_cards  # noqa: E402
from rummykit.games.kontrakt import KontraktGame  # noqa: E402


def doc(
    players: list[str],
    deals: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "format": "rummykit-record/1",
        "game": "kontrakt",
        "players": players,
        "options": options or {},
        "deals": deals,
        "expect": expect,
    }


def deal(dealer: int, deck: list[Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"dealer": dealer, "deck": [str(c) for c in deck], "actions": actions}


def a(seat: int, type_: str, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": type_}
    for k, v in fields.items():
        out[k.rstrip("_")] = v
    return out


TWO = ["Anna", "Bo"]
THREE = ["Anna", "Bo", "Cilla"]
OUT_HAND = "7h 7d 7s 8h 8d 8s 4c 4d 4s 5c"
OUT_ACTIONS = [
    a(0, "take_upcard"),
    a(0, "meld", melds=[["7h", "7d", "7s"], ["8h", "8d", "8s"], ["4c", "4d", "4s", "4h"]]),
    a(0, "discard", card="5c"),
]


def _penalty(deck: list[Card], players: int, dealer: int, seat: int) -> int:
    """K6: the value of the hand ``seat`` is dealt."""
    hands, _ = deal_cards(deck, players, 10, dealer)
    return sum(kontrakt_value(c) for c in hands[seat])


def records() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    out_deck = build_deck(2, {0: OUT_HAND}, upcard="4h", dealer=1)
    # The expected scores are the K6 values of Bo's ten cards (Anna went out).
    bo = _penalty(out_deck, 2, 1, 1)
    out["legal_K13_out_by_discard"] = doc(
        TWO, [deal(1, out_deck, OUT_ACTIONS)], {"exit": 0, "scores": [0, bo]}
    )
    out["illegal_K13_action_after_going_out"] = doc(
        TWO,
        [deal(1, out_deck, [*OUT_ACTIONS, a(1, "draw", from_="stock")])],
        {"exit": 1, "deal": 0, "action": 3, "rule": "K13"},
    )
    wrong_dealer = build_deck(2, {}, dealer=1)
    out["illegal_K4_deal_not_passed_left"] = doc(
        TWO,
        [deal(1, out_deck, OUT_ACTIONS), deal(1, wrong_dealer, [a(0, "take_upcard")])],
        {"exit": 1, "deal": 1, "action": 0, "rule": "K4"},
    )

    buy_deck = build_deck(
        3,
        {0: "9h 9d 9c 2c 4d 6h 8s Ts Qd Kh", 2: "Jh Jd 2d 3h 4c 5s 6d 7c 8h Tc"},
        upcard="Js",
        stock="Kc 5h Ac",
        dealer=2,
    )
    buy_actions = [
        a(0, "decline_upcard"),
        a(1, "pass_upcard"),
        a(2, "buy_upcard"),
        a(0, "draw", from_="stock"),
        a(0, "meld", melds=[["9h", "9d", "9c"]]),
        a(0, "discard", card="Kh"),
        a(1, "draw", from_="discard"),
    ]
    out["legal_K7_buy_then_K9_part"] = doc(
        THREE, [deal(2, buy_deck, buy_actions)], {"exit": 0, "scores": [0, 0, 0]}
    )
    out["illegal_K7_buyer_lays_down_at_once"] = doc(
        THREE,
        [deal(2, buy_deck, [*buy_actions[:3], a(2, "meld", melds=[["Jh", "Jd", "Js"]])])],
        {"exit": 1, "deal": 0, "action": 3, "rule": "K7"},
    )
    out["illegal_K7_forhand_takes_discard_after_offer"] = doc(
        THREE,
        [
            deal(
                2,
                buy_deck,
                [
                    a(0, "decline_upcard"),
                    a(1, "pass_upcard"),
                    a(2, "pass_upcard"),
                    a(0, "draw", from_="discard"),
                ],
            )
        ],
        {"exit": 1, "deal": 0, "action": 3, "rule": "K7"},
    )
    out["illegal_K7_only_forhand_takes"] = doc(
        THREE,
        [deal(2, buy_deck, [a(1, "take_upcard")])],
        {"exit": 1, "deal": 0, "action": 0, "rule": "K7"},
    )
    out["illegal_K8_out_of_turn"] = doc(
        THREE,
        [deal(2, buy_deck, [a(0, "take_upcard"), a(1, "draw", from_="stock")])],
        {"exit": 1, "deal": 0, "action": 1, "rule": "K8"},
    )
    out["illegal_K8_discarding_the_card_just_taken"] = doc(
        THREE,
        [deal(2, buy_deck, [a(0, "take_upcard"), a(0, "discard", card="Js")])],
        {"exit": 1, "deal": 0, "action": 1, "rule": "K8"},
    )
    out["legal_rediscard_pickup_option"] = doc(
        THREE,
        [deal(2, buy_deck, [a(0, "take_upcard"), a(0, "discard", card="Js")])],
        {"exit": 0, "scores": [0, 0, 0]},
        options={"rediscard_pickup": True},
    )
    out["illegal_K10_layoff_before_contract"] = doc(
        THREE,
        [
            deal(
                2,
                buy_deck,
                [
                    a(0, "decline_upcard"),
                    a(1, "pass_upcard"),
                    a(2, "pass_upcard"),
                    a(0, "draw", from_="stock"),
                    a(0, "meld", melds=[["9h", "9d", "9c"]]),
                    a(0, "layoff", card="Kc", meld=0),
                ],
            )
        ],
        {"exit": 1, "deal": 0, "action": 5, "rule": "K10"},
    )
    out["illegal_K5_ace_is_low_only"] = doc(
        TWO,
        [
            deal(
                1,
                build_deck(2, {0: "Qs Ks As 2c 4d 6h 8s Ts Qd Kh"}, upcard="9c", dealer=1),
                [a(0, "take_upcard"), a(0, "meld", melds=[["Qs", "Ks", "As"]])],
            )
        ],
        {"exit": 1, "deal": 0, "action": 1, "rule": "K5"},
    )
    joker_deck = build_deck(
        2,
        {0: "8h 8d * 2h 2s 2d 4c * 6c Kd", 1: "8c 5c 9d 9h 3h 4s 5d Ts Jh 2c"},
        upcard="Qd",
        dealer=1,
    )
    out["illegal_K11_swap_before_own_contract"] = doc(
        TWO,
        [
            deal(
                1,
                joker_deck,
                [
                    a(0, "take_upcard"),
                    a(0, "meld", melds=[["8h", "8d", "*"], ["2h", "2s", "2d"], ["4c", "*", "6c"]]),
                    a(0, "discard", card="Kd"),
                    a(1, "draw", from_="stock"),
                    a(1, "swap_joker", card="5c", meld=2),
                ],
            )
        ],
        {"exit": 1, "deal": 0, "action": 4, "rule": "K11"},
    )
    swap_deck = build_deck(2, {0: "8h 8d * 2h 2s 2d 4c * 6c 5c"}, upcard="Kd", dealer=1)
    out["legal_K11_swap_then_out"] = doc(
        TWO,
        [
            deal(
                1,
                swap_deck,
                [
                    a(0, "take_upcard"),
                    a(0, "meld", melds=[["8h", "8d", "*"], ["2h", "2s", "2d"], ["4c", "*", "6c"]]),
                    a(0, "swap_joker", card="5c", meld=2),
                    a(0, "layoff", card="*", meld=0),
                    a(0, "discard", card="Kd"),
                ],
            )
        ],
        {"exit": 0, "scores": [0, _penalty(swap_deck, 2, 1, 1)]},
    )

    # Six deals played by basic bots, then a hand-written seventh deal (K12).
    pre = KontraktGame(3, seed=4)
    play_bots(pre, "b", 4, until_deal=6)
    six = pre.to_record().to_json()["deals"][:6]
    seventh = build_deck(3, {1: "7h 7d 7s 8h 8d 8s 4c 4d Ks 2h"}, upcard="Kc", dealer=0)
    out["illegal_K12_seventh_deal_in_parts"] = doc(
        THREE,
        [
            *six,
            deal(
                0,
                seventh,
                [a(1, "take_upcard"), a(1, "meld", melds=[["7h", "7d", "7s"], ["8h", "8d", "8s"]])],
            ),
        ],
        {"exit": 1, "deal": 6, "action": 1, "rule": "K12"},
    )
    out["bad_nine_players"] = doc([f"P{i}" for i in range(9)], [], {"exit": 2})
    short = [str(c) for c in out_deck][:-1]
    out["bad_deck_too_short"] = doc(TWO, [{"dealer": 1, "deck": short, "actions": []}], {"exit": 2})
    return out


def main() -> None:
    for name, data in records().items():
        text = json.dumps(data, ensure_ascii=False)
        (HERE / f"{name}.json").write_text(text + "\n", encoding="utf-8")
        print(name)


if __name__ == "__main__":
    main()
