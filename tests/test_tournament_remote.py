"""Tournament bot kind `remote`: a bot that plays through `orrery serve`'s SuggestMove plays exactly as the
same bot in-process (same deals, same seeds, same moves), and a remote-vs-in-process tournament runs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tournament_games import played_kuhn_games

from orrery.core_ext import load_game
from orrery.search import Budget, get_config, make_bot
from orrery.search.tournament import (
    BotSpec,
    BudgetSpec,
    ConfigError,
)
from orrery.service._spawn import running_server
from orrery.service.remote_bot import RemoteBot

# One search worker in-process: the server then runs the very search a SearchBot runs.
SERVE = ["--backend", "in-process", "--workers", "1", "--config", "ismcts@1", "--no-metrics"]
ITERATIONS = 60


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("remote")
    with running_server([*SERVE, "--db", str(folder / "m.sqlite3")], cwd=str(folder), same_imports=True) as s:
        yield s


def _positions(game: str, seeds: range):
    """Positions along random games, each with the seat to move's observation."""
    for seed in seeds:
        state = load_game(game, players=2).new_initial_state(seed)
        moves = 0
        while not state.is_terminal():
            yield state.observation(state.current_player)
            legal = state.legal_actions()
            state.apply(legal[(seed + moves) % len(legal)])
            moves += 1


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kuhn", "trian"])
def test_remote_bot_answers_what_the_in_process_bot_answers(server, game):
    remote = RemoteBot(server.target, config="ismcts@1", iterations=ITERATIONS)
    local = make_bot("ismcts", config=get_config("ismcts@1"), budget=Budget(iterations=ITERATIONS))
    observations = list(_positions(game, range(3)))[:: 1 if game == "kuhn" else 25]
    assert len(observations) >= 5
    for index, observation in enumerate(observations):
        seed = 2**63 + 1000 * index  # high bits too: seeds travel as uint64
        assert remote.select_action(observation, seed=seed) == local.select_action(observation, seed=seed)
    remote.close()


@pytest.mark.slow
def test_remote_vs_in_process_kuhn_tournament_replays_the_all_in_process_one(server, tmp_path):
    """Remote vs in-process plays, game by game and move by move, what the same tournament with both
    bots in-process plays: the deals and seeds cross the wire unchanged."""
    budget = BudgetSpec(iterations=ITERATIONS)
    local = BotSpec(name="local", kind="ismcts", config="ismcts@1", budget=budget)
    remote = BotSpec(name="other", kind="remote", address=server.target, config="ismcts@1", budget=budget)
    games = {
        label: played_kuhn_games(tmp_path / f"{label}.jsonl", (local, other), sets=4, seed=5)
        for label, other in (("remote", remote), ("local", replace(local, name="other")))
    }
    assert len(games["remote"]) == 8
    assert games["remote"] == games["local"]


def test_remote_spec_needs_an_address():
    with pytest.raises(ConfigError, match="address"):
        BotSpec(name="r", kind="remote")
    with pytest.raises(ConfigError, match="level"):
        BotSpec(name="r", kind="remote", address="127.0.0.1:1", level="godlike")
    with pytest.raises(ConfigError, match="only for kind 'remote'"):
        BotSpec(name="r", kind="ismcts", address="127.0.0.1:1")
