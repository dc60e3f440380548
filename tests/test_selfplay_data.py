"""Self-play data, format version 2 (issue 31; docs/learning.md, "Self-play data"): the root visit
distributions each shard stores (checked against a replay of the game), the reader that checks every array
(fuzzed), and the version-1 folders that `orrery train fit` still reads."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fuzz_json import fuzz_settings
from hypothesis import event, given
from hypothesis import strategies as st

from orrery.core_ext import load_game
from orrery.core_ext.trian import features as trian_features
from orrery.search._train_data import (
    MANIFEST,
    SelfPlaySpec,
    load_dataset,
    run_selfplay,
    shard_path,
)
from orrery.search._train_shards import (
    POLICY_ARRAYS,
    SHARD_ARRAYS,
    SelfPlayDataError,
    ShardLayout,
    read_shard,
    root_policy,
)

SPEC = SelfPlaySpec(game="trian", variant="full", players=2, config="ismcts@3", iterations=8, seed=2)
TRIAN_ACTIONS = load_game("trian", players=2, variant="full").num_distinct_actions
LAYOUT = ShardLayout(
    format_version=2,
    players=2,
    num_features=trian_features.num_features(2),
    num_distinct_actions=TRIAN_ACTIONS,
)
V2_ONLY = [name for name in SHARD_ARRAYS[2] if name not in SHARD_ARRAYS[1]]


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """Two Trian full 2-player games at 8 iterations a move (about 370 stored positions each)."""
    folder = tmp_path_factory.mktemp("selfplay-v2")
    run_selfplay(SPEC, folder, games=2, workers=1, command=["test"], quiet=True)
    return folder


def _as_version_1(source: Path, target: Path) -> Path:
    """The same games as a format-version-1 folder: the arrays and manifest that version wrote."""
    (target / "shards").mkdir(parents=True)
    for shard in sorted((source / "shards").glob("game-*.npz")):
        with np.load(shard) as arrays:
            kept = {name: arrays[name] for name in SHARD_ARRAYS[1]}
        np.savez_compressed(target / "shards" / shard.name, **kept)
    manifest = json.loads((source / MANIFEST).read_text())
    del manifest["num_distinct_actions"]
    (target / MANIFEST).write_text(json.dumps(dict(manifest, format_version=1)))
    return target


def test_each_row_stores_the_roots_legal_actions_and_visits_as_a_replay_of_the_game_shows(data):
    """Replaying each game from its seed and moves: a row's policy_actions are exactly the legal actions
    of its position, ascending; its visits sum to the search's iterations (8); the move played is a most
    visited one; the features and the seat are the position's; the root value is the visit-weighted mean
    of the actions' mean rewards; the final returns are the replay's."""
    features = trian_features
    for index in range(2):
        arrays = read_shard(shard_path(data, index), LAYOUT)
        game = load_game("trian", players=2, variant="full")
        state = game.new_initial_state(seed=int(arrays["game_seed"]))
        rows = dict(zip(arrays["move"].tolist(), range(len(arrays["move"])), strict=True))
        assert len(arrays["game_actions"]) == int(arrays["moves"])
        for move, action in enumerate(arrays["game_actions"].tolist()):
            seat = state.current_player
            observation = state.observation(seat)
            legal = sorted(observation.legal_actions())
            assert (move in rows) == (len(legal) > 1)  # every choice is stored, no forced move
            if move in rows:
                row = rows[move]
                policy = root_policy(arrays, row)
                assert policy.actions.tolist() == legal
                assert int(policy.visits.sum()) == int(arrays["root_iterations"][row]) == SPEC.iterations
                assert policy.visits[policy.actions.tolist().index(action)] == policy.visits.max()
                assert arrays["seat"][row] == seat
                np.testing.assert_array_equal(arrays["features"][row], features.encode(observation, seat))
                weighted = float((policy.visits * policy.mean_rewards).sum() / policy.visits.sum())
                assert arrays["root_value"][row] == pytest.approx(weighted, abs=1e-6)
                assert dict(policy.pairs())[action] == policy.visits.max()
            state.apply(action)
        assert state.is_terminal()
        np.testing.assert_array_equal(arrays["returns"], np.asarray(state.returns(), np.float32))


def test_the_same_seed_writes_the_same_arrays(data, tmp_path):
    run_selfplay(SPEC, tmp_path, games=2, workers=1, command=["test"], quiet=True)
    for index in range(2):
        with np.load(shard_path(data, index)) as first, np.load(shard_path(tmp_path, index)) as again:
            assert sorted(first.files) == sorted(again.files) == sorted(SHARD_ARRAYS[2])
            for name in first.files:
                assert first[name].dtype == again[name].dtype
                np.testing.assert_array_equal(first[name], again[name])


def test_a_data_set_reads_each_rows_distribution_as_its_shard_does(data):
    manifest, arrays = load_dataset([data], policy=True)
    assert manifest["format_version"] == 2 and manifest["num_distinct_actions"] == TRIAN_ACTIONS == 210_000
    assert arrays["policy_offsets"].dtype == np.int64 and arrays["policy_actions"].dtype == np.int32
    first = read_shard(shard_path(data, 0), LAYOUT)
    second = read_shard(shard_path(data, 1), LAYOUT)
    rows = len(first["seat"])
    for row, (shard, shard_row) in {0: (first, 0), rows - 1: (first, rows - 1), rows: (second, 0)}.items():
        assert root_policy(arrays, row).pairs() == root_policy(shard, shard_row).pairs()
        np.testing.assert_array_equal(
            root_policy(arrays, row).mean_rewards, root_policy(shard, shard_row).mean_rewards
        )
    assert len(arrays["policy_offsets"]) == manifest["positions"] + 1
    with pytest.raises(IndexError):
        root_policy(arrays, manifest["positions"])
    plain = load_dataset([data])[1]  # for fitting: the distributions are left unread
    assert set(plain) == {"features", "returns_relative", "root_value", "game_index"}


def test_version_1_folders_are_read_for_fitting_and_refused_for_resuming(data, tmp_path):
    old = _as_version_1(data, tmp_path / "v1")
    manifest, arrays = load_dataset([old])
    assert manifest["format_version"] == 1 and manifest["positions"] == len(arrays["root_value"])
    both = load_dataset([old, data])[1]
    assert len(both["game_index"]) == 2 * len(arrays["game_index"]) and both["game_index"].max() == 3
    with pytest.raises(SelfPlayDataError, match="format-version-1 data holds no visit distributions: .*v1"):
        load_dataset([old, data], policy=True)
    with pytest.raises(SelfPlayDataError, match="format-version-1 self-play data .* another --out"):
        run_selfplay(SPEC, old, games=3, workers=1, command=["test"], quiet=True)
    (old / MANIFEST).unlink()  # a version-1 run stopped before it wrote its manifest
    with pytest.raises(SelfPlayDataError, match="format-version-1"):
        run_selfplay(SPEC, old, games=3, workers=1, command=["test"], quiet=True)
    with pytest.raises(SelfPlayDataError, match="unexpected \\['game_actions'"):
        read_shard(shard_path(data, 0), ShardLayout(**{**LAYOUT.__dict__, "format_version": 1}))
    with pytest.raises(SelfPlayDataError, match="hold no visit distributions"):
        root_policy(arrays, 0)


def test_resuming_into_a_folder_of_another_build_s_action_ids_is_refused(data, tmp_path):
    folder = tmp_path / "d"
    shutil.copytree(data, folder)
    manifest = json.loads((folder / MANIFEST).read_text())
    (folder / MANIFEST).write_text(json.dumps(dict(manifest, num_distinct_actions=200_000)))
    with pytest.raises(SelfPlayDataError, match="num_distinct_actions"):
        run_selfplay(SPEC, folder, games=2, workers=1, command=["test"], quiet=True)
    with pytest.raises(
        SelfPlayDataError, match="num_distinct_actions 200000, but this build's trian has 210000"
    ):
        load_dataset([folder])
    (folder / MANIFEST).write_text(json.dumps(dict(manifest, format_version=3)))
    with pytest.raises(SelfPlayDataError, match="manifest.json: format_version 3; this build reads 1, 2"):
        load_dataset([folder])


def _shard_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def _read(tmp: Path, arrays: dict[str, np.ndarray] | bytes) -> dict[str, np.ndarray]:
    path = tmp / "game-000000.npz"
    path.write_bytes(arrays if isinstance(arrays, bytes) else _shard_bytes(arrays))
    return read_shard(path, LAYOUT)


@pytest.fixture(scope="module")
def shard(data) -> dict[str, np.ndarray]:
    with np.load(shard_path(data, 0)) as arrays:
        return {name: arrays[name].copy() for name in arrays.files}


def _edited(shard: dict[str, np.ndarray], name: str, edit) -> dict[str, np.ndarray]:
    arrays = {k: v.copy() for k, v in shard.items()}
    result = edit(arrays[name], arrays)
    arrays[name] = arrays[name] if result is None else result
    return arrays


BAD_EDITS = {
    "a reward for an unvisited action": (
        "policy_values",
        lambda a, s: a.__setitem__(np.flatnonzero(s["policy_visits"] == 0)[0], 0.5),
        "a reward for an unvisited action",
    ),
    "a root value above 1": (
        "root_value",
        lambda a, s: a.__setitem__(0, 1.5),
        "root_value holds values outside",
    ),
    "a NaN feature": ("features", lambda a, s: a.__setitem__((0, 0), np.nan), "features holds NaN"),
    "negative moves": ("moves", lambda a, s: np.asarray(-1, np.int32), "moves is -1"),
    "offsets decrease": (
        "policy_offsets",
        lambda a, s: a.__setitem__(5, a[4] - 1),
        "policy_offsets decreases",
    ),
    "offsets past the end": ("policy_offsets", lambda a, s: a.__setitem__(-1, a[-1] + 1), "runs from 0 to"),
    "offsets start above 0": ("policy_offsets", lambda a, s: a.__setitem__(0, 1), "runs from 1 to"),
    "a row of one action": ("policy_offsets", lambda a, s: a.__setitem__(1, 1), "row 0 1 actions"),
    "offsets too short": ("policy_offsets", lambda a, s: a[:-1], "policy_offsets has shape"),
    "an action id past the game's": (
        "policy_actions",
        lambda a, s: a.__setitem__(3, TRIAN_ACTIONS),
        "outside 0..209999",
    ),
    "a negative action id": ("policy_actions", lambda a, s: a.__setitem__(3, -1), "outside 0..209999"),
    "actions unsorted in a row": (
        "policy_actions",
        lambda a, s: a.__setitem__(0, a[1]),
        "not strictly ascending",
    ),
    "actions as int16": ("policy_actions", lambda a, s: a.astype(np.int16), "policy_actions: <i2"),
    "actions as int64": ("policy_actions", lambda a, s: a.astype(np.int64), "policy_actions: <i8"),
    "actions big-endian": ("policy_actions", lambda a, s: a.astype(">i4"), "policy_actions: >i4"),
    "a negative visit count": ("policy_visits", lambda a, s: a.__setitem__(0, -1), "negative"),
    "visits off the iterations": ("policy_visits", lambda a, s: a.__setitem__(0, a[0] + 1), "do not sum"),
    "visits short": ("policy_visits", lambda a, s: a[:-1], "policy_visits has shape"),
    "a NaN reward": ("policy_values", lambda a, s: a.__setitem__(0, np.nan), "outside \\[0, 1\\]"),
    "a reward above 1": ("policy_values", lambda a, s: a.__setitem__(0, 1.5), "outside \\[0, 1\\]"),
    "iterations 0": (
        "root_iterations",
        lambda a, s: a.__setitem__(0, 0),
        "root_iterations holds a count below 1",
    ),
    "a played action off the row": (
        "game_actions",
        lambda a, s: a.__setitem__(s["move"][0], TRIAN_ACTIONS - 1),
        "played action",
    ),
    "game_actions short": ("game_actions", lambda a, s: a[:-1], "game_actions has shape"),
    "a seat past the players": ("seat", lambda a, s: a.__setitem__(0, 2), "seat holds seats outside 0..1"),
    "moves out of order": ("move", lambda a, s: a[::-1].copy(), "move is not strictly increasing"),
    "features 2-D Fortran": ("features", lambda a, s: np.asfortranarray(a), "Fortran order"),
    "features of another width": ("features", lambda a, s: a[:, :-1], "features has shape"),
    "returns_relative off": ("returns_relative", lambda a, s: a[:, ::-1].copy(), "not returns turned"),
}


@pytest.mark.parametrize("case", sorted(BAD_EDITS))
def test_a_bad_array_is_refused_naming_the_file_and_the_problem(shard, tmp_path, case):
    name, edit, message = BAD_EDITS[case]
    with pytest.raises(SelfPlayDataError, match=f"game-000000.npz: .*{message}"):
        _read(tmp_path, _edited(shard, name, edit))


def test_missing_extra_and_damaged_members_are_refused(shard, tmp_path):
    assert _read(tmp_path, shard).keys() == shard.keys()  # the real shard reads
    for name in V2_ONLY:
        with pytest.raises(SelfPlayDataError, match=f"missing \\['{name}'\\]"):
            _read(tmp_path, {k: v for k, v in shard.items() if k != name})
    with pytest.raises(SelfPlayDataError, match="unexpected \\['x'\\]"):
        _read(tmp_path, {**shard, "x": np.zeros(1)})
    blob = _shard_bytes(shard)
    with pytest.raises(SelfPlayDataError, match="unreadable shard: BadZipFile"):
        _read(tmp_path, blob[: len(blob) // 2])
    # a header that claims far more data than the member holds: refused before any allocation
    with zipfile.ZipFile(io.BytesIO(blob)) as archive:
        members = {m: archive.read(m) for m in archive.namelist()}
    header = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.int32))
    huge = io.BytesIO()
    np.lib.format.write_array_header_1_0(huge, {**header, "shape": (1 << 40,)})
    members["policy_visits.npy"] = huge.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for member, content in members.items():
            archive.writestr(member, content)
    with pytest.raises(SelfPlayDataError, match="policy_visits: 4398046511104 bytes; at most"):
        _read(tmp_path, out.getvalue())


def _check_invariants(arrays: dict[str, np.ndarray]) -> None:
    """What a read shard promises, checked the slow way, independently of the reader's vectorised checks."""
    offsets = arrays["policy_offsets"].tolist()
    rows = len(arrays["seat"])
    assert len(offsets) == rows + 1 and offsets[0] == 0 and offsets[-1] == len(arrays["policy_actions"])
    for row in range(rows):
        assert offsets[row] + 2 <= offsets[row + 1]
        policy = root_policy(arrays, row)
        ids = policy.actions.tolist()
        assert ids == sorted(set(ids)) and ids[0] >= 0 and ids[-1] < TRIAN_ACTIONS
        assert (
            min(policy.visits.tolist()) >= 0 and sum(policy.visits.tolist()) == arrays["root_iterations"][row]
        )
        assert all(0 <= v <= 1 for v in policy.mean_rewards.tolist())
        assert int(arrays["game_actions"][arrays["move"][row]]) in ids
    assert all(0 <= s < 2 for s in arrays["seat"].tolist())
    assert arrays["features"].shape == (rows, LAYOUT.num_features)


