"""Issue 31, part 5 (and issue 25, part 2 for hard): the expert and hard levels play the game's learned
preset where its shipped model proved stronger at equal time (orrery.search.LEARNED_LEVELS), and the
game's default_search everywhere else, in the service (AI seats, SuggestMove with a level), in
tournaments' `level` bots and in the benchmarks."""

from __future__ import annotations

import pytest

from orrery.search import LEARNED_LEVELS, LEVELS, default_config, learned_preset, level_config, shipped_models
from orrery.search.tournament._config import BotSpec, BudgetSpec
from orrery.search.tournament._play import build_bot
from orrery.service import _positions


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_hard_and_expert_play_the_learned_preset_only_where_it_is_listed(level):
    assert level_config(level, "take_the_galaxy", "standard", 2).label == "ismcts-ttg-learned@1"
    assert level_config(level, "tiny_epic_galaxies", "base", 2).label == "ismcts-teg-learned@2"
    # Beyond the Black's model drew at equal time near medium's budget but was far stronger at hard's
    # (docs/strength.md, session 6)
    assert level_config(level, "tiny_epic_galaxies", "beyond_the_black", 2).label == "ismcts-teg-learned@2"
    for game, variant, players in [
        ("take_the_galaxy", "standard", 3),  # no model at 3 players
        ("tiny_epic_galaxies", "beyond_the_black", 3),  # no model at 3 players
        ("trian", "full", 3),  # its model lost at equal time: not listed
    ]:
        assert level_config(level, game, variant, players) == default_config("ismcts", game)
    # Trian full, 2 players: a model stronger at small budgets only, so hard (3,000 iterations a turn)
    # plays it and expert (2,000 ms a turn) does not (docs/strength.md, session 12)
    trian = level_config(level, "trian", "full", 2).label
    assert trian == ("ismcts-trian-learned@2" if level == "hard" else "ismcts-trian@1")
    assert level_config(None, "take_the_galaxy", "standard", 2) == default_config("ismcts", "take_the_galaxy")


def test_every_listed_setting_has_a_usable_model_and_real_levels():
    usable = {(m.game, m.variant, m.players) for m in shipped_models()}
    for (game, variant, players), levels in LEARNED_LEVELS.items():
        assert (game, variant, players) in usable and learned_preset(game) is not None
        assert levels and set(levels) <= set(LEVELS)


def test_a_missing_or_refused_model_falls_back_to_the_default(monkeypatch):
    from orrery.search import _level_presets

    def refuse(config, game, variant, players):
        raise ValueError("no usable model (test)")

    monkeypatch.setattr(_level_presets, "check_evaluation", refuse)
    assert level_config("expert", "take_the_galaxy", "standard", 2).label == "ismcts-ttg@2"


def test_the_service_and_tournaments_resolve_a_level_the_same_way():
    expert_2p = _positions.search_config("", "", "take_the_galaxy", level="expert", setting=("standard", 2))
    assert expert_2p.label == "ismcts-ttg-learned@1"
    # A named config, or the server's --config, always wins over the level's preset.
    named = _positions.search_config(
        "ismcts-ttg@2", "", "take_the_galaxy", level="expert", setting=("standard", 2)
    )
    assert named.label == "ismcts-ttg@2"
    server = _positions.search_config(
        "", "test-fast", "take_the_galaxy", level="expert", setting=("standard", 2)
    )
    assert server.label.startswith("test-fast@")
    spec = BotSpec(name="expert", kind="level", level="expert")
    budget = BudgetSpec(iterations=100)
    assert build_bot(spec, budget, "take_the_galaxy", setting=("standard", 2)).config.label == expert_2p.label
    assert build_bot(spec, budget, "take_the_galaxy", setting=("standard", 3)).config.label == "ismcts-ttg@2"


def test_the_listed_levels_are_exactly_the_measured_ones():
    expected = {
        ("take_the_galaxy", "standard", 2): frozenset({"hard", "expert"}),
        ("tiny_epic_galaxies", "base", 2): frozenset({"hard", "expert"}),
        ("tiny_epic_galaxies", "beyond_the_black", 2): frozenset({"hard", "expert"}),
        ("trian", "full", 2): frozenset({"hard"}),
    }
    assert dict(LEARNED_LEVELS) == expected


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_weaker_levels_keep_the_default(level):
    # Their budgets and tolerances were measured with the hand-written evaluation (docs/strength.md).
    assert level_config(level, "take_the_galaxy", "standard", 2).label == "ismcts-ttg@2"
    assert level_config(level, "tiny_epic_galaxies", "base", 2).label == "ismcts-teg@3"
    assert level_config(level, "tiny_epic_galaxies", "beyond_the_black", 2).label == "ismcts-teg@3"
