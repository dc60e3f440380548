"""Play one tournament game in whatever process the backend chose; return its JSON-ready record."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from orrery.core_ext import load_game
from orrery.search.tournament._config import BotSpec, BudgetSpec
from orrery.search.tournament._kinds import bot_kind
from orrery.search.tournament._schedule import GameTask, move_seed

# Bots keep no memory between calls (a LevelBot keeps only the clock of a turn going on, per game and
# seat), so one per spec and budget can serve every game in a process; games run one at a time.
_BOTS: dict[tuple[BotSpec, BudgetSpec, str, tuple[str, int] | None], Any] = {}


def build_bot(spec: BotSpec, budget: BudgetSpec, game: str, *, setting: tuple[str, int] | None = None) -> Any:
    """A Bot (search.Bot protocol: name, version, select_action(observation, *, seed)), built by the
    spec's registered kind (search/tournament/_kinds.py); `setting`: the game's (variant, players), for
    the kinds that depend on it."""
    key = (spec, budget, game, setting)
    cached = _BOTS.get(key)
    if cached is not None:
        return cached
    kind = bot_kind(spec.kind)
    bot = (
        kind.build(spec, budget, game, setting=setting)
        if kind.takes_setting
        else kind.build(spec, budget, game)
    )
    _BOTS[key] = bot
    return bot


def deal_digest(state: Any) -> str:
    """A short hash of a fresh deal, so a report can show that every rotation got the same one."""
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


def play_game(task: GameTask) -> dict[str, Any]:
    started = time.perf_counter()
    game = load_game(task.game, players=task.players, variant=task.variant)
    setting = (str(game.variant), int(game.num_players))
    bots = [
        build_bot(spec, budget, task.game, setting=setting)
        for spec, budget in zip(task.bots, task.budgets, strict=True)
    ]
    for bot in bots:  # bots are cached per worker: whatever one keeps per game starts afresh
        if hasattr(bot, "new_game"):
            bot.new_game()
    state = game.new_initial_state(seed=task.deal_seed)
    digest = deal_digest(state)
    think_s = [0.0] * task.players
    moves_by_seat = [0] * task.players
    moves = 0
    actions: list[int] = []
    while not state.is_terminal():
        seat = state.current_player
        observation = state.observation(seat)
        tick = time.perf_counter()
        action = bots[seat].select_action(observation, seed=move_seed(task.bot_seeds[seat], moves))
        think_s[seat] += time.perf_counter() - tick
        state.apply(action)  # an illegal choice raises: a broken bot must not score games
        actions.append(int(action))
        moves_by_seat[seat] += 1
        moves += 1
    pairing, set_index, rotation = task.key
    return {
        "type": "game",
        "pairing": pairing,
        "set": set_index,
        "rotation": rotation,
        "deal_seed": task.deal_seed,
        "deal_digest": digest,
        "seats": list(task.seating),
        "bot_versions": [str(getattr(b, "version", "")) for b in bots],
        "bot_seeds": list(task.bot_seeds),
        "scores": [float(x) for x in state.scores()],
        "ranks": [int(x) for x in state.ranks()],
        "moves": moves,
        "moves_by_seat": moves_by_seat,
        "think_s": [round(t, 6) for t in think_s],
        "wall_s": round(time.perf_counter() - started, 6),
        "actions": actions,  # the game replays from deal_seed (reports draw a sample's final position)
    }
