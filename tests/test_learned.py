"""The learned evaluation (issue 31; docs/learning.md): Trian's features, the model file and its loader
(fuzzed), the C inference against a NumPy reference, the search with evaluation="learned", and a tiny
self-play -> fit -> load smoke (the fit part only where PyTorch is installed: CI does not install it)."""

from __future__ import annotations

import hashlib
import json
import platform
import struct
import zlib

import numpy as np
import pytest
from fuzz_json import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from random_positions import random_play_positions

from orrery.core_ext import load_game
from orrery.core_ext.trian import features as trian_features
from orrery.search import Budget, SearchConfig, search_observation
from orrery.search._learned import ValueNetwork, has_model, model_path, shipped_network
from orrery.search._model import (
    MAX_FILE_BYTES,
    Model,
    ModelFormatError,
    decode_model,
    encode_model,
)
from orrery.search._train_data import SelfPlaySpec, load_dataset, run_selfplay


def _game(players: int = 2):
    return load_game("trian", players=players, variant="full")


def _positions(players: int = 2, deals: int = 2, every: int = 7) -> list:
    """Live states of seeded random games, every `every`-th move."""
    return random_play_positions(_game(players), seed=5, deals=deals, every=every)


TRIAN_CATALOGUE = load_game("trian", players=2, variant="full")._catalogue_revision()


def _random_model(
    players: int = 2,
    hidden=(16, 8),
    seed: int = 0,
    sparse: bool = True,
    residual: bool = False,
    catalogue: str | None = TRIAN_CATALOGUE,
) -> Model:
    rng = np.random.default_rng(seed)
    sizes = (trian_features.num_features(players), *hidden, players)
    weights = tuple(
        rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:], strict=False)
    )
    biases = tuple(rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:])
    layout = trian_features.LAYOUT_VERSION
    return Model("trian", "full", players, layout, sparse, weights, biases, residual, catalogue=catalogue)


def _reference(model: Model, x: np.ndarray) -> np.ndarray:
    h = x.astype(np.float64)
    for i, (w, b) in enumerate(zip(model.weights, model.biases, strict=True)):
        h = h @ w.astype(np.float64) + b
        if i < len(model.weights) - 1:
            h = np.maximum(h, 0.0)
    if model.residual:
        base = np.clip(x[trian_features.evaluate_columns(model.players)].astype(np.float64), 0.001, 0.999)
        h = h + np.log(base / (1 - base))
    return 1.0 / (1.0 + np.exp(-h))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_of_a_state_equal_those_of_the_observers_observation(players):
    for state in _positions(players, deals=1, every=5):
        for seat in range(players):
            full = trian_features.encode(state, seat)
            seen = trian_features.encode(state.observation(seat), seat)
            assert np.array_equal(full, seen)
            assert full.shape == (trian_features.num_features(players),)
            assert ((full >= 0.0) & (full <= 1.0)).all()


def test_features_are_seat_relative():
    state = _positions(2, deals=1, every=50)[3]
    a, b = trian_features.encode(state, 0), trian_features.encode(state, 1)
    block = slice(34, 34 + 34)
    other = slice(34 + 34, 34 + 68)
    assert np.array_equal(a[block][:11], b[other][:11])  # seat 0's credits, minerals, supply
    assert not np.array_equal(a, b)


def test_features_refuse_the_wrong_observer():
    state = _positions(2, deals=1)[1]
    with pytest.raises(ValueError, match="seen as seat"):
        trian_features.encode(state.observation(0), 1)
    with pytest.raises(ValueError, match="observer must be"):
        trian_features.encode(state, 2)


@pytest.mark.parametrize(("sparse", "residual"), [(True, False), (False, False), (True, True)])
def test_the_c_network_matches_a_numpy_reference(sparse, residual):
    game = _game()
    model = _random_model(sparse=sparse, residual=residual)
    network = ValueNetwork(model, game)
    for state in _positions():
        if state.is_terminal():
            continue
        mover = state.current_player
        expected = _reference(model, trian_features.encode(state, mover))
        got = network.evaluate(state)
        for k in range(2):
            assert got[(mover + k) % 2] == pytest.approx(expected[k], abs=1e-5)


