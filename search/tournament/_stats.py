"""Head-to-head statistics on duplicate-set scores: the GSPRT, Elo with its interval, and LOS.

A set's score is the candidate's mean pairwise score against the baseline over the set's games
(win 1, tie 1/2, loss 0, from the final ranks). With two players a set is a game pair and the set
scores are fishtest's pentanomial outcomes 0, 1/4, 1/2, 3/4, 1; in general they lie on the grid
k / denominator. The sequential test is fishtest's generalized SPRT with the t-value statistic
("normalized Elo", see M. Van den Bergh, "Normalized Elo: a practical guide"):

  * the empirical set-score distribution is regularised (1e-3 pseudo-count in every empty bin);
  * under each hypothesis the maximum-likelihood distribution whose t-value (mu - 1/2) / sigma equals
    t_i = nelo_i / (800 / ln 10) * sqrt(games per set) is found (a secular equation, iterated);
  * LLR = N * sum_k phat_k * ln(p1_k / p0_k), compared with ln(beta / (1 - alpha)) and
    ln((1 - beta) / alpha), each moved inward by the dynamic overshoot estimate (Siegmund, Sequential
    Analysis, Corollary 8.33) that fishtest accumulates from the LLR's new extremes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm

NELO_PER_T = 800 / math.log(10)  # normalised Elo per unit of per-game t-value
PSEUDO_COUNT = 1e-3  # added to empty score bins, as fishtest does
Z95 = float(norm.ppf(0.975))


def logistic_elo(score: float) -> float:
    """Elo difference for an expected score; clamped to (0.001, 0.999) like fishtest."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _secular_root(shifted: np.ndarray, weights: np.ndarray) -> float:
    """The x with sum_k w_k a_k / (1 + x a_k) = 0 and every 1 + x a_k > 0 (needs a_min < 0 < a_max)."""
    low, high = float(shifted.min()), float(shifted.max())
    if not low < 0 < high:
        raise ValueError("the hypothesis lies outside the range of possible set scores")
    margin = 1e-9

    def f(x: float) -> float:
        return float(np.sum(weights * shifted / (1.0 + x * shifted)))

    return float(brentq(f, -1.0 / high + margin, -1.0 / low - margin, xtol=1e-14, maxiter=500))


def mle_with_t_value(values: np.ndarray, observed: np.ndarray, ref: float, t: float) -> np.ndarray:
    """Most likely distribution on `values`, given observed frequencies, whose (mu - ref) / sigma = t.

    Stationarity of the Lagrangian gives p_k = phat_k / (1 + x a_k) with
    a_k = v_k - ref - t * sigma * (1 + ((mu - v_k) / sigma)^2) / 2, where mu and sigma belong to p
    itself; iterate from the uniform distribution until p stops moving.
    """
    p = np.full(len(values), 1.0 / len(values))
    for _ in range(100):
        mu = float(np.dot(p, values))
        sigma = math.sqrt(float(np.dot(p, (values - mu) ** 2)))
        shifted = values - ref - t * sigma * (1.0 + ((mu - values) / sigma) ** 2) / 2.0
        x = _secular_root(shifted, observed)
        new = observed / (1.0 + x * shifted)
        done = float(np.max(np.abs(new - p))) < 1e-12
        p = new
        if done:
            break
    return p


def regularised(counts: Sequence[float]) -> np.ndarray:
    return np.array([c if c > 0 else PSEUDO_COUNT for c in counts], dtype=float)


def llr_normalized(counts: Sequence[float], nelo0: float, nelo1: float, *, games_per_set: int) -> float:
    """Generalized log-likelihood ratio of nelo1 against nelo0 for set-score counts on k/(K-1), k < K.

    With 5 counts and games_per_set = 2 this is fishtest's LLR_normalized on a pentanomial.
    """
    if len(counts) < 2:
        raise ValueError("need at least two score bins")
    if sum(counts) == 0:
        return 0.0
    weights = regularised(counts)
    total = float(weights.sum())
    observed = weights / total
    values = np.linspace(0.0, 1.0, len(counts))
    scale = math.sqrt(games_per_set) / NELO_PER_T
    p0 = mle_with_t_value(values, observed, 0.5, nelo0 * scale)
    p1 = mle_with_t_value(values, observed, 0.5, nelo1 * scale)
    return total * float(np.dot(observed, np.log(p1) - np.log(p0)))


@dataclass(frozen=True)
class EloEstimate:
    """Candidate minus baseline, from set scores (intervals are 95%, normal approximation)."""

    sets: int
    games: int
    score: float  # mean set score in [0, 1]
    elo: float  # logistic Elo
    elo_low: float
    elo_high: float
    nelo: float  # normalised Elo: (score - 1/2) / per-game sigma * 800 / ln 10
    nelo_low: float
    nelo_high: float
    los: float  # likelihood of superiority, P(true score > 1/2)


