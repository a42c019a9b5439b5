"""The programme's data: card codes, limits, and the typed structures its functions share.

Every kernel of the programme works on flat sequences of integers (lists in
plain Python, int64 arrays compiled; see :mod:`rummykit.solver.kernels`),
grouped in named tuples so that a function takes a few structures, not dozens
of arrays: :class:`Tables` (the state tables, the same for every question),
:class:`Search` (one search from one end: its freeing case and its working
state), :class:`Question` and :class:`Work` (a whole question and what
answering it writes), :class:`Setup` and :class:`Step` (what a search reads at
every step, worked out once). Fields of the flat arrays are named by the
index constants below (``P_``, ``G_``, ``I_``).

A state's key (int64):

- bits 0-31: each suit's runs in progress (the states of :mod:`..counts`, 8 bits each);
- bits 32-34: wild jokers placed; bit 35: some meld exists, which can take the
  spare jokers at the end (a group; a run, at an end, or split in two when it
  spans every position; groups of any size only);
- bits 36-47: each suit's aces used low (3 bits each, until position 14);
- inside a rank, groups of any size: bit 48 the group on, bits 49-51 its cards
  (at most 4 counted), bits 52-53 its natural cards (at most 2); groups of
  distinct suits: bits 48-52 the automaton's class; both: bits 54-55 the rank's
  natural cards placed (at most what its freed jokers need, two), bit 56 a run
  ended that a card of the rank could have carried on.

A choice packs the cards in runs (bits 0-3), in the groups (4-7), the jokers in
runs (8-11) and the group's mode (bit 12) for a suit; for a rank's last step the
jokers given to its groups, and after the last position those that complete
short runs (bits 8-).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple, Protocol, overload

__all__ = [
    "FIELDS",
    "GROUP_JOKER",
    "MAX_CELL",
    "MAX_STEPS",
    "NOTHING",
    "OPTIONS",
    "OUT_MELDS",
    "OUT_SIZE",
    "RUN_JOKER",
    "SCRATCH",
    "WILD",
    "Ints",
    "Question",
    "Search",
    "Setup",
    "Step",
    "Tables",
    "Work",
]


class Ints(Protocol):
    """A flat sequence of integers the kernels read and write: a list, or an int64 array."""

    @overload
    def __getitem__(self, index: int, /) -> int: ...

    @overload
    def __getitem__(self, index: slice, /) -> Ints: ...

    def __getitem__(self, index: int | slice, /) -> int | Ints:
        """The integer at ``index``, or a part (compiled, a view: it shares the memory)."""

    def __setitem__(self, index: int, value: int, /) -> None:
        """Write ``value`` at ``index``."""

    def __len__(self) -> int:
        """How many integers it holds."""

    def __iter__(self) -> Iterator[int]:
        """The integers in order."""


# ---------------------------------------------------------------- limits

NOTHING = 1 << 62
"""No answer; its negative: the budget ran out."""
OPTIONS = 64
"""Most choices at one step."""
MAX_STEPS = 4 + 13 * 5
"""Steps where the ace may be high: the aces low, then four suits and a group per position."""
FIELDS = 3
"""Per cell: cards that must be placed, cards that may be, table jokers among the first."""
MAX_CELL = 6
"""Most cards of one cell (the key holds up to 7 aces used low)."""
FIRST = 500
"""States the search from the bottom visits alone before the one from the top joins it."""
SLICE = 256
"""States each of the two searches visits in its turn."""
MIX = -7046029254386353131
"""An odd multiplier for hashing keys (2**64 / golden ratio, as a signed integer)."""
POINTS = (1 << 32) - 1
"""A memo entry's points, under its generation (bits 32-62)."""
GENERATIONS = (1 << 31) - 1
"""After this many generations the memo is cleared and they start again at 1."""

# ---------------------------------------------------------------- card codes

WILD = 0
"""Card code of a joker that stands for nothing (wild); natural cards are ``rank * 4 + suit``."""
RUN_JOKER = 64
"""Card codes ``RUN_JOKER + rank * 4 + suit``: a joker standing for that card."""
GROUP_JOKER = 128
"""Card codes ``GROUP_JOKER + rank``: a joker standing for a rank (in a group)."""

# ---------------------------------------------------------------- flat fields

# ``Search.params``: one freeing case's question
P_WILD_MAND = 0  # wild jokers that must be placed
P_WILD_OPT = 1  # wild jokers that may be (the hand's)
P_JOKER = 2  # a joker's gain
P_HAS_FLOOR = 3  # whether an answer must beat P_FLOOR
P_FLOOR = 4
P_HIGH = 5  # the ace may be high (V5)
P_EMPTY = 6  # the run state with no run open
P_DISTINCT = 7  # groups of distinct suits (Rummikub)
PARAMS = 8

# ``Search.progress``: what a search paused past its budget needs to go on
G_MEMO = 0  # the memo's generation (kept from search to search: no clearing)
G_NODES = 1  # states visited
G_DEPTH = 2
G_EXPAND = 3  # expand the state at that depth next
G_BEST = 4  # the best answer so far (or the floor)
G_FOUND = 5  # whether an answer was found
G_FILLED = 6  # memo entries of this generation
G_GENERATION = 7  # the generation this search writes
G_RUNNING = 8  # 1 while a search is paused; 0 starts a new one
PROGRESS = 9

# ``Question.info``: what is asked
I_TABLE = 0  # table cards (the first codes of ``cards``)
I_HAND = 1  # hand cards (the next ones)
I_FREE = 2  # table jokers are wild
I_ALL_TABLE = 3  # every hand card must be placed (arranging)
I_HIGH = 4  # the ace may be high
I_BUDGET = 5  # states both searches of a freeing case may visit
I_LAYOUT = 6  # lay the answer out as melds
I_EMPTY = 7  # the run state with no run open
I_DISTINCT = 8  # groups of distinct suits
INFO = 9

