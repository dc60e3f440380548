"""Tournament bot kinds come from a registry: search's own, plus those the layers above register
through the `orrery.tournament_bots` entry points (remote, openspiel), loaded when a config names one."""

from __future__ import annotations

import subprocess
import sys

import pytest

from orrery.search.tournament import (
    BotKind,
    BotSpec,
    ConfigError,
    bot_kinds,
    config_from_dict,
    register_bot_kind,
)
from orrery.search.tournament._kinds import bot_kind
from orrery.search.tournament._play import build_bot


def test_every_kind_is_registered():
    assert set(bot_kinds()) >= {"random", "greedy", "ismcts", "pimc", "factory", "remote", "openspiel"}


def test_an_unknown_kind_lists_the_known_ones():
    with pytest.raises(ConfigError, match="kind must be one of .*remote.*openspiel|openspiel.*remote"):
        BotSpec(name="x", kind="oracle")


def test_a_field_the_kind_does_not_read_names_the_kinds_that_do():
    with pytest.raises(ConfigError, match="address is only for kind 'remote'"):
        BotSpec(name="r", kind="greedy", address="127.0.0.1:1")
    with pytest.raises(
        ConfigError, match="overrides is only for kinds 'ismcts', 'pimc', 'turn', 'openspiel'"
    ):
        BotSpec(name="r", kind="remote", address="127.0.0.1:1", overrides=(("x", 1),))
    with pytest.raises(ConfigError, match="factory = 'module:function'"):
        BotSpec(name="f", kind="factory", factory="nocolon")


@pytest.mark.parametrize("kind", ["remote", "openspiel"])
def test_plug_in_kinds_load_on_first_use_in_a_fresh_process(kind):
    """A config naming a plug-in kind validates with nothing but orrery.search imported first."""
    extra = {"remote": ', "address": "127.0.0.1:1"', "openspiel": ', "config": "mcts"'}[kind]
    code = (
        "import sys\n"
        "from orrery.search.tournament import config_from_dict\n"
        "c = config_from_dict({'game': 'kuhn', 'players': 2, 'format': 'round-robin', 'sets': 1,\n"
        f"    'bots': [{{'kind': 'random'}}, {{'kind': '{kind}'{extra}}}]}})\n"
        f"assert c.bots[1].kind == '{kind}'\n"
        "print(sorted(m for m in sys.modules if m.startswith(('orrery.service', 'orrery.openspiel'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert ("orrery.service.remote_bot" in out) == (kind == "remote")
    assert ("orrery.openspiel._tournament" in out) == (kind == "openspiel")


def test_outside_code_can_register_a_kind():
    class Fixed:
        name = version = "fixed"

        def select_action(self, observation, *, seed):
            return observation.legal_actions()[0]

    register_bot_kind(
        BotKind(
            name="test-fixed",
            fields=frozenset({"config"}),
            build=lambda spec, budget, game: Fixed(),
            describe=lambda spec, budget: f"first legal action, {spec.config}",
        )
    )
    config = config_from_dict(
        {
            "game": "kuhn",
            "players": 2,
            "format": "round-robin",
            "sets": 1,
            "bots": [{"kind": "random"}, {"kind": "test-fixed", "config": "x"}],
        }
    )
    spec = config.bot("test-fixed")
    assert isinstance(build_bot(spec, config.budget, "kuhn"), Fixed)
    assert bot_kind("test-fixed").describe(spec, config.budget) == "first legal action, x"


def test_a_level_bot_plays_the_service_level_in_process():
    from orrery.core_ext import load_game
    from orrery.search import LEVELS
    from orrery.search.tournament._config import BudgetSpec

    spec = BotSpec(name="easy", kind="level", level="easy")
    bot = build_bot(spec, BudgetSpec(iterations=7), "kuhn")
    assert f"+{LEVELS['easy'].iterations}it/turn" in bot.version  # its own budget
    assert bot.version.endswith(f"+tolerance={LEVELS['easy'].tolerance:g}")
    state = load_game("kuhn", players=2).new_initial_state(seed=3)
    observation = state.observation(state.current_player)
    assert bot.select_action(observation, seed=1) in observation.legal_actions()
    with pytest.raises(ConfigError, match="level = one of easy, medium, hard, expert"):
        BotSpec(name="x", kind="level", level="grandmaster")


def test_a_level_with_a_time_budget_makes_the_tournament_timing_dependent():
    """Expert's budget is wall-clock time even though the tournament's own budget counts iterations: the
    report must not call its results reproducible (it did until session 12)."""

    def config(*bots):
        return config_from_dict(
            {"game": "kuhn", "players": 2, "format": "round-robin", "sets": 1, "bots": list(bots)}
        )

    hard = {"name": "hard", "kind": "level", "level": "hard"}
    expert = {"name": "expert", "kind": "level", "level": "expert"}
    timed_search = {"name": "timed", "kind": "ismcts", "budget": {"milliseconds": 50}}
    assert config(hard, {"name": "r", "kind": "random"}).reproducible
    assert config(hard, expert).timed_bots() == ["expert"]
    assert not config(hard, expert).reproducible
    assert config(hard, timed_search).timed_bots() == ["timed"]
    assert config({"name": "f", "kind": "factory", "factory": "math:pi"}, hard).reproducible


def test_a_learned_evaluation_without_a_model_is_refused_before_any_game(tmp_path):
    """A search bot asking for a learned model the setting lacks would otherwise fail at its first move,
    inside a worker process, with a traceback: the runner names the bot and the missing model instead."""
    from orrery.search.tournament import run_tournament

    results = tmp_path / "no-model.jsonl"
    config = config_from_dict(
        {
            "game": "tiny_epic_galaxies",
            "variant": "base",
            "players": 3,
            "format": "gauntlet",
            "baseline": "handwritten",
            "sets": 1,
            "results": str(results),
            "bots": [
                {"name": "handwritten", "kind": "turn", "config": "ismcts-teg@3"},
                {
                    "name": "learned",
                    "kind": "turn",
                    "config": "ismcts-teg@3",
                    "overrides": {"evaluation": "learned"},
                },
            ],
            "budget": {"iterations": 50},
        }
    )
    with pytest.raises(ConfigError, match=r"bot 'learned': .*no learned evaluation model .*base, 3 players"):
        run_tournament(config, progress=False)
    assert not results.exists()
