# Type stubs for core_ext/tiny_epic_galaxies/engine.pyx (base game, Beyond the Black, the solo Rogues).
from pathlib import Path
from typing import Any

from orrery.core_ext.game import Game, State

CATALOGUE: dict[str, Any]
CATALOGUE_PATH: Path
PLANET_KINDS: tuple[str, ...]
FACE_NAMES: tuple[str, ...]
RESOURCE_NAMES: tuple[str, ...]
PLANET_NAMES: tuple[str, ...]
MISSION_NAMES: tuple[str, ...]
PAYLOAD_VERSION: str
VARIANTS: tuple[str, ...]
ACTION_BLOCKS: tuple[tuple[int, int, str], ...]
# Beyond the Black
ABILITY_KINDS: tuple[str, ...]
ROGUE_ACTION_KINDS: tuple[str, ...]
TRACK_COSTS: tuple[str, ...]
SHIP_KIND_NAMES: tuple[str, ...]
BADGE_NAMES: tuple[str, ...]
PILOT_NAMES: tuple[str, ...]
CARD_NAMES: tuple[str, ...]
ROGUE_GALAXY_NAMES: tuple[str, ...]

class TinyEpicGalaxiesGame(Game):
    def __init__(self, players: int, variant: str) -> None: ...

def make_game(players: int, variant: str) -> TinyEpicGalaxiesGame: ...
def _debug_set_dice(st: State, faces: list[str]) -> None: ...
def _debug_seed_dice(st: State, seed: int) -> None: ...
