"""`orrery selfplay`: whole games between bots, printed move by move."""

from __future__ import annotations

import argparse

from core_ext._cli import add_game_arguments
from search._selfplay import play_game, random_bot

BOTS = {"random": random_bot}


def _run_selfplay(args: argparse.Namespace) -> int:
    bots = [BOTS[name] for name in (args.bots or ["random"] * args.players)]
    last_seat = [None]

    def on_move(state, seat, action, label):
        if args.quiet:
            return
        if seat != last_seat[0]:
            print(f"-- seat {seat}")
            last_seat[0] = seat
        print(f"   {label}")
        if args.render and state.current_player != seat:
            print(state.render())

    record = play_game(args.game, args.players, args.seed, bots, variant=args.variant, on_move=on_move)
    print(f"game over after {len(record.actions)} actions")
    for seat, (score, rank) in enumerate(zip(record.scores, record.ranks, strict=False)):
        print(
            f"seat {seat} ({args.bots[seat] if args.bots else 'random'}): score {score:g}, place {rank + 1}"
        )
    return 0


def register(commands, bench) -> None:
    p = commands.add_parser("selfplay", help="play a whole game between bots and print it")
    add_game_arguments(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", nargs="+", choices=sorted(BOTS), help="one bot per seat (default: random)")
    p.add_argument("--render", action="store_true", help="print the position after each turn")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(func=_run_selfplay)
