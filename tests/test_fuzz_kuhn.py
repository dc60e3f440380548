"""Fuzzing the Kuhn poker JSON loaders (issue 12, part 3): mutated states and observations from random
deals in every variant and at every player count are refused with StateFormatError or load into a
position that round-trips and plays to the end (tests/fuzz_json.py; docs/fuzzing.md for the
AddressSanitizer run)."""

from __future__ import annotations

from functools import cache

from fuzz_json import (
    Seed,
    check_observation_input,
    check_one_mutation,
    check_state_input,
    fuzz_settings,
    random_positions,
    words_of,
)
from hypothesis import given
from hypothesis import strategies as st

from orrery.core_ext import game_info, load_game


@cache
def seeds() -> tuple[tuple[Seed, ...], tuple[Seed, ...]]:
    """(state seeds, observation seeds): every position of a few seeded deals per player count."""
    states: list[Seed] = []
    observations: list[Seed] = []
    info = game_info("kuhn")
    for variant, players in [(v, n) for v in info.variants for n in info.players_for(v)]:
        game = load_game("kuhn", players=players, variant=variant)
        positions = random_positions(game, range(4), lambda s: s.to_json())
        full = [p.to_dict() for p in positions]
        seen = [p.observation(seat).to_dict() for p in positions for seat in range(players)]
        words = words_of(full + seen)
        states += [Seed(d, tuple(full), words, lambda d, s, g=game: check_state_input(g, d, s)) for d in full]
        observations += [
            Seed(d, tuple(seen), words, lambda d, s, g=game: check_observation_input(g, d, s)) for d in seen
        ]
    return tuple(states), tuple(observations)


def test_the_unmutated_seeds_load_and_play_to_the_end():
    states, observations = seeds()
    for seed in states + observations:
        assert seed.check(seed.document, 1)


@fuzz_settings(default_examples=400)
@given(st.data())
def test_mutated_states_are_refused_or_play_to_the_end(data):
    check_one_mutation(data, seeds()[0])


@fuzz_settings(default_examples=400)
@given(st.data())
def test_mutated_observations_are_refused_or_play_to_the_end(data):
    check_one_mutation(data, seeds()[1])
