"""`orrery train fit`: a small value network from self-play data, with PyTorch (the `orrery[train]` extra).

The network maps a position's features (seat-relative, the seat to move first) to every seat's expected
return: dense layers with ReLU between them and a sigmoid on each output, trained with binary cross-entropy
against the game's final returns (optionally blended with the search's root value for the mover). Games,
not positions, are split into training and held-out sets, so positions of one game never sit on both
sides. Everything is seeded and runs on one CPU thread, so the same command writes the same model.
The epoch with the lowest held-out mean squared error against the final returns is kept.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from orrery.core_ext import load_game
from orrery.search._learned import feature_hook
from orrery.search._model import Model, encode_model
from orrery.search._train_data import load_dataset


@dataclass(frozen=True, kw_only=True)
class FitSettings:
    hidden: tuple[int, ...] = (64, 32)  # hidden layer widths
    epochs: int = 10
    batch_size: int = 256
    learning_rate: float = 3e-4  # AdamW
    weight_decay: float = 1e-2  # AdamW's decoupled weight decay
    held_out: float = 0.1  # share of the games held out
    seed: int = 0
    sparse_input: bool = True  # stored in the model: the kernel's first layer skips zero features
    # the mover's target = (1 - w) * final return + w * the search's root value (2 players: the other seat's
    # is 1 minus it); the root value is far less noisy than one game's outcome (docs/learning.md)
    root_value_weight: float = 0.5
    # learn a correction to evaluate(): each output is added to the logit of evaluate() (its feature column)
    residual: bool = False

    def __post_init__(self) -> None:
        if not self.hidden or any(h < 1 or h > 1024 for h in self.hidden) or len(self.hidden) > 3:
            raise ValueError("hidden: 1 to 3 widths, each 1..1024")
        if self.epochs < 1 or self.batch_size < 1 or not self.learning_rate > 0:
            raise ValueError("epochs, batch_size >= 1 and learning_rate > 0")
        if not 0 < self.held_out < 1 or not 0 <= self.root_value_weight <= 1 or self.weight_decay < 0:
            raise ValueError("held_out in (0, 1), root_value_weight in [0, 1], weight_decay >= 0")


def _network(inputs: int, hidden: Sequence[int], outputs: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), nn.ReLU()]
        inputs = width
    layers.append(nn.Linear(inputs, outputs))
    return nn.Sequential(*layers)


def split_games(games: int, held_out: float, seed: int) -> np.ndarray:
    """A boolean per game: held out or not (at least one game on each side)."""
    order = np.random.default_rng(seed).permutation(games)
    count = min(games - 1, max(1, round(games * held_out)))
    mask = np.zeros(games, dtype=bool)
    mask[order[:count]] = True
    return mask


def fit(data: Sequence[Path], out: Path, settings: FitSettings, *, command: Sequence[str]) -> dict:
    manifest, arrays = load_dataset(data)
    if manifest["games"] < 2:
        raise ValueError("training needs at least 2 games (one is held out)")
    _check_catalogue(manifest)
    torch.manual_seed(settings.seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    players = manifest["players"]
    x = torch.from_numpy(arrays["features"])
    y = arrays["returns_relative"].copy()
    if settings.root_value_weight > 0:
        if players != 2:
            raise ValueError("root_value_weight needs 2 players (the root value is the mover's only)")
        w = settings.root_value_weight
        y[:, 0] = (1 - w) * y[:, 0] + w * arrays["root_value"]
        y[:, 1] = (1 - w) * y[:, 1] + w * (1 - arrays["root_value"])
    outcomes = torch.from_numpy(arrays["returns_relative"])  # what held-out MSE is measured against
    target = torch.from_numpy(y)
    offset = torch.zeros_like(target)
    if settings.residual:
        columns_of = getattr(feature_hook(manifest["game"]), "evaluate_columns", None)
        if columns_of is None:
            raise ValueError(
                f"{manifest['game']}: its features hold no evaluate() columns for a residual model"
            )
        offset = torch.logit(x[:, columns_of(players)].clamp(0.001, 0.999))
    held = split_games(manifest["games"], settings.held_out, settings.seed)[arrays["game_index"]]
    train_idx = torch.from_numpy(np.flatnonzero(~held))
    test_idx = torch.from_numpy(np.flatnonzero(held))
    net = _network(x.shape[1], settings.hidden, players)
    optimiser = torch.optim.AdamW(
        net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
    )
    loss_fn = nn.BCEWithLogitsLoss()
    generator = torch.Generator().manual_seed(settings.seed)
    curve: list[dict] = []
    best: tuple[float, dict] | None = None
    for epoch in range(1, settings.epochs + 1):
        net.train()
        order = train_idx[torch.randperm(len(train_idx), generator=generator)]
        total = 0.0
        for start in range(0, len(order), settings.batch_size):
            batch = order[start : start + settings.batch_size]
            optimiser.zero_grad()
            loss = loss_fn(net(x[batch]) + offset[batch], target[batch])
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(batch)
        held_bce, held_mse = _held_out(
            net, x[test_idx], offset[test_idx], target[test_idx], outcomes[test_idx], loss_fn
        )
        curve.append(
            {
                "epoch": epoch,
                "train_bce": total / len(order),
                "held_out_bce": held_bce,
                "held_out_mse": held_mse,
            }
        )
        if best is None or held_mse < best[0]:
            best = (held_mse, {k: v.clone() for k, v in net.state_dict().items()})
    assert best is not None
    net.load_state_dict(best[1])
    model = _to_model(net, manifest, settings.sparse_input, settings.residual)
    out.parent.mkdir(parents=True, exist_ok=True)
    data_bytes = encode_model(model)
    out.write_bytes(data_bytes)
    baseline = _handwritten_mse(manifest, arrays, held)
    best_epoch = min(curve, key=lambda row: row["held_out_mse"])
    picture = out.with_suffix(".loss.png")
    _plot(curve, baseline, picture, f"{manifest['game']} {manifest['variant']} {players}p")
    model_manifest = {
        "format_version": model.format_version,
        "game": manifest["game"],
        "variant": manifest["variant"],
        "players": players,
        "layout_version": manifest["layout_version"],
        "catalogue": model.catalogue,
        "layer_sizes": list(model.sizes),
        "sparse_input": model.sparse_input,
        "residual": model.residual,
        "bytes": len(data_bytes),
        "sha256": hashlib.sha256(data_bytes).hexdigest(),
        "training_command": " ".join(command),
        "settings": {**asdict(settings), "hidden": list(settings.hidden)},
        "data": {
            "games": manifest["games"],
            "positions": manifest["positions"],
            "train_positions": len(train_idx),
            "held_out_positions": len(test_idx),
            "selfplay_config": manifest.get("config"),
            "iterations_per_move": manifest.get("iterations_per_move"),
        },
        "best_epoch": best_epoch,
        "held_out_mse_handwritten": baseline,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    out.with_suffix(".json").write_text(json.dumps(model_manifest, indent=2) + "\n")
    return {
        "model": str(out),
        "bytes": len(data_bytes),
        "loss_curve": str(picture),
        "best_epoch": best_epoch,
        "held_out_mse_handwritten": baseline,
    }


def _check_catalogue(manifest: dict) -> None:
    """The model is stamped with the catalogue revision its games were dealt with, and that must be this
    build's: a model for other cards would be refused when loaded (docs/learning.md)."""
    game = load_game(manifest["game"], players=manifest["players"], variant=manifest["variant"])
    current = game._catalogue_revision() or ""
    recorded = manifest.get("catalogue")
    if recorded is None:
        raise ValueError(
            f"the self-play data records no catalogue revision (made before revisions were recorded); if its "
            f'games were dealt with {current!r}, add "catalogue": "{current}" to its manifest.json'
        )
    if recorded != current:
        raise ValueError(
            f"the self-play data was dealt with catalogue {recorded!r}; this build has {current!r}: "
            "play it again"
        )


