"""Work a route hands to a bounded pool of workers (records, puzzles, lessons), in turn by
the client's address, and the protocol's answer when the pool refuses it or it runs too
long: ``429 rate_limited`` (too many from one address), ``503 unavailable`` (the queue is
full), ``400`` (past its own time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse

from rummykit.server.routes.answers import client_address, problem
from rummykit.server.workers import BoundedPool, JobTimeout, QueueFull, TooManyJobs

__all__ = ["Refused", "judged"]

P = ParamSpec("P")
R = TypeVar("R")


class Refused(Exception):
    """The pool did not do the work: ``answer`` is what the route answers."""

    def __init__(self, answer: JSONResponse) -> None:
        super().__init__(answer.status_code)
        self.answer = answer


async def judged(
    pool: BoundedPool,
    request: Request,
    size: int,
    too_long: JSONResponse,
    fn: Callable[P, R],
    *args: P.args,
    **kwargs: P.kwargs,
) -> R:
    """``fn(*args, **kwargs)`` in ``pool`` for the request's address (``size`` bytes of
    arguments); :class:`Refused` with the answer to give when it is not done
    (``too_long`` when it ran past its own time)."""
    try:
        return await pool.submit(client_address(request), size, fn, *args, **kwargs)
    except JobTimeout:
        raise Refused(too_long) from None
    except TooManyJobs as exc:
        raise Refused(problem(429, "rate_limited", str(exc))) from None
    except QueueFull as exc:
        raise Refused(problem(503, "unavailable", str(exc))) from None