def _sequential_reference(model: Model, x: np.ndarray) -> np.ndarray:
    """The dense float32 forward pass, every input of every layer added in order (zeros too), as the
    kernel's columns sum: its outputs before the sigmoid."""
    h = x.astype(np.float32)
    for layer, (w, b) in enumerate(zip(model.weights, model.biases, strict=True)):
        y = b.astype(np.float32).copy()
        for i in range(w.shape[0]):
            y = y + np.float32(h[i]) * w[i]
        h = np.maximum(y, np.float32(0.0)) if layer < len(model.weights) - 1 else y
    return h


@pytest.mark.parametrize(
    ("players", "hidden"), [(2, (32,)), (2, (12, 5)), (2, (40, 24, 9)), (3, (64,)), (3, (7,))]
)
def test_the_sparse_first_layer_gives_the_dense_outputs(players, hidden):
    """The kernel adds the weight rows of non-zero inputs only (and of the hidden units the ReLU left
    on), eight or 32 columns at a time over padded rows: the same sums, in the same order, as the dense
    product over every input. Random inputs, a quarter non-zero, some negative, some -0.0."""
    rng = np.random.default_rng(31)
    model = _random_model(players=players, hidden=hidden, seed=len(hidden) + players)
    sparse = ValueNetwork(model, _game(players))
    dense = ValueNetwork(model, _game(players))
    dense.sparse_input = False
    for _ in range(40):
        x = rng.normal(0.0, 1.0, model.sizes[0]).astype(np.float32)
        x[rng.random(x.size) < 0.75] = 0.0
        x[rng.random(x.size) < 0.05] = -0.0
        got = sparse.forward(x)
        assert got.shape == (players,)
        assert np.array_equal(got, dense.forward(x))
        np.testing.assert_allclose(got, _sequential_reference(model, x), rtol=0, atol=1e-5)
        if platform.machine() in ("x86_64", "AMD64"):  # no fused multiply-add there: bit for bit
            assert np.array_equal(got, _sequential_reference(model, x))
    with pytest.raises(ValueError, match=f"expected {model.sizes[0]} features, got 5"):
        sparse.forward(np.zeros(5, dtype=np.float32))


def test_a_model_round_trips_through_its_file():
    model = _random_model(hidden=(12,), seed=3, residual=True)
    back = decode_model(encode_model(model))
    assert back.residual and back.sparse_input
    assert (back.game, back.variant, back.players, back.layout_version, back.sizes) == (
        "trian",
        "full",
        2,
        trian_features.LAYOUT_VERSION,
        model.sizes,
    )
    for w, v in zip(model.weights + model.biases, back.weights + back.biases, strict=True):
        assert np.array_equal(w, v)


def test_the_network_refuses_a_model_for_another_game_setting():
    model = _random_model()
    with pytest.raises(ModelFormatError, match="not trian \\(full, 3 players\\)"):
        ValueNetwork(model, _game(3))
    with pytest.raises(ModelFormatError, match="not trian \\(ships, 2 players\\)"):
        ValueNetwork(model, load_game("trian", players=2, variant="ships"))
    wrong_layout = Model("trian", "full", 2, 99, True, model.weights, model.biases, catalogue=TRIAN_CATALOGUE)
    with pytest.raises(ModelFormatError, match="layout version 99"):
        ValueNetwork(wrong_layout, _game())
    small = _random_model()
    short = Model(
        "trian",
        "full",
        2,
        small.layout_version,
        True,
        (small.weights[0][:-1],) + small.weights[1:],
        small.biases,
        catalogue=TRIAN_CATALOGUE,
    )
    with pytest.raises(ModelFormatError, match="inputs"):
        ValueNetwork(short, _game())
    with pytest.raises(ValueError, match="no features"):
        ValueNetwork(model, load_game("kuhn", players=2))


