"""How often a level plays a move other than its search's most-visited one, and how far below the best
searched value that move lies: Take The Galaxy standard, self-play of one level at N players (issue 25,
session 6; docs/strength.md, "Take The Galaxy's levels at 3 players").

python search/tournament/examples/ttg_level_deviation.py --players 3 --decisions 1500
"""

from __future__ import annotations

import argparse
import random

import orrery.search._bots as bots_module
from orrery.core_ext import load_game
from orrery.search import LEVELS, LevelBot, level_config
from orrery.search._levels import trusted_moves

GAME, VARIANT = "take_the_galaxy", "standard"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=1500, help="searched decisions to count")
    parser.add_argument("--level", default="medium", help="a level (its own tolerance)")
    parser.add_argument("--seed", type=int, default=100, help="the first deal; then seed + 1, ...")
    args = parser.parse_args()
    level = LEVELS[args.level]
    counts = {"searched": 0, "deviated": 0, "trusted": 0}
    gaps: list[float] = []
    choose = bots_module.choose_within_turn

    def counting(result, tolerance, seed, clock):  # the level's own choice, counted
        action = choose(result, tolerance, seed, clock)
        if result.actions:
            most_visited = max(result.actions, key=lambda a: a.visits)
            visits = [a.visits for a in result.actions]
            trusted = [result.actions[i] for i in trusted_moves(visits, level.tolerance)]
            counts["searched"] += 1
            counts["trusted"] += len(trusted)
            if action != most_visited.action and trusted:
                chosen = next(a for a in result.actions if a.action == action)
                counts["deviated"] += 1
                gaps.append(max(a.mean_reward for a in trusted) - chosen.mean_reward)
        return action

    bots_module.choose_within_turn = counting
    game = load_game(GAME, players=args.players, variant=VARIANT)
    config = level_config(args.level, GAME, VARIANT, args.players)
    seed = args.seed
    while counts["searched"] < args.decisions:
        bots = [LevelBot(level, config) for _ in range(args.players)]
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal() and counts["searched"] < args.decisions:
            seat = state.current_player
            state.apply(bots[seat].select_action(state.observation(seat), seed=rng.getrandbits(63)))
        seed += 1
    searched = counts["searched"]
    print(
        f"{args.players} players, {args.level} (tolerance {level.tolerance:g}): "
        f"{searched} searched decisions, "
        f"{counts['deviated'] / searched:.3f} not the most-visited move, "
        f"mean gap below the best trusted value then {sum(gaps) / max(1, len(gaps)):.4f}, "
        f"trusted moves a decision {counts['trusted'] / searched:.2f}"
    )


if __name__ == "__main__":
    main()
