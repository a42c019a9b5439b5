"""The game interface's costs: staging a move, and the new log entries a server sends.

For each game, on a mid-game four-player state reached by the game's bots:

- ``copy()`` against ``copy.deepcopy`` (how the terminal staged a move before
  the game interface), measured in the same run;
- the log entries one move adds, as JSON, for one seat (``log_entries(seat, k)``:
  what a server sends after each move) against the seat's whole view as
  JSON (what it would send without ``log_start``);
- the raw engine: actions per second of a whole game's actions, replayed.

Targets (issue 23): ``copy`` under 0.5 ms; the new entries under 0.1 ms per
seat. The Engine section of ``docs/benchmarks.md`` is rewritten with the
figures unless ``--no-write``::

    python benchmarks/engine.py [--repeat 200] [--no-write]
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rummykit import games
from rummykit.game import AnyAction, Game

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- engine:begin -->", "<!-- engine:end -->"
MID_GAME = {"vatikanen": 20, "kontrakt": 160}
"""Actions played before measuring: mid-game (Vatikanen's table has melds; Kontrakt is
in its second or third deal)."""
COPY_TARGET_MS, LOG_TARGET_MS = 0.5, 0.1


def mid_game(name: str, seed: int) -> tuple[Game, list[AnyAction]]:
    """A four-player game of ``name`` after ``MID_GAME`` actions, and the actions to come."""
    spec = games.get(name)
    game = spec.new(4, seed=seed)
    bots = [spec.make_bot(spec.default_bot, seed + s) for s in range(4)]
    taken = 0
    while (seat := game.to_act) is not None and taken < MID_GAME[name]:
        game.apply(bots[seat].choose(game.view(seat)))
        taken += 1
    ahead = []
    trial = game.copy()
    while (seat := trial.to_act) is not None and len(ahead) < 20:
        action = bots[seat].choose(trial.view(seat))
        trial.apply(action)
        ahead.append(action)
    return game, ahead


def per_call_ms(fn: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` timed calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def new_entries_ms(game: Game, ahead: list[AnyAction], repeat: int) -> tuple[float, float]:
    """Per seat: one move's new log entries as JSON, and the whole view as JSON (ms)."""
    new, whole = [], []
    for action in ahead[: max(1, repeat // 20)]:
        start = game.log_size
        game.apply(action)
        for seat in range(game.n_players):
            t0 = time.perf_counter()
            json.dumps(game.log_entries(seat, start))
            t1 = time.perf_counter()
            json.dumps(game.view(seat))
            t2 = time.perf_counter()
            new.append(t1 - t0)
            whole.append(t2 - t1)
    return 1000 * statistics.median(new), 1000 * statistics.median(whole)


def actions_per_second(name: str, seed: int) -> float:
    """The raw engine: a whole bot game's actions applied again to a new game, per second."""
    spec = games.get(name)
    game, _ = mid_game(name, seed)
    record = game.to_record()
    t0 = time.perf_counter()
    rebuilt = spec.from_record(record)
    seconds = time.perf_counter() - t0
    actions = sum(len(d.actions) for d in record.deals)
    assert rebuilt.log_size == game.log_size
    return actions / seconds


def measure(repeat: int) -> list[dict[str, float | str]]:
    """One row of figures per game."""
    rows: list[dict[str, float | str]] = []
    for name in games.names():
        game, ahead = mid_game(name, seed=4)
        copy_ms = per_call_ms(game.copy, repeat)
        deep_ms = per_call_ms(lambda game=game: copy.deepcopy(game), max(5, repeat // 10))
        new_ms, view_ms = new_entries_ms(game, ahead, repeat)
        rows.append(
            {
                "game": name,
                "copy_ms": copy_ms,
                "deepcopy_ms": deep_ms,
                "new_ms": new_ms,
                "view_ms": view_ms,
                "actions_s": actions_per_second(name, seed=4),
            }
        )
    return rows


def table(rows: list[dict[str, float | str]]) -> str:
    """The figures as a Markdown table."""
    out = [
        "| game | copy() | deepcopy (before) | ratio | new log entries, per seat |"
        " whole view, per seat | ratio | engine actions/s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        c, d, n, v = (float(r[k]) for k in ("copy_ms", "deepcopy_ms", "new_ms", "view_ms"))
        out.append(
            f"| {r['game']} | {c:.3f} ms | {d:.2f} ms | {d / c:.0f}x | {n:.4f} ms | {v:.3f} ms"
            f" | {v / n:.0f}x | {float(r['actions_s']):,.0f} |"
        )
    return "\n".join(out)


def write_doc(text: str, repeat: int) -> None:
    """Put the Engine section into docs/benchmarks.md (between its markers)."""
    doc = DOC.read_text(encoding="utf-8")
    when = time.strftime("%Y-%m-%d")
    body = (
        f"{START}\n## Engine\n\n"
        f"`python benchmarks/engine.py --repeat {repeat}` on {platform.machine()} / Python"
        f" {platform.python_version()}, {when}: a four-player game of each, mid-game (after"
        f" {MID_GAME['vatikanen']} Vatikanen and {MID_GAME['kontrakt']} Kontrakt actions by"
        " the default bots). Medians. *copy()* is how a move is staged now (the terminal's"
        " preview, bots' look-ahead), *deepcopy* how it was staged before the game interface;"
        " *new log entries* are one move's entries as JSON for one seat (what the server sends"
        " with `log_start`), against that seat's whole view as JSON. Targets: copy under"
        f" {COPY_TARGET_MS} ms, new entries under {LOG_TARGET_MS} ms per seat. *Engine"
        " actions/s*: a record's actions applied again through `from_record` (every action"
        " checked).\n\n"
        f"{text}\n{END}"
    )
    if START in doc:
        doc = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: body, doc, flags=re.S)
    else:
        doc = doc.replace("<!-- solver:begin -->", body + "\n\n<!-- solver:begin -->", 1)
    DOC.write_text(doc, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=200)
    p.add_argument("--no-write", action="store_true", help="print only")
    args = p.parse_args(argv)
    rows = measure(args.repeat)
    text = table(rows)
    print(text)
    ok = all(
        float(r["copy_ms"]) < COPY_TARGET_MS and float(r["new_ms"]) < LOG_TARGET_MS for r in rows
    )
    print("targets met" if ok else "targets NOT met")
    if not args.no_write:
        write_doc(text, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
