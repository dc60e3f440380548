"""What each Galaxy of Trian race does in a tournament's games: its choices of each kind per game.

    python search/tournament/examples/trian_race_play.py RESULTS.jsonl

Replays every game of a results file (full variant) and counts, per race, the choices its seat made of
each kind (`state.action_to_struct(action)["kind"]`; an unlock is split by side), divided by the games
the race played. The board's kinds come first, then the races' own kinds that occurred. It answers
"is the race's skill used at all" (docs/rules/trian.md 17); it says nothing about why.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

from orrery.core_ext import load_game

BOARD_KINDS = (
    "gain_mineral",
    "rogue_mine",
    "ship_expedition",
    "ship_move",
    "ship_teleport",
    "construct",
    "expedition",
    "research",
    "unlock_racial",
    "unlock_universal",
    "mineral_set",
)
RACIAL_KINDS = (
    "harvest",
    "wormhole",
    "tunnel",
    "decoy",
    "decoy_move",
    "space_modulator",
    "modulator_teleport",
    "transport",
    "sell_token",
    "risky_business",
    "gather",
    "manipulate",
    "exmitter_token",
    "priestess_place",
    "priestess_gain",
    "priestess_fix",
    "harness",
    "slave_minion",
    "living_structures",
    "gauss_cannon",
    "warcry",
)


def kind_of(state, action: int) -> str:
    described = state.action_to_struct(action)
    if described["kind"] == "unlock":
        return f"unlock_{described['side']}"
    return described["kind"]


def count(path: str) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    game = load_game("trian", players=config["players"], variant=config["variant"])
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # race -> kind -> choices
    games: dict[str, int] = defaultdict(int)  # race -> games played
    for record in (r for r in lines[1:] if r.get("type") == "game"):
        state = game.new_initial_state(seed=record["deal_seed"])
        races = [p.get("race") for p in state.to_dict()["state"]["players"]]
        for race in races:
            games[race] += 1
        for action in record["actions"]:
            counts[races[state.current_player]][kind_of(state, action)] += 1
            state.apply(action)
    return counts, games


def main(path: str) -> None:
    counts, games = count(path)
    print("race     games " + " ".join(f"{k[:9]:>9s}" for k in BOARD_KINDS) + "  | races' own kinds")
    for race in sorted(games, key=str):
        n = games[race]
        board = " ".join(f"{counts[race][k] / n:9.2f}" for k in BOARD_KINDS)
        own = ", ".join(f"{k} {counts[race][k] / n:.2f}" for k in RACIAL_KINDS if counts[race][k])
        print(f"{race!s:8s} {n:5d} {board}  | {own}")


if __name__ == "__main__":
    for results in sys.argv[1:]:
        main(results)
