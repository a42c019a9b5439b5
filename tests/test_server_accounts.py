"""Optional accounts over HTTP, on a real ``rummykit serve`` (docs/accounts.md): sign up,
sign in, wrong passwords, rate limits, sessions revoked, an account deleted, seats that
follow the account to another device, the cookie's flags and the CSRF rules; on SQLite and
on PostgreSQL where the store is involved."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server_helpers import Server, start

JSON = {"content-type": "application/json"}


@pytest.fixture
def server(both_backends: Server) -> Server:
    """A server on SQLite, and one on PostgreSQL (conftest's ``both_backends``)."""
    return both_backends


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite (for what is the routes' alone)."""
    srv = start(f"sqlite:///{tmp_path / 'accounts.db'}")
    try:
        yield srv
    finally:
        srv.stop()


def device(server: Server, address: str | None = None) -> httpx.Client:
    """A browser of its own (its own cookies); ``address``: the client address a trusted
    proxy on loopback says it is (X-Forwarded-For)."""
    headers = dict(JSON)
    if address is not None:
        headers["x-forwarded-for"] = address
    return httpx.Client(base_url=server.base, headers=headers, timeout=30)


def signup(client: httpx.Client, name: str, password: str = "correct horse") -> httpx.Response:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def login(client: httpx.Client, name: str, password: str = "correct horse") -> httpx.Response:
    return client.post("/api/account/login", json={"name": name, "password": password})


def test_signup_signs_in_with_an_httponly_lax_cookie_and_me_names_the_account(
    server: Server,
) -> None:
    with device(server) as phone:
        made = signup(phone, "  Anna   Berg ")
        assert made.status_code == 201, made.text
        assert made.json()["name"] == "Anna Berg"
        cookie = made.headers["set-cookie"]
        flags = {part.strip().lower() for part in cookie.split(";")}
        assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
        assert "secure" not in flags  # plain http: a Secure cookie would never come back
        me = phone.get("/api/account/me")
        assert me.status_code == 200 and me.json()["name"] == "Anna Berg"
    with device(server) as stranger:
        answer = stranger.get("/api/account/me")
        assert answer.status_code == 401
        assert answer.json()["error"] == "not_signed_in" and answer.json()["message"]


def test_the_session_cookie_is_secure_when_the_page_came_over_https(
    sqlite_server: Server,
) -> None:
    with device(sqlite_server) as phone:
        made = phone.post(
            "/api/account/signup",
            json={"name": "Bo", "password": "correct horse"},
            headers={"x-forwarded-proto": "https"},
        )
        assert made.status_code == 201, made.text
        flags = {part.strip().lower() for part in made.headers["set-cookie"].split(";")}
        assert {"secure", "httponly", "samesite=lax"} <= flags


def test_login_from_another_device_and_a_wrong_password_or_name_is_refused_alike(
    server: Server,
) -> None:
    with device(server) as phone:
        assert signup(phone, "Cecilia").status_code == 201
    with device(server) as laptop:
        wrong = login(laptop, "Cecilia", "not the password")
        unknown = login(laptop, "Nobody Here")
        for answer in (wrong, unknown):
            assert answer.status_code == 401
            assert answer.json() == {
                "error": "bad_login",
                "message": "no account has that name and password",
            }
            assert "set-cookie" not in answer.headers
        assert laptop.get("/api/account/me").status_code == 401
        right = login(laptop, "cecilia")  # case aside, as at a table
        assert right.status_code == 200, right.text
        assert laptop.get("/api/account/me").json()["name"] == "Cecilia"


def test_a_name_that_looks_like_an_account_s_is_taken_and_bad_inputs_are_refused(
    sqlite_server: Server,
) -> None:
    with device(sqlite_server) as phone:
        assert signup(phone, "Anna").status_code == 201
        lookalike = signup(phone, "\u0410nna")  # a Cyrillic А
        assert lookalike.status_code == 409 and lookalike.json()["error"] == "name_taken"
        assert signup(phone, "Dora", "short").json()["error"] == "bad_request"
        assert signup(phone, "x" * 41).status_code == 400
        assert signup(phone, "   ").status_code == 400
        too_long = phone.post("/api/account/signup", json={"name": "Eva", "password": "p" * 300})
        assert too_long.status_code == 422 and too_long.json()["error"] == "bad_request"


def test_login_is_rate_limited_per_name_whatever_the_address(sqlite_server: Server) -> None:
    with device(sqlite_server) as phone:
        assert signup(phone, "Frida").status_code == 201
    answers = []
    for n in range(6):
        with device(sqlite_server, f"10.0.0.{n + 1}") as someone:
            answers.append(login(someone, "Frida", f"guess {n}"))
    assert [a.status_code for a in answers] == [401] * 5 + [429]
    assert answers[-1].json()["error"] == "rate_limited" and answers[-1].json()["message"]
    with device(sqlite_server, "10.0.1.1") as owner:  # the right password waits too
        assert login(owner, "Frida").status_code == 429


def test_login_is_rate_limited_per_address_whatever_the_name(sqlite_server: Server) -> None:
    began = time.monotonic()
    codes: list[int] = []
    with device(sqlite_server, "10.0.2.1") as someone:
        while 429 not in codes and len(codes) < 60:
            codes.append(login(someone, f"Name {len(codes)}").status_code)
    took = time.monotonic() - began
    # 20 at once, then one every 3 s (each wrong try hashes: it takes a while)
    assert codes[-1] == 429 and set(codes[:-1]) == {401}
    assert 20 <= len(codes) - 1 <= 20 + took / 3 + 1
    with device(sqlite_server, "10.0.2.2") as other:
        assert login(other, "Name 0").status_code == 401


def test_signup_is_rate_limited_per_address(sqlite_server: Server) -> None:
    with device(sqlite_server, "10.0.3.1") as someone:
        codes = [signup(someone, f"Player {n}").status_code for n in range(11)]
    assert codes == [201] * 10 + [429]
    with device(sqlite_server, "10.0.3.2") as other:
        assert signup(other, "Player 10").status_code == 201


def test_logout_revokes_the_session_even_for_a_cookie_kept_elsewhere(server: Server) -> None:
    with device(server) as phone:
        assert signup(phone, "Gustav").status_code == 201
        secret = phone.cookies["rummykit_session"]
        out = phone.post("/api/account/logout", json={})
        assert out.status_code == 200
        assert 'rummykit_session=""' in out.headers["set-cookie"]
    with device(server) as thief:
        thief.cookies.set("rummykit_session", secret)
        assert thief.get("/api/account/me").status_code == 401


def test_logout_everywhere_revokes_every_session_of_the_account(server: Server) -> None:
    with device(server) as phone, device(server) as laptop, device(server) as tablet:
        assert signup(phone, "Hedda").status_code == 201
        assert login(laptop, "Hedda").status_code == 200
        assert login(tablet, "Hedda").status_code == 200
        assert laptop.post("/api/account/logout", json={"everywhere": True}).status_code == 200
        for client in (phone, laptop, tablet):
            assert client.get("/api/account/me").status_code == 401


def _table_with_my_seat(server: Server) -> tuple[str, int, str]:
    table = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    joined = server.post(f"/api/tables/{table['id']}/join", {"name": "Ingrid"})
    return str(table["id"]), int(joined["seat"]), str(joined["token"])


def test_seats_adopted_on_one_device_follow_the_account_to_another(server: Server) -> None:
    table, seat, token = _table_with_my_seat(server)
    with device(server) as phone:
        assert signup(phone, "Ingrid").status_code == 201
        adopted = phone.post(
            "/api/account/seats",
            json={
                "seats": [
                    {"table": table, "seat": seat, "token": token},
                    {"table": table, "seat": 1 - seat, "token": "forged"},
                    {"table": "nosuchtable", "seat": 0, "token": token},
                ]
            },
        )
        assert adopted.status_code == 200, adopted.text
        assert adopted.json() == {"adopted": [{"table": table, "seat": seat, "token": token}]}
    with device(server) as laptop:  # no cookie of the phone's: signs in, gets the table
        assert laptop.get("/api/account/seats").status_code == 401
        assert login(laptop, "Ingrid").status_code == 200
        held = laptop.get("/api/account/seats").json()
        assert held == {"seats": [{"table": table, "seat": seat, "token": token}]}
        forgot = laptop.post("/api/account/seats/forget", json={"table": table})
        assert forgot.status_code == 200
        assert laptop.get("/api/account/seats").json() == {"seats": []}


def test_deleting_the_account_drops_its_data_and_frees_the_name(
    server: Server, request: pytest.FixtureRequest
) -> None:
    table, seat, token = _table_with_my_seat(server)
    with device(server) as phone, device(server) as laptop:
        assert signup(phone, "Jonas").status_code == 201
        assert login(laptop, "Jonas").status_code == 200
        held = [{"table": table, "seat": seat, "token": token}]
        assert phone.post("/api/account/seats", json={"seats": held}).status_code == 200
        wrong = phone.post("/api/account/delete", json={"password": "not it at all"})
        assert wrong.status_code == 401 and wrong.json()["error"] == "bad_login"
        gone = phone.post("/api/account/delete", json={"password": "correct horse"})
        assert gone.status_code == 200 and gone.json() == {"deleted": True}
        assert laptop.get("/api/account/me").status_code == 401
        assert login(laptop, "Jonas").status_code == 401
    kept = _rows(server, request)
    assert kept["accounts"] == [(None, None, None)]  # the row stays, nameless, for its id
    assert kept["others"] == 0  # no name key, session, passkey, seat or challenge
    assert server.get(f"/api/tables/{table}")["id"] == table  # the table is not the account's
    with device(server) as newcomer:
        assert signup(newcomer, "Jonas").status_code == 201


def _rows(server: Server, request: pytest.FixtureRequest) -> dict[str, object]:
    """What the database keeps of accounts, read from it directly."""
    others = (
        "SELECT (SELECT COUNT(*) FROM account_names) + (SELECT COUNT(*) FROM account_sessions)"
        " + (SELECT COUNT(*) FROM account_passkeys) + (SELECT COUNT(*) FROM account_seats)"
        " + (SELECT COUNT(*) FROM account_challenges)"
    )
    rows = "SELECT name, skeleton, password FROM accounts"
    if server.db.startswith("sqlite:///"):
        with sqlite3.connect(server.db.removeprefix("sqlite:///")) as db:
            return {
                "accounts": db.execute(rows).fetchall(),
                "others": db.execute(others).fetchone()[0],
            }
    import psycopg

    with psycopg.connect(server.db) as conn:
        found = conn.execute(rows).fetchall()
        count = conn.execute(others).fetchone()
    return {"accounts": found, "others": count[0] if count else None}


def test_posts_from_another_origin_or_not_as_json_are_refused(sqlite_server: Server) -> None:
    with httpx.Client(base_url=sqlite_server.base, timeout=30) as browser:
        form = browser.post(
            "/api/account/signup",
            content="name=Karin&password=correct+horse",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert form.status_code in (415, 422) and form.json()["error"] == "bad_request"
        evil = browser.post(
            "/api/account/signup",
            json={"name": "Karin", "password": "correct horse"},
            headers={"origin": "https://evil.example"},
        )
        assert evil.status_code == 403 and evil.json()["error"] == "forbidden"
        assert "set-cookie" not in evil.headers
        own = browser.post(
            "/api/account/signup",
            json={"name": "Karin", "password": "correct horse"},
            headers={"origin": sqlite_server.base},
        )
        assert own.status_code == 201
        evil_out = browser.post(
            "/api/account/logout", json={}, headers={"origin": "https://evil.example"}
        )
        assert evil_out.status_code == 403
        assert browser.get("/api/account/me").status_code == 200


def _sql(server: Server, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """One statement on the server's database, read or written directly."""
    if server.db.startswith("sqlite:///"):
        with sqlite3.connect(server.db.removeprefix("sqlite:///")) as db:
            return db.execute(sql.replace("%s", "?"), params).fetchall()
    import psycopg

    with psycopg.connect(server.db, autocommit=True) as conn:
        cur = conn.execute(sql, params)
        return cur.fetchall() if cur.description else []


def test_a_session_unused_for_thirty_days_has_expired(server: Server) -> None:
    with device(server) as phone:
        assert signup(phone, "Lars").status_code == 201
        assert phone.get("/api/account/me").status_code == 200
        _sql(server, "UPDATE account_sessions SET seen = seen - %s", (31 * 86_400,))
        answer = phone.get("/api/account/me")
        assert answer.status_code == 401 and answer.json()["error"] == "not_signed_in"


def test_a_password_hashed_with_weaker_settings_is_hashed_again_at_sign_in(
    sqlite_server: Server,
) -> None:
    from argon2 import PasswordHasher

    with device(sqlite_server) as phone:
        assert signup(phone, "Maja").status_code == 201
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash("correct horse")
    _sql(sqlite_server, "UPDATE accounts SET password = %s", (weak,))
    with device(sqlite_server) as laptop:
        assert login(laptop, "Maja").status_code == 200
    [(stored,)] = _sql(sqlite_server, "SELECT password FROM accounts")
    assert stored != weak and not PasswordHasher().check_needs_rehash(str(stored))


def test_a_passkey_challenge_is_single_use_and_a_forged_answer_is_refused(
    server: Server,
) -> None:
    with device(server) as phone:
        begun = phone.post("/api/account/passkey/login/begin", json={})
        assert begun.status_code == 200, begun.text
        options = begun.json()["options"]
        assert options["rpId"] == "127.0.0.1" and len(options["challenge"]) >= 40
        forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}
        finish = {"challenge": begun.json()["challenge"], "credential": forged}
        first = phone.post("/api/account/passkey/login/finish", json=finish)
        again = phone.post("/api/account/passkey/login/finish", json=finish)
        for answer in (first, again):
            assert answer.status_code == 400 and answer.json()["error"] == "bad_passkey"
        assert _sql(server, "SELECT COUNT(*) FROM account_challenges") == [(0,)]
        refused = phone.post("/api/account/passkey/register/begin", json={})
        assert refused.status_code == 401  # a passkey is added to a signed-in account only
