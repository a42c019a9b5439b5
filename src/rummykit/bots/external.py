"""Anyone's bot: a program that plays over stdin and stdout (``docs/bot-protocol.md``).

In the spirit of chess's UCI, a bot is any program, in any language, that
reads one JSON message per line on its standard input and answers every
``view`` message with one action, as one JSON line on its standard output.
The protocol is ``rummykit-bot/1``:

- ``{"type": "start", "protocol": "rummykit-bot/1", "game": ..., "id": ...,
  "seat": ..., "players": [...], "seed": ..., "timeout": ...}``: a game
  begins; no answer.
- ``{"type": "view", "game": ..., "id": ..., "seat": ..., "view": {...}}``:
  your turn; answer with one line, the action as RECORD.md writes it
  (``seat`` may be left out).
- ``{"type": "end", "game": ..., "id": ..., "seat": ..., "result": {...},
  "view": {...}}``: the game is over; no answer. Standard input is then
  closed and the program should exit.

One process plays one seat of one game, so a bot's results never depend on
which other games it played before (the arena's results stay the same for
any number of workers).

:class:`ExternalBot` is the arena's side: a :class:`~rummykit.bots.base.Bot`
whose ``choose`` sends the view and reads the answer within ``timeout``
seconds. A late answer, a line that is not an action, or a program that
exits raises :class:`BotFault` (``kind`` is ``timeout``, ``bad`` or
``crash``); a program that timed out or exited is stopped and started again
on the next view (:attr:`ExternalBot.restarts` counts it).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from rummykit.game import AnyAction

__all__ = [
    "PROTOCOL",
    "BotFault",
    "ExternalBot",
    "FaultKind",
    "parse_action",
]

PROTOCOL = "rummykit-bot/1"
"""The protocol's name, sent in every ``start`` message."""

FaultKind = Literal["timeout", "crash", "bad", "illegal", "error"]
"""What went wrong with a bot's answer: ``timeout`` (no answer in time),
``crash`` (the program exited or could not be started), ``bad`` (the line is
not an action of the game), ``illegal`` (the engine rejects the action),
``error`` (an in-process bot raised)."""

_EOF = object()