def _with_crc(body: bytes) -> bytes:
    return body + struct.pack("<I", zlib.crc32(body))


def test_the_loader_names_what_is_wrong():
    data = encode_model(_random_model(hidden=(4,)))
    with pytest.raises(ModelFormatError, match="bad magic"):
        decode_model(b"NOTMODEL" + data[8:])
    with pytest.raises(ModelFormatError, match="CRC-32"):
        decode_model(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    with pytest.raises(ModelFormatError, match="format version 3"):
        decode_model(_with_crc(data[:8] + struct.pack("<H", 3) + data[10:-4]))
    with pytest.raises(ModelFormatError, match="ends inside"):
        decode_model(_with_crc(data[:-40]))
    with pytest.raises(ModelFormatError, match="after the last layer"):
        decode_model(_with_crc(data[:-4] + b"\0\0\0\0"))
    with pytest.raises(ModelFormatError, match="at most"):
        decode_model(b"\0" * (MAX_FILE_BYTES + 1))
    nan = bytearray(data[:-4])
    nan[-4:] = struct.pack("<f", float("nan"))
    with pytest.raises(ModelFormatError, match="NaN"):
        decode_model(_with_crc(bytes(nan)))


@fuzz_settings(default_examples=300)
@given(st.data())
def test_fuzzed_model_files_are_refused_or_load(data):
    """Truncations, byte edits, insertions and deletions of version-2 and version-1 files, with the CRC
    left stale or recomputed (so the parser behind it is reached): every result is a clean
    ModelFormatError or a model that re-encodes to the same bytes; nothing reads past the end (the parser
    checks every length before reading)."""
    catalogue = data.draw(st.sampled_from([TRIAN_CATALOGUE, "", None]))  # None: a format-version-1 file
    seed = data.draw(st.integers(0, 3))
    original = encode_model(_random_model(hidden=(3,), seed=seed, catalogue=catalogue))
    body = bytearray(original[:-4])
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["set", "insert", "delete", "truncate"]))
        at = data.draw(st.integers(0, max(0, len(body) - 1)))
        if kind == "set" and body:
            body[at] = data.draw(st.integers(0, 255))
        elif kind == "insert":
            body[at:at] = data.draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del body[at : at + data.draw(st.integers(1, 8))]
        else:
            del body[at:]
    fixed_crc = data.draw(st.booleans())
    blob = _with_crc(bytes(body)) if fixed_crc else bytes(body) + original[-4:]
    try:
        model = decode_model(blob)
    except ModelFormatError:
        return
    assert encode_model(model) == blob


def test_search_config_checks_the_evaluation():
    with pytest.raises(ValueError, match="evaluation must be one of"):
        SearchConfig(name="x", version=1, algorithm="ismcts", evaluation="neural")
    assert SearchConfig(name="x", version=1, algorithm="ismcts").evaluation == "handwritten"


def test_a_learned_search_without_a_shipped_model_is_an_error():
    config = SearchConfig(name="x", version=1, algorithm="ismcts", max_playout_depth=20, evaluation="learned")
    state = load_game("trian", players=3, variant="beginner").new_initial_state(seed=1)
    with pytest.raises(ValueError, match="no learned evaluation model"):
        search_observation(state.observation(state.current_player), config, Budget(iterations=10), seed=1)


