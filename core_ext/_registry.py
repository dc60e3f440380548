"""The registry of game cores: what each game offers, and how to build one."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from orrery.core_ext._errors import UnknownGameError


@dataclass(frozen=True)
class GameInfo:
    name: str  # registry key, e.g. "trian"
    title: str  # human-readable title
    module: str  # the compiled core's module; it defines make_game(players, variant)
    variants: tuple[str, ...]  # the first is the default
    player_counts: tuple[int, ...]
    action_description: str  # how action ids and structured actions look, for API users
    testing_only: bool = False  # small games that exist to test search and the service

    @property
    def default_variant(self) -> str:
        return self.variants[0]


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    _GAMES[info.name] = info


def registered_games(*, include_testing: bool = True) -> tuple[GameInfo, ...]:
    return tuple(g for g in _GAMES.values() if include_testing or not g.testing_only)


def game_info(name: str) -> GameInfo:
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
    if players not in info.player_counts:
        counts = ", ".join(map(str, info.player_counts))
        raise UnknownGameError(f"{name}: {players} players not supported; player counts: {counts}")
    return _make(name, players, variant)


@cache
def _make(name: str, players: int, variant: str) -> Any:
    module = importlib.import_module(_GAMES[name].module)
    return module.make_game(players, variant)


register(
    GameInfo(
        name="kuhn",
        title="Kuhn poker (N players, N+1 cards): a tiny hidden-information test game",
        module="orrery.core_ext.kuhn",
        variants=("standard",),
        player_counts=(2, 3, 4),
        action_description="0 = pass (check, or fold when facing a bet); 1 = bet (bet, or call a bet)",
        testing_only=True,
    )
)

register(
    GameInfo(
        name="trian",
        title=(
            "Galaxy of Trian: New Order (beginner variant; ships variant with Corvettes and Rogues; "
            "full game with ships and race evolution)"
        ),
        module="orrery.core_ext.trian",
        variants=("beginner", "ships", "full"),
        player_counts=(2, 3, 4),
        action_description=(
            "Phase 1: 0 end phase 1; 1-4 buy a mineral (red, blue, green, yellow); 5 buy a combat token; "
            "6 + pair*4 + colour exchange two minerals (pairs of colours a<=b in order) for one; "
            "46 + nebula*4 + colour gain a mineral from a closed nebula. Phase 2: 240/241 draw from "
            "stack 0/1; 1024 + frontier*6 + side*3 + rotation place the tile; 242 set aside a tile that "
            "fits nowhere. Phase 3: 243 end; 244 resolve events first; 245 research; 246 expedition; "
            "248 + tile construct; 332 + side*84 + tile teleport. Events: 584 + n take n emissaries "
            "back; 600 + plus*4 + rerolls declare combat tokens; 616 reroll; 617 keep the die. "
            "Ships variant: 618/619 Corvette/Rogue expedition; 620 + tile clash with the ship there; "
            "10000 + tile*4 + colour Rogue mining; 20000 + from*84 + to move a ship; 30000 + from*84 + to "
            "teleport a ship. Full variant: 40000 + module*2 + side unlock a skill (side 0 universal, 1 "
            "racial); 40010 trade a set of 4 minerals; 50000 + race*20000 + n racial actions (see "
            "docs/rules/trian.md). action_to_struct gives coordinates and a label for every id."
        ),
    )
)