def elo_estimate(counts: Sequence[float], *, games_per_set: int) -> EloEstimate:
    """Elo, normalised Elo, their 95% intervals and LOS from set-score counts on k/(K-1).

    Empty bins get fishtest's pseudo-count first, so a clean sweep still has a finite interval.
    """
    sets = int(round(sum(counts)))
    weights = regularised(counts)
    total = float(weights.sum())
    values = np.linspace(0.0, 1.0, len(counts))
    mu = float(np.dot(weights, values) / total)
    var = float(np.dot(weights, (values - mu) ** 2) / total)  # of one set's score
    se = math.sqrt(var / total)
    sigma_per_game = math.sqrt(var * games_per_set)
    games = sets * games_per_set
    nelo = (mu - 0.5) / sigma_per_game * NELO_PER_T
    nelo_half_width = Z95 * NELO_PER_T / math.sqrt(max(total * games_per_set, 1e-12))
    return EloEstimate(
        sets=sets,
        games=games,
        score=mu,
        elo=logistic_elo(mu),
        elo_low=logistic_elo(mu - Z95 * se),
        elo_high=logistic_elo(mu + Z95 * se),
        nelo=nelo,
        nelo_low=nelo - nelo_half_width,
        nelo_high=nelo + nelo_half_width,
        los=float(norm.cdf((mu - 0.5) / se)),
    )


@dataclass(frozen=True)
class SprtState:
    llr: float
    lower: float  # ln(beta / (1 - alpha)), before the overshoot correction
    upper: float  # ln((1 - beta) / alpha)
    lower_corrected: float  # the bounds actually used, moved inward by the overshoot estimate
    upper_corrected: float
    decision: str  # "H1" (candidate stronger by elo1), "H0" (not stronger than elo0) or "continue"
    sets: int


class SequentialTest:
    """A GSPRT fed one set score at a time, in set order; stops at the first bound crossed."""

    def __init__(
        self,
        *,
        elo0: float,
        elo1: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        denominator: int,
        games_per_set: int,
    ) -> None:
        self.elo0, self.elo1 = elo0, elo1
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.denominator = denominator  # set scores are multiples of 1 / denominator
        self.games_per_set = games_per_set
        self.counts = [0] * (denominator + 1)
        self.llr = 0.0
        self.decision = "continue"
        # Overshoot bookkeeping: running extremes of the LLR, and the sums of the steps that set them.
        self._low_ref = self._high_ref = 0.0
        self._low_sum = self._low_sq = self._high_sum = self._high_sq = 0.0

    def bin(self, score: float) -> int:
        k = round(score * self.denominator)
        if abs(k - score * self.denominator) > 1e-6 or not 0 <= k <= self.denominator:
            raise ValueError(f"set score {score} is not a multiple of 1/{self.denominator} in [0, 1]")
        return k

    def add(self, score: float) -> str:
        """Add the next set's score; returns the decision (it stays fixed once made)."""
        if self.decision != "continue":
            return self.decision
        self.counts[self.bin(score)] += 1
        self.llr = llr_normalized(self.counts, self.elo0, self.elo1, games_per_set=self.games_per_set)
        if self.llr < self._low_ref:
            step = self.llr - self._low_ref
            self._low_sum += step
            self._low_sq += step * step
            self._low_ref = self.llr
        if self.llr > self._high_ref:
            step = self.llr - self._high_ref
            self._high_sum += step
            self._high_sq += step * step
            self._high_ref = self.llr
        state = self.state()
        if self.llr < state.lower_corrected:
            self.decision = "H0"
        elif self.llr > state.upper_corrected:
            self.decision = "H1"
        return self.decision

    def extend(self, scores: Iterable[float]) -> str:
        for score in scores:
            if self.add(score) != "continue":
                break
        return self.decision

    def state(self) -> SprtState:
        low_overshoot = -self._low_sq / self._low_sum / 2 if self._low_sum else 0.0
        high_overshoot = self._high_sq / self._high_sum / 2 if self._high_sum else 0.0
        return SprtState(
            llr=self.llr,
            lower=self.lower,
            upper=self.upper,
            lower_corrected=self.lower + low_overshoot,
            upper_corrected=self.upper - high_overshoot,
            decision=self.decision,
            sets=sum(self.counts),
        )

    def estimate(self) -> EloEstimate:
        return elo_estimate(self.counts, games_per_set=self.games_per_set)
