"""The turn clock: a budget that covers a seat's whole turn, managed like a chess engine's time control.

A turn is all the consecutive decisions of one seat (Take The Galaxy's turn is about 24 of them, a Galaxy
of Trian turn about 4). Each decision gets a share of what is left of the turn's budget:

- A decision with one legal action costs nothing: it is played at once, without a search.
- Otherwise the decision gets `remaining / moves_to_go`, where `moves_to_go` is the decisions still
  expected this turn (the game's measured mean, EXPECTED_DECISIONS, less those already searched), but
  never fewer than TAIL_SHARE of the mean nor than MIN_MOVES_TO_GO (2; the mean itself if that is
  smaller): a turn longer than usual keeps some budget for its tail instead of spending it all on the
  decision that was expected to be the last.
- Every searched decision gets at least the floor, FLOOR_SHARE / mean of the turn's budget, so that late
  decisions of a long turn still get a minimal search.
- The floors of a turn that ran out of budget come from an allowance of OVERRUN_SHARE of the budget.
  Once that is spent too, the rest of the turn is played by the game's one-ply heuristic (the greedy
  bot: GREEDY_SAMPLES determinizations per action, a few milliseconds, no search). So a turn's searches
  never spend more than (1 + OVERRUN_SHARE) times its budget in iterations; in milliseconds the last
  search may overshoot its stop time by the kernel's check interval as well.

Iteration budgets are reproducible (same seed, same turn, same moves), for tournaments and tests;
millisecond budgets are for play. The clock charges what each decision really spent (its search's
iterations; or its whole wall time, overhead included), so a search that stopped early leaves its rest to
the decisions after it, and one that overran leaves less.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from orrery.search._config import Budget

# Searched decisions (more than one legal action) per turn, per game or "game/variant": the mean over 60
# turns of 2-player games between medium LevelBots, seed 1 (docs/performance.md, "Turn clock"). A game
# not listed gets DEFAULT_EXPECTED.
EXPECTED_DECISIONS: dict[str, float] = {
    "trian": 4.7,
    "take_the_galaxy": 18.9,
    "tiny_epic_galaxies": 1.8,
    "tiny_epic_galaxies/beyond_the_black": 1.9,
    "kuhn": 1.0,
}
DEFAULT_EXPECTED = 4.0
# moves_to_go never falls below this share of the expected decisions, nor below MIN_MOVES_TO_GO (or the
# expected decisions, when fewer: a game of one-decision turns gives each its whole budget): each decision
# leaves about half of what is left to the decisions after it (turns vary: a Tiny Epic Galaxies turn is 1
# to 26 decisions).
TAIL_SHARE = 0.25
MIN_MOVES_TO_GO = 2.0
FLOOR_SHARE = 0.1  # a searched decision's floor: this share of an average decision's part of the budget
OVERRUN_SHARE = 0.10  # the floors may overspend the turn's budget by this share of it, no more
MIN_ITERATIONS = 1  # the smallest search worth running (iterations)
MIN_MILLISECONDS = 1.0  # the smallest search worth running (ms)


def expected_decisions(game: str, variant: str | None = None) -> float:
    """The mean number of searched decisions in one turn of `game` (EXPECTED_DECISIONS)."""
    if variant is not None and f"{game}/{variant}" in EXPECTED_DECISIONS:
        return EXPECTED_DECISIONS[f"{game}/{variant}"]
    return EXPECTED_DECISIONS.get(game.split("/")[0], DEFAULT_EXPECTED)


@dataclass(frozen=True, kw_only=True)
class TurnBudget:
    """What one whole turn of a seat may spend on search: exactly one of the two."""

    iterations: int | None = None  # search iterations over the whole turn (reproducible)
    milliseconds: float | None = None  # search wall time over the whole turn (ms)

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.milliseconds is None):
            raise ValueError("a turn budget needs exactly one of iterations and milliseconds")
        amount = self.amount
        if isinstance(amount, bool) or not math.isfinite(amount) or amount <= 0:
            raise ValueError(f"a turn budget must be > 0, got {amount!r}")

    @property
    def amount(self) -> float:
        """The budget in its own unit (iterations or ms)."""
        return float(self.iterations if self.iterations is not None else self.milliseconds or 0.0)

    @property
    def label(self) -> str:
        if self.iterations is not None:
            return f"{self.iterations}it/turn"
        return f"{self.milliseconds:g}ms/turn"


@dataclass(frozen=True, kw_only=True)
class Allotment:
    """One decision's share of the turn. `budget` None: play without searching (see `reason`)."""

    budget: Budget | None
    reason: str  # "search", "one legal action" or "turn budget spent"


