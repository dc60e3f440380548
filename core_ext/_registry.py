"""The registry of game cores: what each game offers, and how to build one.

Each game registers itself from its own module (a `register(GameInfo(...))` at import), so everything
about a game lives with its core. The registry imports the built-in game modules the first time it is
asked, and outside packages can add games the same way (import your module, which calls register()).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from orrery.core_ext._errors import UnknownGameError

# The game modules that ship with Orrery; each calls register() when imported.
BUILTIN_GAME_MODULES = (
    "orrery.core_ext.kuhn",
    "orrery.core_ext.trian",
    "orrery.core_ext.take_the_galaxy",
    "orrery.core_ext.tiny_epic_galaxies",
)

# What the contract says of every game (core_ext/game.pxd), stated once for API users.
CHANCE_MODEL = (
    "chance is resolved inside apply() from random streams kept in the state; there are no chance "
    "nodes, and determinize() resamples the streams and orders the observer cannot know"
)
STATE_HEADER_RULE = "every state struct starts with GameParams (num_players, variant, options)"


@dataclass(frozen=True)
class GameInfo:
    name: str  # registry key, e.g. "trian"
    title: str  # human-readable title
    module: str  # the compiled core's module; it defines make_game(players, variant)
    variants: tuple[str, ...]  # the first is the default
    player_counts: tuple[int, ...]  # every count some variant supports
    action_description: str  # how action ids and structured actions look, for API users
    default_search: str  # the search preset for this game when a request or bot names none
    outcome: str  # what returns() means: "ranks", "solo" or "team" (details in the rules doc)
    hidden_information: str  # what an observer cannot see (and determinize() resamples)
    testing_only: bool = False  # small games that exist to test search and the service
    # Variants playable at fewer counts than player_counts, e.g. (("team", (4,)),).
    variant_player_counts: tuple[tuple[str, tuple[int, ...]], ...] = field(default=())
    rules_doc: str = ""  # where every rule, card and format field is documented

    def __post_init__(self) -> None:
        if self.outcome not in ("ranks", "solo", "team"):
            raise ValueError(f"{self.name}: outcome must be ranks, solo or team, got {self.outcome!r}")
        if not self.player_counts or not all(1 <= n <= MAX_SEATS for n in self.player_counts):
            raise ValueError(f"{self.name}: player counts must lie in 1..{MAX_SEATS}")

    @property
    def default_variant(self) -> str:
        return self.variants[0]

    @property
    def min_players(self) -> int:
        return min(self.player_counts)

    @property
    def max_players(self) -> int:
        return max(self.player_counts)

    def players_for(self, variant: str) -> tuple[int, ...]:
        """The player counts one variant supports."""
        return dict(self.variant_player_counts).get(variant, self.player_counts)


MAX_SEATS = 5  # core_ext/types.pxd MAX_PLAYERS
_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    """Add a game (called by the game's own module when it is imported)."""
    _GAMES[info.name] = info


@cache
def _import_builtin_games() -> None:
    for module in BUILTIN_GAME_MODULES:
        importlib.import_module(module)


def registered_games(*, include_testing: bool = True) -> tuple[GameInfo, ...]:
    _import_builtin_games()
    return tuple(g for g in _GAMES.values() if include_testing or not g.testing_only)


def game_info(name: str) -> GameInfo:
    _import_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None


def load_game(name: str, *, players: int, variant: str | None = None) -> Any:
    """The Game object for a name, player count and variant (cached: games are immutable)."""
    info = game_info(name)
    variant = info.default_variant if variant is None else variant
    if variant not in info.variants:
        raise UnknownGameError(f"{name}: unknown variant {variant!r}; variants: {', '.join(info.variants)}")
    if players not in info.players_for(variant):
        counts = ", ".join(map(str, info.players_for(variant)))
        raise UnknownGameError(f"{name} ({variant}): {players} players not supported; counts: {counts}")
    return _make(name, players, variant)


def game_bounds(name: str) -> tuple[int, int]:
    """(num_distinct_actions, max_game_length) of a game over all its variants and player counts (a
    variant's Game.num_distinct_actions may be smaller)."""
    info = game_info(name)
    games = [load_game(name, players=info.players_for(v)[0], variant=v) for v in info.variants]
    return max(int(g.num_distinct_actions) for g in games), max(int(g.max_game_length) for g in games)


@cache
def _make(name: str, players: int, variant: str) -> Any:
    module = importlib.import_module(_GAMES[name].module)
    return module.make_game(players, variant)
