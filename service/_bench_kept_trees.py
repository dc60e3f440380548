"""`orrery bench kept-trees`: the server's memory with many hosted AI matches at once, under its bound on
the search trees kept between decisions (--max-kept-trees, --max-kept-tree-nodes; service/_kept_trees.py).

It starts a server (in-process search, its own temporary SQLite store, the bound given), reads its
resident memory once it is warm, then creates `matches` matches whose seats are all AI seats at the level
(each seeded: seed, seed + 1, ...), which the server plays by itself, all at once: every match whose AI
turn waits in the queue keeps that turn's trees, within the bound. For `seconds` it reads the server's
/metrics every `every_s`: its resident memory (process_resident_memory_bytes), the trees and nodes kept
(orrery_ai_kept_trees, orrery_ai_kept_tree_nodes), the evictions and the decisions by tree. The report
gives the memory before the matches and at its peak, the most trees and nodes kept, and the reuse.

Resident memory is the operating system's figure: the C allocator may keep freed memory for later, so the
peak is what the bound must cap, and the end figure can stay near it.
"""

from __future__ import annotations

import tempfile
import time
import urllib.request
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from orrery.service._bench import _load_average
from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient, ai_seat

READ = {
    "process_resident_memory_bytes": "rss_bytes",
    "orrery_ai_kept_trees": "kept_trees",
    "orrery_ai_kept_tree_nodes": "kept_tree_nodes",
    "orrery_ai_kept_tree_evictions_total": "evictions",
    "orrery_matches_active": "matches_active",
}


def read_server(metrics_url: str) -> dict[str, Any]:
    """The figures this bench follows, from the server's /metrics page."""
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    found: dict[str, Any] = {name: 0 for name in READ.values()}
    found["decisions"] = {"reused": 0, "new": 0, "off": 0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in READ:
                found[READ[sample.name]] = int(sample.value)
            elif sample.name == "orrery_ai_searched_decisions_total":
                found["decisions"][sample.labels["tree"]] = int(sample.value)
    return found


def bench_kept_trees(
    *,
    game: str,
    variant: str,
    level: str,
    matches: int,
    seconds: float,
    seed: int,
    workers: int,
    max_kept_trees: int,
    max_kept_tree_nodes: int,
    every_s: float = 0.5,
) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="orrery-kept-trees-")
    args = ["--backend", "in-process", "--workers", str(workers), "--db", f"{folder}/m.sqlite3"]
    args += ["--max-kept-trees", str(max_kept_trees), "--max-kept-tree-nodes", str(max_kept_tree_nodes)]
    # Every match is this client's: its AI searches may all wait in the queue at once.
    args += ["--max-queue", str(max(64, 2 * matches)), "--max-queue-per-peer", str(max(16, 2 * matches))]
    args += ["--max-matches-per-minute", "0"]
    server = start_server(args, cwd=folder, same_imports=True, ready_timeout=300.0)
    load_before = _load_average()
    try:
        before = read_server(server.metrics_url)
        with OrreryClient(server.target, timeout=120) as client:
            for i in range(matches):
                players = 2
                seats = [ai_seat(level, seed=seed + i * players + seat) for seat in range(players)]
                client.create_match(game, players=players, variant=variant, seed=seed + i, seats=seats)
        samples = []
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            samples.append(read_server(server.metrics_url))
            time.sleep(every_s)
        end = read_server(server.metrics_url)
        samples.append(end)
    finally:
        server.terminate()
    peak_rss = max(s["rss_bytes"] for s in samples)
    decisions = end["decisions"]
    keeping = decisions["reused"] + decisions["new"]
    return {
        "bench": "kept-trees",
        "game": game,
        "variant": variant,
        "level": level,
        "matches": matches,
        "seconds": seconds,
        "seed": seed,
        "workers": workers,
        "max_kept_trees": max_kept_trees,
        "max_kept_tree_nodes": max_kept_tree_nodes,
        "rss_before_mb": round(before["rss_bytes"] / 2**20, 1),
        "rss_peak_mb": round(peak_rss / 2**20, 1),
        "rss_end_mb": round(end["rss_bytes"] / 2**20, 1),
        "rss_growth_peak_mb": round((peak_rss - before["rss_bytes"]) / 2**20, 1),
        "max_kept_trees_seen": max(s["kept_trees"] for s in samples),
        "max_kept_tree_nodes_seen": max(s["kept_tree_nodes"] for s in samples),
        "mean_kept_tree_nodes": round(sum(s["kept_tree_nodes"] for s in samples) / len(samples)),
        "evictions": end["evictions"],
        "matches_active_end": end["matches_active"],
        "ai_searched_decisions": decisions,
        "reuse_rate": round(decisions["reused"] / keeping, 4) if keeping else None,
        "samples": len(samples),
        "load_average_1m": [load_before, _load_average()],
    }
