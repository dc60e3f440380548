"""Tiny Epic Galaxies' learned evaluation (issue 31; docs/learning.md): the features of a state, of the
mover's observation and of every determinization of it are equal (nothing hidden leaks in), their size and
range, seat-relativity, the C network over them against a NumPy reference, and the shipped models with the
ismcts-teg-learned preset."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import numpy as np
import pytest
from random_positions import random_play_positions

from orrery.core_ext import load_game
from orrery.core_ext.tiny_epic_galaxies import features as teg_features
from orrery.core_ext.tiny_epic_galaxies.engine import MISSION_NAMES
from orrery.search import Budget, check_evaluation, get_config, search_observation, shipped_models
from orrery.search._learned import ValueNetwork, has_model, model_path, shipped_network
from orrery.search._model import MAX_FILE_BYTES, Model

GAME = "tiny_epic_galaxies"
VARIANTS = ("base", "beyond_the_black")


def _positions(variant: str, players: int = 2, deals: int = 1, every: int = 7) -> list:
    """Live states of seeded random games, every `every`-th move."""
    return random_play_positions(
        load_game(GAME, players=players, variant=variant), seed=5, deals=deals, every=every
    )


# sha256 of every seat's features (float32 bytes, in order) of the positions of _checked_digest(), made
# with the observation-based hook of session 8, before session 9 read the state directly
# (docs/learning.md): the features must stay bit for bit the same.
FEATURE_DIGESTS = {
    ("base", 2): "8c5d7984c7cb8f575c5def3a79c83b300218e3234a6a486f8dcd84abb440ba3c",
    ("base", 3): "f3335fa18ac25b7237fd74d2f089488f67ab6830c254e2dae2c9c0a79e331696",
    ("base", 4): "95a3c1bac86b7ebcae06217a4583bc7b0c145fab435b1e414242f1dff0651f5d",
    ("beyond_the_black", 2): "299fb5091ea77e2d13630dad2bc62336f72d6d8ed5d2ae2fdffdf3f1c8b24223",
    ("beyond_the_black", 3): "a77c428b07e3a1b8770e8daeb01eabfc5a61d331cf46d04de4a4ddf2ec6c93ca",
    ("beyond_the_black", 4): "875092f36de922d44900492af2ea32f283100bfb22b592239e2c748a6c606b6e",
}


def _checked_digest(variant: str, players: int) -> str:
    """Checks that every seat's features of the states of seeded random games (finished ones too) equal
    those of its observation and of three determinizations of it (other seats' missions and face-down
    cards resampled), and lie in [0, 1]; returns their hash."""
    digest = hashlib.sha256()
    game = load_game(GAME, players=players, variant=variant)
    for state in random_play_positions(game, seed=9, deals=3, every=2, final=True):
        for seat in range(players):
            full = teg_features.encode(state, seat)
            observation = state.observation(seat)
            assert np.array_equal(full, teg_features.encode(observation, seat))
            for seed in range(3):
                assert np.array_equal(full, teg_features.encode(observation.determinize(seed), seat))
            assert full.shape == (teg_features.num_features(players),)
            assert ((full >= 0.0) & (full <= 1.0)).all()
            digest.update(full.tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_are_equal_for_a_state_its_observation_and_its_determinizations(variant, players):
    assert _checked_digest(variant, players) == FEATURE_DIGESTS[variant, players]


def test_sizes_and_evaluate_columns():
    assert [teg_features.num_features(n) for n in (2, 3, 4, 5)] == [178, 212, 246, 280]
    assert teg_features.evaluate_columns(2) == [143, 177]
    with pytest.raises(ValueError, match="1 players not supported"):
        teg_features.num_features(1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_evaluate_columns_hold_evaluate_where_nothing_is_hidden(variant):
    """Before any mission is kept, evaluate() sees nothing hidden, so the columns are the state's
    evaluate(); later they are the observation's (other seats' missions do not count), which the
    determinization test above checks."""
    columns = teg_features.evaluate_columns(2)
    checked = 0
    for state in _positions(variant, every=1)[:40]:
        if any(g["mission"] is not None for g in _state(state)["galaxies"]):
            continue
        for seat in range(2):
            x = teg_features.encode(state, seat)
            value = state.evaluate()
            assert x[columns] == pytest.approx([value[(seat + k) % 2] for k in range(2)], abs=1e-6)
            checked += 1
    assert checked > 0


def _state(state) -> dict:
    return json.loads(state.to_json())["state"]


def test_only_the_observer_sees_its_own_mission():
    state = next(s for s in _positions("base", every=3) if _state(s)["round"] >= 1)
    kept, dealt = slice(62, 82), slice(82, 102)
    galaxies = _state(state)["galaxies"]
    for seat in range(2):
        x = teg_features.encode(state, seat)
        assert np.flatnonzero(x[kept]).tolist() == [MISSION_NAMES.index(galaxies[seat]["mission"])]
        dealt_ids = sorted(MISSION_NAMES.index(m) for m in galaxies[seat]["dealt"])
        assert np.flatnonzero(x[dealt]).tolist() == dealt_ids


def test_features_are_seat_relative():
    state = _positions("beyond_the_black", every=50)[3]
    a, b = teg_features.encode(state, 0), teg_features.encode(state, 1)
    block, other = slice(110, 110 + 34), slice(110 + 34, 110 + 68)
    assert np.array_equal(a[block][:33], b[other][:33])  # seat 0's resources, ships, points...
    assert np.array_equal(a[2:7][:2], b[2:7][:2][::-1])  # the active galaxy, seen from each side
    assert not np.array_equal(a, b)


def test_features_refuse_the_wrong_observer_and_solo():
    state = _positions("base")[1]
    with pytest.raises(ValueError, match="seen as seat"):
        teg_features.encode(state.observation(0), 1)
    with pytest.raises(ValueError, match="observer must be"):
        teg_features.encode(state, 2)
    solo = load_game(GAME, players=1, variant="base").new_initial_state(seed=1)
    with pytest.raises(ValueError, match="solo"):
        teg_features.encode(solo, 0)
    with pytest.raises(ValueError, match="of a trian position"):
        teg_features.encode(load_game("trian", players=2).new_initial_state(seed=1), 0)


def _random_model(variant: str, sparse: bool) -> Model:
    rng = np.random.default_rng(0)
    sizes = (teg_features.num_features(2), 16, 8, 2)
    weights = tuple(
        rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:], strict=False)
    )
    biases = tuple(rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:])
    catalogue = load_game(GAME, players=2, variant=variant)._catalogue_revision()
    return Model(GAME, variant, 2, teg_features.LAYOUT_VERSION, sparse, weights, biases, catalogue=catalogue)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("sparse", [True, False])
def test_the_c_network_matches_a_numpy_reference(variant, sparse):
    model = _random_model(variant, sparse)
    network = ValueNetwork(model, load_game(GAME, players=2, variant=variant))
    for state in _positions(variant, every=13):
        if state.is_terminal():
            continue
        mover = state.current_player
        h = teg_features.encode(state, mover).astype(np.float64)
        for i, (w, b) in enumerate(zip(model.weights, model.biases, strict=True)):
            h = h @ w.astype(np.float64) + b
            if i < len(model.weights) - 1:
                h = np.maximum(h, 0.0)
        expected = 1.0 / (1.0 + np.exp(-h))
        got = network.evaluate(state)
        for k in range(2):
            assert got[(mover + k) % 2] == pytest.approx(expected[k], abs=1e-5)


# ---- the shipped models and the preset ----


SHIPPED_VARIANTS = tuple(v for v in VARIANTS if has_model(GAME, v, 2))


def test_a_model_is_shipped_for_the_base_game():
    assert "base" in SHIPPED_VARIANTS


@pytest.mark.parametrize("variant", SHIPPED_VARIANTS)
def test_the_shipped_model_matches_its_manifest_and_is_listed(variant):
    path = model_path(GAME, variant, 2)
    manifest = json.loads(path.with_suffix(".json").read_text())
    assert manifest["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert path.stat().st_size <= MAX_FILE_BYTES and path.with_suffix(".loss.png").stat().st_size > 0
    assert manifest["layout_version"] == teg_features.LAYOUT_VERSION
    assert manifest["training_command"].startswith("orrery train fit")
    assert manifest["catalogue"] == load_game(GAME, players=2, variant=variant)._catalogue_revision()
    (listed,) = [m for m in shipped_models() if (m.game, m.variant, m.players) == (GAME, variant, 2)]
    assert (listed.sha256, listed.file_bytes) == (manifest["sha256"], path.stat().st_size)
    assert (listed.training_games, listed.training_positions) == (
        manifest["data"]["games"],
        manifest["data"]["positions"],
    )


def test_the_learned_preset_is_ismcts_teg_with_the_learned_evaluation():
    learned, handwritten = get_config("ismcts-teg-learned"), get_config("ismcts-teg@3")
    assert learned.label == "ismcts-teg-learned@2" and learned.evaluation == "learned"
    assert replace(
        learned, name="ismcts-teg", version=3, evaluation="handwritten", description=""
    ) == replace(handwritten, description="")
    for variant in SHIPPED_VARIANTS:
        check_evaluation(learned, GAME, variant, 2)
    with pytest.raises(ValueError, match=r"ismcts-teg-learned@2 has evaluation 'learned', but no learned"):
        check_evaluation(learned, GAME, "base", 3)


@pytest.mark.parametrize("variant", SHIPPED_VARIANTS)
def test_the_learned_preset_searches_reproducibly_with_the_model(variant):
    state = _positions(variant, every=40)[2]
    observation = state.observation(state.current_player)
    budget = Budget(iterations=400)
    runs = {
        name: [search_observation(observation, get_config(name), budget, seed=2) for _ in range(2)]
        for name in ("ismcts-teg@3", "ismcts-teg-learned@2")
    }
    for first, again in runs.values():
        assert [(a.action, a.visits) for a in first.actions] == [(a.action, a.visits) for a in again.actions]
    assert [a.mean_reward for a in runs["ismcts-teg@3"][0].actions] != [
        a.mean_reward for a in runs["ismcts-teg-learned@2"][0].actions
    ]
    network = shipped_network(load_game(GAME, players=2, variant=variant))
    assert all(0.0 <= v <= 1.0 for v in network.evaluate(state))


def test_bench_eval_measures_the_search_over_several_positions():
    from orrery.search._bench_eval import bench_eval

    result = bench_eval(GAME, variant="base", players=2, config="ismcts-teg@3", seconds=0.03, positions=5,
                        search_positions=3)  # fmt: skip
    assert result["search_positions"] == 3 and result["features"] == teg_features.num_features(2)
    assert set(result["iterations_per_cpu_s"]) == {"handwritten", "learned"}
    with pytest.raises(ValueError, match="search_positions must be 1..5"):
        bench_eval(GAME, variant="base", players=2, config="ismcts-teg@3", positions=5, search_positions=6)
