"""Seeded random-play positions for the learned-evaluation tests (Trian, Take The Galaxy, Tiny Epic
Galaxies): one place that plays the games, so each test file only says which game and how densely."""

from __future__ import annotations

import random
from typing import Any


def random_play_positions(game: Any, *, seed: int, deals: int, every: int, final: bool = False) -> list:
    """Copies of the live states of `deals` random games (deal seeds 0..deals-1, move choices from
    `seed`), every `every`-th move; with `final`, each game's finished state too."""
    rng = random.Random(seed)
    out = []
    for deal in range(deals):
        state = game.new_initial_state(seed=deal)
        moves = 0
        while not state.is_terminal():
            if moves % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
        if final:
            out.append(state.clone())
    return out
