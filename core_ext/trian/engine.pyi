# Type stubs for core_ext/trian/engine.pyx (Galaxy of Trian: New Order, beginner and ships variants).
from typing import Any

from orrery.core_ext.game import Game, Observation, State

CATALOGUE: dict[str, Any]
CATALOGUE_PATH: Any
FACE_NAMES: tuple[str, ...]
COLOR_NAMES: tuple[str, ...]
PAIRS: tuple[tuple[int, int], ...]
# (first id, end id, kind) per block of action ids, ascending (docs/rules/trian.md, section 10).
ACTION_BLOCKS: tuple[tuple[int, int, str], ...]
ACTION_DESCRIPTION: str
VARIANT_ACTION_RANGE: dict[str, int]

class TrianGame(Game):
    def __init__(self, players: int, variant: str) -> None: ...

def make_game(players: int, variant: str) -> TrianGame: ...
def tiles_with_face(name: str) -> list[tuple[int, int]]: ...
def end_scoring(pos: State | Observation) -> list[dict[str, int]]: ...
def _debug_stack_top(st: State, stack: int, tiles: list[tuple[int, int]]) -> None: ...
def _debug_dice(seed: int, count: int) -> list[int]: ...
def _debug_seed_dice(st: State, seed: int) -> None: ...
def _debug_determinize(o: Observation, seed: int, method: str = ...) -> tuple[State, str]: ...
def _debug_draw_mineral(st: State) -> int: ...

DETERMINIZE_METHODS: dict[str, int]

# The names of the public JSON format (docs/rules/trian.md, section 15).
TRIAN_FORMAT_VERSION: int
PHASE_IDS: dict[int, str]
SIDE_IDS: tuple[str, ...]
UNIT_IDS: tuple[str, ...]
STATION_IDS: tuple[str | None, ...]
SHIP_IDS: tuple[str | None, ...]
AREA_IDS: tuple[str, ...]
CAUSE_IDS: tuple[str, ...]
AFTER_EVENTS_IDS: tuple[str, ...]
STEP_IDS: dict[int, str]
ADAPTED_UNIT_IDS: tuple[str, ...]
RACIAL_USE_IDS: dict[int, tuple[tuple[int, str], ...]]
STREAM_IDS: tuple[str, ...]
RACE_NAMES: tuple[str, ...]
SKILL_NAMES: tuple[tuple[str, ...], ...]
UNIVERSAL_NAMES: tuple[str, ...]
