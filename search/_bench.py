"""Benchmarks behind `orrery bench search | signature | strength` (each returns a JSON-able dict)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from orrery.core_ext import load_game, registered_games
from orrery.search._backends import InProcessBackend
from orrery.search._bots import default_config, make_bot
from orrery.search._config import Budget, get_config
from orrery.search._kernel import Searcher, raw_playouts
from orrery.search._selfplay import play_game


def position(game_name: str, players: int, seed: int, moves: Sequence[int] = (), variant: str | None = None):
    """The state after dealing `seed` and applying `moves`."""
    state = load_game(game_name, players=players, variant=variant).new_initial_state(seed=seed)
    for action in moves:
        state.apply(action)
    return state


def random_position(game_name: str, players: int, seed: int, random_moves: int, variant: str | None = None):
    """Deal `seed`, then play up to `random_moves` random moves (stopping before the end)."""
    return advance_randomly(position(game_name, players, seed, variant=variant), seed, random_moves)


def advance_randomly(state, seed: int, random_moves: int):
    """Up to `random_moves` uniformly random moves from `seed`, stopping short of the end."""
    rng = random.Random(seed)
    for _ in range(random_moves):
        after = state.clone()
        after.apply(rng.choice(after.legal_actions()))
        if after.is_terminal():
            break
        state = after
    return state


# ---------------------------------------------------------------- bench search
INTERLEAVE_SLICES = 20


def interleaved_rates(observation, config, seconds: float, seed: int) -> tuple[float, float]:
    """(raw playouts per second, search iterations per second) of one thread, measured in
    INTERLEAVE_SLICES alternating slices of `seconds` in all each. The searcher keeps its tree
    between slices, so its rate is that of one continuous search."""
    searcher = Searcher(observation, seed=seed, **config.kernel_options())
    options = dict(playout=config.playout, max_playout_depth=config.max_playout_depth, reward=config.reward)
    slice_s = seconds / INTERLEAVE_SLICES
    playouts, playout_s, search_s = 0, 0.0, 0.0
    for k in range(INTERLEAVE_SLICES):
        count, elapsed = raw_playouts(observation, slice_s, seed + k, **options)
        playouts, playout_s = playouts + count, playout_s + elapsed
        start = time.perf_counter()
        searcher.run(until=time.time() + slice_s)
        search_s += time.perf_counter() - start
    return playouts / playout_s, searcher.iterations / search_s


def bench_search(
    game_name: str,
    players: int,
    *,
    workers: Sequence[int] = (1,),
    seconds: float = 5.0,
    config_name: str = "ismcts",
    seed: int = 0,
    random_moves: int = 0,
    variant: str | None = None,
    backend: str = "inprocess",
) -> dict:
    """Search iterations per second from one position, against raw determinize-and-playout speed."""
    config = get_config(config_name)
    state = random_position(game_name, players, seed, random_moves, variant)
    observation = state.observation(state.current_player)
    raw_cpu_start = time.process_time()
    playouts, playout_s = raw_playouts(
        observation,
        seconds,
        seed,
        playout=config.playout,
        max_playout_depth=config.max_playout_depth,
        reward=config.reward,
    )
    raw_rate = playouts / playout_s
    raw_cpu_s = time.process_time() - raw_cpu_start
    interleaved_raw, interleaved_search = interleaved_rates(observation, config, seconds, seed)
    runs = []
    for w in workers:
        be = _backend(backend, w)
        try:
            be.warm()
            cpu_start = time.process_time()
            result = be.search(observation, config, Budget(milliseconds=seconds * 1000.0), seed=seed)
            cpu_s = time.process_time() - cpu_start  # this process only: not Ray actors
        finally:
            be.close()
        rate = result.iterations / result.elapsed_s
        runs.append(
            {
                "workers": w,
                "iterations": result.iterations,
                "elapsed_s": round(result.elapsed_s, 3),
                "iterations_per_second": round(rate, 1),
                "iterations_per_second_per_worker": round(rate / w, 1),
                # On a shared machine the cores may be busy with other work: CPU time shows whether
                # the workers themselves scale (equal iterations per CPU second) or were starved.
                "cpu_seconds": round(cpu_s, 3) if backend == "inprocess" else None,
                "iterations_per_cpu_second": round(result.iterations / cpu_s, 1)
                if backend == "inprocess" and cpu_s > 0
                else None,
                "tree_size": result.tree_size,
                "max_depth": result.max_depth,
                "best_action": result.best_label,
            }
        )
    first = runs[0]
    out = {
        "bench": "search",
        "game": game_name,
        "players": players,
        "variant": state.game.variant,
        "config": config.label,
        "backend": backend,
        "seconds": seconds,
        "random_moves": random_moves,
        "raw_playouts_per_second": round(raw_rate, 1),
        "iterations_per_second": first["iterations_per_second"],
        # One searcher and raw playouts in alternating slices on this thread: the machine's speed
        # drifts by 10-20% between runs of a few seconds, which the ratio of two separate runs
        # (playout_ratio_separate) inherits.
        "playout_ratio": round(interleaved_search / interleaved_raw, 3),
        "interleaved": {
            "raw_playouts_per_second": round(interleaved_raw, 1),
            "iterations_per_second": round(interleaved_search, 1),
        },
        # per worker, so the ratio measures the tree's overhead and not the parallelism
        "playout_ratio_separate": round(first["iterations_per_second_per_worker"] / raw_rate, 3),
        "runs": runs,
    }
    if backend == "inprocess" and raw_cpu_s > 0 and first["iterations_per_cpu_second"]:
        # the same ratio per CPU second: immune to neighbours taking the cores during one phase
        out["raw_playouts_per_cpu_second"] = round(playouts / raw_cpu_s, 1)
        out["playout_ratio_cpu"] = round(first["iterations_per_cpu_second"] / (playouts / raw_cpu_s), 3)
    if len(runs) > 1:
        out["scaling"] = {
            f"{r['workers']}_vs_{first['workers']}": round(
                r["iterations_per_second"] / first["iterations_per_second"], 3
            )
            for r in runs[1:]
        }
        if backend == "inprocess":
            # what the scaling would be with every worker on its own idle core
            out["scaling_cpu_normalised"] = {
                f"{r['workers']}_vs_{first['workers']}": round(
                    r["workers"]
                    * r["iterations_per_cpu_second"]
                    / (first["workers"] * first["iterations_per_cpu_second"]),
                    3,
                )
                for r in runs[1:]
                if r["iterations_per_cpu_second"] and first["iterations_per_cpu_second"]
            }
    return out


def _backend(kind: str, workers: int):
    if kind == "inprocess":
        return InProcessBackend(workers)
    if kind == "ray":
        from orrery.search._ray import RayBackend

        return RayBackend(num_workers=workers)
    raise ValueError(f"unknown backend {kind!r}")


# ---------------------------------------------------------------- bench signature
# Fixed positions (game, players, deal seed, moves before the search) x presets x fixed iterations:
# a change to any chosen move or count means search behaviour changed. Change the pin in
# tests/test_search_signature.py only in a commit that means to change search.
# (game, players, deal seed, moves before the search, then random moves from random_position()).
# The Trian positions come from random moves, so a change to the Trian core moves the pin too.
SIGNATURE_POSITIONS: tuple[tuple[str, int, int, tuple[int, ...], int], ...] = (
    ("kuhn", 2, 0, (), 0),
    ("kuhn", 2, 1, (), 0),
    ("kuhn", 2, 2, (), 0),
    ("kuhn", 2, 0, (1,), 0),
    ("kuhn", 2, 1, (1,), 0),
    ("kuhn", 2, 2, (1,), 0),
    ("kuhn", 2, 5, (0, 1), 0),
    ("kuhn", 3, 0, (0,), 0),
    ("kuhn", 3, 1, (1,), 0),
    ("kuhn", 4, 3, (0, 1), 0),
    ("trian", 2, 1, (), 0),
    ("trian", 2, 2, (), 40),
    ("trian", 3, 3, (), 60),
)
SIGNATURE_CONFIGS = ("ismcts@1", "ismcts@2", "ismcts@3", "ismcts-score@1", "pimc@1", "pimc@2")
SIGNATURE_ITERATIONS = 2000
SIGNATURE_SEED = 20261125
# Each big game's own default preset (GameInfo.default_search) on positions of that game, so that a change
# of a game's default search shows in the pin too (added 2026-11-27 with the per-game defaults, issue 25).
SIGNATURE_DEFAULT_POSITIONS: tuple[tuple[str, int, int, tuple[int, ...], int], ...] = (
    ("trian", 2, 1, (), 20),
    ("take_the_galaxy", 2, 1, (), 30),
    ("tiny_epic_galaxies", 2, 1, (), 30),
)


def _signature_position(game_name: str, players: int, deal: int, moves: tuple[int, ...], random_moves: int):
    return advance_randomly(position(game_name, players, deal, moves), deal, random_moves)


def _signature_observations(positions, registered: set[str]):
    """(game name, observation of the seat to move, label) of each position whose game is registered."""
    for game_name, players, deal, moves, random_moves in positions:
        if game_name in registered:
            state = _signature_position(game_name, players, deal, moves, random_moves)
            label = _signature_label(game_name, players, deal, moves, random_moves)
            yield game_name, state.observation(state.current_player), label


def bench_signature() -> dict:
    registered = {info.name for info in registered_games()}
    searches: list[dict] = []
    total = 0
    with InProcessBackend(1) as backend:
        for _, observation, label in _signature_observations(SIGNATURE_POSITIONS, registered):
            for name in SIGNATURE_CONFIGS:
                total += _signature_search(backend, observation, name, label, searches)
        for game_name, observation, label in _signature_observations(SIGNATURE_DEFAULT_POSITIONS, registered):
            default = default_config("ismcts", game_name).label
            total += _signature_search(backend, observation, default, label, searches)
    return {"bench": "signature", "total_iterations": total, "searches": searches}


def _signature_label(
    game_name: str, players: int, deal: int, moves: tuple[int, ...], random_moves: int
) -> str:
    return (
        f"{game_name}/{players}p/deal{deal}/"
        + ".".join(map(str, moves))
        + (f"+{random_moves}random" if random_moves else "")
    )


def _signature_search(backend, observation, name: str, label: str, searches: list[dict]) -> int:
    """One pinned search; appends its row to `searches` and returns its iterations."""
    result = backend.search(
        observation, get_config(name), Budget(iterations=SIGNATURE_ITERATIONS), seed=SIGNATURE_SEED
    )
    searches.append(
        {
            "position": label,
            "config": name,
            "iterations": result.iterations,
            "best_action": result.best_action,
            "best_visits": result.actions[0].visits,
            "tree_size": result.tree_size,
        }
    )
    return result.iterations


# ---------------------------------------------------------------- bench strength
def wilson_interval(score: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a rate of score/n (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _game_points(record, teams: tuple[int, ...], seat: int) -> float:
    """What one game scores for the bot in `seat`: 1 for its team's sole first place, 1/k for a k-way
    shared first, else 0; a solo game scores the game's own return (its goal, in [0, 1])."""
    if len(teams) == 1:
        return float(record.returns[0])
    first_teams = {teams[s] for s in range(len(teams)) if record.ranks[s] == 0}
    return 1.0 / len(first_teams) if teams[seat] in first_teams else 0.0