class BotFault(Exception):
    """A bot that did not give a usable answer; ``kind`` says how (:data:`FaultKind`)."""

    def __init__(self, kind: FaultKind, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind: FaultKind = kind
        self.message = message


def parse_action(game: str, seat: int, data: object) -> AnyAction:
    """The engine action for one answer of a bot playing ``seat``; BotFault ``bad`` if none.

    ``data`` is the decoded JSON line: an object in RECORD.md's action form.
    ``seat`` may be left out; given, it must be the bot's own seat. Fields only
    records write (a Kontrakt draw's ``restock``) are ignored: no player
    chooses the order of the stock.

    >>> parse_action("vatikanen", 1, {"type": "draw"})
    Draw(seat=1)
    >>> parse_action("kontrakt", 0, {"type": "discard", "card": "7h"}).to_json()
    {'seat': 0, 'type': 'discard', 'card': '7h'}
    """
    from rummykit import games

    try:
        return games.get(game).action_from_json(data, seat=seat)
    except ValueError as exc:  # ActionError, or an unknown game
        raise BotFault("bad", f"{exc} in {_short(data)}") from None


def _short(data: object, limit: int = 200) -> str:
    text = data if isinstance(data, str) else json.dumps(data, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class ExternalBot:
    """A bot that is a program speaking ``rummykit-bot/1`` (see the module docstring).

    ``command`` is a command line (split as a POSIX shell would, without a
    shell) or an argument list. ``timeout`` is the limit of each answer in
    seconds; the first answer after a (re)start may take ``startup`` seconds
    more. ``game_id`` and ``players`` go into the ``start`` message. After
    ``max_restarts`` restarts in one game, every further ``choose`` raises
    ``crash`` at once (the arena then plays random moves for the seat).
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        *,
        timeout: float = 5.0,
        startup: float = 10.0,
        game_id: int = 0,
        players: Sequence[str] = (),
        max_restarts: int = 2,
        cwd: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("an external bot needs a command to run")
        self.level = "cmd:" + shlex.join(self.argv)
        self.seed = seed
        self.timeout = timeout
        self.startup = startup
        self.game_id = game_id
        self.players = list(players)
        self.max_restarts = max_restarts
        self.cwd = cwd
        self.restarts = 0
        self.given_up = False
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._fresh = False
        self._started_once = False

    # ------------------------------------------------------------ process

    def _spawn(self, game: str, seat: int) -> None:
        if self._started_once:
            self.restarts += 1
        self._started_once = True
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                env=env,
            )
        except OSError as exc:
            self.given_up = True
            raise BotFault("crash", f"cannot start {shlex.join(self.argv)}: {exc}") from None
        self._proc = proc
        self._lines = queue.Queue()
        assert proc.stdout is not None
        threading.Thread(target=_read_lines, args=(proc.stdout, self._lines), daemon=True).start()
        self._fresh = True
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": game,
                "id": self.game_id,
                "seat": seat,
                "players": self.players,
                "seed": self.seed,
                "timeout": self.timeout,
            }
        )

    def _send(self, message: Mapping[str, object]) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise BotFault("crash", "the bot is not running")
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._stop()
            raise BotFault("crash", "the bot closed its input (it exited)") from None

    def _stop(self) -> None:
        """Stop the program at once (it timed out or exited)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def close(self, grace: float = 2.0) -> None:
        """Close the program's input and let it exit (killed after ``grace`` seconds)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        if proc.stdout is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdout.close()

    # ------------------------------------------------------------ the Bot interface

    def choose(self, view: Mapping[str, object]) -> AnyAction:
        """Send ``view`` and return the engine action the program answers; BotFault if none."""
        try:
            return self._choose(view)
        except BotFault as fault:
            if fault.kind in ("timeout", "crash") and self.restarts >= self.max_restarts:
                self.given_up = True  # that was its last chance in this game
            raise

    def _choose(self, view: Mapping[str, object]) -> AnyAction:
        game = str(view.get("game"))
        seat = view["seat"]
        if not isinstance(seat, int):
            raise BotFault("error", "a bot is asked only with a seat's view")
        if self.given_up:
            raise BotFault("crash", "the bot was given up for this game")
        if self._proc is None:
            self._spawn(game, seat)
        while True:  # drop lines written when no view was waiting for an answer
            try:
                self._lines.get_nowait()
            except queue.Empty:
                break
        self._send({"type": "view", "game": game, "id": self.game_id, "seat": seat, "view": view})
        limit = self.timeout + (self.startup if self._fresh else 0.0)
        self._fresh = False
        deadline = time.monotonic() + limit
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._stop()
                raise BotFault("timeout", f"no answer within {limit:g} s") from None
            if line is _EOF:
                code = self._proc.poll() if self._proc is not None else None
                self._stop()
                raise BotFault("crash", f"the bot exited (exit code {code})")
            assert isinstance(line, str)
            if line.strip():
                break
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            raise BotFault("bad", f"the answer is not JSON: {_short(line.strip())}") from None
        return parse_action(game, seat, data)

    def end(self, view: Mapping[str, object], result: Mapping[str, object]) -> None:
        """Tell the program the game is over (when it is still running), then close it."""
        if self._proc is not None:
            with contextlib.suppress(BotFault):
                self._send(
                    {
                        "type": "end",
                        "game": view.get("game"),
                        "id": self.game_id,
                        "seat": view.get("seat"),
                        "result": dict(result),
                        "view": dict(view),
                    }
                )
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._stop()


def _read_lines(stream: IO[str], out: queue.Queue[object]) -> None:
    """Copy the program's output lines into ``out``; :data:`_EOF` at the end."""
    try:
        for line in stream:
            out.put(line)
    except (OSError, ValueError):
        pass
    out.put(_EOF)
