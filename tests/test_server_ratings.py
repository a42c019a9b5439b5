"""Ratings kept per account (issue 42 item 2, docs/ratings.md), on a real ``rummykit serve``:
a rated table seats accounts only, its one game is rated once when it ends, by the
``openskill`` package's own numbers (checked here against the package, not against our
wrapper), with the bots' ladder ratings fixed; the profile shows the rating and its
history, the leaderboard lists the players with enough games; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from protocol_client import Live, play_until_over
from rummykit import games
from rummykit.ratings import PROVISIONAL_GAMES, bot_rating
from server_helpers import Server
from test_server_accounts import _sql, device, signup


@pytest.fixture
def server(both_backends: Server) -> Server:
    """A server on SQLite, and one on PostgreSQL (conftest's ``both_backends``)."""
    return both_backends


def rated_table(client: httpx.Client, game: str, seats: list[str]) -> str:
    made = client.post("/api/tables", json={"game": game, "seats": seats, "rated": True})
    assert made.status_code == 201, made.text
    assert made.json()["rated"] is True
    return str(made.json()["id"])


def expected(places: list[int], before: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """What the openskill package itself makes of a game: each seat's (mu, sigma)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[float(p) for p in places])]


def places_of(server: Server, table: str, n: int) -> list[int]:
    summary: Any = server.get(f"/api/tables/{table}")
    return list(games.get(summary["game"]).places(summary["result"], n))


def test_a_rated_table_seats_signed_in_players_only_under_their_account_s_name(
    server: Server,
) -> None:
    with device(server) as anna, device(server) as guest:
        assert signup(anna, "Anna Rated").status_code == 201
        table = rated_table(anna, "vatikanen", ["human", "human"])
        refused = guest.post(f"/api/tables/{table}/join", json={"name": "Guest"})
        assert refused.status_code == 401 and refused.json()["error"] == "not_signed_in"
        took = anna.post(f"/api/tables/{table}/join", json={"name": "Someone Else"})
        assert took.status_code == 200, took.text
        again = anna.post(f"/api/tables/{table}/join", json={"name": "Anna twice"})
        assert again.status_code == 400  # one seat an account at a rated table
        seats: Any = server.get(f"/api/tables/{table}")
        assert seats["seats"][0]["name"] == "Anna Rated"
        held = anna.get("/api/account/seats").json()["seats"]
        assert [(s["table"], s["seat"]) for s in held] == [(table, 0)]


def test_a_rated_game_against_a_bot_moves_the_account_s_rating_as_openskill_says(
    server: Server,
) -> None:
    with device(server) as anna:
        assert signup(anna, "Anna").status_code == 201
        table = rated_table(anna, "vatikanen", ["human", "bot:greedy"])
        token = anna.post(f"/api/tables/{table}/join", json={"name": "Anna"}).json()["token"]
        live = Live.open(server.ws, table, token)
        play_until_over([live])
        live.send({"type": "next", "version": live.state["version"]})  # type: ignore[index]
        refused = live.next_error()
        assert refused["code"] == "rated_over"
        live.close()
        bot = bot_rating("vatikanen", "greedy")
        assert bot is not None
        new = expected(places_of(server, table, 2), [(25.0, 25 / 3), (bot.mu, bot.sigma)])
        profile = anna.get("/api/players/Anna").json()
        [rating] = profile["ratings"]
        assert rating["game"] == "vatikanen" and rating["games"] == 1
        assert rating["mu"] == pytest.approx(new[0][0]) and rating["sigma"] == pytest.approx(
            new[0][1]
        )
        assert rating["rating"] == round(400 + 50 * (new[0][0] - 3 * new[0][1]))
        assert rating["provisional"] is True
        assert [h["table"] for h in rating["history"]] == [table]
        assert [r["id"] for r in profile["recent"]] == [table] and profile["me"] is True
    assert _sql(server, "SELECT COUNT(*) FROM rated_games") == [(1,)]


def test_a_rated_game_of_two_accounts_rates_both_once(server: Server) -> None:
    with device(server) as anna, device(server) as bo:
        assert signup(anna, "Anna T").status_code == 201
        assert signup(bo, "Bo T").status_code == 201
        table = rated_table(anna, "vatikanen", ["human", "human"])
        lives = []
        for client in (anna, bo):
            token = client.post(f"/api/tables/{table}/join", json={"name": "x"}).json()["token"]
            lives.append(Live.open(server.ws, table, token))
        play_until_over(lives)
        for live in lives:
            live.close()
        new = expected(places_of(server, table, 2), [(25.0, 25 / 3), (25.0, 25 / 3)])
        for client, name, (mu, sigma) in ((anna, "Anna T", new[0]), (bo, "Bo T", new[1])):
            [rating] = client.get(f"/api/players/{name}").json()["ratings"]
            assert (rating["mu"], rating["sigma"]) == (pytest.approx(mu), pytest.approx(sigma))
            assert rating["games"] == 1 and len(rating["history"]) == 1
            assert rating["wins"] == (places_of(server, table, 2)[name == "Bo T"] == 1)
    assert _sql(server, "SELECT COUNT(*) FROM rating_history") == [(2,)]


def test_an_unrated_table_moves_no_rating_and_a_stranger_has_no_profile(server: Server) -> None:
    with device(server) as anna:
        assert signup(anna, "Anna U").status_code == 201
        made = anna.post(
            "/api/tables", json={"game": "vatikanen", "seats": ["human", "bot:greedy"]}
        )
        table = made.json()["id"]
        assert made.json()["rated"] is False
        token = anna.post(f"/api/tables/{table}/join", json={"name": "Anna U"}).json()["token"]
        live = Live.open(server.ws, table, token)
        play_until_over([live])
        live.close()
        profile = anna.get("/api/players/anna u").json()
        assert profile["ratings"] == [] and [r["id"] for r in profile["recent"]] == [table]
        assert anna.get("/api/players/Nobody").status_code == 404


def test_the_leaderboard_lists_players_with_enough_games_best_first_in_pages(
    server: Server,
) -> None:
    for i in range(53):  # from addresses of their own: signing up is limited per address
        with device(server, f"127.0.1.{i}") as player:
            assert signup(player, f"Player {i:02}").status_code == 201
    with device(server) as client:
        rows = _sql(server, "SELECT id, name FROM accounts ORDER BY name")
        for n, (account, name) in enumerate(rows):
            games_played = PROVISIONAL_GAMES - 1 if name == "Player 00" else PROVISIONAL_GAMES
            _sql(
                server,
                "INSERT INTO account_ratings (account, game, mu, sigma, games, wins, shown,"
                " updated) VALUES (%s, 'kontrakt', 25, 2, %s, 3, %s, 0)",
                (account, games_played, 1000 + n),
            )
        first = client.get("/api/leaderboard/kontrakt").json()
        assert len(first["players"]) == 50 and first["next"] == 1
        assert first["players"][0] == {
            "rank": 1,
            "name": "Player 52",
            "rating": 1052,
            "games": PROVISIONAL_GAMES,
            "wins": 3,
        }
        second = client.get("/api/leaderboard/kontrakt?page=1").json()
        assert [p["name"] for p in second["players"]] == ["Player 02", "Player 01"]
        assert second["next"] is None  # Player 00 is still provisional: not listed
        assert client.get("/api/leaderboard/vatikanen").json()["players"] == []
        assert client.get("/api/leaderboard/chess").status_code == 404
