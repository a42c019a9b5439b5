"""The choices at one step of the search: what a suit's cell does, or how a rank's groups end.

A kernel module (:mod:`rummykit.solver.kernels`). :func:`choices` writes the
choices of the state at one depth into ``Search.opts``, those that use more
cards first (the order is the tie-break: the first best answer wins):

- :func:`aces_low`: position 1 where the ace may be high (V5): how many aces
  go into runs low; the rest of the ace cell waits for position 14;
- :func:`suit_distinct`: a suit's cell under groups of distinct suits
  (Rummikub): any of its cards to the rank's groups, whose sizes so far the
  automaton's class sums up;
- :func:`suit_any_size`: a suit's cell under groups of any size (Vatikanen,
  Kontrakt): the rank's group is off or on (chosen at its first suit), and
  how many cards and wild jokers go on in runs;
- :func:`rank_end`: the rank's groups get their jokers, and each suit's runs
  are cut to what the next position can carry (after the last one, runs
  shorter than three take jokers at their start).

Never generated: a run ended where a spare card of the cell could carry it on
(group off), a run ended only to feed a group that has enough (group on), a
joker in a run cell while a card of that cell stays out of runs.
"""

from __future__ import annotations

from rummykit.solver.programme.state import OPTIONS, Search, Setup, Step, Tables

KERNELS = ("step_at", "nearby", "aces_low", "suit_distinct", "suit_any_size", "rank_end", "choices")
"""The functions numba compiles."""
INLINE = KERNELS


def step_at(search: Search, c: Setup, d: int) -> Step:
    """Where the search stands at depth ``d``: the position, the rank and the suit (or 4)."""
    key = search.keys[d]
    placed = (key >> 32) & 7
    if c.high and d < 4:
        p = 1
        suit = d
        low = True
    else:
        e = d - 4 if c.high else d
        p = (2 if c.high else 1) + e // 5
        suit = e % 5
        low = False
    rank = 1 if p == 14 else p
    return Step(d, key, p, rank, suit, low, placed, c.jtotal - placed, (d * OPTIONS) * 3)


def nearby(search: Search, c: Setup, at: Step) -> int:
    """The cards of the suit's cell at the next position (none after the last): at most
    that many runs go on from here without jokers."""
    cells = search.cells
    near = 0
    if at.pos < c.npos:
        q = 1 if at.pos == 13 else at.pos + 1
        near = cells[(q * 4 + at.suit) * 3] + cells[(q * 4 + at.suit) * 3 + 1]
        if at.pos == 13:
            near -= (at.key >> (36 + 3 * at.suit)) & 7
    return near


def aces_low(search: Search, t: Tables, c: Setup, at: Step) -> int:
    """Position 1 where the ace may be high: the aces that go into runs low (V5).

    Runs start here, so a joker would only start one: none are placed.
    """
    cells = search.cells
    opts = search.opts
    nxt = t.nxt
    trim = t.trim
    width = c.width
    top = c.top
    key = at.key
    suit = at.suit
    shift = 8 * suit
    cell = (at.rank * 4 + suit) * 3
    a = cells[cell] + cells[cell + 1]
    st = (key >> shift) & 255
    room0 = nearby(search, c, at) + at.left
    base = at.base
    n = 0
    for xc in range(a, -1, -1):
        if xc >= width:
            continue
        ns = trim[nxt[st * width + xc] * width + (room0 if room0 < top else top)]
        if ns < 0:
            continue
        nkey = (key & ~(255 << shift)) | (ns << shift)
        nkey = (nkey & ~(7 << (36 + 3 * suit))) | (xc << (36 + 3 * suit))
        if xc > 0 and not c.distinct:
            nkey |= 1 << 35  # a run: room for spare jokers
        opts[base + 3 * n] = nkey
        opts[base + 3 * n + 1] = 0
        opts[base + 3 * n + 2] = xc
        n += 1
    return n


