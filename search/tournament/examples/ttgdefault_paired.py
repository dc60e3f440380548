"""Per-set scores against a baseline, and paired differences between bots on equal deals.

A set's deal depends only on the master seed and the set's index (search/tournament/_schedule.py), so two
bots that met the same baseline in tournaments with the same seed, or in one gauntlet, played the same
deals; the difference of their per-set scores removes the deals' share of the noise. Bootstrap 95%
interval over sets (seeded). docs/strength.md, "2026-11-27 (session 7): Take The Galaxy with ismcts-ttg@3".

python search/tournament/examples/ttgdefault_paired.py \\
    balance-results/ttgdefault-medium-vs-greedy.jsonl:greedy \\
    balance-results/ttgdefault-medium2-vs-greedy.jsonl:greedy
"""

import json
import random
import sys
from collections import defaultdict

BOOTSTRAP_SAMPLES = 10_000


def set_scores(path: str, baseline: str) -> dict[str, dict[int, float]]:
    """bot -> set index -> the bot's mean return against `baseline` over the set's games (complete 2-player
    sets only: win 1, tie 0.5, loss 0)."""
    returns: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    with open(path) as results:
        for line in results:
            record = json.loads(line)
            if record.get("type") != "game":
                continue
            ranks = record["ranks"]
            for seat, name in enumerate(record["seats"]):
                if name == baseline:
                    continue
                mine, theirs = ranks[seat], ranks[1 - seat]
                returns[name][record["set"]].append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
    complete = {bot: {index: r for index, r in sets.items() if len(r) == 2} for bot, sets in returns.items()}
    return {bot: {index: sum(r) / len(r) for index, r in sets.items()} for bot, sets in complete.items()}


def paired_difference(a: dict[int, float], b: dict[int, float]) -> tuple[int, float, float, float]:
    """(common sets, mean of a - b over them, bootstrap 2.5% and 97.5% points)."""
    diffs = [a[index] - b[index] for index in sorted(set(a) & set(b))]
    rng = random.Random(1)
    means = sorted(sum(rng.choice(diffs) for _ in diffs) / len(diffs) for _ in range(BOOTSTRAP_SAMPLES))
    low, high = means[int(0.025 * BOOTSTRAP_SAMPLES)], means[int(0.975 * BOOTSTRAP_SAMPLES) - 1]
    return len(diffs), sum(diffs) / len(diffs), low, high


def main(arguments: list[str]) -> None:
    scores: dict[str, dict[int, float]] = {}
    for argument in arguments:
        path, baseline = argument.rsplit(":", 1)
        for bot, sets in set_scores(path, baseline).items():
            scores[bot] = sets
            print(f"{bot}: {len(sets)} sets, mean score {sum(sets.values()) / len(sets):.3f}")
    names = list(scores)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            common, mean, low, high = paired_difference(scores[first], scores[second])
            print(f"{first} - {second}: {common} common sets, {mean:+.3f} [{low:+.3f}, {high:+.3f}]")


if __name__ == "__main__":
    main(sys.argv[1:])
