"""Guessing the other Kontraktsrummy hands as a careful player would read them.

:func:`~rummykit.bots.sampling.sample_kontrakt` deals the unseen cards at
random. Real hands are not random: a player keeps the cards that serve the
contract and lets the others go, so a hand that has drawn many cards from
the stock holds more pairs and neighbours than a random one, and a player
who passed over a card (or let one go) while collecting groups most likely
holds none of its rank. :func:`sample_kontrakt_read` shapes its guesses so:

- every other hand gets the cards known to be in it, its unknown cards, and
  one more unseen card per stock draw it made this deal (up to ``extra``);
  it then lets the extra cards go by the ``basic`` bot's discard rule (least
  useful for its contract, then highest), and they go back among the unseen;
- while a player still needs groups, its guessed hand avoids (as far as a
  few redraws can) the rank of the last pile top it passed over and of its
  last discard;
- with ``fit`` (off by default), each guessed hand is then made to fit what
  its player's last turns showed (:func:`seat_reads`, :func:`misfit`): every
  discard was the least useful card of the hand of that moment by basic's
  rule, a pile top passed over was no pair or neighbour of it, and one taken
  was. Unknown cards are swapped with unseen ones, a swap that fits worse
  undone, at most ``fit`` tries per hand. The true hands of basic players
  always fit (tested); a random guess often does not.

The guess stays consistent with the view exactly as
:func:`~rummykit.bots.sampling.sample_kontrakt`'s does (hand sizes, known
cards, the stock size); only which unseen card lands where changes.
Measured (``docs/bots.md``, the seventh and eighth looks): a search of the
draw alone on such guesses did as well as the heuristic, where random
guesses lost clearly; a search of the draw and the discard on them lost to
the heuristic, though on the true hands it would gain much. The ninth look
measured the guesses against the true hands: with ``extra=8`` (this default)
they put the other players a third of a card nearer their contracts than
they are, with ``extra=1`` as near as they are; no read here predicts the
next player's takes much better than a random guess. The strong bot's search
reads with ``extra=1``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from rummykit.bots.base import seat_and_hand
from rummykit.bots.kontrakt_basic import TAKES, _needs, discard_key, usefulness
from rummykit.bots.sampling import (
    Deal,
    _current_log,
    _given_up,
    kontrakt_known_cards,
    kontrakt_unseen,
)
from rummykit.cards import Card
from rummykit.games.kontrakt.view import kontrakt_view

__all__ = ["SeatRead", "Turn", "misfit", "passed_ranks", "sample_kontrakt_read", "seat_reads"]

_REDRAWS = 4


def passed_ranks(view: Mapping[str, object]) -> list[set[int]]:
    """Per seat, the ranks it most likely lacks: those of the last pile top it passed over
    (it drew from the stock instead) and of its last discard, while it still needs groups.

    A careful player takes a card that pairs one of the hand (K8) and lets go
    a card without a mate, so both say the rank is not in the hand.
    """
    v = kontrakt_view(view)
    n = len(v["hand_sizes"])
    passed: list[str | None] = [None] * n
    let_go: list[str | None] = [None] * n
    top: tuple[int, str] | None = None
    for entry in _current_log(v):
        kind, seat = entry.get("type"), int(entry.get("seat", -1))
        if kind == "discard":
            let_go[seat] = entry["card"]
            top = (seat, entry["card"])
        elif kind == "draw":
            if entry.get("from") == "stock" and top is not None and top[0] == (seat - 1) % n:
                passed[seat] = top[1]
            top = None
    out: list[set[int]] = []
    for seat in range(n):
        ranks: set[int] = set()
        if _needs(v, seat)[0] > 0:
            for text in (passed[seat], let_go[seat]):
                if text is not None:
                    card = Card.parse(text)
                    if not card.is_joker:
                        ranks.add(card.rank)
        out.append(ranks)
    return out


def _let_go_extras(
    known: list[Card], got: list[Card], extra: int, needs: tuple[int, int]
) -> list[Card]:
    """Remove ``extra`` cards from ``got`` by the basic rule (least useful, then highest);
    the removed cards, in the order let go."""
    out: list[Card] = []
    for _ in range(extra):
        hand = known + got
        best: tuple[int, int] | None = None
        pick = 0
        for k, card in enumerate(got):
            others = hand[: len(known) + k] + hand[len(known) + k + 1 :]
            key = discard_key(card, others, *needs)[:2]  # ties: the first in the hand
            if best is None or key < best:
                best, pick = key, k
        out.append(got.pop(pick))
    return out


def sample_kontrakt_read(
    view: Mapping[str, object], rng: random.Random, *, extra: int = 8, fit: int = 0
) -> Deal:
    """Deal the unseen cards of a Kontrakt view the way the other players' play suggests.

    The same constraints as :func:`~rummykit.bots.sampling.sample_kontrakt`;
    the module's docstring says how the hands are shaped.
    """
    v = kontrakt_view(view)
    seat, _ = seat_and_hand(v)
    known = kontrakt_known_cards(v)
    pool = kontrakt_unseen(v)
    rng.shuffle(pool)
    draws = Counter(
        e["seat"] for e in _current_log(v) if e.get("type") == "draw" and e.get("from") == "stock"
    )
    sizes = v["hand_sizes"]
    lacks = passed_ranks(v)
    hands: list[list[Card]] = [[] for _ in sizes]
    order = [i for i in range(len(sizes)) if i != seat]
    rng.shuffle(order)
    for i in order:
        fill = sizes[i] - len(known[i])
        if fill < 0:
            raise ValueError(f"seat {i} is known to hold more cards than its hand size")
        more = max(0, min(draws[i], extra, len(pool) - fill))
        got = [pool.pop() for _ in range(fill + more)]
        if lacks[i]:
            for k, card in enumerate(got):
                for _try in range(_REDRAWS):
                    if card.is_joker or card.rank not in lacks[i] or not pool:
                        break
                    j = rng.randrange(len(pool))
                    got[k], pool[j] = pool[j], card
                    card = got[k]
        for card in _let_go_extras(known[i], got, more, _needs(v, i)[:2]):
            pool.insert(rng.randrange(len(pool) + 1), card)
        hands[i] = known[i] + got
    hands[seat] = known[seat]
    if fit:
        for i, read in enumerate(seat_reads(v)):
            if read is not None:
                _fit(hands[i], len(known[i]), pool, read, fit, rng)
    if len(pool) != v["stock_size"]:
        raise ValueError("the view's hand and stock sizes do not add up to the unseen cards")
    return Deal(hands, pool)


@dataclass(frozen=True)
class Turn:
    """One finished turn of another seat, as everyone saw it.

    ``discard`` ended it; ``banned`` is the pile card it drew, which it could
    not let go again (K8); ``passed`` a pile top it passed over for the stock,
    ``taken`` one it took; ``stock`` whether it drew from the stock (a card no
    one saw); ``laid`` whether it laid melds; ``before`` the
    cards it laid down or off after the draw and ``gained`` the cards it got
    after the draw (jokers from swaps, K11).
    """

    discard: Card
    banned: Card | None
    passed: Card | None
    taken: Card | None
    stock: bool
    laid: bool
    before: tuple[Card, ...]
    gained: tuple[Card, ...]


@dataclass(frozen=True)
class SeatRead:
    """What a seat's play this deal says about the hand it holds now.

    A careful player (the ``basic`` rule) lets go its least useful card and
    takes the pile's top when it pairs or neighbours the hand (K8). So each
    discard was the least useful card of the hand of that moment, a pile top
    passed over was no use to it, and one taken was. ``turns`` are the
    seat's last turns, the latest first, back to its last lay-down (which
    changed what the hand needs); ``needs`` the groups and runs it needs now.
    """

    needs: tuple[int, int]
    turns: tuple[Turn, ...]


def seat_reads(view: Mapping[str, object], depth: int = 2) -> list[SeatRead | None]:
    """Per other seat, its last ``depth`` turns of this deal (None where it finished none,
    or its contract is down: a complete hand takes and lets go by the table)."""
    v = kontrakt_view(view)
    n = len(v["hand_sizes"])
    log = _current_log(v)
    out: list[SeatRead | None] = [None] * n
    for seat in range(n):
        groups, runs, complete = _needs(v, seat)
        if seat == v["seat"] or complete:
            continue
        turns: list[Turn] = []
        end = len(log) - 1
        while len(turns) < depth:
            while end >= 0 and int(log[end].get("seat", -1)) != seat:
                end -= 1
            if end < 0 or log[end].get("type") != "discard":
                break
            start = end
            while start > 0 and log[start].get("type") != "draw":
                start -= 1
            draw = log[start]
            if draw.get("type") != "draw" or int(draw["seat"]) != seat:
                break
            between = log[start + 1 : end]
            prev = log[start - 1] if start > 0 else None
            top = None
            if prev and prev.get("type") == "discard" and int(prev["seat"]) == (seat - 1) % n:
                top = Card.parse(prev["card"])
            from_pile = draw.get("from") == "discard"
            laid = any(e.get("type") == "meld" for e in between)
            turns.append(
                Turn(
                    discard=Card.parse(log[end]["card"]),
                    banned=top if from_pile else None,
                    passed=None if from_pile or top is None or top.is_joker else top,
                    taken=top if from_pile and top is not None and not top.is_joker else None,
                    stock=not from_pile,
                    laid=laid,
                    before=tuple(c for e in between for c in _given_up(e)),
                    gained=tuple(Card.parse(t) for e in between for t in e.get("shown") or []),
                )
            )
            if laid:
                break
            end = start - 1
        if turns:
            out[seat] = SeatRead((groups, runs), tuple(turns))
    return out


def _let_go_worst(held: list[Card], turn: Turn, needs: tuple[int, int]) -> int:
    """How many cards of ``held`` the basic rule would have let go before ``turn.discard``."""
    at = held.index(turn.discard)
    worst = discard_key(turn.discard, held[:at] + held[at + 1 :], *needs)
    bad = 0
    for k, card in enumerate(held):
        if card == turn.discard or (card == turn.banned and held.count(card) == 1):
            continue
        if discard_key(card, held[:k] + held[k + 1 :], *needs) < worst:
            bad += 1
    return bad


def _less_one(cards: list[Card]) -> Iterator[list[Card]]:
    """``cards`` less any one of them (a card drawn from the stock, not known which)."""
    for k in range(len(cards)):
        yield cards[:k] + cards[k + 1 :]


def misfit(hand: list[Card], read: SeatRead) -> int:
    """How far a guessed hand is from what its seat's play says (0: it fits).

    One for each card the basic rule would have let go before a discard, one
    more when a pile top passed over would have paired or neighboured the
    hand at that draw (:data:`TAKES`), or one taken would not have. Going
    back a turn puts its cards back into the hand; a card drawn from the
    stock since then is one of the unknown ones, so every way of taking one
    out is tried; two such cards end the look back.
    """
    needs = read.needs
    held = list(hand)
    unknown = 0
    bad = 0
    for turn in read.turns:
        if unknown == 0:
            bad += _let_go_worst([*held, turn.discard], turn, needs)
        else:
            bad += min(_let_go_worst([*h, turn.discard], turn, needs) for h in _less_one(held))
        held.append(turn.discard)
        at_draw = [*held, *turn.before]
        for card in turn.gained:
            if card in at_draw:
                at_draw.remove(card)
        if turn.taken is not None and turn.taken in at_draw:
            at_draw.remove(turn.taken)
        if any(needs) and unknown == 0 and not turn.laid:
            if turn.passed is not None:
                top = turn.passed
                bad += all(usefulness(top, h, *needs) >= TAKES for h in _less_one(at_draw))
            elif turn.taken is not None:
                jokers = any(c.is_joker for c in at_draw)
                bad += not jokers and usefulness(turn.taken, at_draw, *needs) < TAKES
        held = at_draw
        unknown += turn.stock
        if unknown > 1 or turn.laid:
            break
    return bad


def _fit(
    hand: list[Card], fixed: int, pool: list[Card], read: SeatRead, steps: int, rng: random.Random
) -> None:
    """Swap unknown cards of ``hand`` (those after the first ``fixed``) with unseen ones
    until it fits ``read`` (:func:`misfit`), at most ``steps`` tries; a swap that fits
    worse is undone."""
    if fixed >= len(hand) or not pool:
        return
    bad = misfit(hand, read)
    for _ in range(steps):
        if bad == 0:
            return
        k = rng.randrange(fixed, len(hand))
        j = rng.randrange(len(pool))
        hand[k], pool[j] = pool[j], hand[k]
        now = misfit(hand, read)
        if now > bad:
            hand[k], pool[j] = pool[j], hand[k]
        else:
            bad = now
