"""`orrery games`, `orrery selfplay`, `orrery configs` and `orrery bench search | preset-rates | signature |
strength | hints | turn-time`."""

from __future__ import annotations

import argparse
import json
import os
import sys

from orrery.core_ext import game_bounds, game_info, registered_games
from orrery.core_ext._cli import add_game_arguments
from orrery.search._bench import bench_search, bench_signature, bench_strength
from orrery.search._bench_hints import bench_hints
from orrery.search._bench_reuse import bench_tree_reuse
from orrery.search._bench_turns import bench_turn_time
from orrery.search._bots import BOT_KINDS, make_bot
from orrery.search._config import Budget, SearchConfig, get_config, list_configs
from orrery.search._levels import LEVELS
from orrery.search._selfplay import play_game
from orrery.search._shipped import ShippedModel, check_evaluation, shipped_models


def _print(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {json.dumps(value) if isinstance(value, list | dict) else value}")


def _budget(args: argparse.Namespace) -> Budget:
    if args.iterations is None and args.budget_ms is None:
        return Budget(milliseconds=1000.0)
    return Budget(iterations=args.iterations, milliseconds=args.budget_ms)


def _run_games(args: argparse.Namespace) -> int:
    models = shipped_models()
    for info in registered_games():
        counts = ", ".join(map(str, info.player_counts))
        actions, length = game_bounds(info.name)
        print(f"{info.name:8} {info.title}\n         variants: {', '.join(info.variants)}; players: {counts}")
        print(f"         num_distinct_actions: {actions} (ids 0..{actions - 1}); max_game_length: {length}")
        mine = [_model_line(m) for m in models if m.game == info.name]
        print(f"         learned models: {'; '.join(mine) if mine else 'none'}")
    return 0


def _model_line(m: ShippedModel) -> str:
    """One shipped model as `orrery games` prints it (the fields of ListGames' LearnedModel)."""
    catalogue = f"catalogue {m.catalogue}" if m.catalogue else "no catalogue"
    return (
        f"{m.variant} {m.players}p ({m.file_name}: model format {m.format_version}, feature layout "
        f"{m.layout_version}, {catalogue}, {m.file_bytes} bytes, sha256 {m.sha256[:12]}, trained {m.trained} "
        f"on {m.training_games} games / {m.training_positions} positions; "
        f"played by {m.search_config or 'no preset'}; strength against the hand-written evaluation: "
        f"{m.strength}{': ' + m.strength_summary if m.strength_summary else ''})"
    )


def config_from_args(args: argparse.Namespace) -> SearchConfig | None:
    """--config's preset, refused with a message naming --config when unknown or when it asks for a
    learned evaluation that the game, variant and player count have no model for."""
    if not args.config:
        return None
    try:
        config = get_config(args.config)
        variant = args.variant or game_info(args.game).default_variant
        check_evaluation(config, args.game, variant, args.players)
    except ValueError as exc:
        raise SystemExit(f"--config: {exc}") from None
    return config


def _run_selfplay(args: argparse.Namespace) -> int:
    names = args.bots or ["random"] * args.players
    if len(names) != args.players:
        raise SystemExit(f"--bots: need one bot per seat ({args.players}), got {len(names)}")
    budget = _budget(args)
    config = config_from_args(args)
    bots = [
        make_bot(
            n, game=args.game, budget=budget, config=config if config and config.algorithm == n else None
        )
        for n in names
    ]
    last_seat = [None]

    def on_move(state, seat, action, label):
        if args.quiet:
            return
        if seat != last_seat[0]:
            print(f"-- seat {seat} ({names[seat]})")
            last_seat[0] = seat
        print(f"   {label}")
        if args.render and state.current_player != seat:
            print(state.render())

    pictures = _svg_writer(args.svg) if args.svg else None

    def on_move_and_picture(state, seat, action, label):
        on_move(state, seat, action, label)
        if pictures:
            pictures(state, seat, action, label)

    record = play_game(
        args.game, args.players, args.seed, bots, variant=args.variant, on_move=on_move_and_picture
    )
    print(f"game over after {len(record.actions)} actions; deal seed {args.seed}")
    if args.svg:
        first = os.path.join(args.svg, "move-0001.svg")
        print(f"pictures: {first} .. move-{len(record.actions):04d}.svg (seed {args.seed})")
    for seat, (score, rank) in enumerate(zip(record.scores, record.ranks, strict=False)):
        print(f"seat {seat} ({names[seat]}): score {score:g}, place {rank + 1}")
    return 0


def _svg_writer(folder: str):
    """on_move callback writing DIR/move-NNNN.svg after each move (NNNN = move number), drawn from the
    view of the seat to move next (the last mover's once the game is over)."""
    from pathlib import Path

    from orrery.render import to_svg

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    count = [0]

    def write(state, seat, action, label):
        number = count[0] = count[0] + 1
        viewer = state.current_player if not state.is_terminal() else seat
        (out / f"move-{number:04d}.svg").write_text(to_svg(state.observation(viewer).to_dict()))

    return write


def _run_bench_search(args: argparse.Namespace) -> int:
    result = bench_search(
        args.game,
        args.players,
        workers=args.workers,
        seconds=args.seconds,
        config_name=args.config,
        seed=args.seed,
        random_moves=args.random_moves,
        variant=args.variant,
        backend=args.backend,
    )
    _print(result, args.json)
    return 0


def _run_bench_preset_rates(args: argparse.Namespace) -> int:
    from orrery.search._bench_rates import bench_preset_rates

    try:
        result = bench_preset_rates(
            args.game,
            players=args.players,
            variant=args.variant,
            old=args.old,
            new=args.new,
            positions=args.positions,
            milliseconds=args.ms,
            rounds=args.rounds,
            seed=args.seed,
        )
    except ValueError as exc:
        raise SystemExit(f"bench preset-rates: {exc}") from None
    _print(result, args.json)
    return 0


def _run_bench_signature(args: argparse.Namespace) -> int:
    result = bench_signature()
    if args.json:
        print(json.dumps(result))
    else:
        for s in result["searches"]:
            print(
                f"{s['position']:28} {s['config']:16} best {s['best_action']} "
                f"visits {s['best_visits']} iterations {s['iterations']}"
            )
        print(f"total iterations: {result['total_iterations']}")
    return 0


def _run_bench_strength(args: argparse.Namespace) -> int:
    config_from_args(args)  # refused before any game is played
    result = bench_strength(
        args.game,
        args.players,
        bot=args.bot,
        baseline=args.baseline,
        games=args.games,
        budget_ms=args.budget_ms,
        iterations=args.iterations,
        config_name=args.config,
        seed=args.seed,
        variant=args.variant,
        on_game=(lambda g: print(json.dumps(g), file=sys.stderr, flush=True)) if args.progress else None,
    )
    _print(result, args.json)
    return 0


def _run_bench_hints(args: argparse.Namespace) -> int:
    result = bench_hints(
        args.game,
        args.players,
        variant=args.variant,
        games=args.games,
        iterations=args.iterations,
        every=args.every,
        seed=args.seed,
    )
    _print(result, args.json)
    return 0


def _run_bench_turn_time(args: argparse.Namespace) -> int:
    result = bench_turn_time(
        args.game,
        args.players,
        level=args.level,
        turns=args.turns,
        seed=args.seed,
        variant=args.variant,
        config=args.config,
    )
    _print(result, args.json)
    return 0


def _run_bench_tree_reuse(args: argparse.Namespace) -> int:
    result = bench_tree_reuse(
        args.game,
        args.players,
        iterations=args.iterations,
        games=args.games,
        seed=args.seed,
        variant=args.variant,
        config=args.config,
        backend=args.backend,
        workers=args.workers,
    )
    _print(result, args.json)
    return 0


def _run_configs(args: argparse.Namespace) -> int:
    for c in list_configs():
        print(f"{c.label:22} {c.algorithm:6} {c.description}")
    return 0


def _add_budget_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--budget-ms", type=float, default=None, help="search time per move (default 1000)")
    p.add_argument("--iterations", type=int, default=None, help="search iterations per move")
    p.add_argument("--config", default=None, help="search preset, e.g. ismcts@1 (see `orrery configs`)")


def register(commands, bench) -> None:
    p = commands.add_parser(
        "games", help="list the games, their variants and player counts, and the learned models shipped"
    )
    p.add_argument("--all", action="store_true", help="(kept for old scripts: every game is listed anyway)")
    p.set_defaults(func=_run_games)

    p = commands.add_parser("selfplay", help="play a whole game between bots and print it")
    add_game_arguments(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", nargs="+", choices=BOT_KINDS, help="one bot per seat (default: random)")
    _add_budget_arguments(p)
    p.add_argument("--render", action="store_true", help="print the position after each turn")
    p.add_argument(
        "--svg", metavar="DIR", default=None, help="write a board picture after each move: DIR/move-NNNN.svg"
    )
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(func=_run_selfplay)

    p = commands.add_parser("configs", help="list the named search configurations")
    p.set_defaults(func=_run_configs)

    p = bench.add_parser("search", help="search iterations per second, against raw playouts")
    add_game_arguments(p)
    p.add_argument("--workers", type=int, nargs="+", default=[1], help="one run per count, e.g. 1 2")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--config", default="ismcts")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--random-moves", type=int, default=0, help="random moves before the searched position")
    p.add_argument("--backend", choices=("inprocess", "ray"), default="inprocess")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_search)

    p = bench.add_parser("preset-rates", help="iterations two presets run in the same time, same positions")
    add_game_arguments(p)
    p.add_argument("--old", required=True, help="a preset, e.g. ismcts@3")
    p.add_argument("--new", required=True, help="a preset, e.g. ismcts-trian@1")
    p.add_argument("--positions", type=int, default=16, help="seeded mid-game positions")
    p.add_argument("--ms", type=float, default=40.0, help="wall time of each search (ms)")
    p.add_argument("--rounds", type=int, default=3, help="passes over the positions, alternating the order")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_preset_rates)

    p = bench.add_parser("signature", help="fixed-seed searches on fixed positions (pinned by a test)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_signature)

    p = bench.add_parser("strength", help="a bot against a baseline over many games, win rate with 95%% CI")
    add_game_arguments(p)
    p.add_argument("--bot", choices=BOT_KINDS, default="ismcts")
    p.add_argument("--baseline", choices=BOT_KINDS, default="random")
    p.add_argument("--games", type=int, default=100)
    _add_budget_arguments(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--progress", action="store_true", help="one JSON line per game on stderr")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_strength)

    p = bench.add_parser("hints", help="how well hints predict the outcome, over seeded search-played games")
    add_game_arguments(p)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--iterations", type=int, default=300, help="search iterations per decision")
    p.add_argument("--every", type=int, default=8, help="take a hint at every N-th decision with a choice")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_hints)

    p = bench.add_parser("turn-time", help="AI wall time per whole turn at a level: p50, p95, max")
    add_game_arguments(p)
    p.add_argument("--level", choices=tuple(LEVELS), default="medium")
    p.add_argument("--turns", type=int, default=40, help="whole turns to time (all seats together)")
    p.add_argument(
        "--seed", type=int, default=0, help="the first game's seed; the next games take seed + 1, ..."
    )
    p.add_argument("--config", default=None, help="search preset (default: the game's own)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_turn_time)

    p = bench.add_parser("tree-reuse", help="share of searched decisions that start from a re-rooted tree")
    add_game_arguments(p)
    p.add_argument("--iterations", type=int, default=3000, help="search iterations per whole turn")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--config", default=None, help="search preset (default: the game's own)")
    p.add_argument(
        "--seed", type=int, default=0, help="the first game's seed; the next games take seed + 1, ..."
    )
    p.add_argument("--backend", choices=("inprocess", "ray"), default="inprocess", help="where searches run")
    p.add_argument("--workers", type=int, default=1, help="search workers (threads or Ray actors)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_tree_reuse)