class TurnClock:
    """One seat's clock for one turn: allot() before each decision, charge() after each search."""

    def __init__(self, budget: TurnBudget, *, expected: float) -> None:
        self.budget = budget
        self.expected = max(1.0, float(expected))  # searched decisions per turn
        self.spent = 0.0  # in the budget's unit (iterations or ms)
        self.decisions = 0  # decisions of this turn so far, searched or not
        self.searched = 0  # decisions of this turn that were searched
        # Return units a level has given up this turn by playing moves below its search's best (see
        # tolerance_left): a level's tolerance covers the whole turn, as its budget does.
        self.tolerance_spent = 0.0

    def tolerance_left(self, tolerance: float) -> float:
        """What is left of a level's `tolerance` for this turn's next decision. A Take The Galaxy turn is
        about 19 decisions; a tolerance per decision let medium give up up to 19 times its tolerance a
        turn, and it lost to the greedy bot there (docs/strength.md, 2026-11-27)."""
        return max(0.0, tolerance - self.tolerance_spent)

    def spend_tolerance(self, gap: float) -> None:
        """Book a played move that the search rated `gap` below its best (return units, >= 0)."""
        self.tolerance_spent += max(0.0, gap)

    @property
    def floor(self) -> float:
        """The least a searched decision gets (in the budget's unit)."""
        least = MIN_ITERATIONS if self.budget.iterations is not None else MIN_MILLISECONDS
        return max(least, FLOOR_SHARE * self.budget.amount / self.expected)

    @property
    def limit(self) -> float:
        """The most the turn's searches may spend, the overrun allowance included."""
        return (1.0 + OVERRUN_SHARE) * self.budget.amount

    def share(self) -> float:
        """The next searched decision's part of the turn, in the budget's unit (0: nothing left)."""
        least = max(TAIL_SHARE * self.expected, min(MIN_MOVES_TO_GO, self.expected))  # at least 1
        moves_to_go = max(least, self.expected - self.searched)
        planned = max(self.budget.amount - self.spent, 0.0) / moves_to_go
        return min(max(planned, self.floor), max(self.limit - self.spent, 0.0))

    def allot(self, legal_actions: int) -> Allotment:
        """The next decision's search budget, given how many legal actions it has."""
        self.decisions += 1
        if legal_actions <= 1:
            return Allotment(budget=None, reason="one legal action")
        share = self.share()
        if self.budget.iterations is not None:
            if share < MIN_ITERATIONS:
                return Allotment(budget=None, reason="turn budget spent")
            self.searched += 1
            return Allotment(budget=Budget(iterations=int(share)), reason="search")
        if share < MIN_MILLISECONDS:
            return Allotment(budget=None, reason="turn budget spent")
        self.searched += 1
        return Allotment(budget=Budget(milliseconds=share), reason="search")

    def charge(self, *, iterations: int, elapsed_s: float) -> None:
        """What a decision really spent: its search's iterations, and its whole wall time (s), searched or
        not. A millisecond budget counts the wall time, so the decisions' own overhead (a forced move, the
        greedy fallback, the service's store write) comes out of the turn's time too."""
        self.spent += iterations if self.budget.iterations is not None else elapsed_s * 1000.0


def first_decision_budget(budget: TurnBudget, *, expected: float) -> Budget:
    """What the clock gives a turn's first searched decision: a level's budget for one lone decision
    (a hint asked for at a level)."""
    allotted = TurnClock(budget, expected=expected).allot(2).budget
    assert allotted is not None  # a fresh turn always has budget left
    return allotted