def _held_out(
    net: nn.Module,
    x: torch.Tensor,
    offset: torch.Tensor,
    y: torch.Tensor,
    outcomes: torch.Tensor,
    loss_fn: nn.Module,
) -> tuple[float, float]:
    """(the training loss on held-out games, the MSE against their final returns: the criterion)."""
    net.eval()
    with torch.no_grad():
        logits = net(x) + offset
        return float(loss_fn(logits, y)), float(((torch.sigmoid(logits) - outcomes) ** 2).mean())


def _handwritten_mse(manifest: dict, arrays: dict[str, np.ndarray], held: np.ndarray) -> float | None:
    """The held-out MSE of the hand-written evaluate() itself, read from its features where the game's
    layout has them (features.evaluate_columns), against the same outcomes: the bar the network must pass."""
    columns_of = getattr(feature_hook(manifest["game"]), "evaluate_columns", None)
    if columns_of is None:
        return None
    values = arrays["features"][held][:, columns_of(manifest["players"])]
    return float(((values - arrays["returns_relative"][held]) ** 2).mean())


def _to_model(net: nn.Sequential, manifest: dict, sparse_input: bool, residual: bool) -> Model:
    linears = [m for m in net if isinstance(m, nn.Linear)]
    return Model(
        game=manifest["game"],
        variant=manifest["variant"],
        players=manifest["players"],
        layout_version=manifest["layout_version"],
        catalogue=manifest["catalogue"],
        sparse_input=sparse_input,
        weights=tuple(m.weight.detach().numpy().T.astype(np.float32).copy() for m in linears),
        biases=tuple(m.bias.detach().numpy().astype(np.float32).copy() for m in linears),
        residual=residual,
    )


def _plot(curve: list[dict], baseline: float | None, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [row["epoch"] for row in curve]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    ax.plot(epochs, [row["held_out_mse"] for row in curve], label="network, held-out MSE")
    if baseline is not None:
        ax.axhline(baseline, color="grey", linestyle="--", label="hand-written evaluate(), held-out MSE")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean squared error vs final return")
    ax.set_title(f"Value network, {title}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
