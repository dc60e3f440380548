"""The learned-evaluation models shipped as package data (search/models/), as `orrery games` and ListGames
report them, and the check that a search asking for `evaluation = "learned"` has one (docs/learning.md,
"Shipped models").

A model is listed only where this build can use it: its file decodes, its manifest (`<name>.json` beside
it) agrees with the file's header and SHA-256, and it binds to its game (variant, player count, feature
layout version and catalogue revision all match). A file that fails is left out with a warning naming
what is wrong, and a search that asks for it gets that reason.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from orrery.core_ext import load_game, registered_games
from orrery.search._config import SearchConfig, learned_preset
from orrery.search._learned import MODELS_DIR, ValueNetwork
from orrery.search._model import FORMAT_VERSION, ModelFormatError, decode_model, encode_model

log = logging.getLogger(__name__)

MODEL_SUFFIX = ".orrnet"
# header fields the manifest repeats; a disagreement means the two files were not written together
_HEADER_KEYS = ("format_version", "game", "variant", "players", "layout_version", "catalogue")


@dataclass(frozen=True, kw_only=True)
class ShippedModel:
    game: str
    variant: str
    players: int
    file_name: str  # e.g. "trian-full-2p.orrnet", under search/models/
    format_version: int  # of the model file (search/_model.py)
    layout_version: int  # the game's feature layout the network reads (core_ext/<game>/features.pyx)
    catalogue: str  # the game's catalogue revision it was trained with; "" for a game without one
    file_bytes: int  # size of the model file
    sha256: str  # of the model file, hex
    trained: str  # UTC date and time of training, ISO 8601 ("2026-11-27T05:57:37Z")
    training_games: int  # self-play games in the training data (training and held-out together)
    training_positions: int  # positions in the training data
    training_command: str  # the command that wrote the model
    search_config: str  # the preset that plays with it ("name@version"); "" where none does
    # How its preset played against the game's hand-written default (the manifest's "strength", from a
    # tournament: docs/learning.md): one of STRENGTH_VERDICTS; "unmeasured" where the manifest has none
    strength: str = "unmeasured"
    strength_summary: str = ""  # the measurement in words a player can read ("" when unmeasured)


# "stronger": it beat the hand-written evaluation at equal time per turn (SPRT H1); "even": no difference
# either way; "weaker": it lost (SPRT H0 with a negative estimate); "mixed": stronger at some budgets and
# not at others. A frontend advertises a learned AI only where it is stronger (docs/frontends.md).
STRENGTH_VERDICTS = ("unmeasured", "stronger", "even", "weaker", "mixed")


@dataclass(frozen=True)
class ShippedIndex:
    models: tuple[ShippedModel, ...]  # usable by this build, sorted by game, variant, players
    refused: dict[tuple[str, str, int], str]  # (game, variant, players) -> why its file is not usable


def shipped_models(folder: Path = MODELS_DIR) -> tuple[ShippedModel, ...]:
    """The models this build can use, sorted by game, variant and player count."""
    return shipped_index(folder).models


@cache
def shipped_index(folder: Path = MODELS_DIR) -> ShippedIndex:
    """Every model file in `folder`, read once per process: the usable ones and why the others are not."""
    models, refused = [], {}
    for path in sorted(folder.glob(f"*{MODEL_SUFFIX}")):
        try:
            models.append(_read_shipped(path))
        except (ValueError, OSError) as exc:  # ModelFormatError and JSON errors are ValueErrors
            key = _key_from_name(path.name)
            refused[key] = f"{path.name}: {exc}"
            log.warning("learned model %s left out: %s", path.name, exc)
    models.sort(key=lambda m: (m.game, m.variant, m.players))
    return ShippedIndex(tuple(models), refused)


def learned_model_problem(game: str, variant: str, players: int, folder: Path = MODELS_DIR) -> str | None:
    """None where a usable model is shipped for the game, variant and player count; else why not."""
    index = shipped_index(folder)
    if any((m.game, m.variant, m.players) == (game, variant, players) for m in index.models):
        return None
    setting = f"{game} ({variant}, {players} players)"
    reason = index.refused.get((game, variant, players))
    if reason is not None:
        return f"the learned model for {setting} is refused: {reason}"
    have = ", ".join(f"{m.game} {m.variant} {m.players}p" for m in index.models) or "none"
    return f"no learned evaluation model is shipped for {setting}; shipped: {have}"


def check_evaluation(config: SearchConfig, game: str, variant: str, players: int) -> None:
    """ValueError (naming the config's `evaluation` field) where the config asks for a learned evaluation
    that this game setting has no usable model for; nothing for a hand-written one."""
    if config.evaluation != "learned":
        return
    problem = learned_model_problem(game, variant, players)
    if problem is not None:
        raise ValueError(f"{config.label} has evaluation 'learned', but {problem}")


def _key_from_name(name: str) -> tuple[str, str, int]:
    """(game, variant, players) from "<game>-<variant>-<N>p.orrnet" (model_path's naming); a name of
    another shape gives ("", "", 0), matched by no game."""
    stem = name.removesuffix(MODEL_SUFFIX)
    game, _, rest = stem.partition("-")
    variant, _, count = rest.rpartition("-")
    if not (game and variant and count.endswith("p") and count[:-1].isdigit()):
        return ("", "", 0)
    return (game, variant, int(count[:-1]))


def _preset_label(game: str) -> str:
    preset = learned_preset(game)
    return "" if preset is None else preset.label


def _read_shipped(path: Path) -> ShippedModel:
    data = path.read_bytes()
    model = decode_model(data)
    manifest = json.loads(path.with_suffix(".json").read_text())
    if not isinstance(manifest, dict):
        raise ModelFormatError("the manifest is not a JSON object")
    header = {
        "format_version": model.format_version,
        "game": model.game,
        "variant": model.variant,
        "players": model.players,
        "layout_version": model.layout_version,
        "catalogue": model.catalogue,
    }
    differ = {k: (manifest.get(k), header[k]) for k in _HEADER_KEYS if manifest.get(k) != header[k]}
    if differ:
        raise ModelFormatError(f"the manifest disagrees with the file (manifest, file): {differ}")
    digest = hashlib.sha256(data).hexdigest()
    if manifest.get("sha256") != digest or manifest.get("bytes") != len(data):
        raise ModelFormatError("the manifest's sha256 or bytes is not the file's")
    if path.name != f"{model.game}-{model.variant}-{model.players}p{MODEL_SUFFIX}":
        raise ModelFormatError(
            f"the file is named {path.name}, but holds {model.game} {model.variant} {model.players}p"
        )
    if model.game not in {g.name for g in registered_games()}:
        raise ModelFormatError(f"{model.game} is not a game of this build")
    ValueNetwork(model, load_game(model.game, players=model.players, variant=model.variant))
    try:
        trained, command = str(manifest["date"]), str(manifest["training_command"])
        games, positions = int(manifest["data"]["games"]), int(manifest["data"]["positions"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelFormatError(
            f"the manifest lacks the training date, command or data size ({exc!r})"
        ) from None
    strength, strength_summary = _strength(manifest)
    return ShippedModel(
        game=model.game,
        variant=model.variant,
        players=model.players,
        file_name=path.name,
        format_version=model.format_version,
        layout_version=model.layout_version,
        catalogue=model.catalogue or "",  # None binds only to a game without a catalogue
        file_bytes=len(data),
        sha256=digest,
        trained=trained,
        training_games=games,
        training_positions=positions,
        training_command=command,
        search_config=_preset_label(model.game),
        strength=strength,
        strength_summary=strength_summary,
    )


def _strength(manifest: dict) -> tuple[str, str]:
    """(verdict, summary) of the manifest's optional "strength" block, checked."""
    block = manifest.get("strength")
    if block is None:
        return "unmeasured", ""
    if not isinstance(block, dict):
        raise ModelFormatError("the manifest's strength is not a JSON object")
    verdict, summary = block.get("verdict"), block.get("summary")
    if verdict not in STRENGTH_VERDICTS or verdict == "unmeasured":
        raise ModelFormatError(
            f"the manifest's strength verdict is {verdict!r}, not one of {', '.join(STRENGTH_VERDICTS[1:])}"
        )
    if not isinstance(summary, str) or not summary.strip():
        raise ModelFormatError("the manifest's strength has no summary")
    return verdict, summary


def stamp_model(path: Path, catalogue: str) -> dict:
    """Rewrite a format-version-1 model as version 2 recording `catalogue` (the revision it was trained
    with: the caller vouches for it), weights untouched, and update its manifest. Deterministic: the same
    file and revision give the same bytes. Returns what changed."""
    old = path.read_bytes()
    model = decode_model(old)
    if model.catalogue is not None:
        raise ModelFormatError(f"{path.name} already records catalogue {model.catalogue!r}")
    new = encode_model(replace(model, catalogue=catalogue))
    manifest_path = path.with_suffix(".json")
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("sha256") != hashlib.sha256(old).hexdigest():
        raise ModelFormatError(f"{manifest_path.name} does not describe {path.name} (sha256 differs)")
    stamped = {
        "format_version": 1,
        "bytes": len(old),
        "sha256": manifest["sha256"],
    }
    manifest.update(
        format_version=FORMAT_VERSION,
        catalogue=catalogue,
        bytes=len(new),
        sha256=hashlib.sha256(new).hexdigest(),
        stamped_from=stamped,
    )
    path.write_bytes(new)
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    shipped_index.cache_clear()
    return {"model": str(path), "catalogue": catalogue, "stamped_from": stamped, "sha256": manifest["sha256"]}
