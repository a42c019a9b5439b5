"""The review of a finished game (``rummykit.review``): how long a whole record takes.

Records played by the bots before any clock starts: Vatikanen sessions of three
players (greedy and random bots, games added until the session has at least
100 turns) and seven-deal Kontraktsrummy games of four players (basic and
random bots). Each record is timed in CPU seconds (``time.process_time``: the
machine is shared) as the best of ``--repeat`` runs:

- the review, ``review(record)``: every turn of every seat judged;
- the baseline, measured in the same run on the same record: replaying it
  through the engine (``spec.from_record``, every action checked), which the
  review does too.

Targets (issue 34): a Vatikanen session of 100 turns under 1 s, a seven-deal
Kontrakt game under 3 s. The Review section of ``docs/benchmarks.md`` is
rewritten with the figures unless ``--no-write``::

    python benchmarks/review.py [--records 5] [--repeat 3] [--no-write]
"""

from __future__ import annotations

import argparse
import platform
import re
import statistics
import sys
import time
from pathlib import Path

from rummykit import games, solver
from rummykit.record import GameRecord
from rummykit.review import review

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- review:begin -->", "<!-- review:end -->"
TARGET_S = {"vatikanen": 1.0, "kontrakt": 3.0}
TURNS = 100
"""The Vatikanen sessions are played until they have at least this many turns."""


def vatikanen_session(seed: int) -> GameRecord:
    """A three-player session (greedy, random, greedy) of at least :data:`TURNS` turns."""
    spec = games.get("vatikanen")
    session = spec.new(3, seed=seed)
    bots = [spec.make_bot(level, seed * 10 + s) for s, level in enumerate(("greedy", "random"))]
    bots.append(spec.make_bot("greedy", seed * 10 + 2))
    turns = 0
    while True:
        seat = session.to_act
        if seat is None:
            if turns >= TURNS:
                return session.to_record()
            session.next_part()
            continue
        session.apply(bots[seat].choose(session.view(seat)))
        turns += 1


def kontrakt_game(seed: int) -> GameRecord:
    """A four-player game of seven deals (basic, random, basic, basic)."""
    spec = games.get("kontrakt")
    game = spec.new(4, seed=seed)
    levels = ("basic", "random", "basic", "basic")
    bots = [spec.make_bot(level, seed * 10 + s) for s, level in enumerate(levels)]
    while (seat := game.to_act) is not None:
        game.apply(bots[seat].choose(game.view(seat)))
    return game.to_record()


def best_cpu(fn: object, repeat: int) -> float:
    """The least CPU time of ``repeat`` calls of ``fn``, in seconds."""
    assert callable(fn)
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def measure(records: int, repeat: int) -> list[dict[str, float | str]]:
    """One row per game: the records' turns, the review's and the replay's times."""
    solver.warm()
    rows: list[dict[str, float | str]] = []
    for name, make in (("vatikanen", vatikanen_session), ("kontrakt", kontrakt_game)):
        spec = games.get(name)
        reviews, replays, turns = [], [], []
        for seed in range(records):
            record = make(seed)
            turns.append(len(review(record).turns))
            reviews.append(best_cpu(lambda record=record: review(record), repeat))
            replays.append(best_cpu(lambda r=record, s=spec: s.from_record(r), repeat))
        ratio = [r / b for r, b in zip(reviews, replays, strict=True)]
        rows.append(
            {
                "game": name,
                "turns": statistics.median(turns),
                "median_s": statistics.median(reviews),
                "max_s": max(reviews),
                "per_turn_ms": 1000 * sum(reviews) / sum(turns),
                "replay_s": statistics.median(replays),
                "ratio": statistics.median(ratio),
            }
        )
    return rows


def table(rows: list[dict[str, float | str]]) -> str:
    """The figures as a Markdown table."""
    out = [
        "| record | turns (median) | review, median | max | per turn | target |"
        " replay (baseline), median | review ÷ replay |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        name = str(r["game"])
        what = (
            "Vatikanen session, 3 players"
            if name == "vatikanen"
            else "Kontraktsrummy game, 7 deals, 4 players"
        )
        out.append(
            f"| {what} | {float(r['turns']):.0f} | {float(r['median_s']):.3f} s"
            f" | {float(r['max_s']):.3f} s | {float(r['per_turn_ms']):.2f} ms"
            f" | {TARGET_S[name]:.0f} s | {float(r['replay_s']):.3f} s | {float(r['ratio']):.1f}x |"
        )
    return "\n".join(out)


def write_doc(text: str, records: int, repeat: int) -> None:
    """Put the Review section into docs/benchmarks.md (between its markers)."""
    doc = DOC.read_text(encoding="utf-8")
    when = time.strftime("%Y-%m-%d")
    body = (
        f"{START}\n## Review\n\n"
        f"`python benchmarks/review.py --records {records} --repeat {repeat}` on"
        f" {platform.machine()} / Python {platform.python_version()}, {when}: `rummykit.review`"
        f" of {records} records of each kind, played by the bots first (Vatikanen: a session"
        f" of greedy, random and greedy bots, games added until it has at least {TURNS}"
        " turns; Kontraktsrummy: basic, random, basic and basic, seven deals). CPU time"
        " (`time.process_time`; the machine's two cores are shared), the best of"
        f" {repeat} runs per record. The baseline, measured in the same run on the same"
        " records, is replaying the record through the engine (`from_record`, every action"
        " checked), which the review also does. Targets: a Vatikanen session of 100 turns"
        " under 1 s, a seven-deal Kontrakt game under 3 s.\n\n"
        f"{text}\n{END}"
    )
    if START in doc:
        doc = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: body, doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n" + body + "\n"
    DOC.write_text(doc, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--records", type=int, default=5, help="records of each game")
    p.add_argument("--repeat", type=int, default=3, help="runs per record (the best counts)")
    p.add_argument("--no-write", action="store_true", help="print only")
    args = p.parse_args(argv)
    rows = measure(args.records, args.repeat)
    text = table(rows)
    print(text)
    ok = all(float(r["max_s"]) < TARGET_S[str(r["game"])] for r in rows)
    print("targets met" if ok else "targets NOT met")
    if not args.no_write:
        write_doc(text, args.records, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
