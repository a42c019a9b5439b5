"""The compiled programme over ranks (:mod:`.big_search`): loading it, its tables, its calls.

Every question with at most two jokers in play, under groups of any size
(Vatikanen, Kontrakt) or of 3-4 distinct suits (Rummikub), goes to
:func:`ask`: one call of :func:`rummykit.solver.big_search.answer`, which
answers exactly. With numba installed it runs compiled; without, the same
functions run as plain Python on lists, so the answer, ties included, does not
depend on what is installed (only the time does). Past :data:`DEPTH_BUDGET`
states, or with more than two jokers, :func:`ask` returns None and the split
search answers. :func:`solve` searches one freeing case from the bottom alone
(for tests and measurements).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import threading
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

from rummykit.cards import Card
from rummykit.melds import Meld
from rummykit.solver import big_search
from rummykit.solver.dp import NEXT, RUN_STATES, SUITS, Counts

__all__ = [
    "AVAILABLE",
    "DEPTH_BUDGET",
    "TooHard",
    "applies",
    "ask",
    "code",
    "codes",
    "compiled",
    "solve",
    "warm",
]

AVAILABLE = (
    importlib.util.find_spec("numba") is not None
    and importlib.util.find_spec("numpy") is not None
    and os.environ.get("RUMMYKIT_PURE_PYTHON", "") in ("", "0")
)
"""Whether the programme runs compiled (numba and numpy installed)."""

MAX_JOKERS = 2
"""Most jokers in play: with three, a run could hold jokers only."""
MAX_CELL = big_search.MAX_CELL
DEPTH_BUDGET = 60_000
"""States a question's searches (both ends together, per freeing case) may visit before
the split search takes over."""
MEMO_BITS = 16
"""The memo holds 2**MEMO_BITS states (half of them before it is forgotten)."""

_EMPTY = RUN_STATES.index((0, 0, 0))
_FUNCTIONS = (
    "set_aside",
    "depth_first",
    "count_cards",
    "case_cells",
    "_sort_runs",
    "lay_out",
    "mirrored",
    "mirror",
    "answer",
)
"""The functions of :mod:`.big_search`, callees before their callers."""
_loaded: dict[str, Any] = {}
_lock = threading.RLock()
_scratch = threading.local()


class TooHard(Exception):
    """The search ran past its budget: the split search answers instead."""


def applies(cp: Counts) -> bool:
    """Whether this programme answers ``cp``: groups of any size, at most two jokers."""
    if not cp.big_groups or cp.joker_runs:
        return False
    jokers = cp.wild_mand + cp.wild_opt + sum(cp.gmand) + sum(map(sum, cp.fixed))
    return jokers <= MAX_JOKERS


def _trim_table() -> list[int]:
    """``[state * width + room]``: a suit's runs in progress cut to ``room`` runs going on.

    Runs shorter than three must all go on (-1 when they cannot); runs of three
    or more beyond the room end.
    """
    index = {st: i for i, st in enumerate(RUN_STATES)}
    out = []
    for n1, n2, n3 in RUN_STATES:
        for room in range(len(NEXT[0])):
            short = n1 + n2
            out.append(-1 if short > room else index[(n1, n2, min(n3, room - short))])
    return out


def _dominators() -> list[int]:
    """Per run state, the states one step above it: ``out[st]..out[st + 1]`` index into the
    rest of ``out``, which lists them.

    ``(n1, n2, n3 + 1)``, ``(n1 - 1, n2 + 1, n3)`` and ``(n1, n2 - 1, n3 + 1)`` (runs of
    length 1, 2, 3 or more) carry on at least as well as ``(n1, n2, n3)``: one more run
    that may end at once, or one run a card longer. Whatever completes the lower state
    completes the higher. (Looking up every state above, not only those one step up,
    found 1-2% fewer states in 1.2-1.3x the time; see docs/solver.md.)
    """
    index = {st: i for i, st in enumerate(RUN_STATES)}
    lists = []
    for n1, n2, n3 in RUN_STATES:
        above = ((n1, n2, n3 + 1), (n1 - 1, n2 + 1, n3), (n1, n2 - 1, n3 + 1))
        lists.append([index[st] for st in above if st in index])
    n = len(RUN_STATES)
    out = [0] * (n + 1)
    at = n + 1
    for st, row in enumerate(lists):
        out[st] = at
        at += len(row)
    out[n] = at
    for row in lists:
        out += row
    return out


def _groups_of_distinct_suits() -> tuple[list[int], list[int]]:
    """The automaton of groups of 3-4 distinct suits (Rummikub), flat: its step per suit,
    class and cards given (``(suit * classes + class) * 5 + cards``), and whether a class
    after the last suit fits with ``jokers`` (``class * 5 + jokers``).

    See :func:`rummykit.solver.rank_kernel._group_automaton`.
    """
    from rummykit.solver.rank_kernel import _group_automaton

    step, table = _group_automaton(4)
    width = max(map(len, step))
    flat_step = [-1] * (SUITS * width * 5)
    for s, rows in enumerate(step):
        for cls, row in enumerate(rows):
            for g, nxt in enumerate(row):
                flat_step[(s * width + cls) * 5 + g] = nxt
    flat_fits = [int(ok) for row in table for ok in row]
    return flat_step, flat_fits


def _tables() -> dict[str, Any]:
    """The state tables, the search (compiled where numba is), loaded once."""
    with _lock:
        if _loaded:
            return _loaded
        nxt = [x for row in NEXT for x in row]
        trim = _trim_table()
        opened = [sum(st) for st in RUN_STATES]
        short = [2 * n1 + n2 for n1, n2, _ in RUN_STATES]
        dominators = _dominators()
        gstep, fits = _groups_of_distinct_suits()
        fn: Any = big_search.depth_first
        compiled = False
        if AVAILABLE:
            np = importlib.import_module("numpy")
            numba = importlib.import_module("numba")
            arrays = tuple(
                np.array(t, dtype=np.int64)
                for t in (nxt, trim, opened, short, dominators, gstep, fits)
            )
            sources = {n: getattr(big_search, n) for n in _FUNCTIONS}
            for cache in (True, False):
                try:
                    # numba finds the callee by its global name in the module
                    for name, source in sources.items():
                        setattr(big_search, name, numba.njit(cache=cache, nogil=True)(source))
                    fn = big_search.depth_first
                    _loaded.update(np=np, fn=fn, tables=arrays, answer=big_search.answer)
                    _run(_blank(), None)  # load (or compile) both now
                    ask([], [], (0,) * 15, free=False, all_table=False, high=True, layout=True)
                except Exception as exc:  # pragma: no cover - depends on the machine
                    warnings.warn(f"numba could not compile the solver: {exc}", stacklevel=2)
                    for name, source in sources.items():
                        setattr(big_search, name, source)
                    fn = big_search.depth_first
                else:
                    compiled = True
                    break
        if not compiled:
            _loaded.update(
                np=None,
                fn=fn,
                tables=(nxt, trim, opened, short, dominators, gstep, fits),
                answer=big_search.answer,
            )
        _loaded["compiled"] = compiled
    return _loaded


def compiled() -> bool:
    """Whether the search runs compiled (loading it on the first call)."""
    return bool(_tables()["compiled"])


def warm() -> None:
    """Load (or compile) the programme now, so that no later solve pays for it."""
    _tables()


def _blank() -> Counts:
    grid = [[0] * SUITS for _ in range(14)]
    weight = [0] * 14
    return Counts(True, True, 0, False, grid, grid, grid, weight, weight, 0, 1, weight, 1)


def _space(second: bool = False) -> tuple[Any, Any, Any, Any, Any]:
    """This thread's memo, generation counter and search state, choices, stack and path
    (kept between solves); ``second``: another set, for the search from the top."""
    name = "space2" if second else "space"
    space = getattr(_scratch, name, None)
    if space is None:
        np = _loaded["np"]
        sizes = (
            2 << MEMO_BITS,
            9,
            big_search.MAX_STEPS * big_search.OPTIONS * 3,
            6 * (big_search.MAX_STEPS + 1),
            big_search.MAX_STEPS,
        )
        if np is None:
            space = tuple([0] * n for n in sizes)
        else:
            space = tuple(np.zeros(n, dtype=np.int64) for n in sizes)
        setattr(_scratch, name, space)
    return space


def solve(cp: Counts, floor: int | None = None) -> int | None:
    """The best score of one freeing case ``cp`` by the search from the bottom alone, or None.

    With ``floor``, only a score above it counts. Only where :func:`applies`;
    :class:`TooHard` past the budget or where a cell holds more than
    :data:`MAX_CELL` cards. The solver asks whole questions (:func:`ask`); this
    one case is for tests and measurements.
    """
    _tables()
    return _run(cp, floor)


def _run(cp: Counts, floor: int | None) -> int | None:
    cells: list[int] = []
    for rank in range(14):
        mand, opt, fixed = cp.mand[rank], cp.opt[rank], cp.fixed[rank]
        for s in range(SUITS):
            cells += (mand[s], opt[s], fixed[s])
    if max(cells) > MAX_CELL:
        raise TooHard  # more copies of a card than the key holds
    ranks = [*cp.gmand, *cp.natmin, *cp.weight]
    limit = 0 if floor is None else floor - cp.base
    params = [
        cp.wild_mand,
        cp.wild_opt,
        cp.wjoker,
        int(floor is not None),
        limit,
        int(cp.ace_high),
        _EMPTY,
        int(cp.distinct),
    ]
    np = _loaded["np"]
    if np is not None:
        cells_in: Any = np.array(cells, dtype=np.int64)
        ranks_in: Any = np.array(ranks, dtype=np.int64)
        params_in: Any = np.array(params, dtype=np.int64)
    else:
        cells_in, ranks_in, params_in = cells, ranks, params
    memo, generation, opts, stack, path = _space()
    generation[8] = 0
    value = _loaded["fn"](
        cells_in,
        ranks_in,
        params_in,
        *_loaded["tables"],
        memo,
        generation,
        opts,
        stack,
        path,
        DEPTH_BUDGET,
    )
    if value == big_search.NOTHING:
        return None
    if value == -big_search.NOTHING:
        raise TooHard
    return int(value) + cp.base


# ---------------------------------------------------------------- whole questions

_ASK_SIZES = (
    ("best_path", big_search.MAX_STEPS),
    ("cells", 14 * 4 * 3),
    ("ranks", 42),
    ("params", 8),
    ("cells2", 14 * 4 * 3),
    ("ranks2", 42),
    ("params2", 8),
    ("scratch", big_search.SCRATCH),
    ("out", big_search.OUT_SIZE),
    ("info", 9),
)


def _ask_space() -> tuple[Any, ...]:
    """This thread's arrays for :func:`rummykit.solver.big_search.answer` (kept between calls)."""
    space = getattr(_scratch, "ask", None)
    if space is None:
        np = _loaded["np"]
        if np is None:
            space = tuple([0] * n for _name, n in _ASK_SIZES)
        else:
            space = tuple(np.zeros(n, dtype=np.int64) for _name, n in _ASK_SIZES)
        _scratch.ask = space
    return space


