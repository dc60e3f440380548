"""OpenSpiel's own search bots as Orrery bots (search.Bot: select_action(observation, *, seed)), so that
`orrery tournament run` can rate them against Orrery's bots on duplicate deals.

Each move the bot determinizes the observation from the move seed, wraps it as a bridge state and lets
OpenSpiel search: its ISMCTS resamples the hidden information itself (resample_from_infostate), its MCTS
has no imperfect-information handling and searches that one determinization (given the true state it
would see every hidden card). All randomness comes from the move seed, so an iteration budget replays.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from orrery.openspiel._bridge import SEED_LIMIT, OrreryGame, load
from orrery.openspiel._tournament import ALGORITHMS, OPTION_DEFAULTS, checked_options


@dataclass(frozen=True, kw_only=True)
class OpenSpielBudget:
    simulations: int | None = None  # OpenSpiel simulations per move
    milliseconds: float | None = None  # wall time per move (ms); at least one simulation runs

    def __post_init__(self) -> None:
        if (self.simulations is None) == (self.milliseconds is None):
            raise ValueError("an OpenSpiel budget is simulations or milliseconds, exactly one")

    @property
    def label(self) -> str:
        return f"{self.simulations}sims" if self.simulations is not None else f"{self.milliseconds:g}ms"


class OrreryPlayoutEvaluator(mcts.Evaluator):
    """A uniformly random playout to the end, run by the Orrery core in C (State.playout), valued by its
    utilities; uniform prior. The same estimate as RandomRolloutEvaluator, without a Python call a move."""

    def __init__(self, rollouts: int, random_state: np.random.RandomState) -> None:
        self._rollouts = rollouts
        self._random_state = random_state

    def evaluate(self, state: Any) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self._rollouts):
            core = state.core.clone()
            core.playout(int(self._random_state.randint(0, 2**63, dtype=np.int64)))
            total += core.utilities()
        return total / self._rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class _OutOfTime(Exception):
    """Raised between two simulations when a time budget is spent; carries the tree built so far."""

    def __init__(self, root: Any) -> None:
        super().__init__()
        self.root = root


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """ISMCTSBot with an optional wall-time budget: it checks the clock before each simulation (after
    the first), where the tree is consistent, and answers from the tree built so far."""

    deadline: float | None = None

    def sample_root_state(self, state: Any) -> Any:
        if (
            self.deadline is not None
            and time.monotonic() >= self.deadline
            and self._root_node.total_visits > 0
        ):
            raise _OutOfTime(self._root_node)
        return super().sample_root_state(state)

    def run_search(self, state: Any) -> Any:
        try:
            return super().run_search(state)
        except _OutOfTime as stop:
            return self.get_final_policy(state, stop.root)


class TimedMCTSBot(mcts.MCTSBot):
    """MCTSBot with an optional wall-time budget, checked before each simulation (after the first)."""

    deadline: float | None = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        if self.deadline is not None and time.monotonic() >= self.deadline and root.explore_count > 0:
            raise _OutOfTime(root)
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state: Any) -> Any:
        try:
            return super().mcts_search(state)
        except _OutOfTime as stop:
            return stop.root


UNBOUNDED_SIMULATIONS = 10**12  # the loop bound under a time budget (the clock stops it)


class OpenSpielBot:
    """OpenSpiel's ISMCTS or MCTS at a simulation or time budget (module docstring)."""

    name = "openspiel"

    def __init__(
        self, algorithm: str, budget: OpenSpielBudget, options: dict[str, Any] | None = None
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"OpenSpiel algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
        self.algorithm = algorithm
        self.budget = budget
        self.options = checked_options(dict(options or {}))
        changed = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()) if OPTION_DEFAULTS[k] != v)
        self.version = (
            f"open_spiel-{_open_spiel_version()}/{algorithm}"
            + ("{" + changed + "}" if changed else "")
            + f"+{budget.label}"
        )

    def select_action(self, observation: Any, *, seed: int) -> int:
        legal = observation.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or it is not this seat's turn")
        if len(legal) == 1:
            return int(legal[0])
        game = _bridge_game(observation.game.name, observation.game.variant, observation.game.num_players)
        state = game.state_from_core(observation.determinize(seed % SEED_LIMIT))
        random_state = np.random.RandomState(seed % 2**32)
        bot = self._make(game, random_state)
        if self.budget.milliseconds is not None:
            bot.deadline = time.monotonic() + self.budget.milliseconds / 1000.0
        return int(bot.step(state))

    def _make(self, game: OrreryGame, random_state: np.random.RandomState) -> Any:
        o = self.options
        if o["evaluator"] == "orrery-playout":
            evaluator: Any = OrreryPlayoutEvaluator(o["rollouts"], random_state)
        else:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=o["rollouts"], random_state=random_state)
        simulations = (
            self.budget.simulations if self.budget.simulations is not None else UNBOUNDED_SIMULATIONS
        )
        if self.algorithm == "mcts":
            return TimedMCTSBot(game, o["uct_c"], simulations, evaluator, random_state=random_state)
        bot = TimedISMCTSBot(
            game,
            evaluator,
            o["uct_c"],
            simulations,
            max_world_samples=o["max_world_samples"],
            random_state=random_state,
        )
        # Resample from the bot's own random stream, so that a seed replays the search exactly.
        bot.set_resampler(
            lambda state, player: state.resample_from_infostate(player, random_state.random_sample)
        )
        return bot


@cache
def _bridge_game(name: str, variant: str, players: int) -> OrreryGame:
    return load(name, players=players, variant=variant, seed=0)


@cache
def _open_spiel_version() -> str:
    try:
        return version("open_spiel")
    except PackageNotFoundError:  # a source build
        return "unknown"
