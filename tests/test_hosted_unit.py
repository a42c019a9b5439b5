"""The hosted unit and its parts, through the game interface alone (rummykit.game).

A unit is what one record holds; its parts are the record's deals: a
Vatikanen session's games (V16), a Kontrakt game's seven deals (K4). Every
host drives both the same way: play while a seat is to act, and once the
unit is ``over``, go on with ``next_part()`` where ``can_next_part()``
says it may. These tests play units that way, with no game-name branch, and
check what the protocol promises at every step; the per-game meaning of
``over`` is checked under the rule ids.
"""

from __future__ import annotations

import pytest

from rummykit import games
from rummykit.cards import parse_cards
from rummykit.errors import RuleError
from rummykit.game import Game
from rummykit.games.spec import GameSpec
from rummykit.games.vatikanen import Play, Session, VatikanenGame

SPECS = [games.get(name) for name in games.names()]


def play_part(unit: Game, bots: list[object], spec: GameSpec, limit: int = 20_000) -> int:
    """Play until no seat acts; check the unit's members after every action. The actions."""
    done = 0
    while (seat := unit.to_act) is not None:
        part, size = unit.part, unit.log_size
        assert not unit.over and not unit.part_over and unit.result() is None
        assert not unit.can_next_part()
        with pytest.raises(RuleError):
            unit.verify_next_part()
        bot = bots[seat]
        unit.apply(bot.choose(unit.view(seat)))  # type: ignore[attr-defined]
        assert unit.part in (part, part + 1), "parts follow one another"
        assert unit.log_size > size, "a part that follows by itself keeps the unit's log"
        done += 1
        assert done < limit
    return done


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_a_unit_is_played_part_after_part_through_the_protocol_alone(spec: GameSpec) -> None:
    unit = spec.new(spec.min_players, seed=4)
    bots: list[object] = [spec.make_bot("random", s) for s in range(unit.n_players)]
    parts_played = 0
    for _ in range(3):  # at most three rounds of "next"
        play_part(unit, bots, spec)
        assert unit.over and unit.part_over and unit.to_act is None
        result = unit.result()
        assert result is not None and result.scores == unit.standings
        parts_played = unit.part + 1
        if not unit.can_next_part():
            with pytest.raises(RuleError):
                unit.next_part()
            break
        standings = unit.standings
        unit.next_part()
        assert unit.part == parts_played and not unit.over and not unit.part_over
        assert unit.log_size == 0 and unit.view(0)["log"] == [], "next_part starts a new log"
        assert unit.standings == standings, "the unit's scores carry on"
        assert unit.to_act is not None
    assert parts_played >= 1
    assert len(unit.to_record().deals) == unit.part + 1, "one record deal per part begun"


def test_V16_a_session_is_over_after_each_game_and_goes_on_by_next_part() -> None:
    session = games.get("vatikanen").new(3, seed=9)
    assert isinstance(session, Session)
    for number in (1, 2):
        game = session.game
        while session.to_act is not None:
            session.apply(session.suggested_actions()[0])  # draw, then pass: a blocked game
        assert game.over and session.over and session.part_over and session.can_next_part()
        result = session.result()
        assert result is not None and result.winners == game.end.winners  # type: ignore[union-attr]
        assert session.part == number - 1
        session.next_part()
        assert session.game.number == number + 1 and not session.over


def test_K4_a_game_is_over_after_its_seventh_deal_and_never_asks_for_a_part() -> None:
    spec = games.get("kontrakt")
    unit = spec.new(2, seed=3)
    bots: list[object] = [spec.make_bot("basic", s) for s in range(2)]
    deals_seen = {unit.part}
    while (seat := unit.to_act) is not None:
        with pytest.raises(RuleError) as info:
            unit.verify_next_part()
        assert info.value.rule == "K4"
        unit.apply(bots[seat].choose(unit.view(seat)))  # type: ignore[attr-defined]
        deals_seen.add(unit.part)
        assert unit.part == unit.view(0)["deal"]
    assert deals_seen == set(range(7)) and unit.over and unit.part == 6
    with pytest.raises(RuleError) as info:
        unit.next_part()
    assert info.value.rule == "K4" and "seventh deal" in str(info.value)


def test_V9_the_registry_arranger_makes_the_play_the_session_arranges() -> None:
    spec = games.get("vatikanen")
    assert spec.arranger is not None
    session = Session(2, seed=1)
    session.games[-1] = VatikanenGame.from_position(
        ["7h 8h 9h 4s 8s", "2c"], ["5s 6s 7s"], opened=[True, True]
    )
    before = session.view(0)
    cards = parse_cards("4s 8s")
    arranged = spec.arranger(session, 0, cards)
    assert arranged == session.arrange(0, cards)
    assert isinstance(arranged, Play) and arranged.table is not None
    for wrong, rule in (("2h", "V4"), ("8h 9h", "V9")):
        with pytest.raises(RuleError) as info:
            spec.arranger(session, 0, parse_cards(wrong))
        with pytest.raises(RuleError) as same:
            session.arrange(0, parse_cards(wrong))
        assert info.value.rule == same.value.rule == rule
        assert str(info.value) == str(same.value)
    assert session.view(0) == before, "arranging changes nothing"
