"""`orrery play`: a person plays one seat of a hosted match; the server plays the others as AI seats.

Everything goes through the public API with the seat's token, exactly as a frontend would: the match
is created with AI seats (the server plays them itself), the AI seats' moves arrive through WatchMatch
as they happen, the person's view comes from GetObservation, and the `hint` command shows the top
three candidates of the same Analyze call a frontend would make, in the game's terms (win chance or
expected place, final score, the gap to the best move, what the move changes, the line by turn).
Another seat's turn is printed as one summary line when it ends ("seat 1 (AI): 7 moves — +4 credits;
seat 0 +2 credits", the changes summed from WatchMatch's changes_json), its moves indented under it with
what each set off (MatchEvent.events: dice, revealed cards and tiles, the Rogue's turn, areas closed and
who was paid); what the person's own moves set off is printed under them the same way. Labels, events
and changes are the ones WatchMatch sent this seat (built from its own view, so they never name another
seat's hidden choice); nothing here labels a move itself.

At the prompt, besides a move: `hint` (or `?`), `score` (where each seat's points come from; also printed
at the end), `resign` (asks first; ResignMatch), `quit` (leaves the
match as it is and prints how to resume it) and `help`. Every match this command creates is saved with
its seat token in the data folder (play-seats.json), so `orrery play --resume MATCH_ID` picks it up
again; a match on another server resumes with `--target HOST:PORT --resume MATCH_ID --seat N --token T`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import grpc

from orrery.service._hint_text import hint_lines
from orrery.service._score_text import breakdown_lines
from orrery.service.client import HUMAN, OrreryClient, ai_seat, final_update
from orrery.v1 import orrery_pb2 as pb

HINT_WORDS = ("hint", "?")
RESIGN_WORDS = ("resign",)
QUIT_WORDS = ("quit", "exit")
HELP_WORDS = ("help",)
SCORE_WORDS = ("score", "scores")
YES_WORDS = ("y", "yes")
HINT_MS = 500
READY_S = 15.0  # how long a server given with --target may take to answer
LOCAL = "local"  # the saved target of a match on the server `orrery play` starts itself
HELP = (
    "  a number from the list, '#ID' (an action id) or a move's label;\n"
    "  'hint' or '?': the AI's three best moves here; 'score': where each seat's points come from;\n"
    "  'resign': give up (asks first);\n"
    "  'quit': leave the match as it is (resume it later with orrery play --resume)"
)


class _Hint(Exception):
    """The person asked for a hint."""


class _Score(Exception):
    """The person asked where the points come from."""


class _Resign(Exception):
    """The person confirmed that they resign."""


class _Quit(Exception):
    """The person leaves the match unfinished."""


@dataclass(frozen=True)
class Seat:
    """The person's seat in a hosted match, and the token that proves it."""

    match_id: str
    seat: int
    token: str


