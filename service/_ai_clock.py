"""Turn clocks of the AI seats: what each decision of an AI seat may search (issue 25, part 3).

How an AiSeat's budgets combine (docs/api.md, "AI seats"):
- `turn_budget` set: the seat's whole turn (all its consecutive decisions) gets it, shared out by the
  turn clock (orrery.search.TurnClock); `budget`, if also set, caps each decision.
- only `budget` set: every searched decision gets it, as before turn budgets existed.
- neither, with a level: the level's per-turn budget (LEVELS), through the clock.
- neither, without a level: every searched decision gets the server's `--default-budget-ms`.
Whatever the budgets, a decision with one legal action is played at once, without a search.

With a per-turn budget and a search config with reuse_tree, the turn also keeps its search trees (search's
TurnTree): the seat's next decision starts from the tree re-rooted at the moves it played, where nothing
hidden or random happened in between (docs/search.md, "Tree reuse": in process, in the time-shared lane
or on the Ray workers). They are freed with the turn's clock, and kept between decisions only within the
server's bound (service/_kept_trees.py: the most recently searched are freed first, and that seat's next
decision then starts a new tree).

A turn is tracked per match in memory: the seat's decision continues its turn when the match's previous
move was that seat's own (an AI move by this server, at the move number before). A human move, another
seat's move, a restart, or another replica playing the previous move starts a fresh clock: the turn may
then spend up to its budget again from there (documented in docs/api.md). A millisecond turn budget counts
the turn's whole wall time on the server: each decision from its start to its move stored, and the gaps
between decisions (reading the match, building the observation).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from orrery.search import Budget, SearchConfig, TurnBudget, TurnClock, TurnTree, expected_decisions, level_in
from orrery.service._kept_trees import KeptTrees
from orrery.service._matches import AiSpec, AiTurn


def seat_turn_budget(spec: AiSpec, game: str, variant: str, players: int) -> TurnBudget | None:
    """The seat's per-turn budget in this game setting, or None: each decision gets the per-move (or the
    default) budget."""
    if spec.turn_iterations is not None:
        return TurnBudget(iterations=spec.turn_iterations)
    if spec.turn_milliseconds is not None:
        return TurnBudget(milliseconds=float(spec.turn_milliseconds))
    if spec.iterations is None and spec.milliseconds is None and spec.level is not None:
        return level_in(spec.level, game, variant, players).turn_budget_for(game)
    return None


def capped(allotted: Budget, spec: AiSpec) -> tuple[int | None, int | None]:
    """(iterations, milliseconds) of one decision: the clock's allotment, capped by the per-move budget."""
    iterations = allotted.iterations
    milliseconds = None if allotted.milliseconds is None else max(1, int(allotted.milliseconds))
    if spec.iterations is not None:
        iterations = spec.iterations if iterations is None else min(iterations, spec.iterations)
    if spec.milliseconds is not None:
        milliseconds = spec.milliseconds if milliseconds is None else min(milliseconds, spec.milliseconds)
    return iterations, milliseconds


@dataclass
class _Running:
    seat: int
    next_move_number: int  # the match's move number at which this seat's turn would go on
    clock: TurnClock
    last_end: float = 0.0  # time.perf_counter() when the seat's previous decision was applied
    tree: TurnTree | None = None  # the search trees kept for the turn's next decision (reuse_tree)


class AiTurnClocks:
    """The clock of each match's AI turn going on (one entry per match with an AI seat in its turn)."""

    def __init__(self, kept: KeptTrees | None = None) -> None:
        self._running: dict[str, _Running] = {}
        self.kept = kept if kept is not None else KeptTrees()  # the bound on the trees kept between decisions

    def clock(self, turn: AiTurn, budget: TurnBudget) -> TurnClock:
        """The clock for `turn`'s decision: the seat's running one if this continues its turn."""
        running = self._running.get(turn.match_id)
        if (
            running is not None
            and running.seat == turn.seat
            and running.next_move_number == turn.move_number
            and running.clock.budget == budget
        ):
            # The time between two decisions (reading the match, building the observation) is the
            # turn's too: a millisecond budget counts it.
            running.clock.charge(iterations=0, elapsed_s=max(0.0, time.perf_counter() - running.last_end))
            return running.clock
        game = turn.observation.game
        clock = TurnClock(budget, expected=expected_decisions(game.name, game.variant))
        self.forget(turn.match_id)  # a turn before it ended unseen (another replica's move, a human's)
        self._running[turn.match_id] = _Running(turn.seat, turn.move_number, clock)
        return clock

    def tree(self, match_id: str, config: SearchConfig) -> TurnTree | None:
        """The kept search trees of the match's AI turn going on (after clock()), made on the turn's first
        decision; None when `config` does not reuse trees."""
        running = self._running.get(match_id)
        if running is None or not config.reuse_tree:
            return None
        if running.tree is None:
            running.tree = TurnTree()
        return running.tree

    def searching(self, match_id: str, tree: TurnTree) -> None:
        """A search of the match's AI turn takes `tree` (on the search's thread): the bound leaves it alone
        until searched()."""
        self.kept.searching(match_id, tree)

    def searched(self, match_id: str) -> None:
        """The match's AI search ended (or never started): its tree is kept for the turn's next decision,
        within the bound, which may free the most recently searched trees (this one first)."""
        self.kept.searched(match_id)

    def moved(
        self,
        match_id: str,
        *,
        seat: int,
        move_number: int,
        seat_to_move: int,
        game_over: bool,
        action: int | None = None,
    ) -> None:
        """`seat`'s move (`action`) was applied, making the match's move number `move_number`. The turn's
        kept trees are freed with its clock when the turn ends."""
        running = self._running.get(match_id)
        if running is None:
            return
        if game_over or seat_to_move != seat or running.seat != seat:
            self.forget(match_id)
        else:
            running.next_move_number = move_number
            running.last_end = time.perf_counter()
            if running.tree is not None and action is not None:
                running.tree.played(action)

    def forget(self, match_id: str) -> None:
        """Drop the match's turn going on, freeing its kept trees (on Ray, the actors' too)."""
        running = self._running.pop(match_id, None)
        if running is not None and running.tree is not None:
            self.kept.release(match_id, running.tree)  # at once, or when a search on it ends

    def __len__(self) -> int:
        return len(self._running)