def suit_distinct(search: Search, t: Tables, c: Setup, at: Step) -> int:
    """A suit's cell under groups of distinct suits: any cards of the cell to the rank's
    groups, whose sizes per suit so far the automaton's class sums up."""
    cells = search.cells
    ranks = search.ranks
    opts = search.opts
    nxt = t.nxt
    trim = t.trim
    gstep = t.gstep
    width = c.width
    top = c.top
    key = at.key
    suit = at.suit
    rank = at.rank
    jp = at.placed
    jleft = at.left
    shift = 8 * suit
    cell = (rank * 4 + suit) * 3
    m = cells[cell]
    a = m + cells[cell + 1]
    fj = cells[cell + 2]
    st = (key >> shift) & 255
    have = t.opened[st]
    near = nearby(search, c, at)
    w = ranks[28 + rank]
    need = ranks[14 + rank]
    nat = (key >> 54) & 3
    cls = (key >> 48) & 31
    base = at.base
    n = 0
    for used in range(a, m - 1, -1):
        nn = nat + used - fj
        for xc in range(used, -1, -1):
            g = used - xc
            if g > 4:
                continue
            ncls = gstep[(suit * c.gw + cls) * 5 + g]
            if ncls < 0:
                continue
            nkey = (key & ~(31 << 48)) | (ncls << 48)
            nkey = (nkey & ~(3 << 54)) | ((nn if nn < need else need) << 54)
            for js in range(jleft + 1):
                x = xc + js
                if x >= width:
                    break  # (a joker may start a run: groups have no room)
                ns = nxt[st * width + x]
                if ns < 0 or (used < a and x < have):
                    continue  # no such state, or a spare card could go on
                room = near + jleft - js
                ns = trim[ns * width + (room if room < top else top)]
                if ns < 0:
                    continue
                k2 = (nkey & ~(255 << shift)) | (ns << shift)
                k2 = (k2 & ~(7 << 32)) | ((jp + js) << 32)
                opts[base + 3 * n] = k2
                opts[base + 3 * n + 1] = (used - m) * w + js * c.wjoker
                opts[base + 3 * n + 2] = xc | (g << 4) | (js << 8)
                n += 1
    return n


def suit_any_size(search: Search, t: Tables, c: Setup, at: Step) -> int:
    """A suit's cell under groups of any size: the group on (every card of the cell not in
    runs joins it) before off (table cards in runs, hand cards may stay in hand), more
    cards in runs first, then more jokers."""
    cells = search.cells
    ranks = search.ranks
    opts = search.opts
    nxt = t.nxt
    trim = t.trim
    width = c.width
    top = c.top
    wjoker = c.wjoker
    key = at.key
    suit = at.suit
    rank = at.rank
    p = at.pos
    jp = at.placed
    jleft = at.left
    room_ok = (key >> 35) & 1
    shift = 8 * suit
    cell = (rank * 4 + suit) * 3
    m = cells[cell]
    a = m + cells[cell + 1]
    fj = cells[cell + 2]
    st = (key >> shift) & 255
    have = t.opened[st]
    near = nearby(search, c, at)
    u0 = (key >> (36 + 3 * suit)) & 7 if p == 14 else 0
    cap = a - u0
    keep = have if have < cap else cap
    w = ranks[28 + rank]
    need = ranks[14 + rank]
    nat = (key >> 54) & 3
    gsum = (key >> 49) & 7
    gnat = (key >> 52) & 3
    ended = (key >> 56) & 1
    first_mode = 1
    last_mode = 0
    if suit == 0:
        cards = ranks[rank]
        for u in range(4):
            ct = (rank * 4 + u) * 3
            cards += cells[ct] + cells[ct + 1]
            if p == 14:
                cards -= (key >> (36 + 3 * u)) & 7
        if cards + jleft < 3:
            first_mode = 0
        if ranks[rank] > 0:
            last_mode = 1
    else:
        first_mode = (key >> 48) & 1
        last_mode = first_mode
    base = at.base
    n = 0
    for mode in range(first_mode, last_mode - 1, -1):
        if mode == 1:
            for xc in range(cap, -1, -1):
                g = cap - xc
                fig = fj - u0 - xc
                if fig < 0:
                    fig = 0
                ng = gsum + g
                ngn = gnat + g - fig
                nn = nat + a - fj
                nkey = key | (1 << 48)
                nkey = (nkey & ~(7 << 49)) | ((ng if ng < 4 else 4) << 49)
                nkey = (nkey & ~(3 << 52)) | ((ngn if ngn < 2 else 2) << 52)
                nkey = (nkey & ~(3 << 54)) | ((nn if nn < need else need) << 54)
                for js in range(jleft + 1):
                    x = xc + js
                    if x >= width or (js > 0 and x > have):
                        break  # a joker never starts a run
                    if js > 0 and xc < cap and (room_ok != 0 or g >= 2):
                        continue  # a card of the cell could take the joker's place
                    ns = nxt[st * width + x]
                    if ns < 0:
                        continue
                    room = near + jleft - js
                    ns = trim[ns * width + (room if room < top else top)]
                    if ns < 0:
                        continue
                    en = 1 if xc < keep - js else ended
                    k2 = (nkey & ~(255 << shift)) | (ns << shift)
                    k2 = (k2 & ~(7 << 32)) | ((jp + js) << 32)
                    k2 = (k2 & ~(1 << 56)) | (en << 56)
                    if x > 0:
                        k2 |= 1 << 35  # a run: room for spare jokers
                    opts[base + 3 * n] = k2
                    opts[base + 3 * n + 1] = (a - m) * w + js * wjoker
                    opts[base + 3 * n + 2] = xc | (g << 4) | (js << 8) | (1 << 12)
                    n += 1
        else:
            least = m - u0 if m > u0 else 0
            for xc in range(cap, least - 1, -1):
                used = u0 + xc
                nn = nat + used - fj
                nkey = key & ~(1 << 48)
                nkey = (nkey & ~(3 << 54)) | ((nn if nn < need else need) << 54)
                for js in range(jleft + 1):
                    x = xc + js
                    if x >= width or (js > 0 and x > have):
                        break  # a joker never starts a run
                    if js > 0 and xc < cap and room_ok != 0:
                        continue  # the card in the run, the joker on a meld
                    if xc < cap and xc < keep - js:
                        continue  # a run ended that a spare card carries on
                    ns = nxt[st * width + x]
                    if ns < 0:
                        continue
                    room = near + jleft - js
                    ns = trim[ns * width + (room if room < top else top)]
                    if ns < 0:
                        continue
                    k2 = (nkey & ~(255 << shift)) | (ns << shift)
                    k2 = (k2 & ~(7 << 32)) | ((jp + js) << 32)
                    if x > 0:
                        k2 |= 1 << 35  # a run: room for spare jokers
                    opts[base + 3 * n] = k2
                    opts[base + 3 * n + 1] = (used - m) * w + js * wjoker
                    opts[base + 3 * n + 2] = xc | (js << 8)
                    n += 1
    return n


