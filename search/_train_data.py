"""Self-play data for a learned evaluation: `orrery train selfplay` (docs/learning.md, "Self-play data").

Game i of a run (0 <= i < games) is dealt from seed `seed * 1_000_003 + i` and every seat is played by
the same search preset at a fixed iteration budget, each move seeded from a stream derived from the game
seed, so a game replays exactly however many workers run. Each finished game is one shard,
`DIR/shards/game-NNNNNN.npz`, written to a temporary name and renamed, so an interrupted run resumes by
skipping the shards that exist. Workers are processes (multiprocessing); a game is the unit of work.
A shard's arrays and their checks are in _train_shards.py.
"""

from __future__ import annotations

import datetime
import json
import multiprocessing
import os
import random
import sys
import time
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from orrery.core_ext import load_game
from orrery.search._backends import search_observation
from orrery.search._config import Budget, get_config
from orrery.search._learned import feature_hook
from orrery.search._train_shards import POLICY_ARRAYS, SelfPlayDataError, ShardLayout, read_shard

DATA_FORMAT_VERSION = 2  # 2 (2026-11-27): the root's visit distributions and the game's moves
READABLE_FORMAT_VERSIONS = (1, 2)  # `orrery train fit` reads both; only version 2 holds the distributions
MANIFEST = "manifest.json"


@dataclass(frozen=True, kw_only=True)
class SelfPlaySpec:
    game: str
    variant: str
    players: int
    config: str  # search preset label, e.g. "ismcts@3"
    iterations: int  # search iterations per move (one worker thread)
    seed: int  # master seed: game i is dealt from game_seed(seed, i)


def catalogue_revision(spec: SelfPlaySpec) -> str:
    """The game's catalogue revision ("" for a game without a catalogue): recorded in the manifest, so a
    model trained on the data is tied to the cards the games were dealt with."""
    revision = load_game(spec.game, players=spec.players, variant=spec.variant)._catalogue_revision()
    return revision or ""


def num_distinct_actions(spec: SelfPlaySpec) -> int:
    """Action ids are 0 .. this - 1 (recorded in the manifest: the shards' ids mean this build's actions)."""
    return int(load_game(spec.game, players=spec.players, variant=spec.variant).num_distinct_actions)


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def shard_path(out: Path, index: int) -> Path:
    return out / "shards" / f"game-{index:06d}.npz"


def play_selfplay_game(spec: SelfPlaySpec, index: int) -> dict[str, np.ndarray]:
    """One self-play game's arrays (the shard's contents): one row per searched position."""
    game = load_game(spec.game, players=spec.players, variant=spec.variant)
    features = feature_hook(spec.game)
    config = get_config(spec.config)
    budget = Budget(iterations=spec.iterations)
    seed = game_seed(spec.seed, index)
    state = game.new_initial_state(seed=seed)
    move_rng = random.Random(seed)
    rows: list[np.ndarray] = []
    seats: list[int] = []
    turns: list[int] = []
    root_values: list[float] = []
    iterations: list[int] = []
    policy = _PolicyRows()
    game_actions: list[int] = []
    while not state.is_terminal():
        seat = state.current_player
        observation = state.observation(seat)
        legal = observation.legal_actions()
        move_seed = move_rng.getrandbits(63)
        if len(legal) == 1:  # forced: nothing searched, nothing recorded
            action = legal[0]
        else:
            result = search_observation(observation, config, budget, seed=move_seed)
            action = result.best_action
            visits = sum(a.visits for a in result.actions)
            root_values.append(sum(a.visits * a.mean_reward for a in result.actions) / max(1, visits))
            iterations.append(result.iterations)
            policy.add(result.actions)
            rows.append(features.encode(observation, seat))
            seats.append(seat)
            turns.append(len(game_actions))
        state.apply(action)
        game_actions.append(action)
    returns = np.asarray(state.returns(), dtype=np.float32)
    seat_array = np.asarray(seats, dtype=np.int8)
    # each row's returns seat-relative to its seat to move (column k: the seat k places after it)
    relative = np.stack([np.roll(returns, -s) for s in seats]) if seats else np.zeros((0, spec.players))
    return {
        "features": np.stack(rows).astype(np.float32)
        if rows
        else np.zeros((0, features.num_features(spec.players)), np.float32),
        "seat": seat_array,
        "move": np.asarray(turns, dtype=np.int16),
        "root_value": np.asarray(root_values, dtype=np.float32),
        "returns": returns,
        "returns_relative": relative.astype(np.float32),
        "game_seed": np.asarray(seed, dtype=np.int64),
        "moves": np.asarray(len(game_actions), dtype=np.int32),
        "game_actions": np.asarray(game_actions, dtype=np.int32),
        "root_iterations": np.asarray(iterations, dtype=np.int32),
        **policy.arrays(),
    }


