"""search/tournament/examples/ttg_seat_order.py (Take The Galaxy's seat order at any player count) and the
counterfactual patches of ttg_seat_experiment.py, on small synthetic input: one seeded random 3-player
game, replayed as a results record would be."""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

import pytest

from orrery.core_ext import load_game

EXAMPLES = Path(__file__).resolve().parents[1] / "search" / "tournament" / "examples"
sys.path.insert(0, str(EXAMPLES))

import ttg_seat_experiment  # noqa: E402
import ttg_seat_order  # noqa: E402

PLAYERS = 3
DEAL = 5


def _random_game(seed: int) -> tuple[list[int], object]:
    """A whole game of seeded uniformly random choices, which end the turn one time in four so that the
    game does not idle: its actions and final state."""
    game = load_game("take_the_galaxy", players=PLAYERS, variant="standard")
    state = game.new_initial_state(seed=DEAL)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        legal = list(state.legal_actions())
        others = [a for a in legal if a != 0]
        action = 0 if (0 in legal and (not others or rng.random() < 0.25)) else rng.choice(others)
        actions.append(action)
        state.apply(action)
    return actions, state


@pytest.fixture(scope="module")
def replayed():
    actions, final = _random_game(11)
    game = load_game("take_the_galaxy", players=PLAYERS, variant="standard")
    return ttg_seat_order.Replay().play(game, DEAL, actions), actions, final, game


def test_every_seat_gets_eleven_turns_and_the_last_seat_ends_the_game(replayed):
    tally, _, _, _ = replayed
    assert tally.turns == [11, 11, 11]
    assert tally.last_mover == PLAYERS - 1


def test_the_scores_and_their_parts_are_the_final_state_s(replayed):
    tally, _, final, _ = replayed
    assert tally.score == list(final.scores())
    assert [sum(p) for p in tally.parts] == tally.score


def test_the_round_standings_are_relative_to_the_table_and_end_at_the_final_scores(replayed):
    tally, _, final, _ = replayed
    for rd in range(1, 12):
        assert sum(tally.round_lead[(s, rd)] for s in range(PLAYERS)) == pytest.approx(0.0)
    mean = statistics.mean(final.scores())
    assert [tally.round_lead[(s, 11)] for s in range(PLAYERS)] == pytest.approx(
        [x - mean for x in final.scores()]
    )


def test_the_takes_are_counted_once_each_by_kind_sector_round_and_reveal(replayed):
    tally, actions, _, game = replayed
    state = game.new_initial_state(seed=DEAL)
    expected = [0] * PLAYERS
    for action in actions:
        if state.action_to_struct(action)["kind"] in ttg_seat_order.TAKES:
            expected[state.current_player] += 1
        state.apply(action)
    assert sum(expected) > 0  # the random game took cards, so the counts below are tested
    for seat in range(PLAYERS):
        assert sum(tally.taken[(seat, k)] for k in ttg_seat_order.TAKES.values()) == expected[seat]
        assert sum(tally.taken_sector[(seat, k)] for k in ttg_seat_order.SECTORS) == expected[seat]
        assert sum(tally.round_takes[(seat, rd)] for rd in range(1, 12)) == expected[seat]
        assert (
            sum(tally.taken_by_reveal[(seat, c)] for c in ("first", "other", "last round")) == expected[seat]
        )
        assert len(tally.taken_age[seat]) == expected[seat]
        assert all(age >= 0 for age in tally.taken_age[seat])
    assert len(tally.last_turn) == PLAYERS  # one entry for each seat's last turn


def test_the_windows_follow_the_stacked_deck(replayed):
    """The numbered set-up stacks Core over Expanse over Fringe: nobody sees a Fringe card before the
    game's last two rounds, and every seat sees one in its last turn (the deck ends with the Fringe)."""
    tally, _, _, _ = replayed
    for seat in range(PLAYERS):
        assert all(tally.window_fringe[(seat, rd)] == 0 for rd in range(1, 10))
        assert tally.window_fringe[(seat, 11)] >= 1
        assert all(tally.window_best[(seat, rd)] >= 1 for rd in range(1, 12))


def test_an_event_out_at_the_start_counts_for_every_seat_s_first_turn(replayed):
    tally, _, _, game = replayed
    explored = [e["card"] for e in game.new_initial_state(seed=DEAL).to_dict()["state"]["explored"]]
    events = set(ttg_seat_order.Replay().events)
    for card in set(explored) & events:  # still out in every seat's first turn unless taken or dropped
        assert sum(tally.event_turns[(s, card)] for s in range(PLAYERS)) >= 1
    assert all(card in events for _, card in tally.event_turns)


def test_win_shares_split_a_shared_first_place():
    assert ttg_seat_order.win_shares([0, 0, 1]) == [0.5, 0.5, 0.0]
    assert ttg_seat_order.win_shares([2, 0, 1, 3]) == [0.0, 1.0, 0.0, 0.0]


def test_the_report_prints_every_seat(replayed, capsys):
    tally, _, final, _ = replayed
    report = ttg_seat_order.Report()
    ranks = list(final.ranks())
    for pairing, seats in enumerate((["a", "b", "b"], ["b", "a", "a"])):
        record = {"ranks": ranks, "seats": seats, "pairing": 0, "set": pairing}
        report.add(record, tally)
    report.print()
    out = capsys.readouterr().out
    assert "2 games, 3 players" in out
    assert all(f"seat {s} wins" in out for s in range(PLAYERS))
    assert "turns per seat: [(11, 11, 11)]" in out
    assert "after round 10 (before anyone's last turn)" in out


def test_files_with_the_same_set_numbers_stay_separate_sets(replayed):
    tally, _, final, _ = replayed
    report = ttg_seat_order.Report()
    record = {"ranks": list(final.ranks()), "seats": ["a", "b", "b"], "pairing": 0, "set": 0}
    report.add(record, tally, source=0)
    report.add(record, tally, source=1)
    assert len(report.sets) == 2


def test_the_leader_is_the_seat_strictly_ahead():
    tally = ttg_seat_order.GameTally(players=3)
    tally.round_lead.update({(0, 10): -1.0, (1, 10): 2.0, (2, 10): -1.0})
    assert ttg_seat_order.leader(tally, 10) == 1
    tally.round_lead.update({(0, 10): 2.0, (1, 10): 2.0, (2, 10): -4.0})
    assert ttg_seat_order.leader(tally, 10) == -1


@pytest.mark.parametrize("name", sorted(ttg_seat_experiment.EXPERIMENTS))
def test_every_experiment_patches_the_sources_exactly_once(name):
    """An experiment whose text no longer matches the engine would stop the script; this says so before
    a run does."""
    _, patches = ttg_seat_experiment.EXPERIMENTS[name]
    core = Path(__file__).resolve().parents[1] / "core_ext" / "take_the_galaxy"
    for file in {file for file, _, _ in patches}:
        text = (core / file).read_text()
        assert ttg_seat_experiment._patched(name, text, file, patches) != text