OUT_MELDS = 60
"""Where the melds start in ``out``. Before them: the status, the score (laid out: the
points of the hand cards laid), the jokers laid, the natural cards laid (56 counts, at
``3 + code``; ``out[3]``, code 0, holds where ``out`` ends) and the number of melds. A
meld is its kind (0 run, 1 group), its start, its length and its cards' codes; after
the melds, the codes of the natural cards laid, by suit and rank."""
OUT_SIZE = 1024
"""The size of ``out``."""

# offsets into ``Work.scratch``
TN = 0  # table naturals per cell (rank * 4 + suit)
HN = 56  # hand naturals per cell
FIX = 112  # fixed run jokers per cell, in the case at hand
FREED = 168  # freed run jokers per cell, in the case at hand
RUNJ = 224  # the cells of the table's run jokers (at most 2)
GRPJ = 226  # the ranks of the table's group jokers (at most 2)
RC = 228  # per position and suit: natural cards in runs (15 * 4)
RJ = 288  # per position and suit: wild jokers in runs
GC = 348  # per rank and suit: cards in the group
GJ = 404  # per rank: wild jokers in the group
TAKEN = 418  # per cell: cards of the cell laid out so far
HERE = 474  # scratch: the runs at one position
RUNS = 490  # per run: suit, first, last, length, has a natural (5 fields)
MAX_RUNS = 40
RCARDS = RUNS + 5 * MAX_RUNS  # per run: up to 16 card codes
SCRATCH = RCARDS + 16 * MAX_RUNS
"""The size of ``scratch``."""


# ---------------------------------------------------------------- structures


class Tables(NamedTuple):
    """The state tables every search reads, the same for every question
    (:mod:`.tables` builds them)."""

    nxt: Ints
    """``[state * width + cells in runs]``: a suit's state at the next position, or -1."""
    trim: Ints
    """``[state * width + room]``: a state cut to the runs the next position can carry."""
    opened: Ints
    """Runs open in each state."""
    short: Ints
    """Jokers that complete a state's runs shorter than three."""
    dominators: Ints
    """Per state, the states one step above it (``[st]..[st + 1]`` index the rest)."""
    gstep: Ints
    """Groups of distinct suits: the automaton's step (``(suit * classes + class) * 5 + cards``)."""
    fits: Ints
    """Groups of distinct suits: whether a final class fits ``jokers`` (``class * 5 + jokers``)."""


class Search(NamedTuple):
    """One search from one end of the run positions: its freeing case and working state.

    The working state is kept between calls, so that a search paused past its
    budget goes on where it stopped (``progress[G_RUNNING]``).
    """

    cells: Ints
    """Per (rank, suit): :data:`FIELDS` counts at ``(rank * 4 + suit) * 3``."""
    ranks: Ints
    """The rank's table group jokers at ``rank``, the naturals it must hold (freed jokers)
    at ``14 + rank``, a hand card's gain at ``28 + rank``."""
    params: Ints
    """The case's scalars, ``P_*``."""
    memo: Ints
    """Entries of two: the key with the step in bits 57-63, the generation and the points."""
    progress: Ints
    """``G_*``: the memo's generation, and what a paused search needs to go on."""
    opts: Ints
    """The choices per step: (key, gain, choice) at ``(depth * OPTIONS + i) * 3``."""
    keys: Ints
    """The state at each depth."""
    points: Ints
    """The points gained to each depth."""
    n_choices: Ints
    """The choices at each depth."""
    cursor: Ints
    """The next choice to take at each depth."""
    chosen: Ints
    """The choice taken at each depth."""
    ahead: Ints
    """The hand points of the steps from each depth on (the bound)."""
    path: Ints
    """The best answer's choice per step."""


class Question(NamedTuple):
    """A whole question: its cards' codes, the gains and points, and what is asked."""

    cards: Ints
    """The table's codes, then the hand's."""
    weights: Ints
    """A hand card's gain by rank, a joker's (14), then the points of a joker (15) and
    of each rank (15 + rank)."""
    info: Ints
    """``I_*``."""


class Work(NamedTuple):
    """What answering a whole question writes."""

    best_path: Ints
    """The best answer's choices so far, over the freeing cases."""
    scratch: Ints
    """Counts and the layout's working space (offsets above)."""
    out: Ints
    """The answer (:data:`OUT_MELDS`)."""


class Setup(NamedTuple):
    """What a search reads at every step, worked out once from its case and tables."""

    wild_mand: int
    jtotal: int
    """Wild jokers in play: those that must be placed and those that may be."""
    wjoker: int
    high: bool
    distinct: bool
    empty: int
    npos: int
    """Run positions: 14 where the ace may be high, else 13."""
    steps: int
    width: int
    """Columns of ``nxt`` and ``trim``."""
    top: int
    mask: int
    """The memo's slots minus one."""
    gw: int
    """Classes of the groups' automaton per suit."""


class Step(NamedTuple):
    """Where a search stands at one depth."""

    depth: int
    key: int
    pos: int
    """The run position (1..14; 14 the ace high)."""
    rank: int
    suit: int
    """0-3, or 4: the rank's groups."""
    low: bool
    """Position 1 where the ace may be high: only aces going low into runs."""
    placed: int
    """Wild jokers placed so far."""
    left: int
    """Wild jokers not placed yet."""
    base: int
    """Where the step's choices go in ``opts``."""
