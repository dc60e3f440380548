"""One self-play shard on disk, `shards/game-NNNNNN.npz` (docs/learning.md, "Self-play data"): its arrays
per format version, the reader that checks every array it reads, and the root visit distributions' reader.

A shard is a NumPy `.npz` (a zip of `.npy` members). It is read member by member with the `.npy` header
checked before any data is read: the exact dtype and number of dimensions of each array, its byte count
against a cap and against what the member holds. Then the values are checked (lengths agree with each
other, offsets are monotone and in range, action ids are below the game's `num_distinct_actions`, visits
are non-negative and sum to the row's iterations, ...). A shard that fails is refused with a
SelfPlayDataError naming the file and the problem, so a bad file never reaches training.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAX_ARRAY_BYTES = 1 << 30  # one array's data; a Trian game's features are about 0.2 MB

# The arrays of a shard per format version: name -> (dtype, shape). A shape names its lengths: "rows"
# (stored positions), "rows+1", "moves" (the game's moves), "players", "num_features", "n" (root actions
# over all rows). Version 2 (2026-11-27) added the root's visit distributions and the game's moves.
_V1_ARRAYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "features": ("<f4", ("rows", "num_features")),
    "seat": ("|i1", ("rows",)),
    "move": ("<i2", ("rows",)),
    "root_value": ("<f4", ("rows",)),
    "returns": ("<f4", ("players",)),
    "returns_relative": ("<f4", ("rows", "players")),
    "game_seed": ("<i8", ()),
    "moves": ("<i4", ()),
}
_V2_ARRAYS = {
    **_V1_ARRAYS,
    "game_actions": ("<i4", ("moves",)),
    "root_iterations": ("<i4", ("rows",)),
    "policy_offsets": ("<i4", ("rows+1",)),
    "policy_actions": ("<i4", ("n",)),
    "policy_visits": ("<i4", ("n",)),
    "policy_values": ("<f4", ("n",)),
}
SHARD_ARRAYS = {1: _V1_ARRAYS, 2: _V2_ARRAYS}
POLICY_ARRAYS = ("policy_offsets", "policy_actions", "policy_visits", "policy_values")

# What can go wrong reading a damaged zip or .npy: each becomes a SelfPlayDataError naming the file.
_READ_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    ValueError,
    KeyError,
    NotImplementedError,  # a compression method zipfile lacks
    RuntimeError,  # an encrypted member
)


class SelfPlayDataError(ValueError):
    """A self-play data folder, manifest or shard that cannot be used; the message names the file."""


class _ShardProblem(Exception):
    """What is wrong inside a shard; read_shard names the file."""


@dataclass(frozen=True, kw_only=True)
class ShardLayout:
    """What a folder's shards must hold: from its manifest and the game."""

    format_version: int  # 1 or 2
    players: int
    num_features: int
    num_distinct_actions: int  # action ids are 0 .. num_distinct_actions - 1


@dataclass(frozen=True)
class RootPolicy:
    """One row's root statistics: every legal action at the searched position, ascending by id."""

    actions: np.ndarray  # int32: the game's action ids
    visits: np.ndarray  # int32: iterations that went through each action (they sum to the row's iterations)
    mean_rewards: np.ndarray  # float32 in [0, 1]: the mover's mean reward after each action (0 unvisited)

    def pairs(self) -> list[tuple[int, int]]:
        """(action id, visits) for each legal action."""
        return list(zip(self.actions.tolist(), self.visits.tolist(), strict=True))


def root_policy(arrays: Mapping[str, np.ndarray], row: int) -> RootPolicy:
    """Row `row`'s root statistics, from a shard (read_shard) or a data set (load_dataset(policy=True))."""
    if "policy_offsets" not in arrays:
        raise SelfPlayDataError("these arrays hold no visit distributions (format version 1 data)")
    offsets = arrays["policy_offsets"]
    if not 0 <= row < len(offsets) - 1:
        raise IndexError(f"row {row} out of range: {len(offsets) - 1} rows")
    start, stop = int(offsets[row]), int(offsets[row + 1])
    return RootPolicy(
        arrays["policy_actions"][start:stop],
        arrays["policy_visits"][start:stop],
        arrays["policy_values"][start:stop],
    )


