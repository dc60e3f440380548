"""OpenSpiel's bots as the tournament bot kind "openspiel" (docs/tournaments.md), and their options.

Registered through pyproject.toml's "orrery.tournament_bots" entry points (search/tournament/_kinds.py),
so search builds it without importing this layer. This module needs no OpenSpiel: a config is checked,
and recorded results are read, without it; building the bot imports orrery.openspiel._bots, which does.
"""

from __future__ import annotations

from typing import Any

from orrery.search.tournament._config import BotSpec, BudgetSpec
from orrery.search.tournament._kinds import BotKind, budget_text

ALGORITHMS = ("ismcts", "mcts")
EVALUATORS = ("random-rollout", "orrery-playout")
OPTION_DEFAULTS: dict[str, Any] = {
    "uct_c": 2.0,  # UCT exploration constant (OpenSpiel's examples use 2)
    "rollouts": 1,  # random playouts per leaf evaluation
    # "random-rollout": OpenSpiel's RandomRolloutEvaluator (each move a Python call through the bridge);
    # "orrery-playout": the same uniformly random playout run inside the Orrery core (State.playout)
    "evaluator": "random-rollout",
    "max_world_samples": -1,  # ISMCTS: -1 resamples every simulation, k keeps k root worlds
}


def checked_options(options: dict[str, Any]) -> dict[str, Any]:
    """OPTION_DEFAULTS with `options` applied; unknown names and out-of-range values raise ValueError."""
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown OpenSpiel bot option(s) {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}"
        )
    merged = {**OPTION_DEFAULTS, **options}
    if not (isinstance(merged["uct_c"], (int, float)) and merged["uct_c"] >= 0):
        raise ValueError(f"uct_c must be a number >= 0, got {merged['uct_c']!r}")
    if not (isinstance(merged["rollouts"], int) and merged["rollouts"] >= 1):
        raise ValueError(f"rollouts must be an int >= 1, got {merged['rollouts']!r}")
    if merged["evaluator"] not in EVALUATORS:
        raise ValueError(f"evaluator must be one of {', '.join(EVALUATORS)}, got {merged['evaluator']!r}")
    if not (isinstance(merged["max_world_samples"], int) and merged["max_world_samples"] >= -1):
        raise ValueError(f"max_world_samples must be -1 or a count >= 1, got {merged['max_world_samples']!r}")
    return merged


def _check(spec: BotSpec) -> None:
    if spec.config is not None and spec.config not in ALGORITHMS:
        raise ValueError(f"an openspiel bot's config is one of {', '.join(ALGORITHMS)}")
    checked_options(dict(spec.overrides))


def _build(spec: BotSpec, budget: BudgetSpec, game: str) -> Any:
    """OpenSpiel's ISMCTS or MCTS; an iteration budget is its simulation count."""
    try:
        from orrery.openspiel._bots import OpenSpielBot, OpenSpielBudget
    except ImportError as exc:
        raise RuntimeError(
            f"bot {spec.name!r}: kind 'openspiel' needs OpenSpiel: pip install 'orrery[openspiel]' ({exc})"
        ) from None
    return OpenSpielBot(
        spec.config or "ismcts",
        OpenSpielBudget(simulations=budget.iterations, milliseconds=budget.milliseconds),
        dict(spec.overrides),
    )


def _describe(spec: BotSpec, budget: BudgetSpec) -> str:
    overrides = "".join(f", {k}={v}" for k, v in spec.overrides)
    return f"OpenSpiel {spec.config or 'ismcts'}{overrides}, {budget_text(budget)}"


BOT_KIND = BotKind(
    name="openspiel",
    fields=frozenset({"config", "overrides"}),
    build=_build,
    describe=_describe,
    check=_check,
)