class SavedSeats:
    """The seats of unfinished matches `orrery play` started: {match id: {"seat", "token", "target"}} in a
    JSON file in the data folder, so a quit (or a closed terminal) can be resumed by match id."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, match_id: str) -> dict[str, Any] | None:
        return self._read().get(match_id)

    def all(self) -> dict[str, dict[str, Any]]:
        return self._read()

    def put(self, seat: Seat, target: str) -> None:
        data = self._read()
        data[seat.match_id] = {"seat": seat.seat, "token": seat.token, "target": target}
        self._write(data)

    def forget(self, match_id: str) -> None:
        data = self._read()
        if data.pop(match_id, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        # Seat tokens are secrets: the file is the user's alone from the start.
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(json.dumps(data, indent=1, sort_keys=True))
        temporary.replace(self.path)


class OptionNumbers:
    """Numbers for the legal moves that stay put within one decision: when a step of the same decision
    keeps some of the options, they keep their numbers and new ones get numbers never used before; a list
    sharing nothing with the ones before (a new decision, say a payment in the middle of a turn) is
    numbered from 0, and when the turn comes back to an earlier decision, its numbers come back too.
    reset() forgets everything (another seat moved)."""

    def __init__(self) -> None:
        self._decisions: list[dict[tuple[int, str], int]] = []

    def number(self, legal: list[Any]) -> list[tuple[int, Any]]:
        keys = [(a.id, a.label) for a in legal]
        numbers = max(self._decisions, key=lambda d: sum(k in d for k in keys), default=None)
        if numbers is None or not any(k in numbers for k in keys):
            numbers = {}
            self._decisions.append(numbers)
        next_free = max(numbers.values(), default=-1) + 1
        numbered = []
        for key, action in zip(keys, legal, strict=True):
            if key not in numbers:
                numbers[key] = next_free
                next_free += 1
            numbered.append((numbers[key], action))
        return sorted(numbered, key=lambda pair: pair[0])

    def reset(self) -> None:
        self._decisions = []


@contextlib.contextmanager
def store_lock(db: str) -> Iterator[bool]:
    """Whether this `orrery play` may start its server on `db`: one at a time (an exclusive lock on
    DB.lock), since each server plays the AI seats of every match in its store."""
    import fcntl

    with open(f"{db}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


def _read_line(stdin: TextIO) -> str:
    line = stdin.readline()
    if not line:
        raise EOFError("no more input")
    return line.strip()


def _confirm(question: str, stdin: TextIO, stdout: TextIO) -> bool:
    print(f"{question} [y/N] ", end="", file=stdout, flush=True)
    return _read_line(stdin).lower() in YES_WORDS


def _command(text: str, stdin: TextIO, stdout: TextIO) -> bool:
    """Handle a word that is not a move (raising _Hint, _Resign or _Quit); False if it is none."""
    word = text.lower()
    if word in HINT_WORDS:
        raise _Hint()
    if word in SCORE_WORDS:
        raise _Score()
    if word in RESIGN_WORDS:
        if _confirm("resign? the match ends now with you in last place", stdin, stdout):
            raise _Resign()
        return True
    if word in QUIT_WORDS:
        raise _Quit()
    if word in HELP_WORDS:
        print(HELP, file=stdout)
        return True
    return False


def _ask(numbered: list[tuple[int, Any]], stdin: TextIO, stdout: TextIO) -> Any:
    """Read a choice: a number from the list, an action id ('#3') or a label; or a command."""
    for number, action in numbered:
        print(f"  [{number}] {action.label}", file=stdout)
    by_number = dict(numbered)
    while True:
        print("your move (or hint, score, resign, quit, help)> ", end="", file=stdout, flush=True)
        text = _read_line(stdin)
        if _command(text, stdin, stdout):
            continue
        if text.isdigit() and int(text) in by_number:
            return by_number[int(text)]
        if text.startswith("#") and text[1:].isdigit():
            for _, action in numbered:
                if action.id == int(text[1:]):
                    return action
        for _, action in numbered:
            if action.label == text:
                return action
        print(f"  not a choice: {text!r} (type 'help')", file=stdout)


def print_hint(client: OrreryClient, me: Seat, stdout: TextIO) -> None:
    """The top three candidates of an Analyze call on the person's seat, in the game's terms."""
    updates = client.analyze(match=me.match_id, seat=me.seat, token=me.token, milliseconds=HINT_MS, top_k=3)
    for line in hint_lines(final_update(updates).result):
        print(f"  {line}", file=stdout)


def print_scores(client: OrreryClient, me: Seat, stdout: TextIO) -> None:
    """Where each seat's points come from, as this seat sees them (GetObservation.score_breakdown)."""
    view = client.observation(me.match_id, me.seat, token=me.token)
    lines = breakdown_lines(view.score_breakdown, me.seat, list(view.ai_seats))
    for line in lines or ["this game gives no score breakdown"]:
        print(f"  {line}", file=stdout)


