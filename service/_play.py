"""`orrery play`: a person plays one seat of a hosted match; the server's AI plays the others.

Everything goes through the public API with seat tokens, exactly as a frontend would: the person's
view comes from GetObservation with their own token, and AI seats move by SuggestMove (at the chosen
level) followed by ApplyAction with that seat's token.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

import grpc
from orrery.service.client import OrreryClient


def _ask(legal: Any, stdin: TextIO, stdout: TextIO) -> Any:
    """Read a choice: an index from the list, an action id ('#3') or a label."""
    for i, action in enumerate(legal):
        print(f"  [{i}] {action.label}", file=stdout)
    while True:
        print("your move> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            raise EOFError("no more input")
        text = line.strip()
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


def play_in_terminal(
    target: str, args: argparse.Namespace, *, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    with OrreryClient(target, timeout=120.0) as client:
        client.wait_ready(60.0)
        match = client.create_match(args.game, players=args.players, variant=args.variant, seed=args.seed)
        me = args.seat
        if not 0 <= me < match.players:
            print(f"--seat must be in 0..{match.players - 1}", file=sys.stderr)
            return 2
        about = f"{match.game} ({match.variant}), you are seat {me}, AI level {args.level}"
        print(f"match {match.match_id}: {about}", file=stdout)
        while True:
            view = client.observation(match, me)
            if view.game_over:
                break
            seat = view.current_player
            if seat == me:
                print(view.rendered, file=stdout)
                try:
                    choice = _ask(list(view.legal_actions), stdin, stdout)
                except EOFError:
                    print(f"\nleaving match {match.match_id} unfinished", file=stdout)
                    return 1
                try:
                    client.apply(match, me, action_id=choice.id, expected_move_number=view.move_number)
                except grpc.RpcError as exc:
                    print(f"  refused: {exc.details()}", file=stdout)
                continue
            hint = client.suggest(match=match, seat=seat, level=args.level)
            client.apply(match, seat, action_id=hint.action.id)
            print(f"seat {seat} (AI) plays {hint.action.label}", file=stdout)
        print(view.rendered, file=stdout)
        for seat, (score, rank) in enumerate(zip(view.scores, view.ranks, strict=True)):
            who = "you" if seat == me else "AI"
            print(f"seat {seat} ({who}): score {score:g}, place {rank + 1}", file=stdout)
        replay = client.replay(match)
        print(f"game over after {len(replay.moves)} moves; deal seed {replay.seed}", file=stdout)
    return 0
