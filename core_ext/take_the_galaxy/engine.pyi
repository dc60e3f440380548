# Type stubs for core_ext/take_the_galaxy/engine.pyx (Take The Galaxy: standard, random and team set-ups).
from pathlib import Path
from typing import Any

from orrery.core_ext.game import Game

CATALOGUE: dict[str, Any]
CATALOGUE_PATH: Path
CARD_NAMES: tuple[str, ...]
SPACE_NAMES: tuple[str, ...]
CARD_IDS: dict[str, int]
SPACE_IDS: dict[str, int]
VARIANT_IDS: dict[str, int]
RESOURCE_NAMES: tuple[str, ...]
PAYLOAD_VERSION: str
ACTION_BLOCKS: tuple[tuple[int, int, str], ...]

class TakeTheGalaxyGame(Game):
    def __init__(self, players: int, variant: str) -> None: ...

def make_game(players: int, variant: str) -> TakeTheGalaxyGame: ...
