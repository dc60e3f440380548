"""Observation tensors: one seat's observation as a fixed-shape float32 vector (issue 19), for learning code
and the OpenSpiel bridge.

Each game describes its tensor once, as a tree of small encoders that mirrors the observation's JSON facts
(`Observation.to_dict()["state"]`); the same tree writes the tensor, gives its size and writes the field
table of the game's rules doc ("Observation tensor"), so the documented layout cannot drift from the code.

Layout of every game: the global part first (fields that are not one seat's), then one block per seat in
seat-relative order: block 0 is the observer's, block k the seat k places after it in turn order. Every
seat number inside the tensor is seat-relative the same way. The shape is (global + blocks * block,), so it
is fixed per game, variant and player count; fields a variant does not have stay 0. Values lie in [0, 1]:
one-hot and multi-hot planes, counts divided by a documented cap (clipped there), booleans as 0/1; a null
(none, or hidden from this seat) writes zeros, and a hidden marker writes its own "unknown" slot.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from orrery.core_ext._registry import MAX_SEATS, game_info
from orrery.core_ext.game import Observation


class Context:
    """What an encoder may need besides its own value: the observer, the seat count and game extras."""

    __slots__ = ("extras", "num_players", "observer")

    def __init__(self, observer: int, num_players: int) -> None:
        self.observer = observer
        self.num_players = num_players
        self.extras: dict[str, Any] = {}


@dataclass(frozen=True)
class Row:
    """One line of the documented layout."""

    offset: int
    size: int
    field: str
    encoding: str
    relative: bool  # the offset counts from the start of the enclosing list entry or seat block


class Node:
    """An encoder for one JSON value: `size` floats written at an offset."""

    size: int

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        raise NotImplementedError

    def rows(self, path: str, offset: int, relative: bool) -> Iterable[Row]:
        yield Row(offset, self.size, path, self.describe(), relative)

    def describe(self) -> str:
        raise NotImplementedError


class Flag(Node):
    """A boolean: 1 when true."""

    size = 1

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value:
            out[offset] = 1.0

    def describe(self) -> str:
        return "1 if true"


class Scalar(Node):
    """A number scaled to [0, 1]: (value - low) / (cap - low), clipped; null writes 0."""

    size = 1

    def __init__(self, cap: float, low: float = 0.0) -> None:
        self.cap, self.low = float(cap), float(low)

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value is None:
            return
        x = (value - self.low) / (self.cap - self.low)
        out[offset] = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def describe(self) -> str:
        if self.low:
            return f"(value {-self.low:+g}) / {self.cap - self.low:g}, clipped to [0, 1]"
        return f"value / {self.cap:g}, clipped at 1"


class OneHot(Node):
    """One slot per name (in the order listed); an optional last slot for the hidden marker."""

    def __init__(self, vocabulary: Sequence[Any], *, unknown: Any = None, label: str = "") -> None:
        self.vocabulary = tuple(vocabulary)
        self.index = {v: i for i, v in enumerate(self.vocabulary)}
        self.unknown = unknown
        self.label = label
        self.size = len(self.vocabulary) + (unknown is not None)

    def position(self, value: Any) -> int:
        if self.unknown is not None and value == self.unknown:
            return len(self.vocabulary)
        try:
            return self.index[value]
        except KeyError:
            raise ValueError(
                f"observation tensor: {value!r} is not one of {self.label or 'the names'}"
            ) from None

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value is not None:
            out[offset + self.position(value)] = 1.0

    def describe(self) -> str:
        names = self.label or ", ".join(map(str, self.vocabulary))
        hidden = f"; last slot: hidden ({self.unknown!r})" if self.unknown is not None else ""
        return f"one-hot over {names}{hidden}; null: all 0"


class Counts(OneHot):
    """How many of each name: a list of names (a multiset) or a {name: count} object, count / cap per slot."""

    def __init__(
        self, vocabulary: Sequence[Any], *, cap: float, unknown: Any = None, label: str = ""
    ) -> None:
        super().__init__(vocabulary, unknown=unknown, label=label)
        self.cap = float(cap)

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if not value:
            return
        pairs = value.items() if isinstance(value, dict) else ((name, 1) for name in value)
        for name, count in pairs:
            i = offset + self.position(name)
            out[i] = min(1.0, out[i] + count / self.cap)

    def describe(self) -> str:
        names = self.label or ", ".join(map(str, self.vocabulary))
        hidden = f"; last slot: hidden ({self.unknown!r}) entries" if self.unknown is not None else ""
        per = "1 per name (a set)" if self.cap == 1 else f"count / {self.cap:g} per name, clipped at 1"
        return f"{per} over {names}{hidden}"


class Seat(OneHot):
    """A seat number, seat-relative: slot k is the seat k places after the observer; extra names follow."""

    def __init__(self, *extra: str) -> None:
        super().__init__(tuple(range(MAX_SEATS)) + extra)
        self.extra = extra

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value is None:
            return
        if isinstance(value, str):
            out[offset + self.position(value)] = 1.0
        else:
            out[offset + (value - ctx.observer) % ctx.num_players] = 1.0

    def describe(self) -> str:
        extra = "".join(f", then {name!r}" for name in self.extra)
        return f"one-hot over {MAX_SEATS} seat-relative seats (0 = observer){extra}; null: all 0"


class Length(Node):
    """How long a list is (its entries may be hidden): len / cap, clipped."""

    size = 1

    def __init__(self, cap: int) -> None:
        self.cap = cap

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value:
            out[offset] = min(1.0, len(value) / self.cap)

    def describe(self) -> str:
        return f"number of entries / {self.cap}, clipped at 1"


class Custom(Node):
    """An encoder a game writes by hand, with its own description."""

    def __init__(
        self, size: int, write: Callable[[np.ndarray, int, Any, Context], None], describe: str
    ) -> None:
        self.size = size
        self._write = write
        self._describe = describe

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value is not None:
            self._write(out, offset, value, ctx)

    def describe(self) -> str:
        return self._describe


class Maybe(Node):
    """A value that may be null (none, or hidden from this seat): a slot that says it is known, then it."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.size = 1 + node.size

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value is not None:
            out[offset] = 1.0
            self.node.write(out, offset + 1, value, ctx)

    def rows(self, path: str, offset: int, relative: bool) -> Iterable[Row]:
        yield Row(offset, 1, f"{path} known", "1 if not null", relative)
        yield from self.node.rows(path, offset + 1, relative)


