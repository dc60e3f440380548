"""Search: information-set MCTS and determinized UCT over the compiled game cores, bots, and
root-parallel backends (threads in this process, or Ray actors).

    from orrery.search import get_config, Budget, search_observation
    result = search_observation(observation, get_config("ismcts"), Budget(milliseconds=500), seed=1)
    result.best_action, result.actions[0].visits

See docs/search.md for every configuration field and result field.
"""

from orrery.search._backends import InProcessBackend, search_observation
from orrery.search._bots import BOT_KINDS, Bot, LevelBot, default_config, make_bot
from orrery.search._cancel import CancelToken
from orrery.search._clock import (
    EXPECTED_DECISIONS,
    Allotment,
    TurnBudget,
    TurnClock,
    expected_decisions,
    first_decision_budget,
)
from orrery.search._config import Budget, SearchConfig, get_config, learned_preset, list_configs
from orrery.search._hints import Hints, MoveHint, build_hints
from orrery.search._level_presets import LEARNED_LEVELS, level_config
from orrery.search._levels import (
    LEVEL_ITERATION_SCALE,
    LEVEL_SETTINGS,
    LEVELS,
    Level,
    LevelSetting,
    choose_from_result,
    choose_within_tolerance,
    choose_within_turn,
    level_in,
    value_gap,
)
from orrery.search._ray import RayBackend
from orrery.search._result import ActionStats, SearchResult, forced_result, sampled_line_labels
from orrery.search._reuse import TurnTree
from orrery.search._shipped import ShippedModel, check_evaluation, shipped_models
from orrery.search._timeshare_backend import TimeSharedBackend

__all__ = [
    "BOT_KINDS",
    "EXPECTED_DECISIONS",
    "Allotment",
    "ActionStats",
    "Bot",
    "Budget",
    "CancelToken",
    "Hints",
    "InProcessBackend",
    "LEARNED_LEVELS",
    "LEVELS",
    "LEVEL_ITERATION_SCALE",
    "LEVEL_SETTINGS",
    "Level",
    "LevelSetting",
    "LevelBot",
    "MoveHint",
    "RayBackend",
    "SearchConfig",
    "SearchResult",
    "ShippedModel",
    "TimeSharedBackend",
    "TurnBudget",
    "TurnClock",
    "TurnTree",
    "build_hints",
    "check_evaluation",
    "choose_from_result",
    "choose_within_tolerance",
    "choose_within_turn",
    "level_in",
    "value_gap",
    "default_config",
    "expected_decisions",
    "first_decision_budget",
    "forced_result",
    "get_config",
    "learned_preset",
    "level_config",
    "list_configs",
    "make_bot",
    "sampled_line_labels",
    "search_observation",
    "shipped_models",
]