def codes(cards: Iterable[Meld] | Iterable[Sequence[Card]] | Iterable[Card]) -> list[int]:
    """The codes (:func:`code`) of the cards of some melds (or of some cards)."""
    out: list[int] = []
    add = out.append
    for item in cards:
        if isinstance(item, Meld):
            group: Iterable[Card] = item.cards
        elif isinstance(item, Card):
            group = (item,)
        else:
            group = item
        for card in group:
            suit = card.suit
            if suit is not None:
                add(card.rank * 4 + suit)
                continue
            meaning = card.stands_for
            if meaning is None:
                add(big_search.WILD)
            elif meaning.suit is None:
                add(big_search.GROUP_JOKER + meaning.rank)
            else:
                add(big_search.RUN_JOKER + meaning.rank * 4 + meaning.suit)
    return out


def code(card: Card) -> int:
    """A card's code for the compiled programme (see :mod:`.big_search`)."""
    suit = card.suit
    if suit is not None:
        return card.rank * 4 + suit
    meaning = card.stands_for
    if meaning is None:
        return big_search.WILD
    if meaning.suit is None:
        return big_search.GROUP_JOKER + meaning.rank
    return big_search.RUN_JOKER + meaning.rank * 4 + meaning.suit


def ask(
    table: Sequence[int],
    hand: Sequence[int],
    weights: tuple[int, ...],
    *,
    free: bool,
    all_table: bool,
    high: bool,
    layout: bool,
    distinct: bool = False,
) -> list[int] | None:
    """The answer to one question (card codes, see :func:`code`), as the list ``out`` of
    :func:`rummykit.solver.big_search.answer`: ``[0]`` no answer, ``[1]`` an answer (not
    laid out), None where the programme does not answer (the split search does)."""
    loaded = _loaded if _loaded else _tables()
    args = getattr(_scratch, "args", None)
    if args is None:
        best_path, cells, ranks, params, cells2, ranks2, params2, scratch, out, info = _ask_space()
        args = _scratch.args = (
            *loaded["tables"],
            *_space(),
            *_space(second=True),
            best_path,
            cells,
            ranks,
            params,
            cells2,
            ranks2,
            params2,
            scratch,
            out,
        )
    out = args[-1]
    info = _ask_space()[-1]
    np = loaded["np"]
    codes = [*table, *hand]
    info[0] = len(table)
    info[1] = len(hand)
    info[2] = free
    info[3] = all_table
    info[4] = high
    info[5] = DEPTH_BUDGET
    info[6] = layout
    info[7] = _EMPTY
    info[8] = distinct
    status = loaded["answer"](
        codes if np is None else np.array(codes, dtype=np.int64),
        info,
        weights if np is None else _weight_array(weights),
        *args,
    )
    if status == 2:
        return None
    if status == 0:
        return [0]
    if not layout:
        return [1]
    end = int(out[3])
    return out[:end].tolist() if np is not None else out[:end]  # type: ignore[no-any-return]


_WEIGHTS: dict[tuple[int, ...], Any] = {}


def _weight_array(weights: tuple[int, ...]) -> Any:
    got = _WEIGHTS.get(weights)
    if got is None:
        np = _loaded["np"]
        got = _WEIGHTS[weights] = np.array(weights, dtype=np.int64)
    return got
