"""A minimal bot for rummykit's bot protocol (docs/bot-protocol.md), standard library only.

    rummykit simulate --game vatikanen --bots greedy,cmd:"python examples/random_bot.py"
    rummykit simulate --game kontrakt --players 3 --bots basic,cmd:"python examples/random_bot.py"

It plays only moves that are always legal, chosen at random:

- Vatikanen: lay a run of three cards from the hand when it has one (its
  opening, or a new meld once opened), otherwise draw (or pass when the
  stock is empty).
- Kontrakt: answer the upcard offer at random, draw from the stock or the
  discard pile at random, and discard a random card (never the card just
  taken from the pile). It never lays down, so it never goes out.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

RANKS = "A23456789TJQK"


def rank_of(card: str) -> int:
    """1 (ace) to 13 (king); 0 for a joker."""
    if card.startswith("*"):
        return 0
    text = card[:-1].upper()
    return 10 if text == "10" else RANKS.index(text) + 1


def three_card_runs(hand: list[str]) -> list[list[str]]:
    """Runs of three natural cards of one suit in the hand (ace low or high)."""
    by_suit: dict[str, set[int]] = {}
    for card in hand:
        if not card.startswith("*"):
            by_suit.setdefault(card[-1].lower(), set()).add(rank_of(card))
    runs = []
    for suit, ranks in by_suit.items():
        if 1 in ranks:
            ranks = ranks | {14}  # the ace may also be high: Q K A
        for low in range(1, 13):
            if {low, low + 1, low + 2} <= ranks:
                runs.append([RANKS[(r - 1) % 13] + suit for r in (low, low + 1, low + 2)])
    return runs


def vatikanen(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    runs = three_card_runs(view["hand"])
    if runs and rng.random() < 0.8:
        return {"type": "play", "add": rng.choice(runs)}
    return {"type": "draw"} if view["stock_size"] > 0 else {"type": "pass"}


def kontrakt(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    seat = view["seat"]
    phase = view["phase"]
    if phase == "upcard_offer":
        if seat == view["forhand"]:
            return {"type": rng.choice(["take_upcard", "decline_upcard"])}
        return {"type": rng.choice(["buy_upcard", "pass_upcard"])}
    if phase == "draw":
        sources = ["stock"]
        if view["discard_pile"] and not view["stock_only"]:
            sources.append("discard")
        return {"type": "draw", "from": rng.choice(sources)}
    hand = list(view["hand"])
    picked = view["picked_up"]
    if picked is not None and len(hand) > 1 and not view["options"]["rediscard_pickup"]:
        hand.remove(picked)  # that copy may not go back on the pile this turn
    return {"type": "discard", "card": rng.choice(hand)}


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])
        elif message["type"] == "view":
            view = message["view"]
            play = vatikanen if message["game"] == "vatikanen" else kontrakt
            print(json.dumps(play(view, rng)), flush=True)
        # "end": the game is over; the arena then closes our input and the loop ends.


if __name__ == "__main__":
    main()
