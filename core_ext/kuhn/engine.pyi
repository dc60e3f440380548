# Type stubs for core_ext/kuhn/engine.pyx.
from orrery.core_ext.game import Game

class KuhnGame(Game):
    def __init__(self, players: int, variant: str) -> None: ...

def make_game(players: int, variant: str) -> KuhnGame: ...
