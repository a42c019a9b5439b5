"""Running an arena match: in this process, on local processes, or on a Ray cluster.

The unit of work is one game (:func:`rummykit.arena.play_games`). Results are put back in game order
before anything is computed from them, and every game's randomness comes
from the match seed and the game's number only, so the backend and the
number of workers never change the results.

Ray is optional (``pip install 'rummykit[cluster]'``): :func:`run_match` with
``ray_address=""`` starts a local Ray instance (``ray.init()``), any other
address joins that cluster. Every node must have rummykit installed (and,
for ``cmd:`` bots, the bot program at the same path).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import IO

from rummykit.arena import ArenaConfig, GameResult, play_games
from rummykit.i18n import DEFAULT, N_, translate

__all__ = ["Match", "Progress", "default_workers", "run_match"]


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Match:
    """A finished match: every game's result in game order, and the wall time."""

    config: ArenaConfig
    results: list[GameResult]
    seconds: float
    backend: str


def _local(config: ArenaConfig, workers: int) -> Iterator[list[GameResult]]:
    """Games on ``workers`` local processes, at most two games queued per worker."""
    pending: set[Future[list[GameResult]]] = set()
    games = iter(range(config.games))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for index in games:
            pending.add(pool.submit(play_games, config, [index]))
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                nxt = next(games, None)
                if nxt is not None:
                    pending.add(pool.submit(play_games, config, [nxt]))


def _ray(config: ArenaConfig, address: str, workers: int | None) -> Iterator[list[GameResult]]:
    """Games as Ray tasks on the cluster at ``address`` ("" starts a local instance)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            N_("--ray needs Ray: pip install 'rummykit[cluster]' (ray>=2.9)")
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            # num_cpus None (ray's default): every core of the machine
            ray.init(include_dashboard=False, log_to_driver=False, num_cpus=workers)
    try:
        task = ray.remote(play_games)
        pending = [task.remote(config, [index]) for index in range(config.games)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


def run_match(
    config: ArenaConfig,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> Match:
    """Play the whole match and return it.

    ``workers`` 1 plays in this process; more use a process pool (default:
    every core this process may use). ``ray_address`` (not None) runs on Ray
    instead. ``progress(done, total)`` is called as games finish;
    ``on_result`` gets every game's result as it comes (in finishing order).
    """
    started = time.perf_counter()
    if ray_address is not None:
        chunks: Iterator[list[GameResult]] = _ray(config, ray_address, workers)
        backend = f"ray {ray_address}" if ray_address else "ray (local)"
    else:
        count = default_workers() if workers is None else workers
        count = max(1, min(count, max(1, config.games)))
        if count == 1:
            chunks = (play_games(config, [i]) for i in range(config.games))
            backend = "1 process"
        else:
            chunks = _local(config, count)
            backend = f"{count} processes"
    results: list[GameResult] = []
    if progress is not None:
        progress(0, config.games)
    for chunk in chunks:
        results.extend(chunk)
        if on_result is not None:
            for r in chunk:
                on_result(r)
        if progress is not None:
            progress(len(results), config.games)
    results.sort(key=lambda r: r.index)
    return Match(config, results, time.perf_counter() - started, backend)


def _clock(seconds: float) -> str:
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Progress on ``stream``: a bar with the time left on a terminal, else plain lines.

    Plain lines come at most every ``every`` seconds (and at the end), so a
    log stays short. ``bar=False`` forces plain lines.
    """

    def __init__(
        self,
        stream: IO[str] | None = None,
        *,
        bar: bool | None = None,
        every: float = 30.0,
        label: str | None = None,
        lang: str = DEFAULT,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.bar = bool(isatty and isatty()) if bar is None else bar
        self.every = every
        self.lang = lang
        self.label = translate("games", lang) if label is None else label
        self.started = time.monotonic()
        self._last = -1e9
        self._width = 0

    def line(self, done: int, total: int) -> str:
        """The progress text for ``done`` of ``total``."""
        elapsed = time.monotonic() - self.started
        frac = done / total if total else 1.0
        left = elapsed / done * (total - done) if done else None
        eta = "?" if left is None else _clock(left)
        if self.bar:
            width = 28
            fill = round(frac * width)
            bar = "[" + "#" * fill + "." * (width - fill) + "]"
            return translate(
                "{bar} {done}/{total} {label} {percent:4.0%}  {elapsed} elapsed, ~{eta} left",
                self.lang,
                bar=bar,
                done=done,
                total=total,
                label=self.label,
                percent=frac,
                elapsed=_clock(elapsed),
                eta=eta,
            )
        return translate(
            "rummykit simulate: {done}/{total} {label} ({percent:.0%}), {elapsed} elapsed,"
            " about {eta} left",
            self.lang,
            done=done,
            total=total,
            label=self.label,
            percent=frac,
            elapsed=_clock(elapsed),
            eta=eta,
        )

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        final = done >= total
        if self.bar:
            text = self.line(done, total)
            pad = max(0, self._width - len(text))
            self._width = len(text)
            self.stream.write("\r" + text + " " * pad + ("\n" if final else ""))
            self.stream.flush()
            return
        if done == 0 or (not final and now - self._last < self.every):
            return
        self._last = now
        self.stream.write(self.line(done, total) + "\n")
        self.stream.flush()
