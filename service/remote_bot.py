"""A tournament bot that plays through an Orrery server's SuggestMove (docs/tournaments.md, "remote"), and
its tournament bot kind "remote".

It sends the seat's observation JSON, the move seed and the budget, so a server running the same search
with one worker answers exactly what the in-process bot answers (the same seed gives the same search),
and the server can be another release in its own venv or container.
"""

from __future__ import annotations

from typing import Any

from orrery.search.tournament._config import BotSpec, BudgetSpec
from orrery.search.tournament._kinds import BotKind, budget_text
from orrery.service.client import LEVELS, OrreryClient

SEED_LIMIT = 2**64  # SearchParams.seed is a uint64
CALL_SLACK_S = 30.0  # the call deadline beyond the search budget (queueing, a loaded machine)


class RemoteBot:
    """search.Bot over gRPC: select_action(observation, *, seed) asks `address` for a move."""

    name = "remote"

    def __init__(
        self,
        address: str,
        *,
        config: str = "",
        level: str | None = None,
        iterations: int | None = None,
        milliseconds: float | None = None,
        tls: bool = False,
    ) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        if milliseconds is not None and not 1 <= milliseconds < 2**32:
            raise ValueError(f"milliseconds must lie in [1, 2**32), got {milliseconds}")
        self.address = address
        self.config = config
        self.level = level
        self.iterations = iterations
        self.milliseconds = None if milliseconds is None else int(round(milliseconds))
        self._tls = tls
        self._client: OrreryClient | None = None
        budget = f"{iterations}it" if iterations is not None else f"{self.milliseconds}ms"
        strength = f"level={level}" if level else (config or "default")
        self.version = f"{address}/{strength}+{budget}"

    def select_action(self, observation: Any, *, seed: int) -> int:
        legal = observation.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or it is not this seat's turn")
        if len(legal) == 1:  # as the in-process SearchBot: no search for a forced move
            return int(legal[0])
        answer = self._connect().suggest(
            game=observation.game.name,
            observation_json=observation.to_json(),
            iterations=self.iterations,
            milliseconds=self.milliseconds,
            level=self.level,
            seed=seed % SEED_LIMIT,
            config=self.config,
            top_k=1,
            skip_hints=True,  # a bot needs the move only: no rollout pass after the search
            timeout=self._call_timeout(),
        )
        action = int(answer.action.id)
        if action not in legal:  # never let a wrong server answer reach the game
            raise RuntimeError(
                f"{self.address} answered action {action}, not legal here ({len(legal)} legal)"
            )
        return action

    def _call_timeout(self) -> float:
        return CALL_SLACK_S + (self.milliseconds or 0) / 1000.0 + (self.iterations or 0) / 1000.0

    def _connect(self) -> OrreryClient:
        if self._client is None:
            self._client = OrreryClient(self.address, tls=self._tls, timeout=None)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __getstate__(self) -> dict[str, Any]:  # a process backend ships bots: channels do not pickle
        return {**self.__dict__, "_client": None}


# Tournament bot kind "remote", registered through pyproject.toml's "orrery.tournament_bots" entry points
# (search/tournament/_kinds.py): search builds it without importing this layer.


def _check(spec: BotSpec) -> None:
    if not spec.address or ":" not in spec.address:
        raise ValueError("kind 'remote' needs address = 'host:port'")
    if spec.level is not None and spec.level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")


def _build(spec: BotSpec, budget: BudgetSpec, game: str) -> RemoteBot:
    assert spec.address is not None
    return RemoteBot(
        spec.address,
        config=spec.config or "",
        level=spec.level,
        iterations=budget.iterations,
        milliseconds=budget.milliseconds,
    )


def _describe(spec: BotSpec, budget: BudgetSpec) -> str:
    strength = f"level {spec.level}" if spec.level else (spec.config or "server default")
    return f"remote {spec.address}, {strength}, {budget_text(budget)}"


BOT_KIND = BotKind(
    name="remote",
    fields=frozenset({"config", "address", "level"}),
    build=_build,
    describe=_describe,
    check=_check,
)