def read_shard(path: Path, layout: ShardLayout, *, policy: bool = True) -> dict[str, np.ndarray]:
    """The shard's arrays, every one checked; `policy=False` leaves the visit distributions unread (they
    must still be present in a version-2 shard). SelfPlayDataError names the file and the problem."""
    expected = SHARD_ARRAYS[layout.format_version]
    wanted = [name for name in expected if policy or name not in POLICY_ARRAYS]
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.namelist()
            present = {m.removesuffix(".npy") for m in members}
            if len(present) != len(members) or present != set(expected):
                missing, extra = sorted(set(expected) - present), sorted(present - set(expected))
                raise _ShardProblem(
                    f"not a format-{layout.format_version} shard: "
                    f"missing {missing}, unexpected {extra or 'none'}"
                )
            arrays = {name: _read_member(archive, name, *expected[name]) for name in wanted}
    except _ShardProblem as exc:
        raise SelfPlayDataError(f"{path}: {exc}") from None
    except _READ_ERRORS as exc:
        raise SelfPlayDataError(f"{path}: unreadable shard: {type(exc).__name__}: {exc}") from None
    problem = _check_shapes(arrays, expected, layout) or _check_values(arrays, layout)
    if problem:
        raise SelfPlayDataError(f"{path}: {problem}")
    return arrays


def _read_member(archive: zipfile.ZipFile, name: str, dtype: str, shape: tuple[str, ...]) -> np.ndarray:
    with archive.open(f"{name}.npy") as member:
        version = np.lib.format.read_magic(member)
        if version == (1, 0):
            stored_shape, fortran_order, stored_dtype = np.lib.format.read_array_header_1_0(member)
        elif version == (2, 0):
            stored_shape, fortran_order, stored_dtype = np.lib.format.read_array_header_2_0(member)
        else:
            raise _ShardProblem(f"{name}: .npy format {version}; expected 1.0 or 2.0")
        if stored_dtype != np.dtype(dtype) or len(stored_shape) != len(shape) or fortran_order:
            raise _ShardProblem(
                f"{name}: {stored_dtype.str} {list(stored_shape)}"
                f"{' Fortran order' if fortran_order else ''}; expected {dtype} of {len(shape)} dimensions"
            )
        count = 1
        for length in stored_shape:
            count *= length
        nbytes = count * stored_dtype.itemsize
        if nbytes > MAX_ARRAY_BYTES:
            raise _ShardProblem(f"{name}: {nbytes} bytes; at most {MAX_ARRAY_BYTES}")
        data = member.read(nbytes + 1)
    if len(data) != nbytes:
        raise _ShardProblem(f"{name}: {len(data)} data bytes where its header says {nbytes}")
    return np.frombuffer(bytearray(data), dtype=stored_dtype).reshape(stored_shape)


def _check_shapes(
    arrays: dict[str, np.ndarray], expected: dict[str, tuple[str, tuple[str, ...]]], layout: ShardLayout
) -> str | None:
    """Every length agrees with the others and with the layout; a problem's description, or None."""
    rows = len(arrays["seat"])
    moves = int(arrays["moves"])
    if moves < 0:
        return f"moves is {moves}"
    lengths = {
        "rows": rows,
        "rows+1": rows + 1,
        "moves": moves,
        "players": layout.players,
        "num_features": layout.num_features,
    }
    if "policy_actions" in arrays:
        lengths["n"] = len(arrays["policy_actions"])
    for name, array in arrays.items():
        want = tuple(lengths[dim] for dim in expected[name][1])
        if array.shape != want:
            dims = ", ".join(expected[name][1])
            return f"{name} has shape {list(array.shape)}; expected {list(want)} ({dims})"
    return None


