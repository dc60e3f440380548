"""The conformance checks every game core must pass (run per game by test_conformance.py).

Each check walks random trajectories from fixed seeds, so failures are reproducible.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest
from orrery.core_ext import IllegalActionError, StateFormatError


def trajectory(game, seed: int, max_steps: int | None = None):
    """States along one uniformly random game from `seed` (the start and every later state)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    yield state.clone()
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
        yield state.clone()


def check_random_games_end(game, seeds):
    limit = game.new_initial_state(seed=0)  # noqa: F841 - construction must succeed for every seed
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        moves = state.playout(seed=seed)
        assert state.is_terminal(), f"seed {seed}: playout stopped after {moves} moves before the end"
        returns = state.returns()
        assert len(returns) == game.num_players
        assert all(0.0 <= r <= 1.0 for r in returns)
        assert state.evaluate() == returns, "a finished game's evaluation is its outcome"
        assert state.legal_actions() == []


def check_legal_actions_apply(game, seed, max_steps):
    for state in trajectory(game, seed, max_steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, "a non-terminal state must have a legal action"
        # Chance is resolved inside apply() (game.pxd): a live state always has a seat to move.
        assert 0 <= state.current_player < game.num_players
        assert legal == sorted(set(legal)), "legal actions are sorted and unique"
        for action in legal:
            child = state.clone()
            child.apply(action)
            label = state.action_to_struct(action)["label"]
            assert isinstance(label, str) and label
            assert state.action_from_struct(state.action_to_struct(action)) == action


def check_clone_independent(game, seed):
    state = game.new_initial_state(seed=seed)
    before = state.to_json()
    copy = state.clone()
    copy.playout(seed=seed + 1)
    assert state.to_json() == before
    assert copy.is_terminal() and not state.is_terminal()


def check_json_round_trip(game, seed, max_steps):
    for state in trajectory(game, seed, max_steps):
        text = state.to_json()
        json.loads(text)
        assert game.state_from_json(text) == state
        assert pickle.loads(pickle.dumps(state)) == state
        for player in range(game.num_players):
            obs = state.observation(player)
            assert game.observation_from_json(obs.to_json()) == obs
            assert pickle.loads(pickle.dumps(obs)) == obs


def check_determinize(game, seed, max_steps, samples=6):
    """Keeps what the observer saw, varies what it could not see, and leaves the real state untouched."""
    varied = False
    for state in trajectory(game, seed, max_steps):
        truth = state.to_json()
        for player in range(game.num_players):
            obs = state.observation(player)
            for k in range(samples):
                sample = obs.determinize(seed=1000 * seed + k)
                assert sample.observation(player) == obs, "determinize changed what the observer saw"
                if sample.to_json() != truth:
                    varied = True
                if not state.is_terminal() and state.current_player == player:
                    assert sample.legal_actions() == state.legal_actions()
            assert state.to_json() == truth, "determinize touched the real state"
    assert varied, "determinize never varied anything hidden: it returns the true state"


def check_bad_input(game, seed):
    state = game.new_initial_state(seed=seed)
    before = state.to_json()
    legal = set(state.legal_actions())
    for bad in (-1, max(legal) + 1, 2**31 - 1):
        if bad in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    with pytest.raises(IllegalActionError):
        state.apply("1")  # type: ignore[arg-type]
    for text in ("", "{", "[]", '{"format": "orrery.state/1"}', json.dumps({"x": 1}), b"\xff\xfe"):
        with pytest.raises(StateFormatError):
            game.state_from_json(text)
        with pytest.raises(StateFormatError):
            game.observation_from_json(text)
    data = json.loads(before)
    data["state"] = {"nonsense": True}
    with pytest.raises(StateFormatError):
        game.state_from_json(json.dumps(data))
    assert data["format"] == game.state_format == f"orrery.{game.name}.state/{game.state_format[-1]}"
    for retired in ("orrery.state/1", "orrery.observation/1"):
        data["format"] = retired
        with pytest.raises(
            StateFormatError, match=f"no longer supported; this server reads {game.state_format}"
        ):
            game.state_from_json(json.dumps(data))
    assert state.to_json() == before
