"""Fuzzing the Trian JSON loaders (issue 12, part 3): mutated states and observations from random games of
every variant, at 2 to 4 seats and many points of the game, are refused with StateFormatError or load into
a position that round-trips and plays to the end (tests/fuzz_json.py; docs/fuzzing.md for the
AddressSanitizer run of the same tests)."""

from __future__ import annotations

import bisect
import json
from functools import cache

import pytest
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

from orrery.core_ext import StateFormatError, load_game

GAMES = (("beginner", 2), ("beginner", 4), ("ships", 3), ("full", 2), ("full", 3), ("full", 4))
# the first action id of each kind of decision (docs/rules/trian.md, section 10): a cheap phase key
ACTION_KINDS = (0, 240, 242, 243, 584, 600, 616, 618, 620, 704, 788, 1024, 10000, 20000, 40000, 50000)


def per_emissary_decisions():
    """Beginner positions random games seldom reach (tests/test_trian.py): a send_home choice after a
    tied clash of two seats with two emissaries each, and a take-back after its first pick."""
    from test_trian import Scenario, two_against_two

    faces = ["planet-end", "planet-link", "planet-link", "planet-link", "planet-end"]
    sc = Scenario(faces)
    two_against_two(sc)
    sc.fix_dice([3, 3])
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    taking_back = Scenario(faces)
    for x, kind in ((0, "expedition"), (1, "pass"), (2, "expedition"), (3, "pass")):
        taking_back.turn(x, 0, faces[x], kind, **({"right": "P"} if x == 0 else {"left": "P", "right": "P"}))
    taking_back.place(4, 0, "planet-end", left="P")
    taking_back.act("expedition")
    taking_back.act("take_back", x=0, y=0)
    return sc.game, [sc.state, taking_back.state]


def check_state_as_played(game, document: dict, seed: int) -> bool:
    """check_state_input, and (issue 26, part 4) an accepted state is one play could hold: its JSON loads
    back to the same JSON, and the re-loaded copy offers the same decisions."""
    try:
        state = game.state_from_json(json.dumps(document))
    except StateFormatError:
        return False
    text = state.to_json()
    again = game.state_from_json(text)
    assert again.to_json() == text, "re-serialising a loaded state gives the same JSON"
    assert again.legal_actions() == state.legal_actions(), "a re-loaded copy offers the same decisions"
    if not state.is_terminal():
        assert again.current_player == state.current_player
    return check_state_input(game, document, seed)


def decision_kind(state) -> tuple:
    legal = state.legal_actions()
    first, last = bisect.bisect(ACTION_KINDS, min(legal)), bisect.bisect(ACTION_KINDS, max(legal))
    return (first, last, len(legal) > 1)


@cache
def seeds() -> tuple[tuple[Seed, ...], tuple[Seed, ...]]:
    """(state seeds, observation seeds): positions of seeded random games, one per kind of decision."""
    states: list[Seed] = []
    observations: list[Seed] = []
    built = [(load_game("trian", players=p, variant=v), None) for v, p in GAMES] + [per_emissary_decisions()]
    for game, built_positions in built:
        players = game.num_players
        positions = built_positions or random_positions(game, range(3), decision_kind)
        full = [p.to_dict() for p in positions]
        seen = [
            p.observation(seat).to_dict()
            for p in positions
            for seat in {max(p.current_player, 0), (max(p.current_player, 0) + 1) % players}
        ]
        words = words_of(full + seen)
        states += [
            Seed(d, tuple(full), words, lambda d, s, g=game: check_state_as_played(g, d, s)) for d in full
        ]
        observations += [
            Seed(d, tuple(seen), words, lambda d, s, g=game: check_observation_input(g, d, s)) for d in seen
        ]
    return tuple(states), tuple(observations)


def test_the_unmutated_seeds_load_and_play_to_the_end():
    states, observations = seeds()
    assert len(states) > 40 and len(observations) > 40
    for seed in states[::7] + observations[::7]:
        assert seed.check(seed.document, 1)


@fuzz_settings(default_examples=500)
@given(st.data())
def test_mutated_states_are_refused_or_play_to_the_end(data):
    check_one_mutation(data, seeds()[0])


@fuzz_settings(default_examples=500)
@given(st.data())
def test_mutated_observations_are_refused_or_play_to_the_end(data):
    check_one_mutation(data, seeds()[1])


@fuzz_settings(default_examples=300)
@given(which=st.integers(0, 10**6), left=st.integers(0, 12), taken=st.integers(0, 12))
def test_mutated_phase_3_action_counts_are_refused_unless_some_bonuses_give_them(which, left, taken):
    """Issue 26: `this_turn.actions_left` / `actions_taken` set to any small counts load only where play can
    hold them (none before phase 3; from phase 3 on 1 + 2 per outpost bonus, so an odd sum), and then
    re-serialise to themselves and play on."""
    states, _ = seeds()
    seed = states[which % len(states)]
    document = json.loads(json.dumps(seed.document))
    document["state"]["this_turn"].update(actions_left=left, actions_taken=taken)
    game = load_game("trian", players=document["players"], variant=document["variant"])
    if not check_state_as_played(game, document, which):
        return
    phase = document["state"]["phase"]
    assert (left + taken) % 2 == 1 or (left + taken == 0 and phase != "phase3"), (phase, left, taken)
    if phase in ("phase1", "phase2_draw", "phase2_place"):
        assert left + taken == 0, phase


def test_a_minerals_gatherer_step_holds_no_phase_3_counts():
    """Found by the fuzz test above (which=982): VANTH's Minerals gatherer step follows a phase 1 gain and
    returns to phase 1, so a state in that step with phase 3 action counts is refused on load, not
    accepted and then carried into phase 1 where it no longer loads."""
    states, _ = seeds()
    gathering = [
        s.document
        for s in states
        if (s.document["state"].get("racial_step") or {}).get("step") == "minerals_gatherer"
    ]
    assert gathering, "the seeds hold a Minerals gatherer step"
    document = json.loads(json.dumps(gathering[0]))
    game = load_game("trian", players=document["players"], variant=document["variant"])
    assert game.state_from_json(json.dumps(document)).to_json()  # as played: loads
    document["state"]["this_turn"].update(actions_left=0, actions_taken=1)
    with pytest.raises(StateFormatError, match="no phase 3 action before phase 3"):
        game.state_from_json(json.dumps(document))
