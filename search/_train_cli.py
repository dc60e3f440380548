"""`orrery train selfplay | fit | stamp` and `orrery bench eval` (docs/learning.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from orrery.core_ext import game_info
from orrery.core_ext._cli import add_game_arguments


def _run_selfplay(args: argparse.Namespace) -> int:
    from orrery.search._cli import config_from_args
    from orrery.search._train_data import SelfPlayDataError, SelfPlaySpec, run_selfplay

    if args.games < 1 or args.workers < 1 or args.iterations < 1:
        raise SystemExit("--games, --workers and --iterations must be >= 1")
    variant = args.variant or game_info(args.game).default_variant
    config_from_args(args)  # an unknown preset, or a learned one without a model, before any game
    spec = SelfPlaySpec(
        game=args.game,
        variant=variant,
        players=args.players,
        config=args.config,
        iterations=args.iterations,
        seed=args.seed,
    )
    try:
        summary = run_selfplay(
            spec, Path(args.out), games=args.games, workers=args.workers, command=["orrery", *sys.argv[1:]]
        )
    except SelfPlayDataError as exc:
        raise SystemExit(f"orrery train selfplay: {exc}") from None
    print(json.dumps(summary))
    return 0


def _run_fit(args: argparse.Namespace) -> int:
    try:
        from orrery.search._train_fit import FitSettings, fit
    except ModuleNotFoundError as exc:
        if exc.name != "torch":
            raise
        raise SystemExit("orrery train fit needs PyTorch: pip install 'orrery[train]'") from None
    settings = FitSettings(
        hidden=tuple(args.hidden),
        epochs=args.epochs,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        weight_decay=args.weight_decay,
        held_out=args.held_out,
        seed=args.seed,
        sparse_input=args.sparse_input,
        root_value_weight=args.root_value_weight,
        residual=args.residual,
    )
    from orrery.search._train_shards import SelfPlayDataError

    try:
        summary = fit(
            [Path(d) for d in args.data], Path(args.out), settings, command=["orrery", *sys.argv[1:]]
        )
    except SelfPlayDataError as exc:
        raise SystemExit(f"orrery train fit: {exc}") from None
    print(json.dumps(summary))
    return 0


def _run_stamp(args: argparse.Namespace) -> int:
    from orrery.search._model import ModelFormatError
    from orrery.search._shipped import stamp_model

    try:
        print(json.dumps(stamp_model(Path(args.model), args.catalogue)))
    except (ModelFormatError, OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"orrery train stamp: {exc}") from None
    return 0


def _run_bench_eval(args: argparse.Namespace) -> int:
    from orrery.search._bench_eval import bench_eval

    result = bench_eval(
        args.game,
        variant=args.variant,
        players=args.players,
        config=args.config,
        seconds=args.seconds,
        positions=args.positions,
        seed=args.seed,
        search_positions=args.search_positions,
    )
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


def register(commands, bench) -> None:
    train = commands.add_parser("train", help="self-play data and training for a learned evaluation")
    sub = train.add_subparsers(dest="train", required=True, metavar="STEP")

    p = sub.add_parser("selfplay", help="play seeded search games and store positions and outcomes")
    add_game_arguments(p)
    p.add_argument("--games", type=int, required=True, help="games 0..K-1 (existing shards are kept)")
    p.add_argument("--out", required=True, help="the data folder (shards/ and manifest.json)")
    p.add_argument("--workers", type=int, default=1, help="games at once, one process each")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", default="ismcts@3", help="the search preset every seat plays")
    p.add_argument("--iterations", type=int, default=200, help="search iterations per move")
    p.set_defaults(func=_run_selfplay)

    p = sub.add_parser("fit", help="train a value network on self-play data (needs orrery[train])")
    p.add_argument("data", nargs="+", help="self-play data folders")
    p.add_argument(
        "--out", required=True, help="the model file to write (its manifest and loss curve beside)"
    )
    p.add_argument("--hidden", type=int, nargs="+", default=[64, 32], help="hidden layer widths")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--weight-decay", type=float, default=1e-2, help="AdamW weight decay")
    p.add_argument("--held-out", type=float, default=0.1, help="share of the games held out")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--dense-input", dest="sparse_input", action="store_false", help="first layer reads every feature"
    )
    p.add_argument(
        "--root-value-weight",
        type=float,
        default=0.5,
        help="blend the search's root value into the target (0: final returns only; 2 players only)",
    )
    p.add_argument(
        "--residual",
        action="store_true",
        help="learn a correction to the game's evaluate() (added to its logit)",
    )
    p.set_defaults(func=_run_fit)

    p = sub.add_parser(
        "stamp",
        help="rewrite a format-1 model as format 2, recording the catalogue revision it was trained with",
    )
    p.add_argument("model", help="the .orrnet file (its .json manifest beside it is updated too)")
    p.add_argument(
        "--catalogue",
        required=True,
        help='the game\'s catalogue revision at training, as states record it: "orrery.trian-tiles/2@2"',
    )
    p.set_defaults(func=_run_stamp)

    p = bench.add_parser("eval", help="microseconds per evaluation (hand-written, learned) and search speed")
    add_game_arguments(p)
    p.add_argument("--config", default="ismcts@3", help="the preset whose iterations/s are measured")
    p.add_argument("--seconds", type=float, default=3.0, help="search time per evaluation kind")
    p.add_argument("--positions", type=int, default=200, help="sampled positions to evaluate")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--search-positions",
        type=int,
        default=1,
        help="how many of the sampled positions the search speed is measured over (1: the middle one)",
    )
    p.add_argument("--json", action="store_true", help="print one line")
    p.set_defaults(func=_run_bench_eval)
