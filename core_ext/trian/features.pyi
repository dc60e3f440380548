# Type stubs for core_ext/trian/features.pyx (Trian's features for a learned evaluation).
import numpy as np

from orrery.core_ext.game import Position

LAYOUT_VERSION: int
CAPSULE_NAME: bytes

def num_features(players: int) -> int: ...
def hook() -> object: ...
def encode(position: Position, observer: int) -> np.ndarray: ...
