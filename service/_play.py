"""`orrery play`: a person plays one seat of a hosted match; the server plays the others as AI seats.

Everything goes through the public API with the seat's token, exactly as a frontend would: the match
is created with AI seats (the server plays them itself), the AI seats' moves arrive through WatchMatch
as they happen, the person's view comes from GetObservation, and the `hint` command shows the top
three candidates of the same Analyze call a frontend would make, in the game's terms (win chance or
expected place, final score, the gap to the best move, what the move changes, the line by turn).
A move of another seat is printed with the label WatchMatch sent this seat (built from its own view, so
it never names another seat's hidden choice); nothing here labels a move itself.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

import grpc

from orrery.service._hint_text import hint_lines
from orrery.service.client import HUMAN, OrreryClient, ai_seat, final_update
from orrery.v1 import orrery_pb2 as pb

HINT_WORDS = ("hint", "?")
HINT_MS = 500


class _Hint(Exception):
    """The person asked for a hint."""


def _ask(legal: Any, stdin: TextIO, stdout: TextIO) -> Any:
    """Read a choice: an index from the list, an action id ('#3') or a label; `hint` raises _Hint."""
    for i, action in enumerate(legal):
        print(f"  [{i}] {action.label}", file=stdout)
    while True:
        print("your move (or 'hint')> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            raise EOFError("no more input")
        text = line.strip()
        if text.lower() in HINT_WORDS:
            raise _Hint()
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        if text.startswith("#") and text[1:].isdigit():
            for action in legal:
                if action.id == int(text[1:]):
                    return action
        for action in legal:
            if action.label == text:
                return action
        print(f"  not a choice: {text!r}", file=stdout)


def print_hint(client: OrreryClient, match: Any, seat: int, stdout: TextIO) -> None:
    """The top three candidates of an Analyze call on the person's seat, in the game's terms."""
    final = final_update(client.analyze(match=match, seat=seat, milliseconds=HINT_MS, top_k=3))
    for line in hint_lines(final.result):
        print(f"  {line}", file=stdout)


def _my_turn(client: OrreryClient, match: Any, me: int, stdin: TextIO, stdout: TextIO) -> bool:
    """Play one move for the person (hints on request). False: no more input."""
    view = client.observation(match, me)
    if view.game_over or not view.your_turn:
        return True
    print(view.rendered, file=stdout)
    while True:
        try:
            choice = _ask(list(view.legal_actions), stdin, stdout)
        except _Hint:
            print_hint(client, match, me, stdout)
            continue
        except EOFError:
            return False
        try:
            client.apply(match, me, action_id=choice.id, expected_move_number=view.move_number)
        except grpc.RpcError as exc:
            print(f"  refused: {exc.details()}", file=stdout)
        return True


def play_in_terminal(
    target: str, args: argparse.Namespace, *, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    with OrreryClient(target, timeout=120.0) as client:
        client.wait_ready(60.0)
        me = args.seat
        if not 0 <= me < args.players:
            print(f"--seat must be in 0..{args.players - 1}", file=sys.stderr)
            return 2
        seats = [HUMAN if s == me else ai_seat(args.level) for s in range(args.players)]
        match = client.create_match(
            args.game, players=args.players, variant=args.variant, seed=args.seed, seats=seats
        )
        about = f"{match.game} ({match.variant}), you are seat {me}, AI level {args.level}"
        print(f"match {match.match_id}: {about}", file=stdout)
        acted_at = -1
        for event in client.watch(match, me):
            if event.kind == pb.MATCH_EVENT_MOVE and event.seat != me:
                who = "(AI)" if event.by_ai else ""
                print(f"seat {event.seat} {who} plays {event.action.label}".replace("  ", " "), file=stdout)
            if event.kind == pb.MATCH_EVENT_END:
                break
            if event.current_player == me and acted_at != event.move_number:
                acted_at = event.move_number
                if not _my_turn(client, match, me, stdin, stdout):
                    print(f"\nleaving match {match.match_id} unfinished", file=stdout)
                    return 1
        view = client.observation(match, me)
        print(view.rendered, file=stdout)
        for seat, (score, rank) in enumerate(zip(view.scores, view.ranks, strict=True)):
            who = "you" if seat == me else "AI"
            print(f"seat {seat} ({who}): score {score:g}, place {rank + 1}", file=stdout)
        replay = client.replay(match)
        print(f"game over after {len(replay.moves)} moves; deal seed {replay.seed}", file=stdout)
    return 0
