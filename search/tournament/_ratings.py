"""Ratings of several bots from one batch fit, with bootstrap intervals resampled by duplicate set.

Each game is broken into its pairwise outcomes (for 3-4 players, every pair of seats held by
different bots: the better rank wins, a tie counts half to each). A Bradley-Terry model is fitted
to the summed win matrix with choix's ILSR (Maystre and Grossglauser, 2015), which takes fractional
counts, so ties need no special model. For 3-4 players this rank-breaking estimates the same
strengths as a Plackett-Luce fit of the whole rankings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import choix
import numpy as np

ELO_PER_NATURAL_LOG = 400.0 / math.log(10.0)  # Bradley-Terry log-strength to Elo
REGULARISATION = 0.01  # ILSR prior in pseudo-comparisons per pair: keeps sweeps finite


def pairwise_points(ranks: Sequence[int], i: int, j: int) -> float:
    """Seat i's points against seat j: 1 for a better (lower) rank, 1/2 for a tie, 0 for worse."""
    if ranks[i] < ranks[j]:
        return 1.0
    if ranks[i] == ranks[j]:
        return 0.5
    return 0.0


def win_matrix(games: Sequence[tuple[Sequence[int], Sequence[int]]], size: int) -> np.ndarray:
    """wins[a, b] = points bot a scored against bot b; games are (bot index per seat, ranks)."""
    wins = np.zeros((size, size))
    for bots, ranks in games:
        for i in range(len(bots)):
            for j in range(len(bots)):
                if i != j and bots[i] != bots[j]:
                    wins[bots[i], bots[j]] += pairwise_points(ranks, i, j)
    return wins


def fit_bradley_terry(wins: np.ndarray, *, anchor: int | None = None) -> np.ndarray:
    """Elo per bot from a win matrix; the anchor bot sits at 0 (else the mean is 0)."""
    params = choix.ilsr_pairwise_dense(wins, alpha=REGULARISATION, max_iter=1000, tol=1e-10)
    elo = np.asarray(params) * ELO_PER_NATURAL_LOG
    return elo - (elo[anchor] if anchor is not None else elo.mean())


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float  # Bradley-Terry Elo, relative to the anchor (or to the mean)
    low: float  # 95% bootstrap interval, resampled by set
    high: float
    games: int


def rate(
    names: Sequence[str],
    sets: Sequence[Sequence[tuple[Sequence[int], Sequence[int]]]],
    *,
    anchor: str | None = None,
    resamples: int = 1000,
    seed: int = 0,
) -> tuple[Rating, ...]:
    """Fit on every set, then refit `resamples` times on sets drawn with replacement."""
    size = len(names)
    anchor_index = list(names).index(anchor) if anchor is not None else None
    per_set = np.stack([win_matrix(games, size) for games in sets]) if sets else np.zeros((0, size, size))
    games_played = np.zeros(size, dtype=int)
    for games in sets:
        for bots, _ranks in games:
            for bot in set(bots):
                games_played[bot] += 1
    if len(per_set) == 0:
        return tuple(Rating(n, math.nan, math.nan, math.nan, 0) for n in names)
    elo = fit_bradley_terry(per_set.sum(axis=0), anchor=anchor_index)
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, size))
    uniform = np.full(len(per_set), 1.0 / len(per_set))
    for r in range(resamples):
        weights = rng.multinomial(len(per_set), uniform)
        draws[r] = fit_bradley_terry(np.tensordot(weights, per_set, axes=1), anchor=anchor_index)
    if resamples > 0:
        low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    else:
        low = high = np.full(size, math.nan)
    return tuple(
        Rating(names[i], float(elo[i]), float(low[i]), float(high[i]), int(games_played[i]))
        for i in range(size)
    )