@pytest.mark.skipif(not has_model("trian", "full", 2), reason="no shipped Trian full 2-player model")
def test_the_shipped_model_matches_its_manifest_and_searches_reproducibly():
    path = model_path("trian", "full", 2)
    manifest = json.loads(path.with_suffix(".json").read_text())
    assert manifest["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert path.stat().st_size <= MAX_FILE_BYTES
    assert manifest["layout_version"] == trian_features.LAYOUT_VERSION
    game = _game()
    network = shipped_network(game)
    assert list(network.model.sizes) == manifest["layer_sizes"]
    state = _positions(deals=1, every=40)[2]
    values = network.evaluate(state)
    assert all(0.0 <= v <= 1.0 for v in values)
    config = SearchConfig(
        name="x",
        version=1,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=48,
        horizon="root",
        evaluation="learned",
    )
    observation = state.observation(state.current_player)
    first = search_observation(observation, config, Budget(iterations=300), seed=4)
    again = search_observation(observation, config, Budget(iterations=300), seed=4)
    assert first.best_action == again.best_action
    assert [a.visits for a in first.actions] == [a.visits for a in again.actions]


def test_selfplay_writes_resumable_shards_and_a_manifest(tmp_path):
    spec = SelfPlaySpec(game="trian", variant="full", players=2, config="ismcts@3", iterations=8, seed=2)
    summary = run_selfplay(spec, tmp_path, games=2, workers=1, command=["test"], quiet=True)
    assert summary["games_played"] == 2
    again = run_selfplay(spec, tmp_path, games=2, workers=1, command=["test"], quiet=True)
    assert again["games_played"] == 0 and again["total_positions"] == summary["total_positions"]
    manifest, arrays = load_dataset([tmp_path])
    assert manifest["games"] == 2 and manifest["layout_version"] == trian_features.LAYOUT_VERSION
    assert manifest["catalogue"] == TRIAN_CATALOGUE  # the cards the games were dealt with
    rows = len(arrays["game_index"])
    assert arrays["features"].shape == (rows, trian_features.num_features(2))
    assert set(np.unique(arrays["returns_relative"].sum(axis=1))) == {1.0}  # 2 players: rank returns sum to 1
    assert ((arrays["root_value"] >= 0) & (arrays["root_value"] <= 1)).all()
    other = SelfPlaySpec(game="trian", variant="full", players=2, config="ismcts@3", iterations=9, seed=2)
    with pytest.raises(ValueError, match="other settings"):
        run_selfplay(other, tmp_path, games=3, workers=1, command=["test"], quiet=True)
    pytest.importorskip("torch")
    from orrery.search._train_fit import FitSettings, fit

    out = tmp_path / "model" / "trian-full-2p.orrnet"
    result = fit([tmp_path], out, FitSettings(hidden=(8,), epochs=1, held_out=0.5), command=["test"])
    residual = tmp_path / "residual.orrnet"
    fit([tmp_path], residual, FitSettings(hidden=(8,), epochs=1, held_out=0.5, residual=True), command=["t"])
    assert decode_model(residual.read_bytes()).residual
    model = decode_model(out.read_bytes())
    assert (model.format_version, model.catalogue) == (2, TRIAN_CATALOGUE)
    model_manifest = json.loads(out.with_suffix(".json").read_text())
    assert (model_manifest["format_version"], model_manifest["catalogue"]) == (2, TRIAN_CATALOGUE)
    network = ValueNetwork(model, _game())
    assert result["bytes"] == out.stat().st_size
    assert out.with_suffix(".loss.png").stat().st_size > 0
    assert all(0 <= v <= 1 for v in network.evaluate(_positions(deals=1)[3]))
    # the same command writes the same model
    fit(
        [tmp_path],
        tmp_path / "again.orrnet",
        FitSettings(hidden=(8,), epochs=1, held_out=0.5),
        command=["test"],
    )
    assert (tmp_path / "again.orrnet").read_bytes() == out.read_bytes()


def test_fit_refuses_data_dealt_with_another_catalogue_revision():
    pytest.importorskip("torch")
    from orrery.search._train_fit import _check_catalogue

    manifest = {"game": "trian", "variant": "full", "players": 2, "catalogue": TRIAN_CATALOGUE}
    _check_catalogue(manifest)
    with pytest.raises(ValueError, match="dealt with catalogue 'orrery.trian-tiles/2@1'.*play it again"):
        _check_catalogue(dict(manifest, catalogue="orrery.trian-tiles/2@1"))
    with pytest.raises(ValueError, match="records no catalogue revision"):
        _check_catalogue({k: v for k, v in manifest.items() if k != "catalogue"})