class _PolicyRows:
    """The root statistics of each searched position, gathered into CSR arrays (docs/learning.md)."""

    def __init__(self) -> None:
        self.offsets = [0]
        self.actions: list[int] = []
        self.visits: list[int] = []
        self.values: list[float] = []

    def add(self, stats) -> None:
        """One row: every legal root action (search.ActionStats), stored by ascending action id."""
        for stat in sorted(stats, key=lambda a: a.action):
            self.actions.append(stat.action)
            self.visits.append(stat.visits)
            self.values.append(stat.mean_reward)
        self.offsets.append(len(self.actions))

    def arrays(self) -> dict[str, np.ndarray]:
        if self.offsets[-1] >= 2**31:
            raise ValueError("2**31 or more root actions over a game's positions: int32 offsets overflow")
        return {
            "policy_offsets": np.asarray(self.offsets, dtype=np.int32),
            "policy_actions": np.asarray(self.actions, dtype=np.int32),
            "policy_visits": np.asarray(self.visits, dtype=np.int32),
            "policy_values": np.asarray(self.values, dtype=np.float32),
        }


def _write_shard(spec: SelfPlaySpec, out: Path, index: int) -> tuple[int, int, float]:
    start = time.perf_counter()
    arrays = play_selfplay_game(spec, index)
    path = shard_path(out, index)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)
    return index, len(arrays["seat"]), time.perf_counter() - start


def _worker(job: tuple[SelfPlaySpec, str, int]) -> tuple[int, int, float]:
    spec, out, index = job
    return _write_shard(spec, Path(out), index)


