"""Tournaments end to end: duplicate deals, resuming, worker-count independence, the SPRT, reports."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from orrery.core_ext import load_game
from orrery.search.tournament import (
    BotSpec,
    BudgetSpec,
    ConfigError,
    ResultsError,
    SprtSpec,
    TournamentConfig,
    analyse,
    config_from_dict,
    read_results,
    run_tournament,
    schedule,
    write_report,
)
from orrery.service.cli import main as orrery

TIMING_FIELDS = ("think_s", "wall_s")


class _RandomBot:
    """A stand-in bot for tests of the machinery (no search needed): uniform over legal actions."""

    name = "test-random"
    version = "t1"

    def select_action(self, observation, *, seed: int) -> int:
        return random.Random(seed).choice(observation.legal_actions())


def make_test_random_bot():
    return _RandomBot()


FACTORY = f"{__name__}:make_test_random_bot"


def _config(tmp_path: Path, **changes) -> TournamentConfig:
    base = TournamentConfig(
        name="t",
        game="kuhn",
        players=2,
        format="round-robin",
        bots=(
            BotSpec(name="r1", kind="factory", factory=FACTORY),
            BotSpec(name="r2", kind="factory", factory=FACTORY),
        ),
        sets=6,
        seed=11,
        backend="inline",
        results=str(tmp_path / "results.jsonl"),
    )
    return replace(base, **changes)


def _comparable(records):
    """Records without timings, in schedule order: what must not depend on how games were run."""
    out = [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]
    return sorted(out, key=lambda r: (r["set"], r["pairing"], r["rotation"]))


def test_every_rotation_of_a_set_gets_the_same_deal():
    config = TournamentConfig(
        name="deals",
        game="kuhn",
        players=3,
        format="round-robin",
        bots=tuple(BotSpec(name=n, kind="factory", factory=FACTORY) for n in ("a", "b", "c")),
        sets=3,
        seed=5,
    )
    tasks = list(schedule(config))
    assert len(tasks) == 3 * 6  # 3 sets of all 6 seatings
    game = load_game("kuhn", players=3)
    for set_index in range(3):
        in_set = [t for t in tasks if t.key[1] == set_index]
        assert len({t.seating for t in in_set}) == 6
        assert len({t.deal_seed for t in in_set}) == 1
        deals = {game.new_initial_state(seed=t.deal_seed).to_json() for t in in_set}
        assert len(deals) == 1
    # Different sets deal differently (over three sets of Kuhn, at least two deals differ).
    assert len({game.new_initial_state(seed=t.deal_seed).to_json() for t in tasks}) > 1
    # Bot seeds differ by rotation and seat.
    assert len({s for t in tasks for s in t.bot_seeds}) == 3 * 6 * 3


def test_records_hold_the_same_deal_per_set(tmp_path):
    config = _config(tmp_path, players=3, rotations="all")
    run_tournament(config, progress=False)
    _, records = read_results(config.results_path())
    assert len(records) == 6 * 6
    by_set: dict[int, set[str]] = {}
    for r in records:
        by_set.setdefault(r["set"], set()).add(r["deal_digest"])
        assert set(r) >= {"deal_seed", "seats", "bot_versions", "scores", "ranks", "moves", "think_s"}
    assert all(len(d) == 1 for d in by_set.values())
    assert analyse(config, records, resamples=10).deals_identical


def test_interrupted_run_resumes_to_identical_results(tmp_path):
    whole = _config(tmp_path, results=str(tmp_path / "whole.jsonl"))
    run_tournament(whole, progress=False)
    parts = _config(tmp_path, results=str(tmp_path / "parts.jsonl"))
    first = run_tournament(parts, progress=False, max_games=5)
    assert (first.games_played, first.stopped) == (5, True)
    # A kill in the middle of writing leaves a torn last line; resuming must drop it and go on.
    with open(parts.results_path(), "a") as f:
        f.write('{"type":"game","pairing":0,"set":2,"rot')
    second = run_tournament(parts, progress=False)
    assert second.games_played == 12 - 5 and not second.stopped
    third = run_tournament(parts, progress=False)  # nothing left to do
    assert third.games_played == 0
    _, a = read_results(whole.results_path())
    _, b = read_results(parts.results_path())
    assert _comparable(a) == _comparable(b)
    assert len(b) == 12


def test_resume_refuses_a_different_tournament(tmp_path):
    config = _config(tmp_path)
    run_tournament(config, progress=False, max_games=2)
    with pytest.raises(ResultsError, match="different tournament"):
        run_tournament(replace(config, seed=12), progress=False)
    # How many workers play it is not part of the tournament's identity.
    run_tournament(replace(config, workers=3), progress=False, max_games=1)


def test_bad_configs_are_rejected_with_the_field_named():
    good = {
        "game": "kuhn",
        "players": 2,
        "format": "sprt",
        "sets": 10,
        "baseline": "random",
        "bots": [{"kind": "random"}, {"kind": "greedy"}],
    }
    assert config_from_dict(good).candidate == "greedy"
    with pytest.raises(ConfigError, match="unknown key"):
        config_from_dict({**good, "set": 3})
    with pytest.raises(ConfigError, match="baseline"):
        config_from_dict({**good, "baseline": "nobody"})
    with pytest.raises(ConfigError, match="exactly two bots"):
        config_from_dict({**good, "bots": [{"kind": "random"}, {"kind": "greedy"}, {"kind": "pimc"}]})
    with pytest.raises(ConfigError, match="elo0 < elo1"):
        config_from_dict({**good, "sprt": {"elo0": 5, "elo1": 0}})
    with pytest.raises(ConfigError, match="kind must be one of"):
        config_from_dict({**good, "bots": [{"kind": "random"}, {"kind": "oracle"}]})
    with pytest.raises(ConfigError, match="iterations or milliseconds"):
        config_from_dict({**good, "budget": {}})


def _search_bots_config(tmp_path: Path, name: str, **changes) -> TournamentConfig:
    return replace(
        TournamentConfig(
            name=name,
            game="kuhn",
            players=2,
            format="round-robin",
            bots=(
                BotSpec(name="ismcts-small", kind="ismcts", budget=BudgetSpec(iterations=30)),
                BotSpec(name="random", kind="random"),
            ),
            sets=4,
            seed=3,
            backend="inline",
            results=str(tmp_path / f"{name}.jsonl"),
        ),
        **changes,
    )


def test_results_do_not_depend_on_worker_count(tmp_path):
    one = _search_bots_config(tmp_path, "one")
    two = _search_bots_config(tmp_path, "two", backend="processes", workers=2)
    run_tournament(one, progress=False)
    run_tournament(two, progress=False)
    _, a = read_results(one.results_path())
    _, b = read_results(two.results_path())
    assert len(a) == len(b) == 8
    assert _comparable(a) == _comparable(b)


@pytest.mark.ray
@pytest.mark.slow  # starts Ray: out of the fast lane
def test_ray_backend_plays_the_same_games(tmp_path, ray_session):
    inline = _search_bots_config(tmp_path, "inline", sets=2)
    on_ray = _search_bots_config(tmp_path, "ray", sets=2, backend="ray", workers=2)
    run_tournament(inline, progress=False)
    run_tournament(on_ray, progress=False)
    _, a = read_results(inline.results_path())
    _, b = read_results(on_ray.results_path())
    assert _comparable(a) == _comparable(b)


def test_sprt_finds_greedy_stronger_than_random(tmp_path, capsys):
    config_path = tmp_path / "greedy-vs-random.toml"
    results = tmp_path / "greedy-vs-random.jsonl"
    config_path.write_text(
        "\n".join(
            [
                'name = "greedy-vs-random"',
                'game = "kuhn"',
                "players = 2",
                'format = "sprt"',
                'baseline = "random"',
                "sets = 400",
                "seed = 1",
                'backend = "inline"',
                f"results = {json.dumps(str(results))}",
                "[sprt]",
                "elo0 = 0",
                "elo1 = 20",
                "[[bots]]",
                'name = "random"',
                'kind = "random"',
                "[[bots]]",
                'name = "greedy"',
                'kind = "greedy"',
            ]
        )
    )
    assert orrery(["tournament", "run", str(config_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "H1 accepted: greedy is stronger" in out
    header, records = read_results(results)
    sprt = analyse(config_from_dict(_toml(config_path)), records, resamples=0).sprt
    assert sprt is not None and sprt.state.decision == "H1"
    assert sprt.games < 800 and sprt.games == 2 * sprt.sets  # it stopped early, on whole sets
    assert sprt.estimate.elo > 0 and sprt.estimate.los > 0.5
    assert orrery(["tournament", "report", str(results), "--resamples", "50"]) == 0
    md = (tmp_path / "greedy-vs-random.md").read_text()
    assert "H1 accepted" in md and "| greedy |" in md
    html = (tmp_path / "greedy-vs-random.html").read_text()
    assert "<svg" in html and "<table>" in html
    assert (tmp_path / "greedy-vs-random-ratings.svg").read_text().lstrip().startswith("<?xml")


def _toml(path: Path) -> dict:
    import tomllib

    return tomllib.loads(path.read_text())


def test_round_robin_report_ranks_bots_and_shows_seats(tmp_path):
    config = replace(
        _search_bots_config(tmp_path, "rr", sets=6),
        bots=(
            BotSpec(name="random", kind="random"),
            BotSpec(name="greedy", kind="greedy"),
            BotSpec(name="ismcts", kind="ismcts", budget=BudgetSpec(iterations=50)),
        ),
        sprt=SprtSpec(),
    )
    run_tournament(config, progress=False)
    files = write_report(config.results_path(), tmp_path / "report", resamples=100)
    text = files.markdown.read_text()
    for heading in ("## Ratings", "## Head to head", "## Seats", "## Bots"):
        assert heading in text
    assert text.count("| random vs greedy |") + text.count("| greedy vs random |") == 1
    assert files.chart.exists() and files.html.exists()
    # a sample game's final position, replayed from its recorded actions and drawn by orrery.render
    assert files.position is not None and files.position.read_text().startswith("<svg")
    assert f"]({files.position.name})" in text and "<figure><svg" in files.html.read_text()


@pytest.mark.parametrize(
    "path", sorted(Path(__file__).resolve().parents[1].glob("search/tournament/examples/*.toml"))
)
def test_example_configs_load(path):
    from orrery.search.tournament import load_config

    config = load_config(path)
    assert config.sets >= 1 and len(config.bots) >= 2


@pytest.mark.parametrize(
    ("players", "fmt", "bots", "games_per_set"),
    [
        (3, "round-robin", ("a", "b", "c"), 6),  # one table of three distinct bots, all 6 orders
        (4, "round-robin", ("a", "b", "c", "d", "e"), 5 * 4),  # 5 tables of four, cyclic rotations
        (2, "gauntlet", ("a", "b", "c"), 2 * 2),  # a against b and against c, both seatings each
    ],
)
def test_formats_play_whole_sets_and_report(tmp_path, players, fmt, bots, games_per_set):
    config = TournamentConfig(
        name=f"{fmt}-{players}",
        game="kuhn",
        players=players,
        format=fmt,
        baseline="a" if fmt == "gauntlet" else None,
        rotations="cyclic" if players == 4 else "all",
        bots=tuple(BotSpec(name=n, kind="factory", factory=FACTORY) for n in bots),
        sets=3,
        seed=2,
        backend="inline",
        results=str(tmp_path / "r.jsonl"),
    )
    summary = run_tournament(config, progress=False)
    assert summary.games_done == summary.games_total == 3 * games_per_set
    _, records = read_results(config.results_path())
    analysis = analyse(config, records, resamples=20)
    assert analysis.games_in_complete_sets == analysis.games_recorded == 3 * games_per_set
    assert analysis.deals_identical
    assert {r.name for r in analysis.ratings} == set(bots)
    expected_pairs = 2 if fmt == "gauntlet" else len(bots) * (len(bots) - 1) // 2
    assert len(analysis.pairs) == expected_pairs
    assert sum(s.win_rate for s in analysis.seats) == pytest.approx(1.0)
    files = write_report(config.results_path(), resamples=20)
    assert "## Seats" in files.markdown.read_text()


def test_a_turn_bot_starts_each_game_without_a_turn_clock_left_by_the_last():
    """Issue 28: a worker reuses its bots across games, and the `turn` kind keeps each seat's turn clock
    between calls. In this 3-player run game 15 ends with a clock still held for seat 0 by `default-b`;
    game 16 (where `default-b` sits in seat 0) must play as it does in a fresh worker, or the results
    depend on the worker count."""
    import itertools

    from orrery.search.tournament import _play, load_config
    from orrery.search.tournament._schedule import schedule

    examples = Path(__file__).resolve().parents[1] / "search/tournament/examples"
    tasks = list(itertools.islice(schedule(load_config(examples / "teg-btb-strong-first-seat-3p.toml")), 17))
    _play._BOTS.clear()
    try:
        _play.play_game(tasks[15])
        assert any(getattr(bot, "_turns", None) for bot in _play._BOTS.values())  # the case under test
        after_another = _play.play_game(tasks[16])
        _play._BOTS.clear()
        fresh = _play.play_game(tasks[16])
    finally:
        _play._BOTS.clear()
    assert after_another["actions"] == fresh["actions"]