def _check_values(arrays: dict[str, np.ndarray], layout: ShardLayout) -> str | None:
    """The values are in range and consistent; a problem's description, or None."""
    moves = int(arrays["moves"])
    seat, move = arrays["seat"], arrays["move"]
    for name in ("features", "root_value", "returns", "returns_relative"):
        if not np.isfinite(arrays[name]).all():
            return f"{name} holds NaN or infinity"
    for name in ("root_value", "returns"):
        if ((arrays[name] < 0) | (arrays[name] > 1)).any():
            return f"{name} holds values outside [0, 1]"
    if ((seat < 0) | (seat >= layout.players)).any():
        return f"seat holds seats outside 0..{layout.players - 1}"
    if len(move) and (move[0] < 0 or move[-1] >= moves or (np.diff(move) <= 0).any()):
        return f"move is not strictly increasing within 0..{moves - 1} (the game's moves)"
    relative = np.stack([np.roll(arrays["returns"], -s) for s in seat.tolist()]) if len(seat) else None
    if relative is not None and not np.array_equal(relative, arrays["returns_relative"]):
        return "returns_relative is not returns turned to each row's seat"
    if "game_actions" in arrays:
        return _check_game_actions(arrays, layout) or _check_policy(arrays, layout)
    return None


def _check_game_actions(arrays: dict[str, np.ndarray], layout: ShardLayout) -> str | None:
    actions = arrays["game_actions"]
    if ((actions < 0) | (actions >= layout.num_distinct_actions)).any():
        return f"game_actions holds action ids outside 0..{layout.num_distinct_actions - 1}"
    iterations = arrays["root_iterations"]
    if (iterations < 1).any():
        return "root_iterations holds a count below 1"
    return None


def _check_policy(arrays: dict[str, np.ndarray], layout: ShardLayout) -> str | None:
    """The CSR arrays: row i's actions are policy_actions[offsets[i]:offsets[i + 1]], ascending ids."""
    if "policy_offsets" not in arrays:
        return None  # read without the visit distributions
    offsets = arrays["policy_offsets"].astype(np.int64)
    actions, visits, values = arrays["policy_actions"], arrays["policy_visits"], arrays["policy_values"]
    n = len(actions)
    if offsets[0] != 0 or offsets[-1] != n:
        return f"policy_offsets runs from {offsets[0]} to {offsets[-1]}; expected 0 to {n} (the actions)"
    widths = np.diff(offsets)
    if len(widths) == 0:
        return None  # no stored position, no root actions (offsets[-1] == n == 0)
    if (widths < 0).any():
        return f"policy_offsets decreases at row {int(np.flatnonzero(widths < 0)[0])}"
    if (widths < 2).any():
        row = int(np.flatnonzero(widths < 2)[0])
        return f"policy_offsets gives row {row} {widths[row]} actions; a stored position has at least 2"
    if ((actions < 0) | (actions >= layout.num_distinct_actions)).any():
        return f"policy_actions holds action ids outside 0..{layout.num_distinct_actions - 1}"
    rows = np.repeat(np.arange(len(widths), dtype=np.int64), widths)
    keys = rows * layout.num_distinct_actions + actions  # ascending iff each row's ids ascend
    if (np.diff(keys) <= 0).any():
        return "policy_actions are not strictly ascending within a row"
    if (visits < 0).any():
        return "policy_visits holds a negative count"
    if not np.array_equal(np.add.reduceat(visits.astype(np.int64), offsets[:-1]), arrays["root_iterations"]):
        return "policy_visits of a row do not sum to its root_iterations"
    if not np.isfinite(values).all() or ((values < 0) | (values > 1)).any():
        return "policy_values holds values outside [0, 1]"
    if (values[visits == 0] != 0).any():
        return "policy_values holds a reward for an unvisited action"
    played = np.arange(len(widths), dtype=np.int64) * layout.num_distinct_actions
    played += arrays["game_actions"][arrays["move"]]
    found = np.searchsorted(keys, played)
    if ((found >= n) | (keys[np.minimum(found, n - 1)] != played)).any():
        return "a row's played action (game_actions at its move) is not among its policy_actions"
    return None
