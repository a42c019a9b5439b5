"""Public ids never begin with "-", so a host can type them in `rummykit admin`."""

from __future__ import annotations

import pytest

from rummykit.cli.main import build_parser
from rummykit.server import ids
from rummykit.server.ids import public_id


def test_an_id_drawn_with_a_leading_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter(["-uXyAicdLSXg", "--aaaaaaaaa", "uXyAicdLSXg"])
    monkeypatch.setattr(ids.secrets, "token_urlsafe", lambda n: next(draws))
    assert public_id() == "uXyAicdLSXg"


def test_thousands_of_ids_are_url_safe_and_none_begins_with_a_dash() -> None:
    drawn = [public_id() for _ in range(5000)]
    assert not any(d.startswith("-") for d in drawn)
    assert all(len(d) == 12 and d.replace("-", "").replace("_", "").isalnum() for d in drawn)
    assert len(set(drawn)) == len(drawn)
    assert any("-" in d for d in drawn)  # a dash inside an id is still drawn


def test_an_older_id_with_a_leading_dash_is_typed_after_a_double_dash() -> None:
    args = build_parser().parse_args(["admin", "remove-chat", "--", "-uXyAicdLSXg", "1"])
    assert (args.table, args.n) == ("-uXyAicdLSXg", 1)
