"""`orrery serve`, `orrery suggest`, `orrery play` and `orrery bench service`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from typing import Any

from service._server import BACKENDS, ServerConfig, serve


def _serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = ServerConfig(
        host=args.host,
        port=args.port,
        metrics_port=args.metrics_port,
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
    )

    def ready(server: Any) -> None:
        print(
            f"orrery serving on {config.host}:{server.port} (metrics on :{server.metrics_port})", flush=True
        )

    asyncio.run(serve(config, on_ready=ready))
    return 0


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="0.0.0.0", help="address to bind (default 0.0.0.0)")
    p.add_argument("--port", type=int, default=50051, help="gRPC port; 0 = any free port (default 50051)")
    p.add_argument("--metrics-port", type=int, default=9464, help="Prometheus /metrics port (default 9464)")
    p.add_argument(
        "--ray-address",
        default=os.environ.get("RAY_ADDRESS"),
        help="Ray cluster to join (default $RAY_ADDRESS; none = start a local Ray)",
    )
    p.add_argument("--workers", type=int, default=None, help="search workers (default: one per CPU)")
    p.add_argument("--backend", choices=BACKENDS, default="ray", help="ray (default) or in-process threads")
    p.add_argument("--db", default="orrery-matches.sqlite3", help="SQLite file for hosted matches")
    p.add_argument("--tls-cert", default=None, help="PEM certificate chain (enables TLS with --tls-key)")
    p.add_argument("--tls-key", default=None, help="PEM private key")
    p.add_argument("--max-budget-ms", type=float, default=10_000.0, help="longest search allowed (ms)")
    p.add_argument("--default-budget-ms", type=float, default=1_000.0, help="budget when none is given (ms)")
    p.add_argument(
        "--max-queue", type=int, default=64, help="searches that may wait before RESOURCE_EXHAUSTED"
    )
    p.add_argument("--max-active", type=int, default=16, help="searches that run at once")
    p.add_argument("--config", default="ismcts", help="default search configuration (name or name@version)")
    p.add_argument(
        "--drain-seconds", type=float, default=10.0, help="on SIGTERM, time left to running searches"
    )


def register(commands: Any, bench: Any) -> None:
    p = commands.add_parser("serve", help="run the gRPC move-suggestion service")
    add_serve_arguments(p)
    p.set_defaults(func=_serve)
