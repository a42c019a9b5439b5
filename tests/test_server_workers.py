"""The server's worker pools: a bot that thinks long holds up no player (issue 44: a table
of expert bots must not slow the other tables)."""

from __future__ import annotations

import asyncio
import operator
import time

import pytest

from rummykit.server.workers import Workers

# What the workers run is pickled by name: a bot's long move is ``time.sleep`` (standing in
# for ``expert``'s search), a player's call ``operator.add`` (a hint, a draft check).


@pytest.mark.parametrize("processes", [1, 0])
def test_a_player_s_call_never_waits_behind_a_bot_s_long_move(processes: int) -> None:
    async def main() -> tuple[float, float]:
        workers = Workers(processes)
        try:
            await workers.run(operator.add, 0, 1)  # the workers are up
            await workers.run_bot(operator.add, 0, 1)
            start = time.monotonic()
            bot = asyncio.ensure_future(workers.run_bot(time.sleep, 1.5))
            await asyncio.sleep(0.1)  # the bot's move is under way
            assert await workers.run(operator.add, 41, 1) == 42
            player = time.monotonic() - start
            await bot
            return player, time.monotonic() - start
        finally:
            workers.shutdown()

    player, bot = asyncio.run(main())
    assert player < 0.8, f"the player's call waited {player:.2f} s behind the bot"
    assert bot >= 1.5