@dataclass
class _Turns:
    """What one `orrery play` session needs between turns."""

    client: OrreryClient
    me: Seat
    auto_single: bool
    stdin: TextIO
    stdout: TextIO
    numbers: OptionNumbers

    def play_one(self) -> None:
        """Play one move for the person (hints on request); raises _Resign, _Quit or EOFError."""
        view = self.client.observation(self.me.match_id, self.me.seat, token=self.me.token)
        if view.game_over or not view.your_turn:
            return
        legal = list(view.legal_actions)
        if self.auto_single and len(legal) == 1:
            self._apply(legal[0], view.move_number, " (the only legal move)")
            return
        print(view.rendered, file=self.stdout)
        while True:
            try:
                choice = _ask(self.numbers.number(legal), self.stdin, self.stdout)
            except _Hint:
                print_hint(self.client, self.me, self.stdout)
                continue
            except _Score:
                print_scores(self.client, self.me, self.stdout)
                continue
            self._apply(choice, view.move_number)
            return

    def _apply(self, action: Any, move_number: int, why: str = "") -> None:
        try:
            self.client.apply(
                self.me.match_id,
                self.me.seat,
                action_id=action.id,
                expected_move_number=move_number,
                token=self.me.token,
            )
        except grpc.RpcError as exc:
            print(f"  refused: {exc.details()}", file=self.stdout)
            return
        print(f"you play {action.label}{why}", file=self.stdout)


def _problem(message: str) -> int:
    print(f"orrery play: {message}", file=sys.stderr)
    return 2


def _rpc_problem(exc: grpc.RpcError) -> int:
    code = exc.code()
    if code == grpc.StatusCode.UNAVAILABLE:
        return _problem(f"no server answers ({exc.details()})")
    return _problem(f"{exc.details()} ({code.name})")


def _new_match(client: OrreryClient, args: argparse.Namespace, stdout: TextIO) -> Seat:
    me = args.seat
    seats = [HUMAN if s == me else ai_seat(args.level) for s in range(args.players)]
    match = client.create_match(
        args.game, players=args.players, variant=args.variant, seed=args.seed, seats=seats
    )
    about = f"{match.game} ({match.variant}), you are seat {me}, AI level {args.level}"
    print(f"match {match.match_id}: {about}", file=stdout)
    return Seat(match.match_id, me, match.tokens[me])


def _print_end(client: OrreryClient, me: Seat, end: Any, stdout: TextIO) -> None:
    view = client.observation(me.match_id, me.seat, token=me.token)
    print(view.rendered, file=stdout)
    if end is not None and end.resigned_seat >= 0:
        who = "you" if end.resigned_seat == me.seat else f"seat {end.resigned_seat}"
        print(f"{who} resigned", file=stdout)
    if view.status in (pb.MATCH_STATUS_ABANDONED, pb.MATCH_STATUS_EXPIRED):
        print(f"match {me.match_id} ended without a result ({pb.MatchStatus.Name(view.status)})", file=stdout)
        return
    for seat, (score, rank) in enumerate(zip(view.scores, view.ranks, strict=True)):
        who = "you" if seat == me.seat else ("AI" if view.ai_seats[seat] else "human")
        print(f"seat {seat} ({who}): score {score:g}, place {rank + 1}", file=stdout)
    lines = breakdown_lines(view.score_breakdown, me.seat, list(view.ai_seats))
    if lines:
        print("where the points come from:", file=stdout)
        for line in lines:
            print(f"  {line}", file=stdout)
    replay = client.replay(me.match_id)
    print(f"game over after {len(replay.moves)} moves; deal seed {replay.seed}", file=stdout)


@dataclass
class TurnFeed:
    """Another seat's moves, held until its turn ends, then printed as one summary line with the moves
    indented under it; the person's own moves print only what they set off."""

    me: int
    stdout: TextIO
    moves: list[Any] = dataclasses.field(default_factory=list)

    def add(self, event: Any) -> None:
        if event.seat == self.me:
            self.flush()
            for text in event.events:
                print(f"    {text}", file=self.stdout)
            return
        if self.moves and self.moves[-1].seat != event.seat:
            self.flush()
        self.moves.append(event)
        if event.current_player != event.seat:  # the turn passed on (or the game ended)
            self.flush()

    def flush(self) -> None:
        if self.moves:
            for line in turn_lines(self.moves):
                print(line, file=self.stdout)
        self.moves = []


def turn_lines(moves: list[Any]) -> list[str]:
    """One seat's turn (its MOVE events, in order) as a summary line, then each move and what it set
    off, indented."""
    first = moves[0]
    total: dict[str, dict[str, int]] = {}
    for event in moves:
        for who, quantities in (json.loads(event.changes_json) if event.changes_json else {}).items():
            mine = total.setdefault(who, {})
            for name, delta in quantities.items():
                mine[name] = mine.get(name, 0) + int(delta)
    what = first.action.label if len(moves) == 1 else f"{len(moves)} moves"
    changed = changes_line(total, str(first.seat))
    head = f"seat {first.seat}{' (AI)' if first.by_ai else ''}: {what}{f' — {changed}' if changed else ''}"
    lines = [head]
    for event in moves if len(moves) > 1 or first.events else ():
        if len(moves) > 1:
            lines.append(f"    {event.action.label}")
        lines += [f"      {text}" for text in event.events]
    return lines


