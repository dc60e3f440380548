"""Single-minded Tiny Epic Galaxies: Beyond the Black bots for the balance report (tournament `factory`
bots, docs/rules/tiny_epic_galaxies.md section 13.15). Run with PYTHONPATH=tests.

`balanced` is a one-ply evaluate() bot that looks through its own micro-steps: a choice that opens a
decision of its own (hire: pilot, then ship, then dice, then the ship replaced; explore: take or reveal;
reroll, converter, planet actions) is valued after finishing that decision greedily, so a hire is judged
with its pilot in the hangar and not half-way. (The plain one-ply bot of tests/ttg_bots.py values the
first micro-step of a hire, which changes nothing yet, below any immediate gain, and so hires too little:
against it "hire whenever you can" won 85% of 400 games, a bot artefact and not a rules finding.)

The others are `balanced` restricted or pushed on the expansion's two new actions, so the strategy is
the only difference: `no_hire` never hires a pilot, `no_explore` never explores, `hire_first` hires
whenever a hire is payable, `explore_first` explores whenever it can. If `hire_first` beat `balanced`,
hiring would be too cheap (issue 15).
"""

from __future__ import annotations

import random

from ttg_bots import FilteredGreedy

# decisions that belong to the move that opened them (not a new turn-level choice)
MICRO_STEPS = frozenset({"hire", "explore", "reroll", "convert", "planet_action", "resolve_die", "landed"})
MICRO_STEP_LIMIT = 12  # a hire is 4 steps, an explore up to 4, nested planet actions a few more


def _top_decision(state) -> str | None:
    pending = state.to_dict()["state"]["pending"]
    return pending[-1]["decision"] if pending else None


def _finish_own_decision(state, seat: int, rng: random.Random) -> None:
    for _ in range(MICRO_STEP_LIMIT):
        if state.is_terminal() or state.current_player != seat or _top_decision(state) not in MICRO_STEPS:
            return
        best, best_value = None, -1.0
        for a in state.legal_actions():
            child = state.clone()
            child.apply(a)
            value = child.evaluate()[seat] + 1e-6 * rng.random()
            if value > best_value:
                best, best_value = a, value
        state.apply(best)


class LookaheadGreedy(FilteredGreedy):
    """FilteredGreedy that finishes its own micro-steps before valuing a choice, and with `prefer` takes
    an action of a preferred kind whenever one is legal."""

    def __init__(
        self, name: str, *, refuse: frozenset[str] = frozenset(), prefer: frozenset[str] = frozenset()
    ):
        super().__init__(name, refuse)  # refuse: action kinds never chosen (unless nothing else is legal)
        self.prefer = prefer

    def allowed(self, observation) -> list[int]:
        legal = observation.legal_actions()
        preferred = [a for a in legal if observation.action_to_struct(a)["kind"] in self.prefer]
        return preferred or super().allowed(observation)

    def settle(self, child, seat: int, rng: random.Random) -> None:
        _finish_own_decision(child, seat, rng)


def balanced() -> LookaheadGreedy:
    return LookaheadGreedy("balanced")


def no_hire() -> LookaheadGreedy:
    return LookaheadGreedy("no-hire", refuse=frozenset({"hire"}))


def no_explore() -> LookaheadGreedy:
    return LookaheadGreedy("no-explore", refuse=frozenset({"explore"}))


def hire_first() -> LookaheadGreedy:
    return LookaheadGreedy("hire-first", prefer=frozenset({"hire"}))


def explore_first() -> LookaheadGreedy:
    return LookaheadGreedy("explore-first", prefer=frozenset({"explore"}))