SELF = "(self)"  # an Obj key that hands the object itself to its node (a cell written as inline x, y)


class Obj(Node):
    """A JSON object: its listed keys in order (a key may be absent, as in another variant: zeros; the key
    SELF reads the object itself). With `present`, a first slot says the object is not null."""

    def __init__(self, *fields: tuple[str, Node], present: bool = False) -> None:
        self.fields = fields
        self.present = present
        self.size = int(present) + sum(node.size for _, node in fields)
        # (key, node's write, offset from the object's start): the hot loop of every tensor
        self._plan = []
        at = int(present)
        for key, node in fields:
            self._plan.append((key, node.write, at))
            at += node.size

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if value is None:
            return
        if self.present:
            out[offset] = 1.0
        for key, write, at in self._plan:
            field = value if key == SELF else value.get(key)
            if field is not None:  # a null writes zeros, which the buffer already holds
                write(out, offset + at, field, ctx)

    def rows(self, path: str, offset: int, relative: bool) -> Iterable[Row]:
        if self.present:
            yield Row(offset, 1, f"{path} present", "1 if not null", relative)
            offset += 1
        for key, node in self.fields:
            name = f"{path} (x, y)" if key == SELF else f"{path}.{key}" if path else key
            yield from node.rows(name, offset, relative)
            offset += node.size


class Seq(Node):
    """A list of up to `cap` entries (the engine's own bound), entry i at offset + i * entry size; an entry
    starts with a slot that says it exists. With `keep_last`, a longer list keeps its last `cap` entries
    (for a stack whose top matters); otherwise a longer list is an error in the layout."""

    def __init__(self, cap: int, item: Node, *, keep_last: bool = False) -> None:
        self.cap, self.item, self.keep_last = cap, item, keep_last
        self.stride = 1 + item.size
        self.size = cap * self.stride

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        if not value:
            return
        if len(value) > self.cap:
            if self.keep_last:
                value = value[-self.cap :]
            else:
                raise ValueError(
                    f"observation tensor: {len(value)} entries where the layout holds {self.cap}"
                )
        item = self.item
        for entry in value:
            out[offset] = 1.0
            item.write(out, offset + 1, entry, ctx)
            offset += self.stride

    def rows(self, path: str, offset: int, relative: bool) -> Iterable[Row]:
        i = "ijlm"[sum(path.count(f"[{c}]") for c in "ijlm")]
        last = "; a longer list keeps its last entries" if self.keep_last else ""
        entries = f"{self.cap} entries `[{i}]` of {self.stride} floats{last}"
        yield Row(offset, self.size, path, entries, relative)
        yield Row(0, 1, f"{path}[{i}] present", f"1 if entry {i} exists", True)
        yield from self.item.rows(f"{path}[{i}]", 1, True)


class ObserverSeat(Node):
    """The observer's own seat number, absolute (everything else is seat-relative, but where a seat sits in
    the fixed turn order matters, as in Kuhn poker). Read from the context; its key in an Obj is SELF."""

    size = MAX_SEATS

    def write(self, out: np.ndarray, offset: int, value: Any, ctx: Context) -> None:
        out[offset + ctx.observer] = 1.0

    def rows(self, path: str, offset: int, relative: bool) -> Iterable[Row]:
        yield Row(
            offset, self.size, "observer", f"the observing seat's number, one-hot over {MAX_SEATS}", relative
        )


