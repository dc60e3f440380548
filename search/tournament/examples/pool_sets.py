"""Pooled head to head of bot A against bot B over several tournament results files: the complete duplicate
sets of every file (2-player sets of two rotations), scored with the tournament package's `set_score` and
rated with its `elo_estimate`, as one run's report would rate them. A file may rename its bots first, so
that the same bot under another name in another run (a `factory` candidate that the `level` bot now plays
identically) pools with it: FILE,OLD=NEW[,OLD=NEW...]; a renamed-away name no longer counts as itself.

    python search/tournament/examples/pool_sets.py A B FILE[,OLD=NEW...] [FILE...]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from fractions import Fraction

from orrery.search.tournament import elo_estimate
from orrery.search.tournament._analysis import set_score
from orrery.search.tournament._results import read_results


def _sets_of(argument: str, a: str, b: str) -> list[Fraction]:
    path, *renames = argument.split(",")
    names = dict(rename.split("=", 1) for rename in renames)
    games_by_set: dict[tuple[int, int], dict[int, dict]] = defaultdict(dict)
    for record in read_results(path)[1]:
        if record.get("type") == "game":
            seats = [names.get(seat, "" if seat in names.values() else seat) for seat in record["seats"]]
            games_by_set[(record["pairing"], record["set"])][record["rotation"]] = {**record, "seats": seats}
    return [
        set_score(games.values(), a, b)
        for games in games_by_set.values()
        if len(games) == 2 and all(a in game["seats"] and b in game["seats"] for game in games.values())
    ]


def main(a: str, b: str, files: list[str]) -> str:
    scores = [score for argument in files for score in _sets_of(argument, a, b)]
    counts = [0.0] * 5  # a 2-game set scores 0, 1/4, 1/2, 3/4 or 1
    for score in scores:
        counts[int(score * 4)] += 1
    e = elo_estimate(counts, games_per_set=2)
    return (
        f"{a} vs {b}: {e.sets} sets, score {e.score:.3f}, Elo {e.elo:+.1f} [{e.elo_low:+.1f}, "
        f"{e.elo_high:+.1f}], nElo {e.nelo:+.1f} [{e.nelo_low:+.1f}, {e.nelo_high:+.1f}], LOS {e.los:.1%}"
    )


if __name__ == "__main__":
    print(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