def rank_end(search: Search, t: Tables, c: Setup, at: Step) -> int:
    """The rank's last step: the jokers its groups take, then each suit's runs cut to what
    the next position can carry; after the last position, runs shorter than three take
    jokers at their start (and every run is closed)."""
    cells = search.cells
    ranks = search.ranks
    opts = search.opts
    trim = t.trim
    width = c.width
    top = c.top
    key = at.key
    rank = at.rank
    p = at.pos
    jp = at.placed
    jleft = at.left
    room_ok = (key >> 35) & 1
    gm = ranks[rank]
    lo = 0  # the jokers the group may take: lo..hi (none when hi < lo)
    hi = -1
    if c.distinct:
        lo = 0
        hi = jleft if jleft < 4 - gm else 4 - gm
    elif (key >> 48) & 1 == 0:
        lo = 0
        hi = 0
    else:
        gsum = (key >> 49) & 7
        gnat = (key >> 52) & 3
        if gnat >= 1 and not ((key >> 56) & 1 != 0 and gsum - 1 + gm >= 3 and gnat >= 2):
            lo = 3 - gsum - gm
            if lo < 0:
                lo = 0
            hi = lo if lo <= jleft else -1
    base = at.base
    n = 0
    for jg in range(lo, hi + 1):
        if c.distinct and not t.fits[((key >> 48) & 31) * 5 + gm + jg]:
            continue
        nkey = 0
        done = 0
        for u in range(4):
            st = (key >> (8 * u)) & 255
            if p == c.npos:
                done += t.short[st]
                continue
            q = 1 if p == 13 else p + 1
            room = cells[(q * 4 + u) * 3] + cells[(q * 4 + u) * 3 + 1] + jleft - jg
            if p == 13:
                room -= (key >> (36 + 3 * u)) & 7
            state = trim[st * width + (room if room < top else top)]
            if state < 0:
                nkey = -1
                break
            nkey |= state << (8 * u)
        if p == c.npos:
            for u in range(4):
                nkey |= c.empty << (8 * u)
            if jg + done > jleft:
                nkey = -1
        if nkey >= 0:
            nkey |= (jp + jg + done) << 32
            if not c.distinct and (room_ok != 0 or (key >> 48) & 1 != 0):
                nkey |= 1 << 35
            if p != 14:
                nkey |= key & (((1 << 12) - 1) << 36)
            opts[base + 3 * n] = nkey
            opts[base + 3 * n + 1] = (jg + done) * c.wjoker
            opts[base + 3 * n + 2] = jg | (done << 8)
            n += 1
    return n


def choices(search: Search, t: Tables, c: Setup, d: int) -> int:
    """Write the choices of the state at depth ``d`` into ``opts``; how many there are.

    A rank whose freed jokers' natural cards are not all placed has none at its end.
    """
    at = step_at(search, c, d)
    if at.suit < 4:
        if at.low:
            return aces_low(search, t, c, at)
        if c.distinct:
            return suit_distinct(search, t, c, at)
        return suit_any_size(search, t, c, at)
    if (at.key >> 54) & 3 >= search.ranks[14 + at.rank]:
        return rank_end(search, t, c, at)
    return 0
