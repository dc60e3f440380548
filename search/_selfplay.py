"""Play whole games between bots, one per seat, from a seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from orrery.core_ext import load_game

# A bot is anything with select_action(observation, *, seed) (search.Bot), or a plain function
# (observation, seed) -> action. Either sees only its own seat's observation.
SelectAction = Callable[[object, int], int]


def random_bot(observation, seed: int) -> int:
    return random.Random(seed).choice(observation.legal_actions())


def _chooser(bot) -> SelectAction:
    if hasattr(bot, "select_action"):
        return lambda observation, seed: bot.select_action(observation, seed=seed)
    return bot


@dataclass(frozen=True)
class GameRecord:
    game: str
    variant: str
    players: int
    seed: int
    actions: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    returns: tuple[float, ...] = ()  # the game's outcome per seat in [0, 1] (solo goal, team outcome)


def play_game(
    game_name: str,
    players: int,
    seed: int,
    bots: Sequence,
    *,
    variant: str | None = None,
    on_move: Callable[[object, int, int, str], None] | None = None,
) -> GameRecord:
    """Play one game; bots[i] plays seat i and sees only seat i's observation. The deal comes from
    `seed`, and each move's seed from a stream derived from it, so a game replays exactly."""
    if len(bots) != players:
        raise ValueError(f"need one bot per seat: {players} seats, {len(bots)} bots")
    choosers = [_chooser(bot) for bot in bots]
    game = load_game(game_name, players=players, variant=variant)
    state = game.new_initial_state(seed=seed)
    move_rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        seat = state.current_player
        observation = state.observation(seat)
        action = choosers[seat](observation, move_rng.getrandbits(63))
        label = state.action_label(action)
        state.apply(action)
        actions.append(action)
        if on_move is not None:
            on_move(state, seat, action, label)
    return GameRecord(
        game_name,
        game.variant,
        players,
        seed,
        tuple(actions),
        tuple(state.scores()),
        tuple(state.ranks()),
        tuple(state.returns()),
    )
