"""Issue 19 part 1 on known positions: the contract additions OpenSpiel users need (the random-game
checks of every game are in tests/conformance.py)."""

import copy

import pytest

from orrery.core_ext import load_game

BET, PASS = 1, 0


def kuhn_after(moves, players=2, variant=None, seed=3):
    state = load_game("kuhn", players=players, variant=variant).new_initial_state(seed)
    for action in moves:
        state.apply(action)
    return state


def test_kuhn_bounds():
    game = load_game("kuhn", players=3)
    assert (game.num_distinct_actions, game.max_game_length, game.max_legal_actions) == (2, 9, 2)


def test_two_player_utilities_are_win_loss_tie():
    state = kuhn_after([BET, PASS])  # seat 1 folds: seat 0 wins
    assert state.returns() == [1.0, 0.0]
    assert state.utilities() == [1.0, -1.0]


def test_three_player_rank_utilities_count_opponents_beaten_minus_ahead():
    state = kuhn_after([BET, PASS, PASS], players=3)  # both others fold: seat 0 first, 1 and 2 tie last
    assert state.ranks()[0] == 0 and state.ranks()[1] == state.ranks()[2]
    assert state.utilities() == [1.0, -0.5, -0.5]


def test_team_utilities_are_the_teams():
    state = kuhn_after([BET, PASS, PASS, PASS], players=4, variant="teams")
    utilities = state.utilities()
    assert utilities[0] == utilities[2] == -utilities[1] == -utilities[3]
    assert abs(utilities[0]) == 1.0


def test_solo_utility_is_the_return():
    state = load_game("take_the_galaxy", players=1).new_initial_state(5)
    state.playout(seed=5)
    assert state.utilities() == state.returns()


def test_describe_action_labels_legal_and_illegal_ids():
    state = kuhn_after([BET])
    assert state.describe_action(BET) == "call" and state.describe_action(PASS) == "fold"
    waiting = state.observation(0)  # not seat 0's turn: nothing is legal for it
    assert waiting.describe_action(BET) == "bet or call (not legal here)"
    finished = kuhn_after([BET, BET])
    assert finished.describe_action(PASS) == "check or fold (not legal here)"
    with pytest.raises(ValueError):
        state.describe_action(2)
    with pytest.raises(TypeError):
        state.describe_action("1")


def test_describe_action_names_the_kind_of_an_illegal_trian_id():
    state = load_game("trian", players=2, variant="ships").new_initial_state(1)
    assert state.describe_action(20000 + 5 * 84 + 6) == "ship_move #426 (not legal here)"
    assert state.describe_action(247) == "unused id 247 (not legal here)"
    with pytest.raises(ValueError):  # the ships variant has no skill or racial ids
        state.describe_action(40000)
    full = load_game("trian", players=2, variant="full").new_initial_state(1)
    assert full.describe_action(209999) == "racial action (Xemh) #19999 (not legal here)"


def test_trian_action_range_per_variant():
    ranges = {
        v: load_game("trian", players=2, variant=v).num_distinct_actions
        for v in ("beginner", "ships", "full")
    }
    assert ranges == {"beginner": 2080, "ships": 37056, "full": 210000}


def test_copies_are_independent_clones():
    state = kuhn_after([])
    dup = copy.deepcopy(state)
    dup.apply(BET)
    assert state.legal_actions() == [PASS, BET] and state != dup
    assert copy.copy(state) == state
    obs = state.observation(1)
    assert copy.deepcopy(obs) == obs and copy.copy(obs).player == 1


def test_info_key_separates_seats_and_information():
    state = kuhn_after([])
    a, b = state.observation(0), state.observation(1)
    assert a.info_key() != b.info_key()
    assert a.info_key().startswith(b"kuhn/standard/2/0:")
    assert a.info_key() == a.determinize(9).observation(0).info_key()
    later = kuhn_after([BET]).observation(0)
    assert later.info_key() != a.info_key()
