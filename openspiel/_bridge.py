"""Orrery games as pyspiel Python games (docs/openspiel.md).

One pyspiel game per Orrery game, named "orrery_<game>", with the variant, the player count and the deal
seed as game parameters. Chance stays inside the Orrery core (sampled-stochastic: apply() draws from
random streams kept in the state), so there are no chance nodes; resample_from_infostate() is the core's
determinize().
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyspiel

from orrery import core_ext
from orrery.core_ext import GameInfo, load_game, registered_games

GAME_PREFIX = "orrery_"
RANDOM_DEALS = -1  # the "seed" parameter's default: deal k of a game object uses seed k (0, 1, 2, ...)
SEED_LIMIT = 2**64  # Orrery deal and determinization seeds lie in [0, 2**64)
PARAM_SEED_LIMIT = 2**31  # OpenSpiel's int game parameters are 32-bit: the "seed" parameter's range


def openspiel_name(game: str) -> str:
    """The pyspiel short name of an Orrery game: "trian" -> "orrery_trian"."""
    return GAME_PREFIX + game


def _game_type(info: GameInfo, *, players: int | None = None) -> pyspiel.GameType:
    """The registered type (players=None: zero-sum when any count has two seats) or one instance's."""
    two_or_more = (info.max_players if players is None else players) >= 2
    return pyspiel.GameType(
        short_name=openspiel_name(info.name),
        long_name=f"Orrery {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # Rank and team utilities always sum to 0 with two or more seats (docs/api.md, "Utilities"); a
        # one-seat game is general-sum, so a 1-player instance's get_type() says GENERAL_SUM.
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_or_more else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,  # core_ext.observation_tensor, per seat
        parameter_specification={
            "players": _default_players(info),
            "variant": info.default_variant,
            "seed": RANDOM_DEALS,
        },
    )


def _default_players(info: GameInfo) -> int:
    """Two seats where the default variant allows it (what most OpenSpiel algorithms expect)."""
    counts = info.players_for(info.default_variant)
    return 2 if 2 in counts else counts[0]


def _checked_params(info: GameInfo, params: dict[str, Any]) -> tuple[int, str, int]:
    players = int(params.get("players", _default_players(info)))
    variant = str(params.get("variant", info.default_variant))
    seed = _checked_seed_parameter(info.name, params.get("seed", RANDOM_DEALS))
    load_game(info.name, players=players, variant=variant)  # UnknownGameError names what is wrong
    return players, variant, seed


def _checked_seed_parameter(game: str, seed: Any) -> int:
    if (
        isinstance(seed, bool)
        or not isinstance(seed, int)
        or not (seed == RANDOM_DEALS or 0 <= seed < PARAM_SEED_LIMIT)
    ):
        raise ValueError(
            f"{openspiel_name(game)}: seed must be -1 (deal 0, 1, 2, ...) or in [0, 2**31) (OpenSpiel "
            f"game parameters are 32-bit; deal a larger Orrery seed with state_from_core), got {seed!r}"
        )
    return seed


