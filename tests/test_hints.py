"""Hints in the game's terms (search._hints, issue 25 part 5): present, in range and consistent for every
game and seat count kind; reproducible from the seed; the same for two true states the seat cannot tell
apart; and the terminal client's text (service._hint_text)."""

from __future__ import annotations

import pytest
from conformance import trajectory

from orrery.core_ext import load_game
from orrery.search import Budget, build_hints, default_config, search_observation
from orrery.search._bench import advance_randomly
from orrery.search._hints import UNKNOWN_SEAT, hooks_for
from orrery.service._hint_text import amount, changes_text, gap_text, hint_lines, outcome_text, turns_text
from orrery.v1 import orrery_pb2 as pb

# (game, variant, players): every game, two- and many-seat games, teams and solo.
SETTINGS = [
    ("kuhn", "standard", 2),
    ("kuhn", "teams", 4),
    ("trian", "full", 2),
    ("trian", "beginner", 4),
    ("take_the_galaxy", "standard", 2),
    ("take_the_galaxy", "team", 4),
    ("take_the_galaxy", "standard", 1),
    ("tiny_epic_galaxies", "base", 3),
    ("tiny_epic_galaxies", "beyond_the_black", 2),
    ("tiny_epic_galaxies", "beyond_the_black_rogue_1", 1),
]
ITERATIONS = 200


def position(name: str, variant: str, players: int, seed: int = 3, moves: int = 25):
    state = load_game(name, players=players, variant=variant).new_initial_state(seed=seed)
    return advance_randomly(state, seed, moves if name != "kuhn" else 1)


def hints_for(observation, seed: int = 5):
    result = search_observation(
        observation, default_config("ismcts", observation.game.name), Budget(iterations=ITERATIONS), seed=seed
    )
    return result, build_hints(observation, result, [a.action for a in result.actions[:4]], seed=seed)


@pytest.mark.parametrize(("name", "variant", "players"), SETTINGS)
def test_hints_are_present_in_range_and_consistent(name, variant, players):
    state = position(name, variant, players)
    seat = state.current_player
    observation = state.observation(seat)
    result, hints = hints_for(observation)
    stats = {a.action: a for a in result.actions}
    assert hints.seat == seat and hints.players == players and hints.score_unit == hooks_for(name).score_unit
    assert [m.action for m in hints.moves][:1] == [result.best_action]
    assert {m.action for m in hints.moves} == {a.action for a in result.actions[:4]}
    tally_names = set(hooks_for(name).tallies(observation.to_dict()["state"], seat)) | {"score"}
    for move in hints.moves:
        assert move.rollouts == hints.rollouts_per_move >= 8
        if players > 1 or hooks_for(name).solo_win:
            assert move.win_chance is not None and 0.0 <= move.win_chance <= 1.0
        else:
            assert move.win_chance is None
        if players > 1:
            assert move.expected_place is not None and 1.0 <= move.expected_place <= players
        else:
            assert move.expected_place is None
        best = hints.for_action(result.best_action)
        assert move.score_behind == pytest.approx(best.expected_score - move.expected_score)
        assert move.value_behind == pytest.approx(
            stats[best.action].mean_reward - stats[move.action].mean_reward
        )
        assert {t.name for t in move.this_move} == {t.name for t in move.this_turn} == tally_names
        line = stats[move.action].principal_variation
        assert sum(len(g.labels) for g in move.turns) == len(line), "the groups cover the line"
        assert move.turns[0].seat == seat and move.turns[0].seat_name == "you"
        assert all(a.seat != b.seat for a, b in zip(move.turns, move.turns[1:], strict=False)), (
            "one group a turn"
        )
        assert all(g.seat_name == ("later" if g.seat == UNKNOWN_SEAT else g.seat_name) for g in move.turns)
    best = hints.for_action(result.best_action)
    assert best.score_behind == 0.0 and best.value_behind == 0.0 and best.score_behind_error == 0.0
    assert all(m.score_behind_error >= 0.0 for m in hints.moves)
    assert sum(len(g.labels) for g in hints.principal_variation) == len(result.principal_variation)


def test_a_move_that_gains_shows_it_this_move():
    """Trian's research draws a mineral (worth 3 credits of score): the tally says so."""
    state = position("trian", "full", 4, seed=2, moves=20)  # research or end phase 3
    observation = state.observation(state.current_player)
    result, hints = hints_for(observation, seed=1)
    research = [m for m in hints.moves if observation.action_label(m.action).startswith("research")]
    changes = {t.name: t.change for t in research[0].this_move}
    assert changes["minerals"] == 1.0 and changes["score"] == 3.0 and changes["credits"] == 0.0


@pytest.mark.parametrize(("name", "variant", "players"), SETTINGS)
def test_hints_are_reproducible(name, variant, players):
    observation = position(name, variant, players).observation(
        position(name, variant, players).current_player
    )
    a, b = hints_for(observation)[1].to_dict(), hints_for(observation)[1].to_dict()
    a.pop("elapsed_s"), b.pop("elapsed_s")
    assert a == b


