"""The tutorial's lessons (issue 43 item 5, docs/tutorial.md), judged by the engines: each
lesson's own solution does it; a move the rules forbid is refused with its rule and
changes nothing; a legal move beside the point sets the lesson up again; the learner's
seat sees only its own hand; every text is in Swedish too; and the routes over a real
server answer the same."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummykit import games
from rummykit.i18n import translate
from rummykit.tutorial import Lesson, attempt, find, lessons
from server_helpers import Server

ALL = [lesson for game in games.names() for lesson in lessons(game)]


def test_each_game_has_its_lessons_in_order_each_citing_rules_of_its_game() -> None:
    assert [lesson.id for lesson in lessons("vatikanen")][:3] == ["v-run", "v-group", "v-add"]
    assert len(lessons("kontrakt")) >= 7 and len(lessons("vatikanen")) >= 7
    for lesson in ALL:
        prefix = "V" if lesson.game == "vatikanen" else "K"
        assert lesson.rules and all(r.startswith(prefix) for r in lesson.rules), lesson.id
        assert find(lesson.id) is lesson
    assert len({lesson.id for lesson in ALL}) == len(ALL)


@pytest.mark.parametrize("lesson", ALL, ids=lambda lesson: lesson.id)
def test_each_lesson_s_own_solution_is_judged_done_by_the_engine(lesson: Lesson) -> None:
    assert lesson.start().to_act == 0
    out = attempt(lesson, lesson.solution, "sv")
    assert out.verdict == "done", (out.verdict, out.message)
    assert out.steps == len(lesson.solution)
    assert out.message == translate(lesson.done, "sv", paid=out.message and _paid(lesson))


def _paid(lesson: Lesson) -> int:
    if lesson.paid is None:
        return 0
    game = lesson.start()
    spec = games.get(lesson.game)
    for move in lesson.solution:
        game.apply(spec.action_from_json(dict(move), seat=0))
    return lesson.paid(game)


def test_V7_a_first_play_that_is_no_run_is_refused_with_its_rule_and_changes_nothing() -> None:
    lesson = find("v-run")
    assert lesson is not None
    start = attempt(lesson, [], "en").state
    out = attempt(lesson, [{"type": "play", "add": ["5h", "6h"]}], "en")
    assert (out.verdict, out.rule, out.steps) == ("refused", "V7", 0)
    assert out.state == start


def test_K8_a_draw_from_the_stock_misses_the_pile_lesson_and_sets_it_up_again() -> None:
    lesson = find("k-pile")
    assert lesson is not None
    out = attempt(lesson, [{"type": "draw", "from": "stock"}], "sv")
    assert out.verdict == "missed" and out.steps == 0
    assert out.state == attempt(lesson, [], "sv").state


def test_V13_going_out_says_what_bo_pays_by_the_card_values() -> None:
    lesson = find("v-out")
    assert lesson is not None
    out = attempt(lesson, lesson.solution, "en")
    # Bo's hand of the lessons: 3c 3d 9s Qd 4h Ks 2c = 3 + 3 + 9 + 10 + 4 + 10 + 2
    assert "41" in out.message


@pytest.mark.parametrize("lesson", ALL, ids=lambda lesson: lesson.id)
def test_the_learner_sees_only_their_own_hand(lesson: Lesson) -> None:
    state = attempt(lesson, [], "en").state
    view: Any = state["view"]
    assert view["seat"] == 0 and len(view["hand"]) == view["hand_sizes"][0]
    text = json.dumps(state)
    assert '"hands"' not in text and '"stock":' not in text


def test_every_lesson_text_is_in_swedish() -> None:
    for lesson in ALL:
        for text in (lesson.title, lesson.teach, lesson.task, lesson.missed, lesson.done):
            assert translate(text, "sv", paid=0) != text, text


def test_the_lesson_routes_judge_over_http(shared_server: Server) -> None:
    listed: Any = shared_server.get("/api/lessons?game=kontrakt&lang=sv")
    assert [entry["id"] for entry in listed["lessons"]] == [x.id for x in lessons("kontrakt")]
    assert listed["lessons"][0]["title"] == "Kontraktet"
    lesson = find("k-contract")
    assert lesson is not None
    done: Any = shared_server.post(
        "/api/lessons/k-contract/try", {"moves": list(lesson.solution), "lang": "en"}
    )
    assert done["verdict"] == "done" and done["state"]["seat"] == 0
    hint: Any = shared_server.post(
        "/api/lessons/v-add/help", {"moves": [], "request": {"type": "hint"}}
    )
    assert hint["type"] == "hint" and hint["actions"]
    import httpx

    missing = httpx.post(shared_server.base + "/api/lessons/nope/try", json={"moves": []})
    assert missing.status_code == 404
    too_many = httpx.post(
        shared_server.base + "/api/lessons/v-run/try", json={"moves": [{"type": "draw"}] * 13}
    )
    assert too_many.status_code == 422


def test_K7_buying_the_upcard_is_a_kontrakt_lesson_and_a_pass_misses_it() -> None:
    """A Kontrakt game begins with the upcard (K7): the first move a newcomer meets at a
    table is to buy it or pass, so a lesson teaches it: Bo (förhand) has declined, the
    learner buys, and takes the stock's top card with it."""
    lesson = next((x for x in lessons("kontrakt") if "K7" in x.rules), None)
    assert lesson is not None
    start = attempt(lesson, [], "sv")
    view: Any = start.state["view"]
    assert view["phase"] == "upcard_offer" and view["offer_to"] == 0
    passed = attempt(lesson, [{"type": "pass_upcard"}], "sv")
    assert passed.verdict == "missed" and passed.state == start.state
    bought = attempt(lesson, [{"type": "buy_upcard"}], "en")
    assert bought.verdict == "done"
    hand = bought.state["view"]["hand"]  # type: ignore[index]
    assert len(hand) == len(view["hand"]) + 2