class OrreryGame(pyspiel.Game):
    """One Orrery game, variant and player count as a pyspiel game.

    seed = -1 (default): the k-th new_initial_state() of this game object deals seed k, so a fresh
    process replays the same deals; seed >= 0: every new_initial_state() deals that one seed.
    """

    info: GameInfo  # set on the per-game subclass that register_games() makes

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        players, variant, seed = _checked_params(self.info, dict(params or {}))
        self.core = load_game(self.info.name, players=players, variant=variant)
        solo = players == 1
        game_info = pyspiel.GameInfo(
            num_distinct_actions=int(self.core.num_distinct_actions),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0 if solo else -1.0,
            max_utility=1.0,
            utility_sum=None if solo else 0.0,
            max_game_length=int(self.core.max_game_length),
        )
        super().__init__(
            _game_type(self.info, players=players),
            game_info,
            {"players": players, "variant": variant, "seed": seed},
        )
        self._fixed_seed = None if seed == RANDOM_DEALS else seed
        self._deal_counter: Iterator[int] = itertools.count()

    def new_initial_state(self) -> OrreryState:
        seed = self._fixed_seed if self._fixed_seed is not None else next(self._deal_counter) % SEED_LIMIT
        return OrreryState(self, self.core.new_initial_state(seed=seed))

    def state_from_core(self, core_state: Any) -> OrreryState:
        """Wrap an Orrery State of this game (e.g. a determinization) as a pyspiel state, history empty."""
        if (
            core_state.game.name != self.core.name
            or core_state.game.variant != self.core.variant
            or (core_state.game.num_players != self.core.num_players)
        ):
            raise ValueError(f"{openspiel_name(self.info.name)}: the state belongs to another game")
        return OrreryState(self, core_state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OrreryObserver:
        if params:
            raise ValueError(
                f"{openspiel_name(self.info.name)}: observer parameters are not supported: {params}"
            )
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return OrreryObserver(self, information_state=perfect_recall)


class OrreryState(pyspiel.State):
    """A pyspiel state around an Orrery State (`core`). pyspiel's clone() deep-copies this object's
    attributes, which for the core is its __deepcopy__: one memcpy."""

    def __init__(self, game: OrreryGame, core_state: Any) -> None:
        super().__init__(game)
        self.core = core_state

    def current_player(self) -> int:
        if self.core.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.core.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        if self.core.is_terminal() or player != self.core.current_player:
            return []
        return sorted(self.core.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.core.describe_action(int(action)))

    def is_terminal(self) -> bool:
        return bool(self.core.is_terminal())

    def returns(self) -> list[float]:
        if not self.core.is_terminal():
            return [0.0] * self.core.game.num_players
        return [float(u) for u in self.core.utilities()]

    def information_state_string(self, player: int | None = None) -> str:
        return information_state_string(self.core, self._seat(player))

    def observation_string(self, player: int | None = None) -> str:
        return observation_string(self.core, self._seat(player))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OrreryState:
        """A state `player_id` cannot tell from this one: the core's determinize(), its seed drawn from
        `probability_sampler()` (a float in [0, 1), e.g. pyspiel.UniformProbabilitySampler)."""
        seed = int(float(probability_sampler()) * 2**53)
        resampled = self.clone()  # keeps the action history
        resampled.core = self.core.determinize(int(player_id), seed)
        return resampled

    def _seat(self, player: int | None) -> int:
        seat = self.core.current_player if player is None else int(player)
        if not 0 <= seat < self.core.game.num_players:
            raise ValueError(f"player must be a seat in 0..{self.core.game.num_players - 1}, got {seat}")
        return seat

    def __str__(self) -> str:
        return str(self.core.render())


def information_state_string(core_state: Any, seat: int) -> str:
    """Observation.info_key() with each byte as one character (U+0000..U+00FF): exact, no hash."""
    return core_state.observation(seat).info_key().decode("latin-1")


def observation_string(core_state: Any, seat: int) -> str:
    """What the seat sees, rendered as text (not guaranteed injective; information_state_string is)."""
    return str(core_state.observation(seat).render())


class OrreryObserver:
    """pyspiel's PyObserver interface: `tensor`, `dict`, set_from(state, player), string_from(...)."""

    def __init__(self, game: OrreryGame, *, information_state: bool) -> None:
        self._information_state = information_state
        shape: tuple[int, ...] = (0,)
        if not information_state:  # the information state has a string (exact), no tensor
            core = game.core
            shape = tuple(
                core_ext.observation_tensor_shape(
                    core.name, variant=core.variant, num_players=core.num_players
                )
            )
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)} if self.tensor.size else {}

    def set_from(self, state: OrreryState, player: int) -> None:
        if self.tensor.size:
            values = core_ext.observation_tensor(state.core.observation(player))
            self.tensor[:] = np.asarray(values, np.float32).ravel()

    def string_from(self, state: OrreryState, player: int) -> str:
        if self._information_state:
            return information_state_string(state.core, player)
        return observation_string(state.core, player)


def register_games() -> tuple[str, ...]:
    """Register every Orrery game with pyspiel (idempotent); returns the pyspiel names."""
    names = []
    for info in registered_games():
        name = openspiel_name(info.name)
        if name not in _REGISTERED:
            game_class = type(f"Orrery_{info.name}_Game", (OrreryGame,), {"info": info})
            pyspiel.register_game(_game_type(info), game_class)
            _REGISTERED[name] = game_class
        names.append(name)
    return tuple(names)


_REGISTERED: dict[str, type[OrreryGame]] = {}


def load(
    game: str, *, players: int | None = None, variant: str | None = None, seed: int = RANDOM_DEALS
) -> Any:
    """pyspiel.load_game for an Orrery game, registering the games first."""
    register_games()
    params: dict[str, Any] = {"seed": _checked_seed_parameter(game, seed)}
    if players is not None:
        params["players"] = players
    if variant is not None:
        params["variant"] = variant
    return pyspiel.load_game(openspiel_name(game), params)
