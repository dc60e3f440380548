"""Where Beyond the Black's points come from in seeded greedy self-play (docs/rules/tiny_epic_galaxies.md
section 13.16): pilots hired, planets colonized, the VP by source and the first seat's share of wins.

    .venv/bin/python tests/teg_btb_pilots.py --players 2 --games 100 --seed 1

Every seat plays `balanced` (tests/teg_bots.py, the one-ply bot that finishes its own micro-steps), so
the figures describe the content, not a strategy. Deals are `new_initial_state(seed + game)`; the bots'
seeds follow the move number, so a run repeats exactly. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from teg_bots import balanced
from teg_btb_setup import game

from orrery.core_ext.tiny_epic_galaxies.engine import CATALOGUE

_PLANET_VP = {p["name"]: p["vp"] for p in CATALOGUE["planets"] + CATALOGUE["beyond_the_black"]["planets"]}
_EMPIRE_VP = {lv["level"]: lv["vp"] for lv in CATALOGUE["empire"]}
_DWARF_VP = {c["name"]: c["dwarf_planet_vp"] for c in CATALOGUE["beyond_the_black"]["exploration_cards"]}


def _sources(galaxy: dict[str, Any], score: float) -> dict[str, float]:
    pilots = [h["pilot"] for h in galaxy["hangar"].values() if h] + galaxy["retired_pilots"]
    planets = sum(_PLANET_VP[name] for name in galaxy["colonies"])
    dwarfs = sum(_DWARF_VP[name] for name in galaxy["exploration_cards"])
    empire = _EMPIRE_VP[galaxy["empire"]]
    # 1 VP a pilot (the engine's rule); what is left is bonus: mission and badge majorities
    return {
        "planets": planets,
        "empire": empire,
        "pilots": len(pilots),
        "dwarf_planets": dwarfs,
        "bonus": score - planets - empire - len(pilots) - dwarfs,
    }


def play(players: int, deal_seed: int) -> dict[str, Any]:
    bots = [balanced() for _ in range(players)]
    state = game(players).new_initial_state(seed=deal_seed)
    moves = 0
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].select_action(state.observation(seat), seed=deal_seed * 1000 + moves))
        moves += 1
    final = state.to_dict()["state"]
    scores = [float(x) for x in state.scores()]
    ranks = [int(x) for x in state.ranks()]
    seats = [_sources(g, scores[i]) for i, g in enumerate(final["galaxies"])]
    winners = [i for i, r in enumerate(ranks) if r == 0]
    return {
        "rounds": final["round"],
        "seats": seats,
        "colonies": [len(g["colonies"]) for g in final["galaxies"]],
        "winners": winners,
        "scores": scores,
    }


def summarize(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    seats = [s for g in games for s in g["seats"]]
    win_rows = [g["seats"][w] for g in games for w in g["winners"]]
    kinds = list(seats[0])
    winner_points = {k: sum(r[k] for r in win_rows) for k in kinds}
    total = sum(winner_points.values()) or 1.0
    first = sum(1.0 / len(g["winners"]) for g in games if 0 in g["winners"])
    return {
        "games": len(games),
        "players": players,
        "mean_rounds": round(statistics.mean(g["rounds"] for g in games), 2),
        "pilots_hired_per_seat": round(statistics.mean(s["pilots"] for s in seats), 2),
        "planets_colonized_per_seat": round(statistics.mean(c for g in games for c in g["colonies"]), 2),
        "winners_without_colony": sum(1 for g in games for w in g["winners"] if g["colonies"][w] == 0),
        "mean_vp_by_source": {k: round(statistics.mean(s[k] for s in seats), 2) for k in kinds},
        "winners_vp_share": {k: round(winner_points[k] / total, 3) for k in kinds},
        "first_seat_wins": round(first / len(games), 3),
        "mean_score": round(statistics.mean(x for g in games for x in g["scores"]), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = [play(args.players, args.seed + i) for i in range(args.games)]
    print(json.dumps(summarize(games, args.players), indent=1))


if __name__ == "__main__":
    main()
