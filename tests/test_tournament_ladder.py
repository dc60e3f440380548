"""`orrery bench ladder`: random, greedy and the service levels in one round robin of duplicate deals,
rated with random anchored at 0, and each level compared with the one below it."""

from __future__ import annotations

import pytest

from orrery.search.tournament._ladder import ladder_config, ladder_json, run_ladder


def test_the_ladder_rates_every_level_against_random_at_zero(tmp_path):
    config = ladder_config(
        game="kuhn",
        players=2,
        levels=("easy", "hard"),
        sets=2,
        seed=3,
        backend="inline",
        results=str(tmp_path / "ladder.jsonl"),
    )
    assert [b.name for b in config.bots] == ["random", "greedy", "easy", "hard"]
    assert config.format == "round-robin" and config.baseline == "random"
    result = ladder_json(run_ladder(config, resamples=20))
    ratings = {r["bot"]: r for r in result["ratings"]}
    assert set(ratings) == {"random", "greedy", "easy", "hard"}
    assert ratings["random"]["elo"] == 0.0 and result["deals_identical"]
    assert all(r["low"] <= r["elo"] <= r["high"] for r in result["ratings"])
    (step,) = result["steps"]
    assert (step["lower"], step["upper"]) == ("easy", "hard")
    assert step["elo_gap"] == pytest.approx(ratings["hard"]["elo"] - ratings["easy"]["elo"], abs=0.11)
    # the step head to head is the pairing's own estimate, turned to read upper minus lower
    pair = {(p["a"], p["b"]): p for p in result["pairs"]}[("easy", "hard")]
    h2h = step["head_to_head"]
    assert h2h["low"] <= h2h["elo"] <= h2h["high"] and (h2h["elo"] > 0) == (pair["score"] < 0.5)
    assert step["apart_150"] == (h2h["low"] >= 150.0)
    assert result["complete_sets"] == result["sets"] == 2  # per pairing, not pairings times sets


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level"):
        ladder_config(game="kuhn", players=2, levels=("easy", "grandmaster"))


def test_the_ladder_reports_every_pairing_score(tmp_path):
    config = ladder_config(
        game="kuhn",
        players=2,
        levels=("easy",),
        sets=2,
        seed=3,
        backend="inline",
        results=str(tmp_path / "l.jsonl"),
    )
    result = ladder_json(run_ladder(config, resamples=20))
    pairs = {(p["a"], p["b"]): p for p in result["pairs"]}
    assert set(pairs) == {("random", "greedy"), ("random", "easy"), ("greedy", "easy")}
    for pair in pairs.values():
        assert 0.0 <= pair["score"] <= 1.0 and pair["sets"] == 2 and pair["games"] == 4
