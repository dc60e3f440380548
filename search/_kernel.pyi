# Type stubs for the compiled kernel (search/_kernel.pyx).
from collections.abc import Sequence

from orrery.core_ext import Observation

ALGORITHMS: dict[str, int]
REWARDS: dict[str, int]
STOP_REASONS: dict[int, str]
PV_MAX_LENGTH: int
REROOT_CHECKS: int

def wall_time() -> float: ...

class CancelFlag:
    def set(self) -> None: ...
    @property
    def is_set(self) -> bool: ...

class Searcher:
    def __init__(
        self,
        observation: Observation,
        *,
        algorithm: str = "ismcts",
        exploration: float = 0.7,
        playout: str = "random",
        max_playout_depth: int = 0,
        reward: str = "rank",
        determinizations: int = 1,
        max_nodes: int = 2_000_000,
        seed: int = 0,
        horizon: str = "leaf",
        evaluation: str = "handwritten",
        plan: str = "",
        plan_weight: float = 1.0,
    ) -> None: ...
    def run(
        self,
        max_iterations: int = -1,
        until: float = 0.0,
        deadline: float = 0.0,
        cancel: CancelFlag | None = None,
    ) -> str: ...
    def reroot(
        self, actions: Sequence[int], observation: Observation, seed: int = 0, checks: int = ...
    ) -> int: ...
    def root_stats(self) -> list[tuple[int, int, float, int, tuple[int, ...]]]: ...
    @property
    def carried_visits(self) -> int: ...
    @property
    def iterations(self) -> int: ...
    @property
    def tree_size(self) -> int: ...
    @property
    def max_depth(self) -> int: ...
    @property
    def busy_seconds(self) -> float: ...
    @property
    def playout_errors(self) -> int: ...

def greedy_action(
    observation: Observation, samples: int = 16, seed: int = 0, reward: str = "rank"
) -> int: ...
def raw_playouts(
    observation: Observation,
    seconds: float,
    seed: int = 0,
    playout: str = "random",
    max_playout_depth: int = 0,
    reward: str = "rank",
) -> tuple[int, float]: ...
