"""Take The Galaxy's learned evaluation (issue 31; docs/learning.md, "Take The Galaxy"): its features
(core_ext/take_the_galaxy/features.pyx: sizes, range, seat-relative blocks, and no hidden information: a
state, the observer's observation and every determinization of it give the same features), the shipped
model (listed with its manifest) and its preset ismcts-ttg-learned."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import numpy as np
import pytest
from random_positions import random_play_positions

from orrery.core_ext import load_game
from orrery.core_ext.take_the_galaxy import features as ttg_features
from orrery.search import Budget, check_evaluation, get_config, search_observation, shipped_models
from orrery.search._learned import model_path
from orrery.service.cli import main

SHIPPED = model_path("take_the_galaxy", "standard", 2)

GLOBAL, SEAT = 24, 67


def _positions(players: int, deals: int = 1, every: int = 9) -> list:
    """Live states of seeded random games, every `every`-th move, and each game's end."""
    game = load_game("take_the_galaxy", players=players, variant="standard")
    return random_play_positions(game, seed=7, deals=deals, every=every, final=True)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_sizes_and_range(players):
    assert ttg_features.num_features(players) == GLOBAL + players * SEAT
    assert ttg_features.evaluate_columns(players) == [GLOBAL + k * SEAT + SEAT - 1 for k in range(players)]
    for state in _positions(players, every=23):
        for seat in range(players):
            x = ttg_features.encode(state, seat)
            assert x.shape == (ttg_features.num_features(players),) and x.dtype == np.float32
            assert ((x >= 0.0) & (x <= 1.0)).all()
            value = state.evaluate()
            for k, column in enumerate(ttg_features.evaluate_columns(players)):
                assert x[column] == pytest.approx(value[(seat + k) % players], abs=1e-6)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_are_the_same_across_determinizations_of_one_observation(players):
    positions = _positions(players, every=11)
    hands_seen = 0
    for state in positions:
        for seat in range(players):
            full = ttg_features.encode(state, seat)
            observation = state.observation(seat)
            assert np.array_equal(full, ttg_features.encode(observation, seat))
            for seed in range(3):
                world = observation.determinize(seed)
                assert np.array_equal(full, ttg_features.encode(world, seat))
            hands_seen += int(full[GLOBAL + 5 : GLOBAL + 29].sum() > 0)
    assert hands_seen > 0  # the observer's own hand is read


def test_features_are_seat_relative_and_the_other_hands_are_hidden():
    state = _positions(2, every=40)[3]
    a, b = ttg_features.encode(state, 0), ttg_features.encode(state, 1)
    seat0_in_a, seat0_in_b = a[GLOBAL : GLOBAL + SEAT], b[GLOBAL + SEAT : GLOBAL + 2 * SEAT]
    hand = slice(5, 29)
    assert seat0_in_a[hand].sum() > 0 and not seat0_in_b[hand].any()
    keep = np.ones(SEAT, dtype=bool)
    keep[hand] = False
    assert np.array_equal(seat0_in_a[keep], seat0_in_b[keep])
    assert not np.array_equal(a, b)


def test_features_refuse_the_wrong_observer_and_game():
    state = _positions(2, every=40)[1]
    with pytest.raises(ValueError, match="seen as seat"):
        ttg_features.encode(state.observation(0), 1)
    with pytest.raises(ValueError, match="observer must be"):
        ttg_features.encode(state, 2)
    with pytest.raises(ValueError, match="take_the_galaxy features of a kuhn position"):
        ttg_features.encode(load_game("kuhn", players=2).new_initial_state(seed=0), 0)
    with pytest.raises(ValueError, match="5 players"):
        ttg_features.num_features(5)


# ---- the shipped model and its preset ----


def test_the_shipped_model_is_listed_with_its_manifest(capsys):
    (model,) = [m for m in shipped_models() if m.game == "take_the_galaxy"]
    manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
    data = SHIPPED.read_bytes()
    assert model.file_name == "take_the_galaxy-standard-2p.orrnet" == SHIPPED.name
    game = load_game("take_the_galaxy", players=2, variant="standard")
    assert (model.variant, model.players, model.catalogue) == ("standard", 2, game._catalogue_revision())
    assert model.layout_version == manifest["layout_version"] == ttg_features.LAYOUT_VERSION
    assert model.sha256 == manifest["sha256"] == hashlib.sha256(data).hexdigest() and len(data) <= 2_000_000
    assert manifest["layer_sizes"][0] == ttg_features.num_features(2) and manifest["layer_sizes"][-1] == 2
    assert SHIPPED.with_suffix(".loss.png").stat().st_size > 0
    assert main(["games"]) == 0
    line = next(x.strip() for x in capsys.readouterr().out.splitlines() if "take_the_galaxy-standard-2p" in x)
    assert line.startswith("learned models: standard 2p (take_the_galaxy-standard-2p.orrnet: model format 2")


def test_the_learned_preset_is_the_default_with_the_learned_evaluation():
    learned, handwritten = get_config("ismcts-ttg-learned"), get_config("ismcts-ttg@2")
    assert learned.label == "ismcts-ttg-learned@1" and learned.evaluation == "learned"
    as_default = replace(learned, name="ismcts-ttg", version=2, evaluation="handwritten", description="")
    assert as_default == replace(handwritten, description="")
    check_evaluation(learned, "take_the_galaxy", "standard", 2)
    for variant, players in (("standard", 3), ("team", 4)):
        with pytest.raises(ValueError, match=r"ismcts-ttg-learned@1 has evaluation 'learned', but no"):
            check_evaluation(learned, "take_the_galaxy", variant, players)


def test_the_learned_preset_searches_with_the_model():
    """Same seed and iterations: reproducible, and different from the hand-written evaluation's search."""
    state = _positions(2, every=40)[2]
    observation = state.observation(state.current_player)
    budget = Budget(iterations=400)
    runs = {
        name: [search_observation(observation, get_config(name), budget, seed=2) for _ in range(2)]
        for name in ("ismcts-ttg@2", "ismcts-ttg-learned@1")
    }
    for first, second in runs.values():
        assert [(a.action, a.visits) for a in first.actions] == [(a.action, a.visits) for a in second.actions]
    assert [(a.action, a.mean_reward) for a in runs["ismcts-ttg@2"][0].actions] != [
        (a.action, a.mean_reward) for a in runs["ismcts-ttg-learned@1"][0].actions
    ]
