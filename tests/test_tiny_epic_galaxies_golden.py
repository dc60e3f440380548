"""Golden playthroughs: seeded games with the default policy end exactly as recorded. A change here means
the rules engine (or its random streams) changed behaviour: check it against the rules doc, then update."""

import pytest

from orrery.core_ext import load_game

GOLDEN = [
    (1, 186, [3.0], [0.0], 10),
    (2, 585, [16.0, 25.0], [0.0, 1.0], 15),
    (3, 799, [15.0, 11.0, 25.0], [0.5, 0.0, 1.0], 13),
    (5, 1426, [3.0, 11.0, 8.0, 22.0, 10.0], [0.0, 0.75, 0.25, 1.0, 0.5], 12),
]


@pytest.mark.parametrize("players,moves,scores,returns,rounds", GOLDEN)
def test_golden_policy_playthrough(players, moves, scores, returns, rounds):
    st = load_game("tiny_epic_galaxies", players=players).new_initial_state(seed=2026)
    assert st.playout(seed=7, use_policy=True) == moves
    assert st.scores() == scores and st.returns() == returns
    assert st.to_dict()["state"]["round"] == rounds
    assert st.game.state_from_json(st.to_json()) == st
