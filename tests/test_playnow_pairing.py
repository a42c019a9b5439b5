"""Who plays whom in "Play now" (issue 42 item 3): the pure pairing function.

Properties over random waiting rooms: nobody is paired twice, a table holds only seeks
of one game and pace, of the number of players each asked for, within every pair's
rating windows, never two who block one another, and bots only for a seek that allowed
them and waited that long; the oldest seek that can be paired is."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.ratings import Rating, bot_rating
from rummykit.server.matcher import bot_for, skill
from rummykit.server.pairing import Match, Seek, pair, window

MOST = {"vatikanen": 5, "kontrakt": 8}


def run(seeks: list[Seek], now: float, blocked: set[frozenset[str]] | None = None) -> list[Match]:
    return pair(
        seeks,
        now,
        most_players=MOST.__getitem__,
        bot_for=lambda game, rating: "greedy" if game == "vatikanen" else "basic",
        blocked=blocked or set(),
    )


def seek(i: int, **kw: object) -> Seek:
    base: dict[str, object] = {
        "id": f"s{i}",
        "game": "vatikanen",
        "players": 2,
        "pace": "fast",
        "rating": 1650.0,
        "created": float(i),
        "account": f"a{i}",
        "bots_after": None,
    }
    base.update(kw)
    return Seek(**base)  # type: ignore[arg-type]


def test_two_strangers_of_a_game_and_pace_are_paired_and_a_third_waits() -> None:
    matches = run([seek(0), seek(1), seek(2)], now=3)
    assert [[s.id for s in m.seeks] for m in matches] == [["s0", "s1"]]


def test_the_rating_window_widens_with_waiting() -> None:
    far = [seek(0, rating=1500.0), seek(1, rating=1800.0)]
    assert run(far, now=1) == []  # 300 apart: beyond 100
    assert window(far[1], 26) == 350 and len(run(far, now=26)) == 1


def test_a_seek_that_allows_bots_gets_them_after_its_wait_and_not_before() -> None:
    alone = [seek(0, players=3, bots_after=30.0)]
    assert run(alone, now=29) == []
    [match] = run(alone, now=30)
    assert match.players == 3 and match.bots == ("greedy", "greedy")


def test_a_blocked_pair_never_meets() -> None:
    seeks = [seek(0), seek(1), seek(2)]
    [match] = run(seeks, now=3, blocked={frozenset({"a0", "a1"})})
    assert [s.id for s in match.seeks] == ["s0", "s2"]


def test_bots_are_chosen_by_the_ladder_skill_nearest_the_rating() -> None:
    newcomer = skill(Rating())
    level = bot_for("vatikanen", newcomer)
    assert level is not None
    ladder = bot_rating("vatikanen", level)
    assert ladder is not None
    assert bot_for("vatikanen", skill(ladder)) == level


seeks_strategy = st.lists(
    st.builds(
        lambda i, game, players, pace, rating, created, bots, account: Seek(
            f"s{i}", game, players, pace, rating, created, account, bots
        ),
        st.integers(0, 10_000),
        st.sampled_from(["vatikanen", "kontrakt"]),
        st.one_of(st.none(), st.integers(2, 5)),
        st.sampled_from(["fast", "normal", "day"]),
        st.floats(0, 3000),
        st.floats(0, 100),
        st.one_of(st.none(), st.floats(0, 60)),
        st.one_of(st.none(), st.sampled_from([f"a{k}" for k in range(8)])),
    ),
    max_size=40,
    unique_by=lambda s: s.id,
)


@settings(max_examples=300, deadline=None)
@given(
    seeks_strategy,
    st.floats(0, 200),
    st.sets(st.frozensets(st.sampled_from([f"a{k}" for k in range(8)]), min_size=2, max_size=2)),
)
def test_nobody_is_paired_twice_and_every_table_keeps_every_seek_s_terms(
    seeks: list[Seek], now: float, blocked: set[frozenset[str]]
) -> None:
    matches = run(seeks, now, blocked)
    ids = [s.id for m in matches for s in m.seeks]
    assert len(ids) == len(set(ids))
    for m in matches:
        first = m.seeks[0]
        assert all(s.game == first.game and s.pace == first.pace for s in m.seeks)
        assert 2 <= m.players <= MOST[first.game]
        for s in m.seeks:
            assert s.players is None or s.players == m.players
        for a in m.seeks:
            for b in m.seeks:
                if a is not b:
                    assert abs(a.rating - b.rating) <= min(window(a, now), window(b, now))
                    if a.account and b.account:
                        assert frozenset((a.account, b.account)) not in blocked
        if m.bots:
            assert first.bots_after is not None and now - first.created >= first.bots_after
