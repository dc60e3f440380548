"""Bots: one small interface for the CLI, the service and tournaments. Bots keep no memory, except a
LevelBot's clock of the turn it is playing (a turn's budget is shared over its decisions)."""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from orrery.search._backends import InProcessBackend
from orrery.search._clock import Allotment, TurnClock, expected_decisions
from orrery.search._config import Budget, SearchConfig, get_config
from orrery.search._kernel import greedy_action
from orrery.search._levels import Level, choose_within_turn
from orrery.search._reuse import TurnTree

BOT_KINDS = ("random", "greedy", "ismcts", "pimc")
DEFAULT_BUDGET = Budget(milliseconds=1000.0)  # per move, when make_bot is given none
GREEDY_SAMPLES = 16  # determinizations per action for the greedy one-ply look-ahead


@runtime_checkable
class Bot(Protocol):
    name: str
    version: str

    def select_action(self, observation, *, seed: int) -> int: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"
    version = "1"

    def select_action(self, observation, *, seed: int) -> int:
        legal = observation.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or it is not this seat's turn")
        return random.Random(seed).choice(legal)


class GreedyBot:
    """One ply: the action whose result the game's heuristic (evaluate()) likes best for this seat,
    averaged over GREEDY_SAMPLES determinizations; a finished game scores by its rank reward."""

    name = "greedy"
    version = "1"

    def __init__(self, samples: int = GREEDY_SAMPLES) -> None:
        self.samples = samples

    def select_action(self, observation, *, seed: int) -> int:
        if not observation.legal_actions():
            raise ValueError("no legal action: the game is over or it is not this seat's turn")
        return int(greedy_action(observation, self.samples, seed % 2**64))


class SearchBot:
    """ISMCTS or PIMC from a named, versioned configuration and a per-move budget."""

    def __init__(self, kind: str, config: SearchConfig, budget: Budget, backend=None) -> None:
        if config.algorithm != kind:
            raise ValueError(f"a {kind} bot needs a {kind} config, got {config.label} ({config.algorithm})")
        self.name = kind
        self.version = f"{config_version(config)}+{budget.label}"
        self.config = config
        self.budget = budget
        self._backend = backend if backend is not None else InProcessBackend(1)

    def select_action(self, observation, *, seed: int) -> int:
        legal = observation.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        result = self._backend.search(observation, self.config, self.budget, seed=seed % 2**64)
        return self._choose(result, seed)

    def _choose(self, result, seed: int) -> int:
        return int(result.best_action)


class LevelBot:
    """A play level (orrery.search LEVELS) as the service plays it: the game's preset, the level's budget
    per whole turn shared out by the turn clock (search/_clock.py), and a move within the level's tolerance
    of the best searched value.

    The bot remembers, per game and seat, the clock of the turn it is playing. Whether its next call
    continues that turn it predicts after each of its moves: the move is applied to a determinization, and
    the turn goes on if the same seat is to move next (who moves next never depends on hidden cards in
    these games). A forced move (one legal action) is played at once and costs nothing.

    With config.reuse_tree (and a backend that keeps trees: in-process or Ray), it also keeps the turn's
    search trees, and the turn's next searched decision starts from them, re-rooted at the moves played,
    where nothing hidden or random happened in between (search/_reuse.py). They are freed when the turn
    ends and by new_game().
    The turn clock charges only each search's new iterations."""

    def __init__(self, level: Level, config: SearchConfig, backend=None) -> None:
        self.level = level
        self.config = config
        self.name = f"level-{level.name}"
        budget = f"{level.turn_budget.label}{_scale_label(level)}"
        self.version = f"{config_version(config)}+{budget}+tolerance={level.tolerance:g}"
        self._backend = backend if backend is not None else InProcessBackend(1)
        self._turns: dict[tuple[str, int], TurnClock] = {}  # (game, seat) -> the clock of a turn going on
        # (game, seat) -> the search tree kept for that turn's next decision (config.reuse_tree)
        self._trees: dict[tuple[str, int], TurnTree] = {}
        self._reuses_trees = config.reuse_tree and getattr(self._backend, "keeps_trees", False)
        self.last_allotment: Allotment | None = None  # the latest decision's (for benchmarks and tests)
        self.reuse_stats = ReuseStats()

    def select_action(self, observation, *, seed: int) -> int:
        legal = observation.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or it is not this seat's turn")
        started = time.perf_counter()
        seed %= 2**64
        key = (str(observation.game.name), int(observation.player))
        clock = self._turns.pop(key, None) or TurnClock(
            self.level.turn_budget_for(observation.game.name),
            expected=expected_decisions(observation.game.name, observation.game.variant),
        )
        tree = self._trees.pop(key, None)  # kept with the clock of a turn going on, else none
        if tree is None and self._reuses_trees:
            tree = TurnTree()
        allotment = self.last_allotment = clock.allot(len(legal))
        iterations = 0
        if allotment.budget is None:
            action = legal[0] if len(legal) == 1 else int(greedy_action(observation, GREEDY_SAMPLES, seed))
        else:
            if tree is not None:  # only backends that keep trees (keeps_trees) take one
                result = self._backend.search(
                    observation, self.config, allotment.budget, seed=seed, tree=tree
                )
            else:
                result = self._backend.search(observation, self.config, allotment.budget, seed=seed)
            iterations = result.iterations
            if tree is not None:
                self._count_reuse(tree, iterations)
            action = choose_within_turn(result, self.level.tolerance, seed, clock)
        if _moves_again(observation, action, seed):
            self._turns[key] = clock
            if tree is not None and tree.holds_tree:
                tree.played(action)
                self._trees[key] = tree
        if tree is not None and self._trees.get(key) is not tree:
            tree.clear()  # the turn ended: free its trees (on a Ray backend, the actors' too)
        clock.charge(iterations=iterations, elapsed_s=time.perf_counter() - started)
        return action

    def _count_reuse(self, tree: TurnTree, iterations: int) -> None:
        """Book in reuse_stats the decision that searched `iterations` on the trees `tree` gave it."""
        carried = tree.carried_visits
        self.reuse_stats = self.reuse_stats.plus(
            ReuseStats(
                searched=1, reused=int(carried is not None), reused_visits=carried or 0, iterations=iterations
            )
        )

    def new_game(self) -> None:
        """Forget every turn clock and kept tree: a tournament plays many games with one bot, and a clock
        left by a wrong guess that the seat moves again must not spend the next game's first turn
        (issue 28)."""
        self._turns.clear()
        for tree in self._trees.values():
            tree.clear()
        self._trees.clear()

    def turn_clock(self, game: str, seat: int) -> TurnClock | None:
        """The clock of `seat`'s turn going on in `game`, or None (its last move ended its turn)."""
        return self._turns.get((game, seat))

    def turn_tree(self, game: str, seat: int) -> TurnTree | None:
        """The search tree kept for `seat`'s turn going on in `game`, or None."""
        return self._trees.get((game, seat))


