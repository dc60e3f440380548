"""The model file of a learned evaluation (format version 2; docs/learning.md, "Model file").

A small value network (dense layers, ReLU between them, a sigmoid on every output) stored as one binary
file: a header that says what it is for, then float32 weights, then a CRC-32 of everything before it.
Parsing is plain Python over bytes with every length checked before it is read, so a damaged or foreign
file is refused with ModelFormatError (naming what is wrong) and never read past its end.

    offset  size  field
    0       8     magic b"ORRNNET\\0"
    8       2     format version (uint16, little-endian): 2 (1 is read too: it lacks the catalogue field)
    10      1+g   game name: length g (uint8), then ASCII
    .       1+v   variant: length v (uint8), then ASCII
    .       1     players (uint8)
    .       2     feature layout version (uint16)
    .       1+c   version 2 only: the game's catalogue revision the model was trained with, e.g.
                  "orrery.trian-tiles/2@2" (Game._catalogue_revision()): length c (uint8), then ASCII;
                  empty for a game without a catalogue
    .       1     flags (uint8): bit 0 = the first layer reads its input as sparse (skips zero features);
                  bit 1 = residual: output k adds logit(evaluate()) of seat k (clipped to [0.001, 0.999])
    .       1     layers L (uint8), 1..MAX_LAYERS
    .       2(L+1) layer sizes (uint16): inputs, the hidden widths, outputs (= players)
    .       ...   per layer l: weights float32[in][out] (row i: the weights of input i), then biases
                  float32[out]; little-endian, all finite
    end-4   4     CRC-32 (zlib) of every byte before it
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAGIC = b"ORRNNET\0"
FORMAT_VERSION = 2  # what encode_model writes for a model that records its catalogue revision
READ_VERSIONS = (1, 2)  # version 1: no catalogue revision (Model.catalogue is None)
MAX_LAYERS = 4
MAX_INPUTS = 4096  # core_ext/features.pxd MAX_FEATURES
MAX_WIDTH = 1024  # hidden widths and outputs (search/_learned.pxd MAX_WIDTH)
MAX_FILE_BYTES = 2 * 1024 * 1024  # a shipped model is at most 2 MB (issue 31)
FLAG_SPARSE_INPUT = 1
FLAG_RESIDUAL = 2


class ModelFormatError(ValueError):
    """A model file that is damaged, of another format version, or for another game, variant, player
    count, feature layout or catalogue revision."""


@dataclass(frozen=True)
class Model:
    game: str
    variant: str
    players: int
    layout_version: int  # the game's feature layout (core_ext/<game>/features.pyx LAYOUT_VERSION)
    sparse_input: bool  # the first layer skips zero features (faster when few are active)
    weights: tuple[np.ndarray, ...]  # float32 [in, out] per layer
    biases: tuple[np.ndarray, ...]  # float32 [out] per layer
    # the network learns a correction to the hand-written evaluate(): output k is added to its logit
    residual: bool = False
    # the game's catalogue revision at training ("" for a game without a catalogue); None: not recorded
    # (a format-version-1 file), which a game with a catalogue refuses
    catalogue: str | None = None

    @property
    def format_version(self) -> int:
        """The file format this model encodes to: 1 where it records no catalogue revision, else 2."""
        return 1 if self.catalogue is None else FORMAT_VERSION

    @property
    def sizes(self) -> tuple[int, ...]:
        return (self.weights[0].shape[0], *(w.shape[1] for w in self.weights))


def encode_model(model: Model) -> bytes:
    """The file bytes of a model (checked as the loader checks them): format version 2, or 1 for a model
    that records no catalogue revision (so that a version-1 file re-encodes to its own bytes)."""
    _check_shapes(model.sizes, model.players)
    parts = [
        MAGIC,
        struct.pack("<H", model.format_version),
        _text_bytes(model.game, "the game name"),
        _text_bytes(model.variant, "the variant"),
    ]
    sizes = model.sizes
    flags = (FLAG_SPARSE_INPUT if model.sparse_input else 0) | (FLAG_RESIDUAL if model.residual else 0)
    parts.append(struct.pack("<BH", model.players, model.layout_version))
    if model.catalogue is not None:
        parts.append(_text_bytes(model.catalogue, "the catalogue revision"))
    parts.append(struct.pack("<BB", flags, len(model.weights)))
    parts.append(struct.pack(f"<{len(sizes)}H", *sizes))
    for w, b in zip(model.weights, model.biases, strict=True):
        parts.append(np.ascontiguousarray(w, dtype="<f4").tobytes())
        parts.append(np.ascontiguousarray(b, dtype="<f4").tobytes())
    body = b"".join(parts)
    data = body + struct.pack("<I", zlib.crc32(body))
    if len(data) > MAX_FILE_BYTES:
        raise ModelFormatError(f"the model is {len(data)} bytes; at most {MAX_FILE_BYTES}")
    return data


def _text_bytes(text: str, what: str) -> bytes:
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        raise ModelFormatError(f"{what} {text!r} is not ASCII") from None
    if len(raw) > 255:
        raise ModelFormatError(f"{what} is {len(raw)} bytes long; at most 255")
    return struct.pack("<B", len(raw)) + raw


class _Reader:
    """Bounds-checked little-endian reads over the bytes before the checksum."""

    def __init__(self, data: bytes, end: int) -> None:
        self.data, self.at, self.end = data, 0, end

    def take(self, size: int, what: str) -> bytes:
        if size < 0 or self.at + size > self.end:
            raise ModelFormatError(f"the file ends inside {what} (offset {self.at}, {size} bytes needed)")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    def uint(self, fmt: str, what: str) -> int:
        value: int = struct.unpack("<" + fmt, self.take(struct.calcsize(fmt), what))[0]
        return value

    def text(self, what: str) -> str:
        raw = self.take(self.uint("B", f"the length of {what}"), what)
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise ModelFormatError(f"{what} is not ASCII") from None


def decode_model(data: bytes) -> Model:
    """Parse model file bytes; ModelFormatError for anything but a well-formed version-1 or -2 file."""
    if len(data) > MAX_FILE_BYTES:
        raise ModelFormatError(f"the file is {len(data)} bytes; a model is at most {MAX_FILE_BYTES}")
    if len(data) < len(MAGIC) + 6 or data[: len(MAGIC)] != MAGIC:
        raise ModelFormatError("not an Orrery model file (bad magic)")
    body_end = len(data) - 4
    (stored_crc,) = struct.unpack("<I", data[body_end:])
    reader = _Reader(data, body_end)
    reader.take(len(MAGIC), "the magic")
    version = reader.uint("H", "the format version")
    if version not in READ_VERSIONS:
        raise ModelFormatError(
            f"model format version {version}; this build reads versions {', '.join(map(str, READ_VERSIONS))}"
        )
    if zlib.crc32(data[:body_end]) != stored_crc:
        raise ModelFormatError("the model file is damaged (CRC-32 mismatch)")
    game = reader.text("the game name")
    variant = reader.text("the variant")
    players = reader.uint("B", "the player count")
    layout = reader.uint("H", "the layout version")
    catalogue = reader.text("the catalogue revision") if version >= 2 else None
    flags = reader.uint("B", "the flags")
    if flags & ~(FLAG_SPARSE_INPUT | FLAG_RESIDUAL):
        raise ModelFormatError(f"unknown flags {flags:#x}")
    layers = reader.uint("B", "the layer count")
    if not 1 <= layers <= MAX_LAYERS:
        raise ModelFormatError(f"{layers} layers; a model has 1 to {MAX_LAYERS}")
    sizes = struct.unpack(f"<{layers + 1}H", reader.take(2 * (layers + 1), "the layer sizes"))
    _check_shapes(sizes, players)
    weights, biases = [], []
    for fan_in, fan_out in zip(sizes, sizes[1:], strict=False):
        w = np.frombuffer(reader.take(4 * fan_in * fan_out, "the weights"), dtype="<f4")
        b = np.frombuffer(reader.take(4 * fan_out, "the biases"), dtype="<f4")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ModelFormatError("the weights hold a NaN or an infinity")
        weights.append(w.astype(np.float32).reshape(fan_in, fan_out))
        biases.append(b.astype(np.float32))
    if reader.at != body_end:
        raise ModelFormatError(f"{body_end - reader.at} bytes after the last layer")
    return Model(
        game,
        variant,
        players,
        layout,
        bool(flags & FLAG_SPARSE_INPUT),
        tuple(weights),
        tuple(biases),
        residual=bool(flags & FLAG_RESIDUAL),
        catalogue=catalogue,
    )


def _check_shapes(sizes: Sequence[int], players: int) -> None:
    if not 1 <= players <= 5:
        raise ModelFormatError(f"players must be 1 to 5, got {players}")
    if not 1 <= sizes[0] <= MAX_INPUTS:
        raise ModelFormatError(f"{sizes[0]} inputs; at most {MAX_INPUTS}")
    if any(not 1 <= size <= MAX_WIDTH for size in sizes[1:]):
        raise ModelFormatError(f"layer sizes {tuple(sizes)}: every width must be 1 to {MAX_WIDTH}")
    if sizes[-1] != players:
        raise ModelFormatError(f"{sizes[-1]} outputs for {players} players (one value per seat)")


def check_model_matches(
    model: Model,
    *,
    game: str,
    variant: str,
    players: int,
    layout_version: int,
    num_features: int,
    catalogue: str | None,
) -> None:
    """Refuse a model made for another game, variant, player count, feature layout or catalogue revision
    (`catalogue`: the game's Game._catalogue_revision(), None for a game without a catalogue)."""
    wanted = (game, variant, players)
    if (model.game, model.variant, model.players) != wanted:
        raise ModelFormatError(
            f"the model is for {model.game} ({model.variant}, {model.players} players), "
            f"not {game} ({variant}, {players} players)"
        )
    if model.layout_version != layout_version:
        raise ModelFormatError(
            f"the model reads feature layout version {model.layout_version}; {game}'s is {layout_version} "
            "(retrain it: docs/learning.md)"
        )
    if model.sizes[0] != num_features:
        raise ModelFormatError(f"the model has {model.sizes[0]} inputs; {game} gives {num_features} features")
    _check_catalogue(model, game, catalogue)


def _check_catalogue(model: Model, game: str, catalogue: str | None) -> None:
    """The features reflect the game's cards: a model trained with other cards is refused, as a stored game
    dealt with another catalogue revision is (core_ext/game.pyx, _check_catalogue)."""
    if catalogue is None:
        if model.catalogue:
            raise ModelFormatError(
                f"the model was trained with catalogue {model.catalogue!r}; {game} has no catalogue"
            )
        return
    if model.catalogue is None:
        raise ModelFormatError(
            f"the model (format version 1) records no catalogue revision; {game} has {catalogue!r} "
            "(retrain it, or stamp it with `orrery train stamp` if it was trained with that revision: "
            "docs/learning.md)"
        )
    if model.catalogue != catalogue:
        raise ModelFormatError(
            f"the model was trained with catalogue {model.catalogue!r}; {game} has {catalogue!r}, so its "
            "cards differ (retrain it: docs/learning.md)"
        )
