"""Why more iterations bought Beyond the Black's hard level almost nothing (issue 25, part 2;
docs/strength.md, "2026-11-27 (session 6): Beyond the Black's levels").

Plays seeded 2-player games between medium LevelBots (ismcts-teg@3, 3,000 iterations a turn, tolerance 0.05)
and, at every other searched decision, searches the position afresh at 1,500, 15,000 and 150,000 iterations
(medium's and hard's first-decision shares, and ten times hard's). For each budget it prints how often its
most-visited move is the 150,000-iteration search's, how far below that search's best value (by that
search's own values) its most-visited move and a tolerance pick lie, how close the best two moves are, and
how many positions are already decided (best value outside [0.05, 0.95]).

    python search/tournament/examples/teg_btb_budget_agreement.py [games] [first seed]
"""

from __future__ import annotations

import random
import statistics
import sys

from orrery.core_ext import load_game
from orrery.search import LEVELS, Budget, LevelBot, choose_from_result, get_config, search_observation

BUDGETS = (1_500, 15_000, 150_000)  # iterations per searched decision
TOLERANCES = {1_500: 0.05, 15_000: 0.02, 150_000: 0.02}  # medium's and hard's tolerances


def measure(observation, seed: int) -> dict[int, dict[str, float]]:
    config = get_config("ismcts-teg@3")
    results = {b: search_observation(observation, config, Budget(iterations=b), seed=seed) for b in BUDGETS}
    reference = results[BUDGETS[-1]]
    value_of = {a.action: a.mean_reward for a in reference.actions}
    best = reference.actions[0].mean_reward
    rows = {}
    for budget, result in results.items():
        top, second = result.actions[0], result.actions[1]
        picked = choose_from_result(result, TOLERANCES[budget], seed)
        rows[budget] = {
            "agrees": float(top.action == reference.best_action),
            "regret_top": best - value_of.get(top.action, 0.0),
            "regret_pick": best - value_of.get(picked, 0.0),
            "gap_to_second": top.mean_reward - second.mean_reward,
            "decided": float(not 0.05 <= top.mean_reward <= 0.95),
            "depth": float(result.max_depth),
        }
    return rows


def main(games: int, first_seed: int) -> None:
    rows: list[dict[int, dict[str, float]]] = []
    for game_seed in range(first_seed, first_seed + games):
        state = load_game("tiny_epic_galaxies", players=2, variant="beyond_the_black").new_initial_state(
            seed=game_seed
        )
        bots = [LevelBot(LEVELS["medium"], get_config("ismcts-teg@3")) for _ in range(2)]
        rng, ply = random.Random(game_seed), 0
        while not state.is_terminal():
            observation = state.observation(state.current_player)
            if len(observation.legal_actions()) > 1 and ply % 2 == 0:
                rows.append(measure(observation, seed=ply * 7 + 1))
            state.apply(bots[state.current_player].select_action(observation, seed=rng.getrandbits(63)))
            ply += 1
    print(f"{len(rows)} positions of {games} games (seeds {first_seed} to {first_seed + games - 1})")
    for budget in BUDGETS:
        column = [row[budget] for row in rows]

        def mean(key: str, column=column) -> float:
            return statistics.mean(r[key] for r in column)

        def share(key: str, below: float, column=column) -> float:
            return statistics.mean(float(r[key] < below) for r in column)

        print(
            f"{budget:>7} iterations: agrees {mean('agrees'):.3f},"
            f" regret of the top move {mean('regret_top'):.4f},"
            f" of a pick at tolerance {TOLERANCES[budget]} {mean('regret_pick'):.4f},"
            f" gap to the second best: median {statistics.median(r['gap_to_second'] for r in column):.3f},"
            f" under 0.02 in {share('gap_to_second', 0.02):.2f}; decided {mean('decided'):.3f};"
            f" tree depth {mean('depth'):.1f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3, int(sys.argv[2]) if len(sys.argv) > 2 else 6100)
