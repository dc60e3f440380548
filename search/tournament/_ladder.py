"""The strength ladder of one game setting: random, the greedy bot and every service level in one round robin
of duplicate deals, rated by Bradley-Terry with random anchored at 0 (issue 25, part 1).

`orrery bench ladder --game G --players N` runs it and prints the table; docs/strength.md keeps the
published runs. Adjacent levels are compared by their rating difference and whether their 95% intervals
overlap, and by their own head-to-head games: issue 25's separation (at least 150 Elo) is read from the
head-to-head interval, since the ratings' intervals, anchored at random, are wide at the top whenever a
level sweeps random and greedy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from orrery.search._levels import LEVELS
from orrery.search.tournament._analysis import PairResult, analyse
from orrery.search.tournament._config import BotSpec, BudgetSpec, TournamentConfig
from orrery.search.tournament._ratings import Rating
from orrery.search.tournament._results import read_results
from orrery.search.tournament._runner import run_tournament

ANCHOR = "random"
SEPARATION_ELO = 150.0  # the step issue 25 asks between adjacent levels (Elo)
# The budget of the bots that search nothing (random, greedy): required by the config, never spent.
UNUSED_BUDGET = BudgetSpec(iterations=1)


@dataclass(frozen=True, kw_only=True)
class LadderStep:
    lower: str
    upper: str
    elo_gap: float  # upper's rating minus lower's (Elo)
    separated: bool  # the two 95% intervals do not overlap
    # upper against lower in their own duplicate sets (Elo, 95% interval); None if they played none
    head_to_head: tuple[float, float, float] | None = None

    @property
    def apart_150(self) -> bool:
        """Whether the head-to-head interval lies wholly at or above +150 Elo (issue 25, part 2)."""
        return self.head_to_head is not None and self.head_to_head[1] >= SEPARATION_ELO


@dataclass(frozen=True, kw_only=True)
class Ladder:
    config: TournamentConfig
    ratings: tuple[Rating, ...]  # by rating, strongest first
    steps: tuple[LadderStep, ...]  # each level against the level below it, weakest first
    pairs: tuple[PairResult, ...]  # every pairing's score, the first bot's against the second's
    complete_sets: int  # the fewest complete duplicate sets of any pairing (each pairing plays `sets`)
    deals_identical: bool


def ladder_config(
    *,
    game: str,
    players: int,
    variant: str | None = None,
    levels: Sequence[str] = tuple(LEVELS),
    sets: int = 10,
    seed: int = 1,
    workers: int = 1,
    backend: str = "processes",
    results: str | None = None,
) -> TournamentConfig:
    """The round robin: random (the anchor), greedy, then each level as the service plays it."""
    unknown = [name for name in levels if name not in LEVELS]
    if unknown:
        raise ValueError(f"unknown level(s) {', '.join(unknown)}; levels: {', '.join(LEVELS)}")
    bots = [BotSpec(name=ANCHOR, kind="random"), BotSpec(name="greedy", kind="greedy")]
    bots += [BotSpec(name=name, kind="level", level=name) for name in levels]
    setting = f"{game}-{variant or 'default'}-{players}p"
    return TournamentConfig(
        name=f"ladder-{setting}",
        game=game,
        variant=variant,
        players=players,
        format="round-robin",
        bots=tuple(bots),
        baseline=ANCHOR,
        sets=sets,
        seed=seed,
        budget=UNUSED_BUDGET,
        workers=workers,
        backend=backend,
        results=results or f"ladder-{setting}.jsonl",
    )


def run_ladder(config: TournamentConfig, *, resamples: int = 1000, progress: bool = False) -> Ladder:
    """Play (or resume) the ladder's games, then rate every bot."""
    summary = run_tournament(config, progress=progress)
    _, records = read_results(summary.results)
    analysis = analyse(config, records, resamples=resamples)
    by_name = {r.name: r for r in analysis.ratings}
    order = [b.name for b in config.bots if b.kind == "level"]
    steps = []
    for lower, upper in zip(order, order[1:], strict=False):
        low, up = by_name[lower], by_name[upper]
        steps.append(
            LadderStep(
                lower=lower,
                upper=upper,
                elo_gap=up.elo - low.elo,
                separated=up.low > low.high,
                head_to_head=_head_to_head(analysis.pairs, upper, lower),
            )
        )
    return Ladder(
        config=config,
        ratings=tuple(sorted(analysis.ratings, key=lambda r: -r.elo)),
        steps=tuple(steps),
        pairs=analysis.pairs,
        # analysis.complete_sets counts (pairing, set) pairs: a 5-bot round robin of 8 sets has 80
        complete_sets=min((p.estimate.sets for p in analysis.pairs), default=0),
        deals_identical=analysis.deals_identical,
    )


def _head_to_head(pairs: Sequence[PairResult], upper: str, lower: str) -> tuple[float, float, float] | None:
    """(Elo, low, high) of `upper` against `lower` from their pairing, whichever order it lists them."""
    for p in pairs:
        e = p.estimate
        if (p.a, p.b) == (upper, lower):
            return e.elo, e.elo_low, e.elo_high
        if (p.a, p.b) == (lower, upper):
            return -e.elo, -e.elo_high, -e.elo_low
    return None


def ladder_json(ladder: Ladder) -> dict[str, Any]:
    c = ladder.config
    return {
        "game": c.game,
        "variant": c.variant,
        "players": c.players,
        "sets": c.sets,
        "complete_sets": ladder.complete_sets,
        "deals_identical": ladder.deals_identical,
        "seed": c.seed,
        "anchor": ANCHOR,
        "results": c.results,
        "ratings": [
            {
                "bot": r.name,
                "elo": round(r.elo, 1),
                "low": round(r.low, 1),
                "high": round(r.high, 1),
                "games": r.games,
            }
            for r in ladder.ratings
        ],
        "steps": [
            {
                "lower": s.lower,
                "upper": s.upper,
                "elo_gap": round(s.elo_gap, 1),
                "separated": s.separated,
                "head_to_head": None
                if s.head_to_head is None
                else {
                    "elo": round(s.head_to_head[0], 1),
                    "low": round(s.head_to_head[1], 1),
                    "high": round(s.head_to_head[2], 1),
                },
                "apart_150": s.apart_150,
            }
            for s in ladder.steps
        ],
        # each pairing's mean duplicate-set score for `a` against `b` (a win 1, a tie 1/2), so that the
        # targets against one opponent (easy against random, medium against greedy) read directly
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "score": round(p.estimate.score, 4),
                "sets": p.estimate.sets,
                "games": p.estimate.games,
            }
            for p in ladder.pairs
        ],
    }
