"""Turn search requests into what the search layer takes: an Observation, a config, a seed.

Stateless positions arrive as observation JSON; everything about them is checked here, field by
field, before any search starts. Nothing here is game-specific.
"""

from __future__ import annotations

import functools
import json
import secrets
from typing import Any

from orrery.core_ext import GameInputError, game_info, load_game
from orrery.service._errors import invalid, precondition

LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "expert"}
DEFAULT_TOP_K = 5
MAX_TOP_K = 64


def observation_from_input(game: str, text: str, *, field: str = "observation") -> Any:
    """An Observation from (game, observation JSON), ready to search: the observer is to move."""
    if not game:
        raise invalid(f"{field}.game", "required")
    try:
        info = game_info(game)
    except GameInputError as exc:
        raise invalid(f"{field}.game", str(exc)) from None
    where = f"{field}.observation_json"
    if not text:
        raise invalid(where, "required")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise invalid(where, f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise invalid(where, "must be a JSON object")
    if data.get("game") != game:
        raise invalid(where, f"field 'game' is {str(data.get('game'))[:64]!r}, but {field}.game is {game!r}")
    players, variant = data.get("players"), data.get("variant")
    if isinstance(players, bool) or not isinstance(players, int) or players not in info.player_counts:
        raise invalid(where, f"field 'players' must be one of {list(info.player_counts)}")
    if not isinstance(variant, str) or variant not in info.variants:
        raise invalid(where, f"field 'variant' must be one of {list(info.variants)}")
    unknown = sorted(set(data) - envelope_keys(game, players, variant))
    if unknown:  # the same answer as a game gives for unknown keys inside "state"
        raise invalid(where, f"unknown keys {[k[:64] for k in unknown[:8]]}")
    try:
        observation = load_game(game, players=players, variant=variant).observation_from_dict(data)
    except (GameInputError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        raise invalid(where, str(exc) or type(exc).__name__) from None
    check_searchable(observation, where)
    return observation


@functools.lru_cache(maxsize=256)
def envelope_keys(game: str, players: int, variant: str) -> frozenset[str]:
    """The top-level keys of the game's own observation JSON (whatever its format version writes)."""
    state = load_game(game, players=players, variant=variant).new_initial_state(0)
    return frozenset(json.loads(state.observation(0).to_json()))


def check_searchable(observation: Any, field: str) -> None:
    if observation.is_terminal():
        raise precondition(field, "the game is over")
    if observation.current_player != observation.player:
        raise precondition(
            field, f"it is seat {observation.current_player}'s turn, not seat {observation.player}'s"
        )


def search_config(
    name: str,
    default: str,
    game: str | None,
    *,
    field: str = "params.config",
    level: str | None = None,
    setting: tuple[str, int] | None = None,
) -> Any:
    """The query's config, else the server's --config, else the preset the game plays at `level` in
    `setting` (variant, players): its learned preset where orrery.search.LEARNED_LEVELS says so, else its
    own default_search."""
    from orrery.search import default_config, get_config, level_config

    try:
        if name or default:
            return get_config(name or default)
        if game is not None and setting is not None:
            return level_config(level, game, *setting)
        return default_config("ismcts", game)
    except ValueError as exc:
        raise invalid(field, str(exc)) from None


def check_evaluation(config: Any, game: str, variant: str, players: int, *, field: str) -> None:
    """INVALID_ARGUMENT naming `field` where the config's evaluation is "learned" and no usable model is
    shipped for the game, variant and player count (ListGames lists those that are)."""
    from orrery.search import check_evaluation as check

    try:
        check(config, game, variant, players)
    except ValueError as exc:
        raise invalid(field, f"{exc} (GameDescription.learned_models in ListGames lists them)") from None


def level_name(level: int, *, field: str = "params.level") -> str | None:
    if level == 0:
        return None
    if level not in LEVEL_NAMES:
        raise invalid(field, f"unknown level {level}; levels: 1..4 (easy, medium, hard, expert)")
    return LEVEL_NAMES[level]


def top_k(value: int) -> int:
    if value > MAX_TOP_K:
        raise invalid("params.top_k", f"{value} is out of range [0, {MAX_TOP_K}]")
    return value or DEFAULT_TOP_K


def seed(params: Any) -> int:
    return int(params.seed) if params.HasField("seed") else secrets.randbits(63)
