"""The `orrery` command line. Each layer registers its own subcommands; this file only wires them up."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules exposing register(commands, bench): `commands` and `bench` are argparse sub-parser
# collections for `orrery <cmd>` and `orrery bench <cmd>`.
COMMAND_MODULES = (
    "orrery.core_ext._cli",
    "orrery.search._cli",
    "orrery.search._train_cli",
    "orrery.search.tournament._cli",
    "orrery.service._cli",
    "orrery.service._gateway",
    "orrery.openspiel._cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orrery", description="Orrery: game-tree search AI for space board games"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench_parser = commands.add_parser("bench", help="benchmarks that print JSON")
    bench = bench_parser.add_subparsers(dest="bench", required=True, metavar="BENCH")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands, bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
