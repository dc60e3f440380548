"""What kind of action each id names, from the id alone.

Each game's engine exports its own action table, built from the constants its rules use (docs/adding-a-
game.md): ACTION_BLOCKS, the (first id, end id, kind) blocks in ascending order, and, when a variant uses
fewer ids than the whole game, VARIANT_ACTION_RANGE (variant -> end id). describe_action labels an id that
is not legal in the state at hand from these blocks, because the action-struct code needs the state in
which the id is legal; Game.num_distinct_actions reads the variant ranges. The rules docs' action tables
are tested against the same blocks.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

from orrery.core_ext._registry import game_info


@cache
def _engine(game: str) -> ModuleType:
    return importlib.import_module(game_info(game).module)


def action_blocks(game: str) -> tuple[tuple[int, int, str], ...]:
    """The game's ACTION_BLOCKS; () for a game that exports none."""
    return tuple(getattr(_engine(game), "ACTION_BLOCKS", ()))


def variant_action_range(game: str, variant: str) -> int | None:
    """The end of the ids a variant uses, when it is below the whole game's; else None."""
    ranges: dict[str, int] = getattr(_engine(game), "VARIANT_ACTION_RANGE", {})
    return ranges.get(variant)


def id_kind(game: str, action: int) -> str:
    """The kind of action `action` names in `game` ("" for a game without a table), from the id alone;
    an id in no block of the encoding is "unused id N"."""
    blocks = action_blocks(game)
    if not blocks:
        return ""
    for start, end, kind in blocks:
        if start <= action < end:
            offset = action - start
            return kind if end - start == 1 else f"{kind} #{offset}"
    return f"unused id {action}"