@fuzz_settings(default_examples=150)
@given(st.data())
def test_fuzzed_shards_are_refused_or_read_whole(shard, tmp_path_factory, data):
    """Edits to the arrays (values set to edge cases, arrays cut or lengthened, dtypes changed) and to the
    file's bytes: every result is a SelfPlayDataError or a shard that keeps every promise of the format."""
    arrays = {k: v.copy() for k, v in shard.items()}
    for _ in range(data.draw(st.integers(1, 3))):
        name = data.draw(st.sampled_from([*POLICY_ARRAYS, "game_actions", "root_iterations", "move", "seat"]))
        kind = data.draw(st.sampled_from(["set", "cut", "grow", "dtype"]))
        array = arrays[name].reshape(-1)
        if kind == "set" and len(array):
            at = data.draw(st.integers(0, len(array) - 1))
            edge = [-1, 0, 1, 2, TRIAN_ACTIONS - 1, TRIAN_ACTIONS, 2**31 - 1, -(2**31)]
            value = data.draw(st.sampled_from(edge))
            array = array.copy()
            array[at] = np.asarray(value, dtype=np.int64).astype(array.dtype)  # wraps where narrower
        elif kind == "cut":
            array = array[: data.draw(st.integers(0, len(array)))]
        elif kind == "grow":
            array = np.concatenate([array, array[: data.draw(st.integers(1, 3))]])
        elif kind == "dtype":
            array = array.astype(data.draw(st.sampled_from([np.int16, np.int64, np.float32, np.uint32])))
        arrays[name] = array
    blob = bytearray(_shard_bytes(arrays))
    if data.draw(st.booleans()):  # damage the file itself
        for _ in range(data.draw(st.integers(1, 3))):
            at = data.draw(st.integers(0, len(blob) - 1))
            blob[at] = data.draw(st.integers(0, 255))
    try:
        read = _read(tmp_path_factory.mktemp("fuzz"), bytes(blob))
    except SelfPlayDataError as exc:
        event(f"refused: {str(exc).partition(': ')[2].split(' ')[0]}")
        return
    event("read")
    _check_invariants(read)


def test_fit_reads_both_format_versions(data, tmp_path):
    pytest.importorskip("torch")
    from orrery.search._train_fit import FitSettings, fit

    old = _as_version_1(data, tmp_path / "v1")
    settings = FitSettings(hidden=(8,), epochs=1, held_out=0.5)
    for name, folders in {"v1": [old], "v2": [data]}.items():
        out = tmp_path / name / "trian-full-2p.orrnet"
        result = fit(folders, out, settings, command=["test"])
        assert result["bytes"] == out.stat().st_size > 0
    # the same games and settings: the same model, whichever version stored them
    assert (tmp_path / "v1" / "trian-full-2p.orrnet").read_bytes() == (
        tmp_path / "v2" / "trian-full-2p.orrnet"
    ).read_bytes()
    mixed = fit([old, data], tmp_path / "mixed.orrnet", settings, command=["test"])
    assert json.loads((tmp_path / "mixed.json").read_text())["data"]["games"] == 4 and mixed["bytes"] > 0
