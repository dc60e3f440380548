"""`orrery bench openspiel` (registered always; OpenSpiel is imported only when it runs)."""

from __future__ import annotations

import json
import sys

from orrery.core_ext._cli import add_game_arguments


def register(commands, bench) -> None:  # type: ignore[no-untyped-def]
    p = bench.add_parser(
        "openspiel", help="iterations per second: Orrery's ISMCTS against OpenSpiel's ISMCTS on one position"
    )
    add_game_arguments(p)
    p.add_argument("--seconds", type=float, default=5.0, help="per run (four runs)")
    p.add_argument("--seed", type=int, default=0, help="deal and search seed")
    p.add_argument("--random-moves", type=int, default=0, help="random moves before the searched position")
    p.set_defaults(func=_run_bench_openspiel)


def _run_bench_openspiel(args) -> int:  # type: ignore[no-untyped-def]
    try:
        from orrery.openspiel._bench import bench_openspiel
    except ImportError as exc:
        print(
            f"orrery bench openspiel: needs OpenSpiel: pip install 'orrery[openspiel]' ({exc})",
            file=sys.stderr,
        )
        return 2
    out = bench_openspiel(
        args.game,
        args.players,
        variant=args.variant or None,
        seconds=args.seconds,
        seed=args.seed,
        random_moves=args.random_moves,
    )
    print(json.dumps(out, indent=2))
    return 0
