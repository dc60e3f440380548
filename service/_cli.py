"""`orrery serve`, `orrery suggest`, `orrery play` and `orrery bench service`."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import os
import sys
from typing import Any

import grpc

from orrery.service._config_check import SearchConfigError
from orrery.service._kept_trees import (
    DEFAULT_KEPT_TREE_NODES,
    DEFAULT_KEPT_TREES,
    DEFAULT_WORKER_KEPT_TREE_NODES,
    DEFAULT_WORKER_KEPT_TREES,
)
from orrery.service._matches import StoredMatchesError
from orrery.service._server import BACKENDS, DEFAULT_HOST, LocalRayError, ServerConfig, serve


def _serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = ServerConfig(
        host=args.host,
        port=args.port,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        metrics=not args.no_metrics,
        ray_dashboard=args.ray_dashboard,
        backend=args.backend,
        ray_address=args.ray_address,
        workers=args.workers,
        db=args.db,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        max_budget_ms=args.max_budget_ms,
        default_budget_ms=args.default_budget_ms,
        max_queue=args.max_queue,
        max_active=args.max_active,
        default_config=args.config,
        drain_seconds=args.drain_seconds,
        local_below_ms=args.local_below_ms,
        worker_nice=args.worker_nice,
        thread_nice=args.thread_nice,
        slice_ms=args.slice_ms,
        threads_up_to_ms=args.threads_up_to_ms,
        match_ttl_s=args.match_ttl,
        max_matches_per_minute=args.max_matches_per_minute,
        max_queue_per_peer=args.max_queue_per_peer,
        ai_lease_s=args.ai_lease_s,
        max_queue_wait_ms=args.max_queue_wait_ms,
        max_streams_per_connection=args.max_streams_per_connection,
        max_streams_per_host=args.max_streams_per_host,
        max_token_failures=args.max_token_failures,
        max_kept_trees=args.max_kept_trees,
        max_kept_tree_nodes=args.max_kept_tree_nodes,
        worker_kept_trees=args.worker_kept_trees,
        worker_kept_tree_nodes=args.worker_kept_tree_nodes,
    )

    def ready(server: Any) -> None:
        metrics = f"metrics on :{server.metrics_port}" if config.metrics else "metrics off"
        print(f"orrery serving on {config.host}:{server.port} ({metrics})", flush=True)

    from orrery.service._postgres import DatabaseSetupError

    try:
        asyncio.run(serve(config, on_ready=ready))
    except (StoredMatchesError, DatabaseSetupError, LocalRayError, SearchConfigError) as exc:
        print(f"orrery serve: {exc}", file=sys.stderr, flush=True)
        return 2
    return 0


def _db_upgrade(args: argparse.Namespace) -> int:
    from orrery.service._postgres import DatabaseSetupError, redacted
    from orrery.service._store import upgrade_store

    try:
        before, after = upgrade_store(args.db)
    except (StoredMatchesError, DatabaseSetupError) as exc:
        print(f"orrery db upgrade: {exc}", file=sys.stderr, flush=True)
        return 2
    print(
        f"{redacted(args.db)}: schema {before} -> {after}"
        if after != before
        else f"{redacted(args.db)}: schema {after}, up to date"
    )
    return 0


def _db_copy(args: argparse.Namespace) -> int:
    from orrery.service._copy import StoreCopyError, copy_store
    from orrery.service._postgres import DatabaseSetupError, scrubbed

    try:
        import psycopg
    except ImportError:
        print(
            "orrery db copy: needs the PostgreSQL driver: pip install 'orrery[postgresql]'", file=sys.stderr
        )
        return 2
    try:
        result = copy_store(args.source, args.target)
    except (StoreCopyError, DatabaseSetupError) as exc:
        print(f"orrery db copy: {exc}", file=sys.stderr, flush=True)
        return 2
    except psycopg.Error as exc:
        print(
            f"orrery db copy: {scrubbed(exc, args.target)}; nothing was copied", file=sys.stderr, flush=True
        )
        return 2
    if args.json:
        print(json.dumps(dataclasses.asdict(result)))
    else:
        tables = ", ".join(f"{n} {table}" for table, n in result.rows.items())
        print(
            f"{result.source} -> {result.target}: {result.matches} matches ({result.active} active) copied "
            f"in {result.seconds:.2f} s; rows: {tables}"
        )
    return 0


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to bind (default $ORRERY_HOST, else 127.0.0.1: this machine only; "
        "0.0.0.0 for every interface)",
    )
    p.add_argument("--port", type=int, default=50051, help="gRPC port; 0 = any free port (default 50051)")
    p.add_argument("--metrics-port", type=int, default=9464, help="Prometheus /metrics port (default 9464)")
    p.add_argument("--metrics-host", default=None, help="address for /metrics (default: the same as --host)")
    p.add_argument("--no-metrics", action="store_true", help="do not serve /metrics")
    p.add_argument(
        "--ray-dashboard", action="store_true", help="start a local Ray's dashboard (on --host; default off)"
    )
    p.add_argument(
        "--ray-address",
        default=os.environ.get("RAY_ADDRESS"),
        help="Ray cluster to join (default $RAY_ADDRESS; none = start a local Ray)",
    )
    p.add_argument("--workers", type=int, default=None, help="search workers (default: one per CPU)")
    p.add_argument("--backend", choices=BACKENDS, default="ray", help="ray (default) or in-process threads")
    p.add_argument(
        "--db",
        default=os.environ.get("ORRERY_DB") or "orrery-matches.sqlite3",
        help="hosted matches: a SQLite file (default $ORRERY_DB, else orrery-matches.sqlite3, one server), "
        "or postgresql://user@host:port/database (several replicas; needs orrery[postgresql]); give the "
        "password in $PGPASSWORD or a password file ($PGPASSFILE, ~/.pgpass), or in $ORRERY_DB, not in "
        "argv, where every process on the machine can read it",
    )
    p.add_argument("--tls-cert", default=None, help="PEM certificate chain (enables TLS with --tls-key)")
    p.add_argument("--tls-key", default=None, help="PEM private key")
    p.add_argument("--max-budget-ms", type=float, default=10_000.0, help="longest search allowed (ms)")
    p.add_argument("--default-budget-ms", type=float, default=1_000.0, help="budget when none is given (ms)")
    p.add_argument(
        "--max-queue", type=int, default=64, help="searches that may wait before RESOURCE_EXHAUSTED"
    )
    p.add_argument(
        "--max-active", type=int, default=None, help="searches that run at once (default 1 per worker)"
    )
    p.add_argument(
        "--config",
        default="",
        help="search configuration for queries that name none (name or name@version); "
        "default: each game's own preset (ListGames default_search)",
    )
    p.add_argument(
        "--drain-seconds", type=float, default=10.0, help="on SIGTERM, time left to running searches"
    )
    p.add_argument(
        "--match-ttl",
        type=float,
        default=7 * 24 * 3600.0,
        help="seconds: an active match with no move for this long ends as expired, an ended one is "
        "deleted this long after its end (default 604800 = 7 days; 0: never)",
    )
    p.add_argument(
        "--max-matches-per-minute",
        type=float,
        default=60.0,
        help="CreateMatch calls per client host per minute, in bursts up to the same number (0: no limit)",
    )
    p.add_argument(
        "--ai-lease-s",
        type=float,
        default=None,
        help="PostgreSQL: seconds an AI turn's claim lasts, renewed while its search waits or runs; a "
        "killed replica's turns pass to another after it (default: 2 x --max-budget-ms + 10 s)",
    )
    p.add_argument(
        "--max-queue-per-peer",
        type=int,
        default=None,
        help="queued searches one client host may hold, across its connections (default: a quarter of "
        "--max-queue)",
    )
    p.add_argument(
        "--max-queue-wait-ms",
        type=float,
        default=2000.0,
        help="a search waits for a slot at most this long, or its budget if longer, then "
        "RESOURCE_EXHAUSTED with a retry hint (default 2000)",
    )
    p.add_argument(
        "--max-streams-per-connection",
        type=int,
        default=100,
        help="open WatchMatch and Analyze streams per client connection (default 100; 0: no cap)",
    )
    p.add_argument(
        "--max-streams-per-host",
        type=int,
        default=500,
        help="open WatchMatch and Analyze streams per client host (default 500; 0: no cap)",
    )
    p.add_argument(
        "--max-token-failures",
        type=float,
        default=20.0,
        help="wrong seat/spectator/owner tokens per client host per minute, in bursts up to the same; "
        "beyond them its token calls get RESOURCE_EXHAUSTED until they refill (default 20; 0: no limit)",
    )
    p.add_argument(
        "--max-kept-trees",
        type=_non_negative_int,
        default=DEFAULT_KEPT_TREES,
        help="hosted AI seats' turns whose search trees are kept between decisions (tree reuse), the "
        f"most recently searched freed first (default {DEFAULT_KEPT_TREES}; 0: none, every decision starts "
        "a new tree)",
    )
    p.add_argument(
        "--max-kept-tree-nodes",
        type=_non_negative_int,
        default=DEFAULT_KEPT_TREE_NODES,
        help="nodes of those trees this process keeps, all together (about 300 bytes each; default "
        f"{DEFAULT_KEPT_TREE_NODES:,})",
    )
    p.add_argument(
        "--worker-kept-trees",
        type=_non_negative_int,
        default=DEFAULT_WORKER_KEPT_TREES,
        help="with --backend ray: turns whose trees each search actor keeps of its own worker, the most "
        f"recently searched freed first (default {DEFAULT_WORKER_KEPT_TREES}; 0: none)",
    )
    p.add_argument(
        "--worker-kept-tree-nodes",
        type=_non_negative_int,
        default=DEFAULT_WORKER_KEPT_TREE_NODES,
        help="with --backend ray: nodes of those trees each search actor keeps, all together (about 250 "
        f"bytes each; default {DEFAULT_WORKER_KEPT_TREE_NODES:,})",
    )


def _non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0 (the usage error names the flag)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {value}")
    return value


def _default_game() -> str:
    from orrery.core_ext import registered_games

    names = [g.name for g in registered_games()]
    return "trian" if "trian" in names else names[0]


def _read_observation(value: str) -> str:
    if value == "-":
        return sys.stdin.read()
    if value.lstrip().startswith("{"):
        return value
    with open(value, encoding="utf-8") as f:
        return f.read()


def _suggest(args: argparse.Namespace) -> int:
    from google.protobuf.json_format import MessageToDict

    from orrery.service.client import OrreryClient

    params = {
        "iterations": args.iterations,
        "milliseconds": args.ms,
        "level": args.level,
        "top_k": args.top_k,
        "seed": args.seed,
        "config": args.config,
    }
    with OrreryClient(args.target, tls=args.tls, timeout=args.timeout) as client:
        if args.match:
            where: dict[str, Any] = {"match": args.match, "seat": args.seat}
            if args.token:
                client._tokens[(args.match, args.seat)] = args.token
        else:
            if args.observation:
                text = _read_observation(args.observation)
            else:  # a fresh deal: the first seat to move
                from orrery.core_ext import load_game

                state = load_game(args.game, players=args.players).new_initial_state(args.deal_seed)
                text = state.observation(state.current_player).to_json()
            where = {"game": args.game, "observation_json": text}
        try:
            if args.analyze:
                for update in client.analyze(**where, progress_interval_ms=args.progress_ms, **params):
                    if args.json:
                        print(json.dumps(MessageToDict(update)), flush=True)
                    elif update.HasField("result"):
                        _print_answer(update.result, final=update.final)
                return 0
            answer = client.suggest(**where, **params)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNAVAILABLE:
                print(
                    f"error: no Orrery server answers at {args.target}; start one with `orrery serve`",
                    file=sys.stderr,
                )
            print(f"error: {exc.code().name}: {exc.details()}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(MessageToDict(answer)))
    else:
        _print_answer(answer, final=True)
    return 0


def _print_answer(answer: Any, *, final: bool) -> None:
    s = answer.stats
    head = "move" if final else "best so far"
    print(f"{head}: {answer.action.label} (id {answer.action.id})")
    for c in answer.candidates:
        line = " ".join(a.label or str(a.id) for a in c.principal_variation)
        print(f"  {c.action.label:24} visits {c.visits:>9} value {c.value:.3f}  pv: {line}")
    print(
        f"  {s.iterations} iterations on {s.workers} workers in {s.elapsed_ms:.0f} ms"
        f" (queued {s.queue_ms:.0f} ms){' cut short' if s.cut_short else ''};"
        f" config {s.config}, seed {s.seed}"
    )


def _play(args: argparse.Namespace) -> int:
    from orrery.core_ext import registered_games
    from orrery.core_ext._paths import data_dir
    from orrery.service._play import LOCAL, SavedSeats, play_in_terminal, store_lock
    from orrery.service._spawn import running_server

    def problem(message: str) -> int:
        print(f"orrery play: {message}", file=sys.stderr)
        return 2

    saved = SavedSeats(data_dir() / "play-seats.json")
    if args.list:
        for match_id, entry in sorted(saved.all().items()):
            where = "" if entry["target"] == LOCAL else f" --target {entry['target']}"
            print(f"{match_id}  seat {entry['seat']}: orrery play{where} --resume {match_id}")
        return 0
    target = args.target
    if args.resume:
        entry = saved.get(args.resume) or {}
        target = target or entry.get("target", LOCAL)
        args.resume_token = args.token or entry.get("token")
        args.resume_seat = args.seat if args.seat is not None else entry.get("seat", 0)
        if not args.resume_token:
            return problem(f"no saved seat for match {args.resume}; give --seat and --token")
    else:
        games = {g.name: g for g in registered_games()}
        if args.game not in games:
            return problem(f"unknown game {args.game!r}; games: {', '.join(games)}")
        info = games[args.game]
        if args.players not in info.player_counts:
            counts = ", ".join(map(str, info.player_counts))
            return problem(f"{args.game} is played by {counts} players, not {args.players}")
        if args.variant and args.variant not in info.variants:
            return problem(
                f"{args.game} has no variant {args.variant!r}; variants: {', '.join(info.variants)}"
            )
        args.seat = args.seat or 0
        if not 0 <= args.seat < args.players:
            return problem(f"--seat must be in 0..{args.players - 1}")
    if target and target != LOCAL:
        return play_in_terminal(target, args, saved=saved)
    db = args.db or str(data_dir() / "play.sqlite3")
    with store_lock(db) as mine:
        if not mine:
            return problem(f"another orrery play is using {db}; finish or quit it first (or give --db)")
        with running_server(
            ["--backend", "in-process", "--db", db], same_imports=True, cwd=str(data_dir())
        ) as server:
            return play_in_terminal(server.target, args, saved=saved, saved_target=LOCAL)


def _bench_service(args: argparse.Namespace) -> int:
    import tempfile

    from orrery.service._bench import run_bench
    from orrery.service._spawn import running_server

    def run(target: str) -> dict:
        return run_bench(
            target,
            game=args.game,
            players=args.players,
            concurrency=args.concurrency,
            budget_ms=args.budget_ms,
            seconds=args.seconds,
            seed=args.seed,
            config=args.config,
            deadline_ms=args.deadline_ms,
        )

    if args.target:
        result = run(args.target)
    else:
        with tempfile.TemporaryDirectory() as folder:
            db = args.db or os.path.join(folder, "bench.sqlite3")
            serve_args = ["--backend", args.backend, "--db", db]
            if args.workers:
                serve_args += ["--workers", str(args.workers)]
            with running_server(serve_args, same_imports=True, cwd=folder) as server:
                result = run(server.target)
                result["server"] = f"orrery serve {' '.join(serve_args)}"
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _bench_admission(args: argparse.Namespace) -> int:
    import tempfile

    from orrery.service._bench_admission import run_admission_bench
    from orrery.service._spawn import running_server

    def run(flood: str, fresh: str) -> dict:
        return run_admission_bench(
            flood,
            fresh,
            game=args.game,
            players=args.players,
            flood_connections=args.flood_connections,
            flood_in_flight=args.flood_in_flight,
            flood_budget_ms=args.flood_budget_ms,
            fresh_clients=args.fresh_clients,
            fresh_budgets_ms=tuple(args.fresh_budget_ms),
            seed=args.seed,
        )

    if args.target:
        result = run(args.target, args.fresh_target or args.target)
    else:  # both stacks: the flood comes from 127.0.0.1, the fresh clients from ::1 (another host)
        with tempfile.TemporaryDirectory() as folder:
            db = args.db or os.path.join(folder, "bench.sqlite3")
            serve_args = ["--backend", args.backend, "--workers", str(args.workers), "--db", db]
            serve_args += ["--host", "::", "--metrics-host", "127.0.0.1", "--config", args.config]
            with running_server(serve_args, same_imports=True, cwd=folder) as server:
                result = run(server.target, f"[::1]:{server.port}")
                result["server"] = f"orrery serve {' '.join(serve_args)}"
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _bench_matches(args: argparse.Namespace) -> int:
    import tempfile

    from orrery.service._bench import count_scan_ms, fill_match_store, run_match_bench
    from orrery.service._spawn import running_server

    results = []
    for stored in args.stored:
        with tempfile.TemporaryDirectory() as folder:
            db = os.path.join(folder, "matches.sqlite3")
            fill_match_store(db, stored)
            serve_args = [
                "--backend",
                "in-process",
                "--workers",
                "1",
                "--db",
                db,
                "--max-matches-per-minute",
                "0",
            ]
            with running_server(serve_args, same_imports=True) as server:
                result = run_match_bench(server.target, calls=args.calls)
            result = {"stored": stored, **result, "old_count_scan_ms": count_scan_ms(db)}
            results.append(result)
    report = {"bench": "matches", "rpc": "CreateMatch", "results": results, "cpus": os.cpu_count()}
    print(json.dumps(report) if args.json else "\n".join(json.dumps(r) for r in results))
    return 0


def _bench_db_copy(args: argparse.Namespace) -> int:
    import tempfile
    import time

    from orrery.service._bench import fill_played_matches
    from orrery.service._copy import copy_store

    with tempfile.TemporaryDirectory() as folder:
        db = args.sqlite or os.path.join(folder, "matches.sqlite3")
        started = time.perf_counter()
        fill_played_matches(db, args.matches, seed=args.seed)
        filled_s = time.perf_counter() - started
        result = copy_store(db, args.to)
        size = os.path.getsize(db)
    moves = result.rows["moves"]
    report = {
        "bench": "db-copy",
        "matches": result.matches,
        "active": result.active,
        "rows": result.rows,
        "sqlite_bytes": size,
        "fill_s": round(filled_s, 2),
        "copy_s": result.seconds,
        "matches_per_s": round(result.matches / result.seconds, 1),
        "moves_per_s": round(moves / result.seconds, 1),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0


def _bench_hosted_turn_time(args: argparse.Namespace) -> int:
    from orrery.service._bench_turns import bench_hosted_turn_time

    result = bench_hosted_turn_time(
        game=args.game,
        variant=args.variant,
        level=args.level,
        turns=args.turns,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        reuse=not args.no_reuse,
    )
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _bench_kept_trees(args: argparse.Namespace) -> int:
    from orrery.service._bench_kept_trees import bench_kept_trees

    result = bench_kept_trees(
        game=args.game,
        variant=args.variant,
        level=args.level,
        matches=args.matches,
        seconds=args.seconds,
        seed=args.seed,
        workers=args.workers,
        max_kept_trees=args.max_kept_trees,
        max_kept_tree_nodes=args.max_kept_tree_nodes,
    )
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _bench_hosted(args: argparse.Namespace) -> int:
    import contextlib
    import tempfile

    from orrery.service._bench_hosted import run_hosted_bench
    from orrery.service._spawn import running_server

    def run(targets: list[str]) -> dict:
        return run_hosted_bench(
            targets,
            game=args.game,
            concurrency=args.concurrency,
            seconds=args.seconds,
            seed=args.seed,
            ai_iterations=args.ai_iterations,
        )

    if args.target:
        result = run(args.target)
    else:
        with contextlib.ExitStack() as stack:
            db = args.db or os.path.join(stack.enter_context(tempfile.TemporaryDirectory()), "hosted.sqlite3")
            if args.replicas > 1 and not db.startswith(("postgresql://", "postgres://")):
                print("orrery bench hosted: --replicas > 1 needs --db postgresql://...", file=sys.stderr)
                return 2
            serve_args = ["--backend", args.backend, "--workers", str(args.workers), "--db", db]
            serve_args += ["--max-matches-per-minute", "0", "--config", args.config]
            servers = [
                stack.enter_context(running_server(serve_args, same_imports=True))
                for _ in range(args.replicas)
            ]
            result = run([s.target for s in servers])
            result["server"] = f"{args.replicas} x orrery serve {' '.join(serve_args)}"
            result["store"] = "postgresql" if db.startswith("postgres") else "sqlite"
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _bench_db_restart(args: argparse.Namespace) -> int:
    from orrery.service._bench_db_restart import run_db_restart_bench

    result = run_db_restart_bench(
        db=args.db,
        stop_command=args.stop_command,
        start_command=args.start_command,
        restarts=args.restarts,
        down_s=args.down_s,
        poll_ms=args.poll_ms,
        server_path=args.server_path,
    )
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"after PostgreSQL accepts again: first call served in {result['back_ms']['median']} ms "
            f"(max {result['back_ms']['max']}), health SERVING in {result['serving_ms']['median']} ms; "
            f"codes while away {result['codes_while_away']}"
        )
    return 0


def _bench_ai_lease(args: argparse.Namespace) -> int:
    from orrery.service._bench_leases import run_lease_bench

    result = run_lease_bench(
        db=args.db,
        matches=args.matches,
        ai_ms=args.ai_ms,
        max_budget_ms=args.max_budget_ms,
        lease_s=args.ai_lease_s,
        server_path=args.server_path,
    )
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['searches']} searches for {result['ai_moves']} AI moves "
            f"({result['searches_per_ai_move']} per move) with a {result['lease_s']} s lease"
        )
    return 0


def _bench_serve_start(args: argparse.Namespace) -> int:
    from orrery.service._bench_start import run_start_bench

    result = run_start_bench(starts=args.starts, timeout=args.timeout, workers=args.workers)
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _add_search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ms", type=int, default=None, help="budget in milliseconds")
    p.add_argument("--iterations", type=int, default=None, help="budget in iterations (reproducible)")
    p.add_argument("--level", choices=("easy", "medium", "hard", "expert"), default=None)
    p.add_argument("--top-k", type=int, default=5)
    p.add_argument("--seed", type=int, default=None, help="search seed (default: drawn by the server)")
    p.add_argument("--config", default="", help="search configuration (default: the server's)")


def _add_local_below(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--local-below-ms",
        type=float,
        default=20.0,
        help="a search with less time left than this runs on one thread in the server, not on the workers",
    )


def _add_worker_nice(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--worker-nice",
        type=int,
        default=0,
        help="nice increment for a local Ray's processes (default 0: none)",
    )
    p.add_argument(
        "--thread-nice",
        type=int,
        default=10,
        help="nice increment for the search threads in the server, so requests win the CPU (default 10)",
    )


def register(commands: Any, bench: Any) -> None:
    p = commands.add_parser("serve", help="run the gRPC move-suggestion service")
    add_serve_arguments(p)
    _add_local_below(p)
    _add_worker_nice(p)
    p.add_argument(
        "--slice-ms", type=float, default=100.0, help="searches take turns on the workers in slices this long"
    )
    p.add_argument(
        "--threads-up-to-ms",
        type=float,
        default=300.0,
        help="milliseconds budgets up to this run on threads in the server, not on Ray (0: never)",
    )
    p.set_defaults(func=_serve)

    p = commands.add_parser("db", help="the hosted-match database")
    db_commands = p.add_subparsers(dest="db_command", required=True, metavar="DB_COMMAND")
    p = db_commands.add_parser(
        "upgrade",
        help="apply the schema migrations the database lacks (serve does too when its role may; run this "
        "as the database's owner to serve with a role that may only read and write rows)",
    )
    p.add_argument(
        "--db",
        default=os.environ.get("ORRERY_DB"),
        required=not os.environ.get("ORRERY_DB"),
        help="a SQLite file or a postgresql:// URL, as for serve (default $ORRERY_DB)",
    )
    p.set_defaults(func=_db_upgrade)
    p = db_commands.add_parser(
        "copy", help="copy every hosted match from a SQLite file into an empty PostgreSQL database"
    )
    p.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        required=True,
        help="the SQLite file (read only, never changed)",
    )
    p.add_argument(
        "--to",
        dest="target",
        metavar="URL",
        required=True,
        help="postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=_db_copy)

    p = commands.add_parser("suggest", help="ask a running server for a move")
    p.add_argument("--target", default="localhost:50051", help="server address (default localhost:50051)")
    p.add_argument("--tls", action="store_true", help="connect with TLS (system roots)")
    p.add_argument("--timeout", type=float, default=60.0, help="call deadline in seconds")
    p.add_argument("--match", default=None, help="hosted match id (with --seat and --token)")
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--token", default=None, help="the seat's token")
    p.add_argument("--game", default=_default_game())
    p.add_argument("--players", type=int, default=2, help="for a fresh deal (no --observation)")
    p.add_argument("--deal-seed", type=int, default=0, help="for a fresh deal (no --observation)")
    p.add_argument("--observation", default=None, help="observation JSON: a file, '-' for stdin, or the text")
    p.add_argument("--analyze", action="store_true", help="stream progress (Analyze) instead of one answer")
    p.add_argument("--progress-ms", type=int, default=500)
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    _add_search_arguments(p)
    p.set_defaults(func=_suggest)

    p = commands.add_parser("play", help="play a hosted match against AI seats in the terminal")
    p.add_argument("--target", default=None, help="server address (default: start one in-process)")
    p.add_argument("--game", default=_default_game(), help="a game from `orrery games`")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--variant", default="")
    p.add_argument("--seat", type=int, default=None, help="your seat (default 0; the others are AI)")
    p.add_argument("--level", choices=("easy", "medium", "hard", "expert"), default="medium")
    p.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    p.add_argument(
        "--db",
        default=None,
        help="match store of the server it starts (default: play.sqlite3 in the data folder, "
        "$ORRERY_DATA_DIR or ~/.local/share/orrery)",
    )
    p.add_argument(
        "--resume",
        metavar="MATCH_ID",
        default=None,
        help="go on with a match: one `orrery play` saved (it knows the seat and token), "
        "or one on --target with --seat and --token",
    )
    p.add_argument("--token", default=None, help="with --resume: the seat's token")
    p.add_argument("--list", action="store_true", help="list the saved unfinished matches and exit")
    p.add_argument(
        "--auto-single",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play a move at once when it is the only legal one, and say so (default on)",
    )
    p.set_defaults(func=_play)

    p = bench.add_parser("service", help="SuggestMove latency and throughput under concurrent clients")
    p.add_argument("--target", default=None, help="server address (default: start one)")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--budget-ms", type=int, default=100)
    p.add_argument("--seconds", type=float, default=10.0, help="how long the clients send requests")
    p.add_argument("--game", default=_default_game())
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", default="", help="search configuration (default: the server's)")
    p.add_argument("--backend", choices=BACKENDS, default="ray", help="for the server it starts")
    p.add_argument("--workers", type=int, default=None, help="for the server it starts")
    p.add_argument(
        "--db",
        default=None,
        help="for the server it starts (default: a temporary SQLite file, removed after)",
    )
    p.add_argument(
        "--deadline-ms",
        type=int,
        default=None,
        help="give every call this gRPC deadline and report the share of calls that ended past it",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_service)

    p = bench.add_parser(
        "admission", help="a fresh client's first search while another host floods the server"
    )
    p.add_argument("--target", default=None, help="server to flood (default: start one on both stacks)")
    p.add_argument("--fresh-target", default=None, help="the same server as seen from another host")
    p.add_argument("--flood-connections", type=int, default=8)
    p.add_argument("--flood-in-flight", type=int, default=144, help="SuggestMoves the flood keeps sent")
    p.add_argument("--flood-budget-ms", type=int, default=2000)
    p.add_argument("--fresh-clients", type=int, default=10, help="new clients, one search each, in turn")
    p.add_argument("--fresh-budget-ms", type=int, nargs="+", default=[100, 2000])
    p.add_argument("--game", default=_default_game())
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", choices=BACKENDS, default="in-process", help="for the server it starts")
    p.add_argument("--workers", type=int, default=2, help="for the server it starts")
    p.add_argument("--config", default="test-fast", help="for the server it starts")
    p.add_argument(
        "--db",
        default=None,
        help="for the server it starts (default: a temporary SQLite file, removed after)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_admission)

    p = bench.add_parser("hosted", help="hosted-match throughput: CreateMatch, ApplyAction, AI seat moves")
    p.add_argument("--target", action="append", help="a running server (repeat for replicas; default: start)")
    p.add_argument("--db", default=None, help="for the servers it starts (default: a temporary SQLite file)")
    p.add_argument("--replicas", type=int, default=1, help="servers to start on --db (PostgreSQL for > 1)")
    p.add_argument("--backend", choices=BACKENDS, default="in-process", help="for the servers it starts")
    p.add_argument("--workers", type=int, default=1, help="search workers of each server it starts")
    p.add_argument("--config", default="test-fast", help="search configuration of the servers it starts")
    p.add_argument(
        "--concurrency", type=int, default=8, help="client threads, each playing one match at a time"
    )
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--game", default="kuhn")
    p.add_argument("--ai-iterations", type=int, default=50, help="the AI seat's budget per move")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_hosted)

    p = bench.add_parser(
        "hosted-turn-time", help="an AI seat's whole turn through a server it starts: p50, p95, max"
    )
    p.add_argument("--game", default="take_the_galaxy")
    p.add_argument("--variant", default="", help="the game's variant (default: its default)")
    p.add_argument("--level", choices=("easy", "medium", "hard", "expert"), default="medium")
    p.add_argument("--turns", type=int, default=20, help="AI turns to time")
    p.add_argument("--workers", type=int, default=2, help="search workers of the server it starts")
    p.add_argument(
        "--backend",
        choices=("in-process", "ray"),
        default="in-process",
        help="the server's backend (ray: a local Ray; short decisions then take the time-shared lane)",
    )
    p.add_argument("--seed", type=int, default=1, help="the first match's seed (the next take seed + 1, ...)")
    p.add_argument(
        "--no-reuse",
        action="store_true",
        help="start the server with --max-kept-trees 0: every decision starts a new search tree",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_hosted_turn_time)

    p = bench.add_parser(
        "kept-trees",
        help="a server's resident memory with many AI-only matches at once, under its bound on kept trees",
    )
    p.add_argument("--game", default="take_the_galaxy")
    p.add_argument("--variant", default="", help="the game's variant (default: its default)")
    p.add_argument("--level", choices=("easy", "medium", "hard", "expert"), default="hard")
    p.add_argument("--matches", type=int, default=16, help="AI-only 2-player matches played at once")
    p.add_argument("--seconds", type=float, default=60.0, help="how long to follow the server")
    p.add_argument("--workers", type=int, default=2, help="search workers of the server it starts")
    for flag, default in (
        ("--max-kept-trees", DEFAULT_KEPT_TREES),
        ("--max-kept-tree-nodes", DEFAULT_KEPT_TREE_NODES),
    ):
        p.add_argument(
            flag, type=_non_negative_int, default=default, help=f"the server's {flag} (orrery serve)"
        )
    p.add_argument("--seed", type=int, default=7300, help="the first match's seed (then seed + 1, ...)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_kept_trees)

    p = bench.add_parser("db-copy", help="orrery db copy of a generated SQLite store into PostgreSQL")
    p.add_argument("--to", required=True, help="an empty PostgreSQL database: postgresql://...")
    p.add_argument("--matches", type=int, default=300, help="matches to generate (played with random moves)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated matches")
    p.add_argument(
        "--sqlite", default=None, help="keep the generated SQLite store here (default: a temp file)"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_bench_db_copy)

    p = bench.add_parser(
        "db-restart", help="one server while its PostgreSQL stops and starts: errors, health, time to recover"
    )
    p.add_argument("--db", required=True, help="postgresql://... (the database the commands stop and start)")
    p.add_argument("--stop-command", required=True, help="shell command that stops PostgreSQL")
    p.add_argument(
        "--start-command", required=True, help="shell command that starts it and returns once it accepts"
    )
    p.add_argument("--restarts", type=int, default=5)
    p.add_argument("--down-s", type=float, default=2.0, help="seconds PostgreSQL stays down each time")
    p.add_argument("--poll-ms", type=float, default=10.0, help="between the client's GetObservation calls")
    p.add_argument(
        "--server-path",
        default=None,
        help="PYTHONPATH for the server it starts (another checkout's src/, for a before/after figure)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_db_restart)

    p = bench.add_parser(
        "ai-lease", help="searches per AI move with two replicas on PostgreSQL under a queue"
    )
    p.add_argument("--db", required=True, help="postgresql://... (the replicas' database)")
    p.add_argument("--matches", type=int, default=40, help="AI-only kuhn matches, created at once")
    p.add_argument("--ai-ms", type=int, default=250, help="each AI seat's budget per move (ms)")
    p.add_argument("--max-budget-ms", type=float, default=10_000.0, help="for the replicas it starts")
    p.add_argument("--ai-lease-s", type=float, default=None, help="for the replicas (default: theirs)")
    p.add_argument(
        "--server-path", default=None, help="PYTHONPATH for the replicas (another checkout's src/)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_ai_lease)

    p = bench.add_parser(
        "serve-start", help="consecutive starts of orrery serve with a local Ray: how many serve, how fast"
    )
    p.add_argument("--starts", type=int, default=20, help="servers started, one after another")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds a start may take before it fails")
    p.add_argument("--workers", type=int, default=None, help="for the servers it starts (default: per CPU)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_serve_start)

    p = bench.add_parser("matches", help="CreateMatch latency with many matches already stored")
    p.add_argument("--stored", type=int, nargs="+", default=[100, 100_000], help="matches in the store")
    p.add_argument("--calls", type=int, default=300, help="CreateMatch calls timed (one after another)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_bench_matches)
