"""What every answer of the server says about itself (docs/protocol.md, Hosting): only its own
names (``Host``, against DNS rebinding), and the security headers; and the browser UI
loads under that Content-Security-Policy without breaking it (Chromium).
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from server_helpers import Server, start
from test_server_live import join, table
from web_helpers import browser, new_page

__all__ = ["browser"]  # the fixture

SITE = "rummy.example"
"""The name the test server is told it also has (``--allow-host``)."""


@pytest.fixture(scope="module")
def named_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the file, answering to ``SITE`` too."""
    folder = tmp_path_factory.mktemp("headers")
    running = start(f"sqlite:///{folder / 's.sqlite3'}", extra=("--allow-host", SITE))
    yield running
    running.stop()


def ask(
    server: Server, path: str, host: str | None = None, method: str = "GET", body: Any = None
) -> http.client.HTTPResponse:
    """One request with ``host`` as its Host header (the server's address if None)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {
        "host": f"127.0.0.1:{server.port}" if host is None else host,
        "content-type": "application/json",
    }
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def test_a_request_for_another_host_is_refused_and_the_servers_names_pass(
    named_server: Server,
) -> None:
    server, port = named_server, named_server.port
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", ""):
        for path in ("/", "/api/tables"):
            assert ask(server, path, host).status == 421, (host, path)
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", SITE, "LOCALHOST"):
        assert ask(server, "/api/tables", host).status == 200, host

    made = table(server, "vatikanen", ["human", "human"])
    path = f"/api/tables/{made['id']}/live"
    evil = socket.create_connection(("127.0.0.1", port))
    with (  # refused before the WebSocket opens
        pytest.raises(InvalidStatus) as refused,
        connect(f"ws://evil.example:{port}{path}", sock=evil, open_timeout=10),
    ):
        pass
    assert refused.value.response.status_code == 403
    for host in (SITE, "localhost"):
        with connect(
            f"ws://{host}:{port}{path}",
            sock=socket.create_connection(("127.0.0.1", port)),
            open_timeout=10,
        ) as ws:
            ws.send(json.dumps({"type": "hello", "token": None, "version": None}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"


def csp_of(answer: http.client.HTTPResponse) -> dict[str, list[str]]:
    """The Content-Security-Policy's directives."""
    policy = answer.getheader("content-security-policy") or ""
    parts = (d.split() for d in policy.split(";") if d.strip())
    return {p[0]: p[1:] for p in parts}


def test_every_answer_carries_the_security_headers_and_the_token_is_never_cached(
    named_server: Server,
) -> None:
    server = named_server
    made = table(server, "vatikanen", ["human", "human"])
    answers = {
        "page": ask(server, "/"),
        "script": ask(server, "/js/app.js"),
        "list": ask(server, "/api/tables"),
        "missing": ask(server, "/api/tables/nope"),
        "join": ask(server, f"/api/tables/{made['id']}/join", method="POST", body={"name": "A"}),
    }
    assert answers["join"].status == 200 and answers["missing"].status == 404
    for name, answer in answers.items():
        csp = csp_of(answer)
        assert csp.get("script-src") == ["'self'"], name  # no inline script, nothing else
        assert "'unsafe-inline'" not in answer.getheader("content-security-policy", ""), name
        assert "'unsafe-eval'" not in answer.getheader("content-security-policy", ""), name
        assert csp.get("frame-ancestors") == ["'none'"], name
        assert csp.get("object-src") == ["'none'"], name
        assert answer.getheader("x-content-type-options") == "nosniff", name
        assert answer.getheader("referrer-policy") == "no-referrer", name
    for name in ("list", "missing", "join"):  # the join's answer holds the seat's token
        assert answers[name].getheader("cache-control") == "no-store", name
    for name in ("page", "script"):  # asked again on every load (ETag), never stale
        assert answers[name].getheader("cache-control") == "no-cache", name
        assert answers[name].getheader("etag"), name


def test_the_pages_load_in_chromium_with_no_csp_violation(
    browser: Any, named_server: Server
) -> None:
    server = named_server
    made = table(server, "vatikanen", ["human", "bot:greedy"])
    token = join(server, made["id"], "Anna")["token"]
    page = new_page(browser)
    complaints: list[str] = []
    page.on("console", lambda message: complaints.append(f"{message.type}: {message.text}"))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    page.goto(server.base + "/")
    page.wait_for_selector("text=New table")
    seat = json.dumps({"seat": 0, "token": token, "name": "Anna"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummykit.seat.{made['id']}", seat])
    page.goto(f"{server.base}/#/t/{made['id']}")
    page.reload()
    page.wait_for_selector(".hand .card")
    page.goto(f"{server.base}/#/none")
    page.wait_for_timeout(300)
    policy = [c for c in complaints if "Content Security Policy" in c or "CSP" in c]
    assert not policy, policy
    assert not page.errors, page.errors
    page.context.close()
