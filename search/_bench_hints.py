"""`orrery bench hints`: how well hints predict what happens (docs/search.md, "Hints").

Seeded games in which every seat plays the game's default search at full strength with a fixed
iteration budget. At every `every`-th decision with a choice, the mover's hint is built from its own
observation, exactly as SuggestMove builds it, for the move the search plays. At the end the hint's
predictions are compared with what happened to that seat: Brier score of the win chance (and of the
search's own value, which the rank reward makes an estimate of the same thing with two seats), mean
absolute error of the expected place and of the expected final score, each overall and by thirds of the
game. Constant predictions (the seats' mean outcome) are the baselines a useful hint must beat. Also
the rollout pass's wall time per hint (`pass_ms`: median, p95, max).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from orrery.core_ext import load_game
from orrery.search._backends import search_observation
from orrery.search._bots import default_config
from orrery.search._config import Budget
from orrery.search._hints import MoveHint, build_hints


@dataclass(frozen=True)
class _Prediction:
    seat: int
    fraction: float  # decisions made so far / the game's length
    move: int  # the game's move number
    win_chance: float | None
    search_value: float
    expected_place: float | None
    expected_score: float
    pass_ms: float  # the rollout pass's wall time (top 3 moves)


def _actual_win(game, ranks: list[int], seat: int) -> float:
    teams = game.seat_teams()
    firsts = {teams[s] for s, r in enumerate(ranks) if r == 0}
    return 1.0 / len(firsts) if ranks[seat] == 0 else 0.0


def _play_one(game, seed: int, iterations: int, every: int, config) -> tuple[list[_Prediction], list, list]:
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    pending: list[tuple[int, int, MoveHint, float, float]] = []
    decisions = 0
    moves = 0
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            moves += 1
            continue
        observation = state.observation(seat)
        search_seed = rng.getrandbits(63)
        result = search_observation(observation, config, Budget(iterations=iterations), seed=search_seed)
        if decisions % every == 0:
            actions = [a.action for a in result.actions[:3]]
            hints = build_hints(observation, result, actions, seed=search_seed)
            best = hints.for_action(result.best_action)
            assert best is not None  # build_hints always hints the best action
            pending.append((seat, moves, best, result.actions[0].mean_reward, hints.elapsed_s * 1000.0))
        decisions += 1
        state.apply(result.best_action)
        moves += 1
    ranks, scores = state.ranks(), state.scores()
    predictions = [
        _Prediction(
            seat=seat,
            fraction=move / max(1, moves),
            move=move,
            win_chance=hint.win_chance,
            search_value=value,
            expected_place=hint.expected_place,
            expected_score=hint.expected_score,
            pass_ms=ms,
        )
        for seat, move, hint, value, ms in pending
    ]
    return predictions, ranks, scores


def _spread(values: list[float]) -> dict:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 1),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        "max": round(ordered[-1], 1),
    }


def _brier(pairs: list[tuple[float, float]]) -> float | None:
    return round(statistics.fmean((p - a) ** 2 for p, a in pairs), 4) if pairs else None


def _mae(pairs: list[tuple[float, float]]) -> float | None:
    return round(statistics.fmean(abs(p - a) for p, a in pairs), 3) if pairs else None


def _bias(pairs: list[tuple[float, float]]) -> float | None:
    return round(statistics.fmean(p - a for p, a in pairs), 3) if pairs else None


def _metrics(rows: list[dict], mean_win: float, mean_place: float, mean_score: float) -> dict:
    wins = [(r["win_chance"], r["won"]) for r in rows if r["win_chance"] is not None]
    places = [(r["expected_place"], r["place"]) for r in rows if r["expected_place"] is not None]
    scores = [(r["expected_score"], r["score"]) for r in rows]
    return {
        "hints": len(rows),
        "win_brier": _brier(wins),
        "win_brier_search_value": _brier([(r["search_value"], r["won"]) for r in rows]),
        "win_brier_constant": _brier([(mean_win, a) for _, a in wins]),
        "place_mae": _mae(places),
        # the rank reward's value read as a place: 1 + (players - 1) * (1 - value)
        "place_mae_search_value": _mae(
            [
                (1 + (r["players"] - 1) * (1 - r["search_value"]), r["place"])
                for r in rows
                if r["expected_place"]
            ]
        ),
        "place_mae_constant": _mae([(mean_place, a) for _, a in places]),
        "score_mae": _mae(scores),
        "score_bias": _bias(scores),  # > 0: the hints expect more than the seat ends with
        "score_mae_constant": _mae([(mean_score, a) for _, a in scores]),
    }


def bench_hints(
    game_name: str,
    players: int,
    *,
    variant: str | None = None,
    games: int = 10,
    iterations: int = 300,
    every: int = 8,
    seed: int = 0,
) -> dict:
    """Play `games` seeded games and score the hints taken along them (see the module docstring)."""
    game = load_game(game_name, players=players, variant=variant)
    config = default_config("ismcts", game_name)
    started = time.perf_counter()
    rows: list[dict] = []
    finals: list[tuple[float, float, float]] = []
    for g in range(games):
        predictions, ranks, scores = _play_one(game, seed + g, iterations, every, config)
        for seat in range(players):
            finals.append((_actual_win(game, ranks, seat), ranks[seat] + 1.0, scores[seat]))
        for p in predictions:
            rows.append(
                {
                    **p.__dict__,
                    "won": _actual_win(game, ranks, p.seat),
                    "place": ranks[p.seat] + 1.0,
                    "score": scores[p.seat],
                    "players": players,
                }
            )
    mean_win, mean_place, mean_score = (statistics.fmean(column) for column in zip(*finals, strict=True))
    thirds = {
        name: _metrics([r for r in rows if low <= r["fraction"] < high], mean_win, mean_place, mean_score)
        for name, low, high in (
            ("first third", 0, 1 / 3),
            ("second third", 1 / 3, 2 / 3),
            ("last third", 2 / 3, 2),
        )
    }
    return {
        "game": game_name,
        "variant": game.variant,
        "players": players,
        "games": games,
        "iterations": iterations,
        "config": config.label,
        "every": every,
        "seed": seed,
        "overall": _metrics(rows, mean_win, mean_place, mean_score),
        "by_part_of_game": thirds,
        "mean_final_score": round(mean_score, 2),
        # the rollout pass's cost for the top 3 moves (wall ms: on a shared machine, includes waiting)
        "pass_ms": _spread([r["pass_ms"] for r in rows]),
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
