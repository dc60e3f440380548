"""Tournament bot kind `openspiel`: OpenSpiel's ISMCTS and MCTS through the bridge, seeded from the move
seed (duplicate deals replay), with their options checked; `orrery bench openspiel` prints its JSON."""

from __future__ import annotations

import json
import sys

import pytest
from tournament_games import played_kuhn_games

from orrery.core_ext import load_game
from orrery.search.tournament import (
    BotSpec,
    BudgetSpec,
    ConfigError,
)
from orrery.service.cli import main as orrery

pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel is not installed (pip install 'orrery[openspiel]'; wheels need CPython 3.11+)",
)
from orrery.openspiel import OpenSpielBot, OpenSpielBudget  # noqa: E402


def _observation(game: str, seed: int, moves: int = 0):
    state = load_game(game, players=2).new_initial_state(seed)
    for step in range(moves):
        legal = state.legal_actions()
        state.apply(legal[step % len(legal)])
    return state.observation(state.current_player)


@pytest.mark.parametrize("algorithm", ["ismcts", "mcts"])
@pytest.mark.parametrize("evaluator", ["random-rollout", "orrery-playout"])
def test_same_seed_same_move(algorithm, evaluator):
    observation = _observation("take_the_galaxy", 4, moves=3)
    assert len(observation.legal_actions()) > 1
    bot = OpenSpielBot(algorithm, OpenSpielBudget(simulations=15), {"evaluator": evaluator})
    moves = {bot.select_action(observation, seed=s) for s in (7, 7, 7)}
    assert len(moves) == 1 and moves <= set(observation.legal_actions())


def test_time_budget_stops_the_search():
    observation = _observation("trian", 2)
    bot = OpenSpielBot("ismcts", OpenSpielBudget(milliseconds=30), {"evaluator": "orrery-playout"})
    assert bot.select_action(observation, seed=1) in observation.legal_actions()
    assert bot.version.endswith("+30ms")


def test_bad_options_are_config_errors():
    with pytest.raises(ConfigError, match="unknown OpenSpiel bot option"):
        BotSpec(name="o", kind="openspiel", overrides=(("exploration", 1.0),))
    with pytest.raises(ConfigError, match="evaluator"):
        BotSpec(name="o", kind="openspiel", overrides=(("evaluator", "neural"),))
    with pytest.raises(ConfigError, match="config is one of"):
        BotSpec(name="o", kind="openspiel", config="cfr")


def test_openspiel_kuhn_tournament_replays(tmp_path):
    budget = BudgetSpec(iterations=20)
    bots = (
        BotSpec(name="os-ismcts", kind="openspiel", config="ismcts", budget=budget),
        BotSpec(name="os-mcts", kind="openspiel", config="mcts", budget=budget),
        BotSpec(name="orrery", kind="ismcts", config="ismcts@1", budget=budget),
    )
    runs = [played_kuhn_games(tmp_path / f"{label}.jsonl", bots, sets=2, seed=3) for label in ("a", "b")]
    assert len(runs[0]) == 12 and runs[0] == runs[1]


def test_bench_openspiel_prints_both_rates(capsys):
    assert orrery(["bench", "openspiel", "--game", "kuhn", "--seconds", "0.05", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["runs"]) == {
        "orrery_default",
        "orrery_full_random_playouts",
        "openspiel_random_rollout",
        "openspiel_orrery_playout",
    }
    assert all(run["iterations"] >= 1 for run in out["runs"].values())


def test_bridge_names_say_how_to_install_when_open_spiel_is_missing(monkeypatch):
    import orrery.openspiel as package

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "orrery.openspiel._bridge")
    with pytest.raises(ImportError, match=r"pip install 'orrery\[openspiel\]'"):
        package.register_games  # noqa: B018
