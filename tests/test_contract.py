"""Contract v2: five seats, game-defined outcomes (teams), per-game metadata and default search presets."""

import pytest

from orrery.core_ext import UnknownGameError, game_info, load_game, registered_games
from orrery.search import Budget, default_config, get_config, make_bot, search_observation
from orrery.search._bench import bench_strength
from orrery.search.tournament._config import config_from_dict
from orrery.search.tournament._schedule import pairings

BET, PASS = 1, 0


def test_every_game_states_its_metadata():
    for info in registered_games():
        assert 1 <= info.min_players <= info.max_players <= 5
        assert info.outcome in ("ranks", "solo", "team")
        assert info.hidden_information
        get_config(info.default_search)  # a real preset
        for variant, counts in info.variant_player_counts:
            assert variant in info.variants and set(counts) <= set(info.player_counts)


def test_each_game_has_its_own_default_search_preset():
    assert game_info("trian").default_search == "ismcts-trian@1"  # tuned on 2-player Trian
    assert game_info("kuhn").default_search == "ismcts@1"
    assert default_config("ismcts", "kuhn").label == "ismcts@1"
    assert make_bot("ismcts", game="trian").config.label == "ismcts-trian@1"
    assert make_bot("ismcts", game="kuhn").config.label == "ismcts@1"
    assert make_bot("pimc", game="kuhn").config.label == get_config("pimc").label


def test_the_space_games_default_to_their_measured_presets():
    # Chosen by SPRT at equal time per turn (docs/search.md, "Per-game defaults").
    assert game_info("take_the_galaxy").default_search == "ismcts-ttg@2"
    assert game_info("tiny_epic_galaxies").default_search == "ismcts-teg@3"
    assert default_config("ismcts", "tiny_epic_galaxies").label == "ismcts-teg@3"
    assert make_bot("ismcts", game="tiny_epic_galaxies").config.label == "ismcts-teg@3"


def test_kuhn_seats_five_and_plays_to_the_end():
    game = load_game("kuhn", players=5)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        state.playout(seed=seed)
        returns = state.returns()
        assert len(returns) == 5 and all(0.0 <= r <= 1.0 for r in returns)
        assert sum(state.scores()) == 0  # chips are only moved between seats


def test_the_highest_card_calls_a_bet_at_five_seats():
    game = load_game("kuhn", players=5)
    for seed in range(200):
        state = game.new_initial_state(seed=seed)
        state.apply(BET)
        if state.to_dict()["state"]["cards"][1] == 5:  # the highest of 6 cards
            break
    budget = Budget(iterations=4000)
    result = search_observation(state.observation(1), get_config("test-fast"), budget, seed=1)
    assert result.best_label == "call"


def test_the_teams_variant_needs_four_seats():
    assert game_info("kuhn").players_for("teams") == (4,)
    with pytest.raises(UnknownGameError, match="players not supported"):
        load_game("kuhn", players=3, variant="teams")
    assert load_game("kuhn", players=4, variant="teams").seat_teams() == (0, 1, 0, 1)
    assert load_game("kuhn", players=4).seat_teams() == (0, 1, 2, 3)


def test_teammates_share_their_team_outcome_and_rank():
    game = load_game("kuhn", players=4, variant="teams")
    outcomes = set()
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        state.playout(seed=seed)
        scores, returns, ranks = state.scores(), state.returns(), state.ranks()
        team = [scores[0] + scores[2], scores[1] + scores[3]]
        assert returns[0] == returns[2] and returns[1] == returns[3]
        assert ranks[0] == ranks[2] and ranks[1] == ranks[3]
        assert returns[0] + returns[1] == 1.0
        assert returns[0] == (1.0 if team[0] > team[1] else 0.5 if team[0] == team[1] else 0.0)
        outcomes.add(returns[0])
    assert outcomes == {0.0, 1.0}  # both teams win some deals


def test_a_team_tournament_seats_each_bot_as_a_whole_team():
    config = config_from_dict(
        {
            "game": "kuhn",
            "variant": "teams",
            "players": 4,
            "format": "round-robin",
            "sets": 1,
            "budget": {"iterations": 50},
            "bots": [{"name": "a", "kind": "random"}, {"name": "b", "kind": "greedy"}],
        }
    )
    (pairing,) = pairings(config)
    assert pairing.seatings == (("a", "b", "a", "b"), ("b", "a", "b", "a"))


def test_the_strength_bench_plays_and_scores_a_whole_team():
    report = bench_strength("kuhn", 4, bot="greedy", baseline="random", games=8, seed=3, variant="teams")
    assert report["wins"] + report["draws"] + report["losses"] == 8
