"""Single-minded Take The Galaxy bots for the balance report (tournament `factory` bots).

Each is the one-ply evaluate() bot restricted to a subset of the legal actions, so the only difference
from `balanced` is the strategy: `ships_only` never builds, upgrades or claims with a colony;
`never_relinquish` never relinquishes; `no_ships` never builds a ship (colonies only); `systems_only`
never studies an anomaly or solves an event (renown from systems and colonies only). Run with
PYTHONPATH=tests.
"""

from __future__ import annotations

import random


class FilteredGreedy:
    version = "1"

    def __init__(self, name: str, refuse: frozenset[str]) -> None:
        self.name = name
        self.refuse = refuse

    def allowed(self, observation) -> list[int]:
        legal = observation.legal_actions()
        return [a for a in legal if observation.action_to_struct(a)["kind"] not in self.refuse] or legal

    def settle(self, child, seat: int, rng: random.Random) -> None:
        """Called on each candidate's result before it is valued (subclasses look further)."""

    def select_action(self, observation, *, seed: int) -> int:
        allowed = self.allowed(observation)
        if len(allowed) == 1:
            return allowed[0]
        rng = random.Random(seed)
        state = observation.determinize(seed=seed % 2**64)
        seat = observation.player
        best, best_value = allowed[0], -1.0
        for a in allowed:
            child = state.clone()
            child.apply(a)
            self.settle(child, seat, rng)
            value = child.evaluate()[seat] + 1e-6 * rng.random()
            if value > best_value:
                best, best_value = a, value
        return best


def balanced() -> FilteredGreedy:
    return FilteredGreedy("balanced", frozenset())


def ships_only() -> FilteredGreedy:
    return FilteredGreedy("ships-only", frozenset({"build", "claim", "upgrade"}))


def never_relinquish() -> FilteredGreedy:
    return FilteredGreedy("never-relinquish", frozenset({"relinquish"}))


def no_ships() -> FilteredGreedy:
    return FilteredGreedy("no-ships", frozenset({"build_ship"}))


def systems_only() -> FilteredGreedy:
    return FilteredGreedy("systems-only", frozenset({"study_anomaly", "solve_event"}))
