"""The conformance checks every game core must pass (run per game by test_conformance.py).

Each check walks random trajectories from fixed seeds, so failures are reproducible.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from orrery.core_ext import IllegalActionError, StateFormatError
from orrery.core_ext._action_kinds import id_kind
from orrery.core_ext.game import PUBLIC_VIEWER


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


def check_action_range_and_length(game, seed):
    """Every legal id along a random game is < num_distinct_actions, and the game ends within
    max_game_length actions (issue 19: the bounds OpenSpiel's num_distinct_actions and max_game_length)."""
    assert game.max_legal_actions > 0 and game.num_distinct_actions > 0
    assert game.max_game_length > 0
    length = 0
    for state in trajectory(game, seed):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert len(legal) <= game.max_legal_actions
        assert all(0 <= a < game.num_distinct_actions for a in legal), max(legal)
        length += 1
    assert length <= game.max_game_length, f"{length} actions > max_game_length {game.max_game_length}"


def check_utilities(game, seeds):
    """utilities() is OpenSpiel's convention: 2 * return - 1 per seat (zero-sum) with 2+ seats; solo: the
    return itself."""
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        state.playout(seed=seed)
        returns, utilities = state.returns(), state.utilities()
        assert len(utilities) == game.num_players
        if game.num_players == 1:
            assert utilities == returns
            continue
        assert utilities == pytest.approx([2 * r - 1 for r in returns])
        assert sum(utilities) == pytest.approx(0.0, abs=1e-9), "multi-seat utilities are zero-sum"
        assert all(-1.0 <= u <= 1.0 for u in utilities)


def check_copy_hooks(game, seed, max_steps):
    """copy.copy / copy.deepcopy of a State and an Observation are memcpy clones: equal and independent."""
    import copy

    for state in trajectory(game, seed, max_steps):
        if state.is_terminal():
            break
        for dup in (copy.copy(state), copy.deepcopy(state)):
            assert dup == state and dup is not state and dup.game is state.game
        child = copy.deepcopy(state)
        before = state.raw_bytes()
        child.apply(child.legal_actions()[0])
        assert state.raw_bytes() == before, "a deep copy must not share memory with its original"
        obs = state.observation(state.current_player)
        for dup in (copy.copy(obs), copy.deepcopy(obs)):
            assert dup == obs and dup is not obs and dup.player == obs.player
        nested = copy.deepcopy({"a": state, "b": state})
        assert nested["a"] is nested["b"], "deepcopy keeps shared references shared (memo)"


def check_describe_action(game, seed, max_steps, samples=40):
    """describe_action labels every id in [0, num_distinct_actions): a legal id exactly as action_label,
    an illegal one with "(not legal here)"; ids outside the range raise ValueError."""
    rng = random.Random(seed)
    n = game.num_distinct_actions
    for state in trajectory(game, seed, max_steps):
        legal = state.legal_actions()
        for a in legal:
            assert state.describe_action(a) == state.action_label(a)
            # the id-only kind of core_ext/_action_kinds.py agrees with the action-struct code
            kind, by_id = state.action_to_struct(a)["kind"], id_kind(game.name, a)
            assert kind in by_id or by_id.startswith("racial action"), (a, kind, by_id)
        for a in [rng.randrange(n) for _ in range(samples)] + [0, n - 1]:
            label = state.describe_action(a)
            assert isinstance(label, str) and label
            if a not in legal:
                assert label.endswith("(not legal here)")
        for bad in (-1, n):
            with pytest.raises(ValueError):
                state.describe_action(bad)


def check_info_key(game, seed, max_steps, samples=4):
    """info_key() is exact: equal observations give equal keys, different ones different keys; a
    determinization of an observation keeps the observer's key."""
    seen: dict[bytes, bytes] = {}
    for state in trajectory(game, seed, max_steps):
        for p in range(game.num_players):
            obs = state.observation(p)
            key = obs.info_key()
            assert isinstance(key, bytes)
            ident = (p, obs.raw_bytes())
            assert seen.setdefault(key, pickle.dumps(ident)) == pickle.dumps(ident)
            for s in range(samples):
                assert obs.determinize(s).observation(p).info_key() == key


def check_observation_tensor(game, seed, max_steps, samples=3):
    """observation_tensor is float32 of the game's fixed shape with values in [0, 1] at every step, and a
    function of the observation only: a determinization (other hidden facts) and a JSON round trip of the
    observation give the same tensor (issue 19)."""
    import numpy as np

    from orrery.core_ext import observation_tensor, observation_tensor_shape

    shape = observation_tensor_shape(game.name, variant=game.variant, num_players=game.num_players)
    for step, state in enumerate(trajectory(game, seed, max_steps)):
        for p in range(game.num_players):
            obs = state.observation(p)
            tensor = observation_tensor(obs)
            assert tensor.dtype == np.float32 and tensor.shape == shape
            assert np.isfinite(tensor).all() and tensor.min() >= 0.0 and tensor.max() <= 1.0
            if step % 4:
                continue  # the sampling below is the slow part
            assert np.array_equal(observation_tensor(game.observation_from_json(obs.to_json())), tensor)
            for s in range(samples):
                sample = state.determinize(p, seed=1000 * seed + s)
                assert np.array_equal(observation_tensor(sample.observation(p)), tensor), (
                    "hidden facts leaked"
                )


def check_move_labels_follow_the_viewer(game, seed, max_steps, samples=3):
    """A move's label as another seat or a spectator sees it names nothing that viewer cannot see: two
    positions that viewer cannot tell apart (the real one and determinizations of some seat's view) give
    every common legal move the same label, and the same public view (issue 26)."""
    n = game.num_players
    for state in trajectory(game, seed, max_steps):
        if state.is_terminal():
            break
        mover = state.current_player
        public = state.public_observation()
        assert public.observer == PUBLIC_VIEWER and public.legal_actions() == []
        legal = state.legal_actions()
        for seat in range(n):
            observation = state.observation(seat)
            viewers = [v for v in (seat, PUBLIC_VIEWER) if v != mover]
            for k in range(samples):
                twin = observation.determinize(seed * 1000 + k)
                assert twin.public_observation() == public, "the public view shows what a seat cannot see"
                if twin.current_player != mover:
                    continue
                common = set(legal) & set(twin.legal_actions())
                for action in sorted(common)[:12]:
                    for viewer in viewers:
                        assert state.move_label(action, viewer) == twin.move_label(action, viewer), (
                            f"seat {mover}'s action {action} reads differently to viewer {viewer} in two "
                            "positions that viewer cannot tell apart"
                        )


def check_move_events_follow_the_viewer(game, seed, max_steps, samples=2):
    """What a move set off (core_ext/_move_events.py: events, changes, touched places) as another seat
    or a spectator sees it names nothing that viewer cannot see: in two positions that viewer cannot tell
    apart (the real one and determinizations of its view), the same move gives the same events whenever
    the viewer's views after the move are the same too (where chance went another way, different events
    are right) (issue 27)."""
    from orrery.core_ext._move_events import move_events

    def view(state, viewer):
        return state.public_observation() if viewer == PUBLIC_VIEWER else state.observation(viewer)

    for state in trajectory(game, seed, max_steps):
        if state.is_terminal():
            break
        mover = state.current_player
        for seat in range(game.num_players):
            viewers = [v for v in (seat, PUBLIC_VIEWER) if v != mover]
            for k in range(samples):
                twin = state.observation(seat).determinize(seed * 1000 + k)
                if twin.current_player != mover:
                    continue
                for action in sorted(set(state.legal_actions()) & set(twin.legal_actions()))[:6]:
                    real_after, twin_after = state.clone(), twin.clone()
                    real_after.apply(action)
                    twin_after.apply(action)
                    for viewer in viewers:
                        if view(real_after, viewer) != view(twin_after, viewer):
                            continue
                        seen_real = move_events(view(state, viewer), view(real_after, viewer), mover=mover)
                        seen_twin = move_events(view(twin, viewer), view(twin_after, viewer), mover=mover)
                        assert seen_real == seen_twin, (
                            f"seat {mover}'s action {action} sets off different events for viewer {viewer} "
                            "in two positions that viewer cannot tell apart"
                        )


def check_an_observation_is_a_view_of_its_seat(game, seed, max_steps):
    """An observation relabelled with another observer is refused unless the two seats' views are the
    same: a view that shows what its seat cannot see, or hides what it can, is no seat's view (issue 26)."""
    if game.num_players < 2:
        return
    for state in trajectory(game, seed, max_steps):
        views = [state.observation(seat).to_dict() for seat in range(game.num_players)]
        relabelled = dict(views[0], observer=1)
        if views[0]["state"] == views[1]["state"]:
            assert game.observation_from_dict(relabelled).player == 1
            continue
        with pytest.raises(StateFormatError):
            game.observation_from_dict(relabelled)


def check_score_breakdown_adds_up(game, seed, every=7):
    """Where each seat's points come from (Position.score_breakdown, GetObservation.score_breakdown) adds
    up to the score the engine reports, as every viewer sees it (the full state, each seat, the
    spectator), along a seeded game played to the end: each seat once, its parts summing to its total,
    which is State.scores()'s; a player that is no seat (the solo Rogue, seat -1) is named and adds up
    too. A game without a breakdown gives none anywhere (issue 27)."""
    given = False
    for step, state in enumerate(trajectory(game, seed)):
        if step % every and not state.is_terminal():
            continue
        scores = state.scores()
        views = [state, state.public_observation()] + [state.observation(s) for s in range(game.num_players)]
        for view in views:
            breakdown = view.score_breakdown()
            where = f"step {step}, viewer {view.observer}"
            if not breakdown:
                assert not given, f"{where}: a breakdown went missing"
                continue
            given = True
            assert [e["seat"] for e in breakdown if e["seat"] >= 0] == list(range(game.num_players)), where
            for entry in breakdown:
                points = [part["points"] for part in entry["parts"]]
                assert all(type(p) is int for p in points) and sum(points) == entry["total"], (where, entry)
                assert all(part["label"] for part in entry["parts"]), (where, entry)
                if entry["seat"] >= 0:
                    assert entry["total"] == scores[entry["seat"]] and entry["name"] == "", (where, entry)
                else:
                    assert entry["seat"] == -1 and entry["name"], (where, entry)
    return given


def _shown(view) -> tuple[str, str, str, str]:
    """Everything drawn from one view: the SVG picture (with its captions and, for the seat to move, the
    outlines of its legal moves), the picture of the view's JSON form, the text render and the score
    breakdown (GetObservation.score_breakdown)."""
    from orrery.render import to_svg

    return to_svg(view), to_svg(view.to_dict()), view.render(), json.dumps(view.score_breakdown())


def check_pictures_and_scores_follow_the_viewer(game, seed, max_steps, samples=4, every=3):
    """For positions one seat cannot tell apart (the real one and determinizations of its view), that seat
    and the spectator are shown the same pictures (SVG, captions, text render), the same turn and status
    (what every MatchEvent carries), and, once the game is over, the same scores and ranks (the only time
    the service shows them); before the end nothing a picture or event carries may differ (issue 26)."""
    varied = False  # some twin differs from the real position (else the check compares a state with itself)
    for step, state in enumerate(trajectory(game, seed)):  # to the end: the final scores are checked too
        if (step % every or step > max_steps) and not state.is_terminal():
            continue
        public = _shown(state.public_observation())
        for seat in range(game.num_players):
            mine = _shown(state.observation(seat))
            observation = state.observation(seat)
            for k in range(samples):
                twin = observation.determinize(seed * 1000 + k)
                varied = varied or twin.to_json() != state.to_json()
                where = f"seat {seat}, step {step}, sample {k}"
                assert twin.is_terminal() == state.is_terminal(), where
                if not state.is_terminal():
                    assert twin.current_player == state.current_player, f"{where}: whose turn it is"
                assert _shown(twin.observation(seat)) == mine, f"{where}: the seat's picture differs"
                assert _shown(twin.public_observation()) == public, f"{where}: the public picture differs"
                if state.is_terminal():
                    assert twin.scores() == state.scores() and twin.ranks() == state.ranks(), where
    assert state.is_terminal() and varied
