"""`orrery bench hosted-turn-time`: an AI seat's whole turn as a person waits for it, through a server.

It starts a server (in-process search, its own temporary SQLite store) and plays 2-player matches: seat 0
a person playing seeded random legal moves, seat 1 an AI seat at the level. A turn's time runs from the
ApplyAction that ends the person's turn (acknowledged) to the stream event of the AI's last move of its
turn: search, the clock, the store's writes and the events, all counted. Matches from seeds seed,
seed + 1, ... until `turns` AI turns are timed. orrery bench turn-time measures the bots alone.

--backend ray starts the server on a local Ray instead (its short milliseconds decisions, most of expert's,
then run in the server's time-shared lane). The report also gives the AI seat's tree reuse as the
server's own metrics counted it (orrery_ai_searched_decisions_total, orrery_ai_carried_visits_total), and
how often the server's bound on kept trees freed one (orrery_ai_kept_tree_evictions_total). --no-reuse
starts the server with --max-kept-trees 0: every decision then starts a new tree, the same seats and
configs otherwise, to compare turn times with and without reuse.
"""

from __future__ import annotations

import math
import random
import tempfile
import time
import urllib.request
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from orrery.service._bench import _load_average
from orrery.service._spawn import start_server
from orrery.service.client import HUMAN, OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _ai_turns(client: OrreryClient, game: str, variant: str, level: str, seed: int, wanted: int, rng):
    """(seconds, AI moves) per AI turn of one match, at most `wanted`."""
    match = client.create_match(
        game, players=2, variant=variant, seed=seed, seats=[HUMAN, ai_seat(level, seed=seed)]
    )
    timed: list[tuple[float, int]] = []
    stream = client.watch(match, 0, token=match.tokens[0], timeout=600)
    try:
        event = next(stream)  # SYNC
        current, sent, moves = event.current_player, None, 0
        while len(timed) < wanted:
            if current == 0:
                view = client.observation(match, 0, token=match.tokens[0])
                action = rng.choice(view.legal_actions).id
                client.apply(
                    match, 0, action_id=action, expected_move_number=view.move_number, token=match.tokens[0]
                )
                sent = time.perf_counter()
            event = next(stream)
            if event.kind == pb.MATCH_EVENT_END:
                break
            if event.kind == pb.MATCH_EVENT_MOVE and event.by_ai:
                moves += 1
                if event.current_player != 1 and sent is not None:  # the AI's turn is over
                    timed.append((time.perf_counter() - sent, moves))
                    moves = 0
            current = event.current_player
    finally:
        stream.cancel()
    return timed


def _tree_reuse(metrics_url: str) -> dict[str, Any]:
    """The server's count of its AI seats' searched decisions by tree, and the visits carried over."""
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    decisions = {"reused": 0, "new": 0, "off": 0}
    carried = evictions = 0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "orrery_ai_searched_decisions_total":
                decisions[sample.labels["tree"]] = int(sample.value)
            elif sample.name == "orrery_ai_carried_visits_total":
                carried = int(sample.value)
            elif sample.name == "orrery_ai_kept_tree_evictions_total":
                evictions = int(sample.value)
    keeping = decisions["reused"] + decisions["new"]
    return {
        "ai_searched_decisions": decisions,
        "reuse_rate": round(decisions["reused"] / keeping, 4) if keeping else None,
        "mean_carried_visits": round(carried / decisions["reused"], 1) if decisions["reused"] else None,
        "kept_tree_evictions": evictions,
    }


def bench_hosted_turn_time(
    *,
    game: str,
    variant: str,
    level: str,
    turns: int,
    seed: int,
    workers: int,
    backend: str = "in-process",
    reuse: bool = True,
) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="orrery-turns-")
    args = ["--backend", backend, "--workers", str(workers), "--db", f"{folder}/m.sqlite3"]
    if not reuse:
        args += ["--max-kept-trees", "0"]  # every decision starts a new tree
    server = start_server(args, cwd=folder, same_imports=True, ready_timeout=300.0)
    started = time.perf_counter()
    try:
        with OrreryClient(server.target, timeout=120) as client:
            rng = random.Random(seed)
            timed: list[tuple[float, int]] = []
            matches = 0
            while len(timed) < turns:
                timed += _ai_turns(client, game, variant, level, seed + matches, turns - len(timed), rng)
                matches += 1
        counted = _tree_reuse(server.metrics_url)
    finally:
        server.terminate()
    seconds = [t for t, _ in timed]
    return {
        "bench": "hosted-turn-time",
        "game": game,
        "variant": variant,
        "level": level,
        "backend": backend,
        "reuse": reuse,  # False: the server kept no trees (--max-kept-trees 0)
        "workers": workers,
        "seed": seed,
        "matches": matches,
        "turns": len(timed),
        "p50_s": round(_percentile(seconds, 0.5), 4),
        "p95_s": round(_percentile(seconds, 0.95), 4),
        "max_s": round(max(seconds), 4),
        "mean_ai_moves_per_turn": round(sum(m for _, m in timed) / len(timed), 2),
        "max_ai_moves_per_turn": max(m for _, m in timed),
        **counted,  # the AI seat's searched decisions by tree (the server's metrics)
        "load_average_1m": _load_average(),
        "wall_s": round(time.perf_counter() - started, 2),
    }