def bench_strength(
    game_name: str,
    players: int,
    *,
    bot: str,
    baseline: str,
    games: int,
    budget_ms: float | None = None,
    iterations: int | None = None,
    config_name: str | None = None,
    seed: int = 0,
    variant: str | None = None,
    on_game: Callable[[dict], None] | None = None,
) -> dict:
    """`bot` in one seat against `baseline` in every other, the seat rotating each game and each deal
    played once per seat. A game scores 1 for a sole first place, 1/k for a k-way shared first."""
    if iterations is None and budget_ms is None:
        budget_ms = 1000.0
    budget = Budget(iterations=iterations, milliseconds=budget_ms)
    config = get_config(config_name) if config_name else None

    def build(kind: str):
        return make_bot(kind, game=game_name, config=config if kind == bot else None, budget=budget)

    test_bot, base_bot = build(bot), build(baseline)
    teams = load_game(game_name, players=players, variant=variant).seat_teams()
    score = 0.0
    wins = draws = losses = 0
    started = time.time()
    for g in range(games):
        seat = g % players
        deal = seed + g // players
        # In a team game the bot plays every seat of its team.
        seats = [test_bot if teams[s] == teams[seat] else base_bot for s in range(players)]
        record = play_game(game_name, players, deal, seats, variant=variant)
        points = _game_points(record, teams, seat)
        score += points
        wins += points == 1.0
        draws += 0.0 < points < 1.0
        losses += points == 0.0
        if on_game is not None:
            low, high = wilson_interval(score, g + 1)
            on_game(
                {
                    "game": g + 1,
                    "deal": deal,
                    "bot_seat": seat,
                    "ranks": list(record.ranks),
                    "scores": list(record.scores),
                    "win_rate": round(score / (g + 1), 4),
                    "ci95": [round(low, 4), round(high, 4)],
                    "seconds": round(time.time() - started, 1),
                }
            )
    low, high = wilson_interval(score, games)
    return {
        "bench": "strength",
        "game": game_name,
        "players": players,
        "bot": f"{test_bot.name}:{test_bot.version}",
        "baseline": f"{base_bot.name}:{base_bot.version}",
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": round(score / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
        "seconds": round(time.time() - started, 1),
    }
