"""Win rates with 95% intervals, first-seat advantage and game length from tournament results files.

    python search/tournament/examples/summary.py RESULTS.jsonl [RESULTS.jsonl ...]

For each bot against each other bot (2-player files): its win rate (a shared first place counts half),
with a 95% interval from the set scores (mean +- 1.96 standard errors over duplicate sets, the set being
the unit of independence, as in docs/tournaments.md) and a Wilson interval over games. Seat 0's win rate
with a Wilson interval is the first-seat advantage. Game length is replayed from the recorded actions:
Tiny Epic Galaxies counts rounds (a game ends at the end of a round, so player turns = rounds x players),
Take The Galaxy its `turn` counter. Only complete sets are counted.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict

from orrery.core_ext import load_game

Z = 1.959964


def wilson(score: float, n: int) -> tuple[float, float]:
    p = score / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def win_share(rec: dict, seat: int) -> float:
    firsts = [s for s, r in enumerate(rec["ranks"]) if r == 0]
    return 1.0 / len(firsts) if seat in firsts else 0.0


def turns(game_name: str, state) -> int:
    doc = json.loads(state.to_json())["state"]
    return doc["round"] if game_name == "tiny_epic_galaxies" else doc["turn"]


def summarize(path: str) -> None:
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    name, players = config["game"], config["players"]
    games = [r for r in lines[1:] if r.get("type") == "game"]
    by_set = defaultdict(list)
    for r in games:
        by_set[(r["pairing"], r["set"])].append(r)
    per_set = 2 if players == 2 else None
    complete = [rs for rs in by_set.values() if per_set is None or len(rs) == per_set]
    games = [r for rs in complete for r in rs]
    game = load_game(name, players=players, variant=config.get("variant"))
    lengths = []
    for r in games:
        state = game.new_initial_state(seed=r["deal_seed"])
        for action in r["actions"]:
            state.apply(action)
        assert state.is_terminal()
        lengths.append(turns(name, state))
    unit = "rounds" if name == "tiny_epic_galaxies" else "turns"
    seat0 = sum(win_share(r, 0) for r in games)
    lo, hi = wilson(seat0, len(games))
    print(f"{path}: {len(games)} games in {len(complete)} complete sets")
    print(
        f"  length: {unit} mean {statistics.mean(lengths):.1f} (sd {statistics.pstdev(lengths):.1f}, "
        f"min {min(lengths)}, max {max(lengths)}); "
        f"choices a game {statistics.mean(r['moves'] for r in games):.0f}"
    )
    print(f"  seat 0 wins {seat0 / len(games):.3f} [{lo:.3f}, {hi:.3f}] of {len(games)} games")
    if players != 2:
        return
    pairs = defaultdict(list)  # (bot, opponent) -> per-set scores of bot
    for rs in complete:
        bots = sorted(set(rs[0]["seats"]))
        if len(bots) != 2:
            continue
        for bot in bots:
            other = bots[1 - bots.index(bot)]
            pairs[(bot, other)].append(statistics.mean(win_share(r, r["seats"].index(bot)) for r in rs))
    for (bot, other), scores in sorted(pairs.items()):
        n = len(scores)
        mu = statistics.mean(scores)
        se = statistics.stdev(scores) / math.sqrt(n) if n > 1 else float("nan")
        wins = sum(
            win_share(r, r["seats"].index(bot))
            for rs in complete
            for r in rs
            if set(r["seats"]) == {bot, other}
        )
        lo, hi = wilson(wins, 2 * n)
        mean_score = statistics.mean(
            r["scores"][r["seats"].index(bot)]
            for rs in complete
            for r in rs
            if set(r["seats"]) == {bot, other}
        )
        print(
            f"  {bot} vs {other}: wins {wins:g}/{2 * n} = {mu:.3f}, 95% [{max(0, mu - Z * se):.3f}, "
            f"{min(1, mu + Z * se):.3f}] by sets, Wilson [{lo:.3f}, {hi:.3f}]; mean score {mean_score:.1f}"
        )


if __name__ == "__main__":
    for p in sys.argv[1:]:
        summarize(p)