@pytest.mark.parametrize(("name", "variant", "players"), SETTINGS)
def test_a_hint_is_the_same_for_states_the_seat_cannot_tell_apart(name, variant, players):
    """The conformance trajectories' true states and their twins (determinizations of the seat's view,
    which differ in what the seat cannot see) give the seat identical hints."""
    game = load_game(name, players=players, variant=variant)
    compared = 0
    for step, state in enumerate(trajectory(game, seed=9, max_steps=40)):
        if state.is_terminal() or (step % 10 != 5 and name != "kuhn"):  # Kuhn: a few steps in all
            continue
        seat = state.current_player
        twin = next(
            (t for k in range(40) if (t := state.determinize(seat, seed=k)) != state), None
        )  # fmt: skip
        if twin is None:
            continue
        assert twin.observation(seat) == state.observation(seat)
        a = hints_for(state.observation(seat), seed=step)[1].to_dict()
        b = hints_for(twin.observation(seat), seed=step)[1].to_dict()
        a.pop("elapsed_s"), b.pop("elapsed_s")
        assert a == b
        compared += 1
    if compared == 0:
        pytest.skip("no position with hidden information on this trajectory")


def test_a_time_limit_keeps_the_minimum_rollouts():
    observation = position("trian", "full", 2).observation(position("trian", "full", 2).current_player)
    result = search_observation(
        observation, default_config("ismcts", "trian"), Budget(iterations=100), seed=1
    )
    hints = build_hints(observation, result, [a.action for a in result.actions[:3]], seed=1, time_limit_s=0.0)
    assert hints.rollouts_per_move == 8 and all(m.rollouts == 8 for m in hints.moves)


# ---------------------------------------------------------------- the terminal client's text


def answer_with_hints() -> pb.SuggestMoveResponse:
    def hint(**fields):
        return pb.MoveHint(
            this_move=[pb.Tally(name="credits", change=3.0), pb.Tally(name="minerals", change=1.0)],
            this_turn=[
                pb.Tally(name="credits", change=4.875),
                pb.Tally(name="emissaries placed", change=0.0),
            ],
            turns=[
                pb.TurnGroup(seat=0, seat_name="you", labels=["research", "end phase 3"]),
                pb.TurnGroup(seat=1, seat_name="seat 1", labels=["end phase 1"]),
            ],
            rollouts=32,
            **fields,
        )

    return pb.SuggestMoveResponse(
        candidates=[
            pb.Candidate(
                action=pb.Action(id=4, label="research"), value=0.557, visit_share=0.73,
                hint=hint(win_chance=0.44, expected_place=1.56, expected_score=130.2),
            ),
            pb.Candidate(
                action=pb.Action(id=9, label="end phase 3"), value=0.51, visit_share=0.2,
                hint=hint(win_chance=0.31, expected_place=1.69, expected_score=127.1, score_behind=3.1,
                          value_behind=0.047),
            ),
            pb.Candidate(
                action=pb.Action(id=2, label="move the Rogue"), value=0.50, visit_share=0.07,
                hint=hint(win_chance=0.45, expected_place=1.55, expected_score=131.0, score_behind=-0.8,
                          value_behind=0.057),
            ),
        ],
        stats=pb.SearchStats(iterations=1200),
        hints=pb.HintSummary(seat=0, players=2, sides=2, score_unit="credits", rollouts_per_move=32),
    )  # fmt: skip


def test_the_terminal_hint_reads_in_the_games_terms():
    lines = hint_lines(answer_with_hints())
    assert lines == [
        "hint (1200 iterations, 32 rollouts a move):",
        "  best: research",
        "    win chance 44%, final score about 130 credits  (value 0.557, 73% of visits)",
        "    this move: +3 credits, +1 minerals",
        "    by the end of your turn: +4.9 credits",
        "    line: you: research, end phase 3 | seat 1: end phase 1",
        "  end phase 3: about 3 credits behind the best; win chance 31%; searched value 0.047 lower"
        "  (value 0.510, 20% of visits)",
        "  move the Rogue: about 1 credit ahead of the best in rollouts (the search rates it lower); "
        "win chance 45%; searched value 0.057 lower  (value 0.500, 7% of visits)",
    ]


def test_hint_text_pieces():
    assert gap_text(0.3, "points") == "about as good as the best"
    assert gap_text(2.6, "renown") == "about 3 renown behind the best"
    assert gap_text(0.7, "points") == "about 1 point behind the best"
    assert gap_text(4.0, "credits", error=2.5) == "about as good as the best"  # within the rollouts' noise
    groups = [pb.TurnGroup(seat=s % 2, seat_name=f"seat {s % 2}", labels=["a"]) for s in range(5)]
    assert turns_text(groups) == "seat 0: a | seat 1: a | seat 0: a | seat 1: a | …"
    later = [groups[0], pb.TurnGroup(seat=-1, seat_name="later", labels=["242", "240"])]
    assert turns_text(later) == "seat 0: a | then 2 more steps"
    assert amount(1.0, "chips") == "1 chip" and amount(12.4, "points") == "12 points"
    assert changes_text([pb.Tally(name="energy", change=0.01)]) == "no visible change"
    many = pb.MoveHint(win_chance=0.2, expected_place=2.25)
    assert outcome_text(many, sides=4, players=4) == "expected place 2.2 of 4"
    assert outcome_text(many, sides=2, players=4) == "win chance 20%"
    assert outcome_text(pb.MoveHint(expected_score=20.0), sides=1, players=1) == ""


def test_bench_hints_scores_predictions_against_outcomes():
    from orrery.search._bench_hints import bench_hints

    report = bench_hints("kuhn", 2, games=6, iterations=200, every=1, seed=1)
    overall = report["overall"]
    assert overall["hints"] >= 6
    assert 0.0 <= overall["win_brier"] <= 1.0 and 0.0 <= overall["win_brier_constant"] <= 1.0
    assert 0.0 <= overall["place_mae"] <= 1.0 and overall["score_mae"] >= 0.0
    assert set(report["by_part_of_game"]) == {"first third", "second third", "last third"}
