"""What each bot of a tournament chose: its choices of each kind per game, bot against bot.

    python search/tournament/examples/choice_profile.py RESULTS.jsonl [--split KIND ...] [--games N]

Replays the games of a results file (any game) and counts, per bot, the choices its seats made of each
kind (`state.action_to_struct(action)["kind"]`), divided by the seat-games it played. A choice with one
legal action is counted apart as "(forced)". `--split KIND` splits that kind by its label's first words
(in Tiny Epic Galaxies `--split done` tells "do not follow" from "roll the picked dice"). It shows how
two versions play differently (a learned evaluation that hoards a resource, a level that never uses a
skill); it says nothing about which is right. docs/learning.md uses it for Tiny Epic Galaxies at 4 players.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from typing import Any

from orrery.core_ext import load_game
from orrery.search.tournament._results import read_results

LABEL_WORDS = 4  # a split kind is keyed by its label's first words (the rest names dice, planets, ships)


def _key(state: Any, action: int, forced: bool, split: frozenset[str]) -> str:
    described = state.action_to_struct(action)
    key = str(described.get("kind", "?"))
    if key in split:
        key += ": " + " ".join(str(described.get("label", "")).split()[:LABEL_WORDS])
    return key + (" (forced)" if forced else "")


def profile(path: str, *, split: frozenset[str], limit: int) -> tuple[dict[str, Counter[str]], Counter[str]]:
    """Per bot: choices by kind over all its seats, and the seat-games it played."""
    header, records = read_results(path)
    config = header["config"]
    game = load_game(config["game"], players=config["players"], variant=config.get("variant"))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    seat_games: Counter[str] = Counter()
    for record in records[:limit]:
        seat_games.update(record["seats"])
        state = game.new_initial_state(seed=record["deal_seed"])
        for action in record["actions"]:
            bot = record["seats"][state.current_player]
            counts[bot][_key(state, action, len(state.legal_actions()) == 1, split)] += 1
            state.apply(action)
    return counts, seat_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--split", action="append", default=[], help="a kind to split by its label")
    parser.add_argument("--games", type=int, default=10**9, help="only the first N games")
    args = parser.parse_args()
    counts, seat_games = profile(args.results, split=frozenset(args.split), limit=args.games)
    bots = sorted(seat_games)
    kinds = sorted(set().union(*(set(c) for c in counts.values())))
    width = max(len(k) for k in kinds) + 2
    print("per seat-game".ljust(width) + "".join(f"{b[:14]:>15s}" for b in bots))
    for kind in kinds:
        print(kind.ljust(width) + "".join(f"{counts[b][kind] / seat_games[b]:15.2f}" for b in bots))
    print("choices".ljust(width) + "".join(f"{sum(counts[b].values()) / seat_games[b]:15.2f}" for b in bots))


if __name__ == "__main__":
    main()