def run_selfplay(
    spec: SelfPlaySpec, out: Path, *, games: int, workers: int, command: Sequence[str], quiet: bool = False
) -> dict:
    """Play the missing games of 0..games-1 and write the manifest; returns the run's summary."""
    features = feature_hook(spec.game)
    out.mkdir(parents=True, exist_ok=True)
    (out / "shards").mkdir(exist_ok=True)
    _check_manifest(out, spec)
    todo = [i for i in range(games) if not shard_path(out, i).exists()]
    start = time.perf_counter()
    positions = 0
    jobs = [(spec, str(out), i) for i in todo]
    results: Iterator[tuple[int, int, float]]
    if workers <= 1:
        results = map(_worker, jobs)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn").Pool(workers)
        results = pool.imap_unordered(_worker, jobs)
    try:
        for done, (index, rows, seconds) in enumerate(results, 1):
            positions += rows
            if not quiet:
                print(
                    f"game {index}: {rows} positions in {seconds:.1f} s ({done}/{len(todo)})", file=sys.stderr
                )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    elapsed = time.perf_counter() - start
    shards = sorted((out / "shards").glob("game-*.npz"))
    total_positions = sum(len(np.load(p)["seat"]) for p in shards)
    manifest = {
        "format_version": DATA_FORMAT_VERSION,
        "game": spec.game,
        "variant": spec.variant,
        "players": spec.players,
        "layout_version": features.LAYOUT_VERSION,
        "num_features": features.num_features(spec.players),
        "num_distinct_actions": num_distinct_actions(spec),
        "catalogue": catalogue_revision(spec),
        "config": spec.config,
        "iterations_per_move": spec.iterations,
        "seed": spec.seed,
        "games": len(shards),
        "positions": total_positions,
        "command": " ".join(command),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return {
        "games_played": len(todo),
        "positions": positions,
        "workers": workers,
        "seconds": round(elapsed, 2),
        "games_per_minute": round(60 * len(todo) / elapsed, 2) if elapsed > 0 else None,
        "positions_per_second": round(positions / elapsed, 1) if elapsed > 0 else None,
        "total_games": len(shards),
        "total_positions": total_positions,
        "shard_bytes": sum(p.stat().st_size for p in shards),  # all the folder's shards, on disk
    }


def _check_manifest(out: Path, spec: SelfPlaySpec) -> None:
    """Resuming into a folder made with other settings, or of another format version, would mix data:
    refuse it."""
    path = out / MANIFEST
    old = _read_manifest(out) if path.exists() else {}
    version = old.get("format_version", _shards_format_version(out))
    if version is not None and version != DATA_FORMAT_VERSION:
        raise SelfPlayDataError(
            f"{out} holds format-version-{version} self-play data (without the root visit distributions); "
            f"this build writes version {DATA_FORMAT_VERSION} and does not mix the two in one folder. Write "
            "the new games to another --out with another --seed (the same seed replays the same games); "
            "`orrery train fit` reads folders of both versions together"
        )
    if not old:
        return
    mine = {
        "game": spec.game,
        "variant": spec.variant,
        "players": spec.players,
        "config": spec.config,
        "iterations_per_move": spec.iterations,
        "seed": spec.seed,
        "catalogue": catalogue_revision(spec),  # games dealt with other cards must not be mixed in
        "num_distinct_actions": num_distinct_actions(spec),  # action ids of another build
    }
    clash = {k: (old.get(k), v) for k, v in mine.items() if old.get(k) != v}
    if clash:
        raise SelfPlayDataError(f"{out} holds self-play data made with other settings: {clash}")


def _shards_format_version(out: Path) -> int | None:
    """The format of shards left without a manifest (a first run stopped before writing it), from one of
    them: version 1 shards lack the visit distributions. None: no shard."""
    shard = next(iter(sorted((out / "shards").glob("game-*.npz"))), None)
    if shard is None:
        return None
    try:
        with zipfile.ZipFile(shard) as archive:
            return 2 if "policy_offsets.npy" in archive.namelist() else 1
    except (zipfile.BadZipFile, OSError) as exc:
        raise SelfPlayDataError(f"{shard}: unreadable shard: {exc}") from None


def _read_manifest(folder: Path) -> dict:
    """A data folder's manifest, with the fields the shards are read by checked."""
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SelfPlayDataError(f"{path}: unreadable manifest: {exc}") from None
    if not isinstance(manifest, dict):
        raise SelfPlayDataError(f"{path}: not a JSON object")
    if manifest.get("format_version") not in READABLE_FORMAT_VERSIONS:
        raise SelfPlayDataError(
            f"{path}: format_version {manifest.get('format_version')!r}; this build reads "
            f"{', '.join(map(str, READABLE_FORMAT_VERSIONS))}"
        )
    for key in ("game", "variant"):
        if not isinstance(manifest.get(key), str):
            raise SelfPlayDataError(f"{path}: {key} must be a string")
    for key in ("players", "num_features"):
        value = manifest.get(key)
        if type(value) is not int or not 1 <= value <= 100_000:
            raise SelfPlayDataError(f"{path}: {key} must be an integer from 1 to 100000, not {value!r}")
    return manifest


def _shard_layout(folder: Path, manifest: dict) -> ShardLayout:
    game = load_game(manifest["game"], players=manifest["players"], variant=manifest["variant"])
    actions = int(game.num_distinct_actions)
    recorded = manifest.get("num_distinct_actions", actions)  # version 1 does not record it
    if recorded != actions:
        raise SelfPlayDataError(
            f"{Path(folder) / MANIFEST}: num_distinct_actions {recorded!r}, but this build's "
            f"{manifest['game']} has {actions}: its action ids mean other actions here; play it again"
        )
    return ShardLayout(
        format_version=manifest["format_version"],
        players=manifest["players"],
        num_features=manifest["num_features"],
        num_distinct_actions=actions,
    )


def load_dataset(folders: Sequence[Path], *, policy: bool = False) -> tuple[dict, dict[str, np.ndarray]]:
    """The manifest of the first folder and every shard's rows concatenated (all folders must agree on
    game, variant, players and layout; format versions 1 and 2 mix), with `game_index` numbering the games
    across folders. Every shard is checked as it is read (SelfPlayDataError names a bad one).

    `policy=True` also gives the root visit distributions, concatenated in CSR form (root_policy reads a
    row; `policy_offsets` is int64 here): every folder must then be of format version 2."""
    manifests = [_read_manifest(Path(f)) for f in folders]
    keys = ("game", "variant", "players", "layout_version", "num_features", "catalogue")
    for m in manifests[1:]:
        if any(m.get(k) != manifests[0].get(k) for k in keys):
            raise SelfPlayDataError(
                "the data folders are of different games, variants, players, layouts or catalogue revisions"
            )
    if policy and any(m["format_version"] < 2 for m in manifests):
        old = [str(f) for f, m in zip(folders, manifests, strict=True) if m["format_version"] < 2]
        raise SelfPlayDataError(f"format-version-1 data holds no visit distributions: {', '.join(old)}")
    names: tuple[str, ...] = ("features", "returns_relative", "root_value", "game_index")
    if policy:
        names += ("root_iterations", *POLICY_ARRAYS)
    parts: dict[str, list[np.ndarray]] = {name: [] for name in names}
    parts["policy_offsets"] = [np.zeros(1, np.int64)]
    game_index = 0
    actions_before = 0
    for folder, manifest in zip(folders, manifests, strict=True):
        layout = _shard_layout(Path(folder), manifest)
        for shard in sorted((Path(folder) / "shards").glob("game-*.npz")):
            data = read_shard(shard, layout, policy=policy)
            data["game_index"] = np.full(len(data["seat"]), game_index, dtype=np.int32)
            if policy:
                offsets = data.pop("policy_offsets")
                parts["policy_offsets"].append(offsets[1:].astype(np.int64) + actions_before)
                actions_before += int(offsets[-1])
            for name in names:
                if name != "policy_offsets":
                    parts[name].append(data[name])
            game_index += 1
    if game_index == 0:
        raise SelfPlayDataError(f"no shards (shards/game-*.npz) in {', '.join(map(str, folders))}")
    if not policy:
        del parts["policy_offsets"]
    arrays = {k: np.concatenate(v) for k, v in parts.items()}
    manifest = dict(manifests[0], games=game_index, positions=len(arrays["game_index"]))
    return manifest, arrays
