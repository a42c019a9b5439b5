"""The tool that fits the strong Kontrakt bot's completion odds (tools/fit_kontrakt_odds.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

TOOL = Path(__file__).resolve().parents[1] / "tools" / "fit_kontrakt_odds.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_kontrakt_odds", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fit_recovers_the_weights_of_a_logistic_model() -> None:
    tool = _tool()
    rng = np.random.default_rng(1)
    x = np.hstack([np.ones((20000, 1)), rng.normal(size=(20000, 2))])
    truth = np.array([-0.5, 1.5, -2.0])
    y = (rng.random(20000) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    assert np.allclose(tool.fit(x, y), truth, atol=0.1)


def test_auc_counts_ordered_pairs_and_ties_half() -> None:
    tool = _tool()
    y = np.array([0.0, 0.0, 1.0, 1.0])
    assert tool.auc(np.array([0.1, 0.2, 0.3, 0.4]), y) == 1.0
    assert tool.auc(np.array([0.4, 0.3, 0.2, 0.1]), y) == 0.0
    assert tool.auc(np.array([0.5, 0.5, 0.5, 0.5]), y) == 0.5


def test_K13_positions_are_those_of_an_open_contract_with_their_outcome() -> None:
    tool = _tool()
    rows = tool.play_deck(0)
    assert rows and all(deck == 0 for deck, _s, _c in rows)
    assert all(s.missing >= 0 and 0 <= s.deal <= 6 and s.fewest <= 12 for _d, s, _c in rows)
    completed = [c for _d, _s, c in rows]
    assert any(completed) and not all(completed)
    x = tool.design([s for _d, s, _c in rows])
    assert x.shape == (len(rows), 7 + len(tool.FEATURES))
    assert (x[:, :7].sum(axis=1) == 1).all()  # one deal column each
