"""Self-play data for a learned evaluation: `orrery train selfplay` (docs/learning.md, "Self-play data").

Game i of a run (0 <= i < games) is dealt from seed `seed * 1_000_003 + i` and every seat is played by
the same search preset at a fixed iteration budget, each move seeded from a stream derived from the game
seed, so a game replays exactly however many workers run. Each finished game is one shard,
`DIR/shards/game-NNNNNN.npz`, written to a temporary name and renamed, so an interrupted run resumes by
skipping the shards that exist. Workers are processes (multiprocessing); a game is the unit of work.
"""

from __future__ import annotations

import datetime
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from orrery.core_ext import load_game
from orrery.search._backends import search_observation
from orrery.search._config import Budget, get_config
from orrery.search._learned import feature_hook

DATA_FORMAT_VERSION = 1
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
    moves = 0
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
            rows.append(features.encode(observation, seat))
            seats.append(seat)
            turns.append(moves)
        state.apply(action)
        moves += 1
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
        "moves": np.asarray(moves, dtype=np.int32),
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
    }


def _check_manifest(out: Path, spec: SelfPlaySpec) -> None:
    """Resuming into a folder made with other settings would mix data: refuse it."""
    path = out / MANIFEST
    if not path.exists():
        return
    old = json.loads(path.read_text())
    mine = {
        "game": spec.game,
        "variant": spec.variant,
        "players": spec.players,
        "config": spec.config,
        "iterations_per_move": spec.iterations,
        "seed": spec.seed,
        "catalogue": catalogue_revision(spec),  # games dealt with other cards must not be mixed in
    }
    clash = {k: (old.get(k), v) for k, v in mine.items() if old.get(k) != v}
    if clash:
        raise ValueError(f"{out} holds self-play data made with other settings: {clash}")


def load_dataset(folders: Sequence[Path]) -> tuple[dict, dict[str, np.ndarray]]:
    """The manifest of the first folder and every shard's rows concatenated (all folders must agree on
    game, variant, players and layout), with `game_index` numbering the games across folders."""
    manifests = [json.loads((Path(f) / MANIFEST).read_text()) for f in folders]
    keys = ("format_version", "game", "variant", "players", "layout_version", "num_features", "catalogue")
    for m in manifests[1:]:
        if any(m.get(k) != manifests[0].get(k) for k in keys):
            raise ValueError(
                "the data folders are of different games, variants, players, layouts or catalogue revisions"
            )
    if manifests[0]["format_version"] != DATA_FORMAT_VERSION:
        raise ValueError(
            f"self-play data format {manifests[0]['format_version']}; expected {DATA_FORMAT_VERSION}"
        )
    parts: dict[str, list[np.ndarray]] = {
        "features": [],
        "returns_relative": [],
        "root_value": [],
        "game_index": [],
    }
    game_index = 0
    for folder in folders:
        for shard in sorted((Path(folder) / "shards").glob("game-*.npz")):
            with np.load(shard) as data:
                rows = len(data["seat"])
                parts["features"].append(data["features"])
                parts["returns_relative"].append(data["returns_relative"])
                parts["root_value"].append(data["root_value"])
                parts["game_index"].append(np.full(rows, game_index, dtype=np.int32))
            game_index += 1
    arrays = {k: np.concatenate(v) for k, v in parts.items()}
    manifest = dict(manifests[0], games=game_index, positions=len(arrays["game_index"]))
    return manifest, arrays