@dataclass(frozen=True)
class ReuseStats:
    """How often a LevelBot's searched decisions started from a re-rooted tree (docs/search.md)."""

    searched: int = 0  # searched decisions
    reused: int = 0  # of those, the ones that started from the previous decision's tree (on any worker)
    reused_visits: int = 0  # visits their roots started with, summed
    iterations: int = 0  # the searched decisions' own (new) iterations, summed

    def plus(self, other: ReuseStats) -> ReuseStats:
        return ReuseStats(
            searched=self.searched + other.searched,
            reused=self.reused + other.reused,
            reused_visits=self.reused_visits + other.reused_visits,
            iterations=self.iterations + other.iterations,
        )

    @property
    def rate(self) -> float:
        return self.reused / self.searched if self.searched else 0.0

    @property
    def mean_reused_visits(self) -> float:
        return self.reused_visits / self.reused if self.reused else 0.0


def _scale_label(level: Level) -> str:
    """The games whose iteration budget a level multiplies, for the bot's version: "(take_the_galaxy x10)"."""
    if level.iterations is None or not level.iteration_scale:
        return ""
    return "(" + ", ".join(f"{g} x{k}" for g, k in level.iteration_scale) + ")"


def _moves_again(observation, action: int, seed: int) -> bool:
    """Whether the observing seat is to move again right after playing `action` (same turn)."""
    state = observation.determinize(seed)
    state.apply(action)
    return not state.is_terminal() and int(state.current_player) == int(observation.player)


def config_version(config: SearchConfig) -> str:
    """The preset's label, plus every field that differs from the preset (a tournament's overrides),
    so that two bots built from one preset never report the same version."""
    try:
        preset = get_config(config.label)
    except ValueError:  # a configuration that is no preset
        return config.label
    changed = [
        f"{field.name}={getattr(config, field.name)}"
        for field in dataclasses.fields(config)
        if field.name != "description" and getattr(config, field.name) != getattr(preset, field.name)
    ]
    return config.label + ("{" + ",".join(changed) + "}" if changed else "")


def default_config(kind: str, game: str | None) -> SearchConfig:
    """The preset a search bot of `kind` uses when none is named: the game's own default_search for an
    ISMCTS bot (each game tunes its own; Trian's 48-move horizon must not apply to other games), else the
    latest preset of that name."""
    if kind == "ismcts" and game is not None:
        from orrery.core_ext import game_info

        return get_config(game_info(game).default_search)
    return get_config(kind)


def make_bot(
    kind: str,
    *,
    game: str | None = None,
    config: SearchConfig | None = None,
    budget: Budget | None = None,
    backend=None,
) -> Bot:
    """A bot of one of BOT_KINDS. Search bots default to the game's preset (default_config) and 1 s/move."""
    if kind == "random":
        return RandomBot()
    if kind == "greedy":
        return GreedyBot()
    if kind in ("ismcts", "pimc"):
        return SearchBot(kind, config or default_config(kind, game), budget or DEFAULT_BUDGET, backend)
    raise ValueError(f"unknown bot kind {kind!r}; kinds: {', '.join(BOT_KINDS)}")
