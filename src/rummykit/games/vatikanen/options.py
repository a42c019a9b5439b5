"""Vatikanen's house rules (RULES.md, marked [house rule]) as named options."""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.games.spec import HouseRule, check_house_rules
from rummykit.i18n import N_

__all__ = ["HOUSE_RULES", "check_options"]

HOUSE_RULES = (
    HouseRule(
        "free_jokers",
        False,
        "V11",
        N_("table jokers move freely as wild cards when the table is rearranged"),
        title=N_("Free jokers"),
    ),
    HouseRule(
        "blocked_game",
        True,
        "V15",
        N_("when everyone passes with an empty stock, the lowest hand wins the differences"),
        title=N_("Blocked game"),
    ),
)
"""The options a Vatikanen table may switch, with RULES.md's defaults."""


def check_options(options: Mapping[str, object]) -> dict[str, bool]:
    """Every option's value (defaults filled in); ValueError for an unknown or wrong one."""
    return {k: bool(v) for k, v in check_house_rules(HOUSE_RULES, options, "Vatikanen").items()}
