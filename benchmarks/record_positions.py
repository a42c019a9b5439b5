"""Record a fixed set of Vatikanen solver positions from real games (issue 29).

Run: ``.venv/bin/python benchmarks/record_positions.py`` (writes
``benchmarks/vatikanen_positions.txt``). The file is kept in the repository
so that the solver benchmark times the same positions whatever later changes
to the engine or the bots would make them play.

Every turn of a player who has opened is one position (the table and that
player's hand): greedy games of 2-5 players (every third one with
``free_jokers``), and games of the standard two-player match, strong
against greedy. One line per position::

    free=0 | 7h *:8h 9h | Tc Th Ts ; 3c 4c Kd *

the ``free_jokers`` flag, the table's melds separated by ``|``, and after
``;`` the hand.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from pathlib import Path

from rummykit.bots.levels import make_bot
from rummykit.cards import Card, parse_cards
from rummykit.games.vatikanen import VatikanenGame as Game
from rummykit.melds import VATIKANEN, Meld, read_meld

FILE = Path(__file__).parent / "vatikanen_positions.txt"


def positions(
    games: int, strong_games: int, seed: int
) -> Iterator[tuple[bool, Sequence[Meld], Sequence[Card]]]:
    """(free_jokers, table, hand) at every turn of an opened player."""
    lineups = [(2 + g % 4, "greedy", g % 3 == 2) for g in range(games)]
    lineups += [(2, "strong", False) for _ in range(strong_games)]
    for g, (n, first, free) in enumerate(lineups):
        game = Game(n, seed=seed * 1000 + g, free_jokers=free)
        names = [first] + ["greedy"] * (n - 1)
        if first == "strong" and g % 2:
            names.reverse()
        bots = [
            make_bot("vatikanen", name, seed=seed * 1000 + g * 10 + s)
            for s, name in enumerate(names)
        ]
        while (seat := game.to_act) is not None:
            if game.opened(seat):
                yield free, tuple(game.table), tuple(game.hand(seat))
            game.apply(bots[seat].choose(game.view(seat)))


def line(free: bool, table: Sequence[Meld], hand: Sequence[Card]) -> str:
    """One position as a line of the file."""
    melds = " | ".join(str(m) for m in table)
    cards = " ".join(str(c) for c in hand)
    return f"free={int(free)} | {melds} ; {cards}".replace("|  ;", "| ;")


def read(path: Path = FILE) -> list[tuple[bool, list[Meld], list[Card]]]:
    """The positions of a file written by this script."""
    out = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text or text.startswith("#"):
            continue
        head, hand = text.split(";")
        flag, *melds = head.split("|")
        table = [read_meld(parse_cards(m), VATIKANEN) for m in melds if m.strip()]
        out.append((flag.strip() == "free=1", table, parse_cards(hand)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="greedy games of 2-5 players")
    ap.add_argument("--strong", type=int, default=40, help="two-player games, strong vs greedy")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--out", type=Path, default=FILE)
    args = ap.parse_args(argv)
    lines = [line(*p) for p in positions(args.games, args.strong, args.seed)]
    header = (
        f"# {len(lines)} Vatikanen positions: benchmarks/record_positions.py --games"
        f" {args.games} --strong {args.strong} --seed {args.seed}"
    )
    args.out.write_text(header + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    back = read(args.out)
    assert len(back) == len(lines)
    assert [line(*p) for p in back] == lines, "the file does not read back to the same positions"
    print(f"{len(lines)} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