OBSERVER = (SELF, ObserverSeat())  # the first field of every game's global part


@dataclass(frozen=True)
class TensorSpec:
    """A game's tensor: the global fields (an Obj over the observation's state payload), and the per-seat
    block read from the list under `seats_key`. `prepare` may add game extras to the context first."""

    global_part: Obj
    seats_key: str
    seat_block: Node
    prepare: Callable[[dict[str, Any], Context], None] | None = None
    # The number of seat blocks for a player count (the Tiny Epic Galaxies solo Rogue takes a block).
    blocks: Callable[[int], int] = lambda players: players
    # Payload keys left out on purpose (a constant version string); any other key must be encoded.
    not_encoded: tuple[str, ...] = ()

    def shape(self, players: int) -> tuple[int, ...]:
        return (self.global_part.size + self.blocks(players) * self.seat_block.size,)

    def encode(self, state: dict[str, Any], observer: int, players: int) -> np.ndarray:
        ctx = Context(observer, players)
        if self.prepare is not None:
            self.prepare(state, ctx)
        out = np.zeros(self.shape(players), dtype=np.float32)
        self.global_part.write(out, 0, state, ctx)
        seats = state[self.seats_key]
        # observer first, then the others in turn order; entries past the seats (the Rogue) keep theirs
        order = [(observer + k) % players for k in range(players)] + list(range(players, len(seats)))
        offset, block = self.global_part.size, self.seat_block
        for seat in order:
            block.write(out, offset, seats[seat], ctx)
            offset += block.size
        return out

    def markdown(self) -> str:
        """The field table for the rules doc (kept equal to the code by a test)."""
        lines = [
            f"Global part: {self.global_part.size} floats at offsets 0..{self.global_part.size - 1}; then "
            f"one block of {self.seat_block.size} floats per seat (`{self.seats_key}`), observer first.",
            "",
            "Offsets with + count from the start of the innermost list entry (`[i]`, `[j]`) or seat block "
            "(`[k]`) the field names.",
            "",
            "| offset | size | field | encoding |",
            "| --- | --- | --- | --- |",
        ]
        if self.not_encoded:
            lines[1:1] = ["", f"Not encoded: {', '.join(f'`{key}`' for key in self.not_encoded)} (constant)."]
        rows = list(self.global_part.rows("", 0, False))
        block = f"block k (seat observer + k) at {self.global_part.size} + k * {self.seat_block.size}"
        rows.append(Row(self.global_part.size, self.seat_block.size, f"{self.seats_key}[k]", block, False))
        rows += self.seat_block.rows(f"{self.seats_key}[k]", 0, True)
        for row in rows:
            offset = f"+{row.offset}" if row.relative else str(row.offset)
            lines.append(f"| {offset} | {row.size} | `{row.field}` | {row.encoding} |")
        return "\n".join(lines) + "\n"


@cache
def tensor_spec(game: str) -> TensorSpec:
    """The tensor description of a registered game."""
    package = game_info(game).module.rpartition(".")[0]  # UnknownGameError for an unknown name
    try:  # every game's folder holds tensor.py, which defines SPEC (docs/adding-a-game.md)
        module = importlib.import_module(f"{package}.tensor")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.tensor":
            raise
        raise NotImplementedError(f"{game}: no observation tensor is defined for this game") from None
    spec: TensorSpec = module.SPEC
    return spec


def observation_tensor_shape(game: str, *, variant: str | None = None, num_players: int) -> tuple[int, ...]:
    """The shape of `observation_tensor` for a game, variant and player count (fixed for all of them)."""
    info = game_info(game)
    variant = info.default_variant if variant is None else variant
    if variant not in info.variants:
        raise ValueError(f"{game}: unknown variant {variant!r}; variants: {', '.join(info.variants)}")
    if num_players not in info.players_for(variant):
        raise ValueError(f"{game} ({variant}): {num_players} players not supported")
    return tensor_spec(game).shape(num_players)


def observation_tensor(observation: Any) -> np.ndarray:
    """One seat's observation as a float32 vector of observation_tensor_shape(...), built from the
    observation's facts only (layout: the game's rules doc, section "Observation tensor")."""
    if not isinstance(observation, Observation):
        kind = type(observation).__name__
        raise TypeError(f"observation_tensor takes an Observation (state.observation(seat)), not a {kind}")
    if observation.observer < 0:  # the tensor is seat-relative: a spectator's view has no seat to start from
        raise ValueError("observation_tensor needs one seat's observation, not a spectator's public view")
    game = observation.game
    spec = tensor_spec(game.name)
    state = observation.to_dict()["state"]
    return spec.encode(state, int(observation.player), int(game.num_players))