def changes_line(total: dict[str, dict[str, int]], mover: str) -> str:
    """'+1 empire, -2 energy; seat 0 +3 credits': the turn's own seat first and unnamed."""
    parts = []
    for who in sorted(total, key=lambda w: w != mover):
        said = ", ".join(f"{d:+d} {name}" for name, d in total[who].items() if d)
        if said:
            name = "" if who == mover else ("the Rogue " if who == "rogue" else f"seat {who} ")
            parts.append(f"{name}{said}")
    return "; ".join(parts)


def _watch_and_play(client: OrreryClient, me: Seat, turns: _Turns, after_move: int) -> Any:
    """Follow the match from after_move, playing the person's turns; the END event, or raises."""
    acted_at = -1
    feed = TurnFeed(me.seat, turns.stdout)
    stream = client.watch(me.match_id, me.seat, after_move=after_move, token=me.token)
    try:
        for event in stream:
            if event.kind == pb.MATCH_EVENT_MOVE:
                if event.seat != me.seat:
                    turns.numbers.reset()
                feed.add(event)
            if event.kind == pb.MATCH_EVENT_END:
                feed.flush()
                return event
            if event.current_player == me.seat and acted_at != event.move_number:
                feed.flush()
                acted_at = event.move_number
                turns.play_one()
    finally:
        stream.cancel()
    return None


def _resume_hint(me: Seat, target: str) -> str:
    where = "" if target == LOCAL else f" --target {target}"
    return f"orrery play{where} --resume {me.match_id}"


def play_in_terminal(
    target: str,
    args: argparse.Namespace,
    *,
    saved: SavedSeats,
    saved_target: str | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Play (or with args.resume, resume) a match on `target`; saved_target is what `saved` records as
    its server (LOCAL for the one `orrery play` starts). Exit codes: 0 over or quit, 1 input ran out,
    2 bad arguments or a server that refuses them."""
    saved_target = saved_target or target
    with OrreryClient(target, timeout=120.0) as client:
        try:
            client.wait_ready(READY_S)
        except grpc.FutureTimeoutError:
            return _problem(
                f"no Orrery server answers at {target} within {READY_S:g} s (start one with: orrery serve)"
            )
        try:
            if args.resume:
                me = Seat(args.resume, args.resume_seat, args.resume_token)
                view = client.observation(me.match_id, me.seat, token=me.token)
                print(
                    f"match {me.match_id}: resumed at move {view.move_number}, you are seat {me.seat}",
                    file=stdout,
                )
                after_move = view.move_number
            else:
                me = _new_match(client, args, stdout)
                after_move = 0
        except grpc.RpcError as exc:
            return _rpc_problem(exc)
        saved.put(me, saved_target)
        turns = _Turns(client, me, args.auto_single, stdin, stdout, OptionNumbers())
        try:
            end = _watch_and_play(client, me, turns, after_move)
        except _Resign:
            client.resign(me.match_id, me.seat, token=me.token)
            end = _final_event(client, me)
        except _Quit:
            print(
                f"left match {me.match_id} as it is; resume with: {_resume_hint(me, saved_target)}",
                file=stdout,
            )
            return 0
        except EOFError:
            print(
                f"\nleaving match {me.match_id} unfinished; resume with: {_resume_hint(me, saved_target)}",
                file=stdout,
            )
            return 1
        saved.forget(me.match_id)
        _print_end(client, me, end, stdout)
    return 0


def _final_event(client: OrreryClient, me: Seat) -> Any:
    """The END event of a match that has just ended (WatchMatch from its last move)."""
    view = client.observation(me.match_id, me.seat, token=me.token)
    for event in client.watch(me.match_id, me.seat, after_move=view.move_number, token=me.token):
        if event.kind == pb.MATCH_EVENT_END:
            return event
    return None
