# Type stubs for search/_learned.pyx (the learned evaluation's C inference).
from pathlib import Path
from types import ModuleType

import numpy as np

from orrery.core_ext.game import Game, Position
from orrery.search._model import Model

MODELS_DIR: Path
CAPSULE_NAME: bytes

def feature_hook(game: str) -> ModuleType: ...

class ValueNetwork:
    model: Model
    sparse_input: bool
    def __init__(self, model: Model, game: Game) -> None: ...
    def forward(self, features: np.ndarray) -> np.ndarray: ...
    def evaluate(self, position: Position) -> list[float]: ...
    def micros_per_eval(
        self, positions: list, repeats: int = 200, learned: bool = True
    ) -> tuple[float, float]: ...

def model_path(game: str, variant: str, players: int) -> Path: ...
def shipped_network(game: Game) -> ValueNetwork: ...
def has_model(game: str, variant: str, players: int) -> bool: ...
