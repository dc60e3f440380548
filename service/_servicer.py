"""The orrery.v1.Orrery servicer: request validation, conversion to and from the wire types.

Every handler raises ServiceError (or a game-layer input error) for bad requests; `_rpc` turns those
into a status with the field named. Blocking work goes to threads: the match store to its own (one for
SQLite), searches to the scheduler's request threads, so the event loop only moves messages.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import dataclasses
import functools
import json
import logging
import random
import secrets
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, cast

import grpc

from orrery.core_ext import GameInputError, game_bounds, registered_games
from orrery.search import (
    ShippedModel,
    build_hints,
    choose_from_result,
    choose_within_turn,
    expected_decisions,
    forced_result,
    level_config,
    sampled_line_labels,
    shipped_models,
)
from orrery.service import _positions as positions
from orrery.service._ai import AiPlayers
from orrery.service._ai_clock import AiTurnClocks, capped, seat_turn_budget
from orrery.service._auth_interceptor import (
    TOKEN_KEY,
    new_owner_token,
    spectator_token_of,
    token_from_metadata,
    tokens_from_metadata,
)
from orrery.service._errors import ServiceError, abort_with, invalid, unauthenticated
from orrery.service._events import CLOSED, MatchEvents
from orrery.service._kept_trees import KeptTrees, TreeBound
from orrery.service._levels import budget_fields, grant_budget
from orrery.service._matches import (
    ACTIVE,
    SPECTATOR,
    ActionView,
    AiSpec,
    AiTurn,
    Ended,
    History,
    Replay,
    replay_pictures,
)
from orrery.service._metrics import ServiceMetrics
from orrery.service._quota import FailureLimit, RateLimit, peer_host
from orrery.service._search import (
    STOP_BUDGET,
    STOP_DEADLINE,
    STOP_SHUTDOWN,
    STOP_STOPPED,
    SearchJob,
    SearchScheduler,
)
from orrery.service._store import MatchStoreBackend, database_error, means_unreachable, store_unavailable
from orrery.service._store_health import StoreHealth, describe
from orrery.v1 import orrery_pb2 as pb
from orrery.v1 import orrery_pb2_grpc as pb_grpc

log = logging.getLogger("orrery.service")
API_VERSION = "orrery.v1"
SERVICE_NAME = "orrery.v1.Orrery"
MIN_PROGRESS_MS = 20
# Observation JSON up to this size is parsed on the event loop: parsing takes well under a millisecond,
# and under load a hand-over to a thread and back cost several times that in waits for the GIL and the
# loop. Answers are built on the loop for the same reason. Figures in docs/performance.md.
INLINE_JSON_CHARS = 32 * 1024
# A milliseconds budget's hint rollout pass may take this share of the budget (after its minimum
# rollouts); an iterations budget's pass is never cut, so its hints depend on the seed only.
HINT_TIME_SHARE = 0.25
DEFAULT_PROGRESS_MS = 500
MAX_LIST_TOKENS = 100  # tokens one ListMatches call may ask about
RELAY_RETRY_S = (0.1, 0.2, 0.5, 1.0, 1.0, 2.0, 5.0, 10.0)  # a relay's waits while the store is away
_AFTER_ALL = 1 << 31  # a history "after" every move: only the match's standing
STOP_REASONS = {
    STOP_BUDGET: pb.STOP_REASON_BUDGET,
    STOP_DEADLINE: pb.STOP_REASON_DEADLINE,
    STOP_STOPPED: pb.STOP_REASON_STOPPED,
    STOP_SHUTDOWN: pb.STOP_REASON_SHUTDOWN,
}


def server_version() -> str:
    try:
        from importlib.metadata import version

        return version("orrery")
    except Exception:  # noqa: BLE001 - running from a source tree without an install
        return "0.1.0+source"


def _rpc(method: Callable[..., Any]) -> Callable[..., Any]:
    """Map ServiceError / game input errors to status codes (with a ServiceError's retry hint in the
    trailers); log anything unexpected as INTERNAL."""

    @functools.wraps(method)
    async def wrapper(self: OrreryServicer, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except Exception as exc:  # noqa: BLE001 - _abort_for re-raises what is not an error to map
            await _abort_for(exc, method.__name__, context)

    return wrapper


def _rpc_stream(method: Callable[..., AsyncIterator[Any]]) -> Callable[..., AsyncIterator[Any]]:
    """_rpc for a server-streaming method (an async generator): the same mapping, before or after
    messages were sent; the method's generator is closed when the call ends (its finally blocks run)."""

    @functools.wraps(method)
    async def wrapper(
        self: OrreryServicer, request: Any, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[Any]:
        try:
            messages = cast("AsyncGenerator[Any, None]", method(self, request, context))
            async with contextlib.aclosing(messages):
                async for message in messages:
                    yield message
        except Exception as exc:  # noqa: BLE001 - _abort_for re-raises what is not an error to map
            await _abort_for(exc, method.__name__, context)

    return wrapper


async def _abort_for(exc: Exception, name: str, context: Any) -> None:
    if isinstance(exc, ServiceError):
        await abort_with(context, exc)
    if isinstance(exc, GameInputError):
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
    if isinstance(exc, grpc.aio.AbortError):
        raise exc
    log.exception("internal error in %s", name)
    await context.abort(grpc.StatusCode.INTERNAL, "internal error (logged on the server)")


def _replay_window(replay: Replay, request: pb.GetReplayRequest) -> range:
    """The positions whose pictures GetReplay asks for (0 = before move 1, n = after move n): svg_from ..
    svg_from + svg_count - 1, or to the end when svg_count is 0. A window keeps a long match's answer
    under the message limit (a 1,431-move Tiny Epic Galaxies game is 46.6 MB of pictures)."""
    if request.HasField("svg_seat") and request.svg_seat >= replay.players:
        raise invalid("svg_seat", f"must be below players ({replay.players})")
    total = len(replay.moves) + 1
    if request.svg_from >= total:
        raise invalid("svg_from", f"must be below {total} (this match's positions: its moves + 1)")
    end = total if request.svg_count == 0 else min(total, request.svg_from + request.svg_count)
    return range(request.svg_from, end)


def _replay_viewer(replay: Replay, request: pb.GetReplayRequest) -> int:
    """Whose view GetReplay answers with: `seat`; else, once the match has ended, `svg_seat`; else the
    spectator. While the match is played its pictures may only be the viewer's own."""
    if request.HasField("seat") and request.seat >= replay.players:
        raise invalid("seat", f"must be below players ({replay.players})")
    if request.HasField("seat"):
        viewer = int(request.seat)
    elif request.HasField("svg_seat") and replay.status != ACTIVE:
        viewer = int(request.svg_seat)
    else:
        viewer = SPECTATOR
    if request.svg_public and (request.HasField("svg_seat") or request.HasField("seat")):
        raise invalid(
            "svg_public", "pictures of the public view are the spectator's: not with svg_seat or seat"
        )
    if request.HasField("svg_seat") and request.svg_seat != viewer:
        if replay.status == ACTIVE:
            if viewer == SPECTATOR:
                raise invalid(
                    "svg_seat", "the match is being played: the spectator's pictures are svg_public"
                )
            raise invalid("svg_seat", f"the match is being played: pictures only as seat {viewer} sees it")
        raise invalid("svg_seat", f"must equal seat ({viewer}) when both are given")
    return viewer


def _window_pictures(replay: Replay, seat: int, window: range) -> dict[int, str]:
    """The pictures of the positions in `window`, as `seat` saw them (the moves before it are replayed,
    not drawn)."""
    return replay_pictures(
        dataclasses.replace(replay, moves=replay.moves[: window.stop - 1]),
        seat,
        first=window.start,
        last=len(replay.moves),
    )


def _learned_model(model: ShippedModel, server_config: str = "") -> pb.LearnedModel:
    """A shipped model as ListGames lists it; `server_config`: the server's --config, which every request
    naming no config plays, so that no level plays the model by default then."""
    return pb.LearnedModel(
        variant=model.variant,
        players=model.players,
        format_version=model.format_version,
        layout_version=model.layout_version,
        catalogue=model.catalogue,
        file_bytes=model.file_bytes,
        sha256=model.sha256,
        trained=model.trained,
        training_games=model.training_games,
        training_positions=model.training_positions,
        training_command=model.training_command,
        search_config=model.search_config,
        strength=pb.ModelStrength.Value(f"MODEL_STRENGTH_{model.strength.upper()}"),
        strength_summary=model.strength_summary,
        levels=[
            pb.Level.Value(f"LEVEL_{name.upper()}")
            for name in ("easy", "medium", "hard", "expert")
            if not server_config
            and level_config(name, model.game, model.variant, model.players).label == model.search_config
        ],
    )


def _action(view: ActionView) -> pb.Action:
    return pb.Action(id=view.id, label=view.label, struct_json=view.struct_json)


def _seat_score(entry: dict[str, Any]) -> pb.SeatScore:
    """One entry of Position.score_breakdown as its message (GetObservation.score_breakdown)."""
    parts = [pb.ScorePart(label=p["label"], points=p["points"], detail=p["detail"]) for p in entry["parts"]]
    return pb.SeatScore(seat=entry["seat"], name=entry["name"], parts=parts, total=entry["total"])


def _action_seen_by(view: ActionView, mover: int, viewer: int) -> pb.Action:
    """A played move as `viewer` (a seat, or SPECTATOR) sees it: the mover gets its full label and
    structured form; anyone else the id and the label built from its own view (no structured form)."""
    if viewer == mover:
        return _action(view)
    return pb.Action(id=view.id, label=view.label_for(viewer))


@dataclass(frozen=True)
class _Published:
    """A match event as published once for all of a match's watchers. A MOVE's message carries the
    spectator's label and no structured form; `action` holds the rest (the mover's full label and
    structure, every viewer's label), from which _as_seen_by makes each watcher's copy."""

    message: pb.MatchEvent
    action: ActionView | None = None


class OrreryServicer(pb_grpc.OrreryServicer):
    def __init__(
        self,
        *,
        store: MatchStoreBackend,
        scheduler: SearchScheduler,
        metrics: ServiceMetrics,
        max_budget_ms: float,
        default_budget_ms: float,
        default_config: str,
        backend_name: str,
        creates_per_minute: float = 0.0,
        token_failures_per_minute: float = 0.0,
        tree_bound: TreeBound | None = None,
    ) -> None:
        self.store = store
        self.scheduler = scheduler
        self.metrics = metrics
        self.max_budget_ms = max_budget_ms
        self.default_budget_ms = default_budget_ms
        self.default_config = default_config
        self.backend_name = backend_name
        # SQLite: one store thread (one connection); PostgreSQL: one per pooled connection.
        self._db_thread = cf.ThreadPoolExecutor(max_workers=store.threads, thread_name_prefix="orrery-store")
        # Parsing observation JSON and building answers take milliseconds for big games: off the loop.
        self._cpu_threads = cf.ThreadPoolExecutor(max_workers=2, thread_name_prefix="orrery-cpu")
        self._queries: dict[str, SearchJob] = {}
        self.events = MatchEvents()
        # A match's AI task ends when no AI seat of it is to move here (its turn ended, the match ended,
        # another replica plays it, or a drain): its turn's clock and kept trees go with it.
        self.ai = AiPlayers(turn=self._ai_turn, play=self._ai_play, ended=self._ai_ended)
        self.store_health = StoreHealth(store.ping)
        # the AI turns going on, and the trees kept between their decisions within the server's bound
        self.ai_clocks = AiTurnClocks(KeptTrees(tree_bound, metrics=metrics))
        self.create_limit = RateLimit(creates_per_minute, "new matches", "--max-matches-per-minute")
        # wrong tokens per client host (AuthInterceptor and ListMatches spend it)
        self.token_failures = FailureLimit(token_failures_per_minute, "--max-token-failures")
        self._ai_jobs: dict[str, SearchJob] = {}  # match id -> its AI seat's running search

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a MatchStore call on the store's own thread. Every store call of every RPC, streams and
        the token check included, comes through here: text that a database driver refuses (a NUL byte,
        a lone surrogate) never reaches it, and a database error becomes UNAVAILABLE with a retry hint
        (never the driver's text); while the store is known to be down, calls are refused at once."""
        _check_store_text(args, kwargs)
        if not self.store_health.reachable:
            raise store_unavailable()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._db_thread, functools.partial(fn, *args, **kwargs))
        except (ServiceError, GameInputError):
            raise
        except Exception as exc:
            mapped = database_error(exc)
            if mapped is None:
                raise
            log.warning(
                "match database error in %s: %s", getattr(fn, "__name__", "a store call"), describe(exc)
            )
            if means_unreachable(exc):
                self.store_health.failed(describe(exc))
            raise mapped from None

    async def cpu(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run CPU work (JSON parsing, answer building) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._cpu_threads, functools.partial(fn, *args, **kwargs))

    async def check_token(self, match_id: str, seat: int, token: str) -> bool:
        if _text_problem(token) is not None:
            return False  # no seat's token: PERMISSION_DENIED, without asking the database
        return bool(await self.db(self.store.check_seat_token, match_id, seat, token))

    def close(self) -> None:
        self._db_thread.shutdown(wait=True)
        self._cpu_threads.shutdown(wait=True)

    # ---- games and matches ----

    @_rpc
    async def ListGames(self, request: pb.ListGamesRequest, context: Any) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(
            games=[
                pb.GameDescription(
                    name=g.name,
                    title=g.title,
                    variants=list(g.variants),
                    player_counts=list(g.player_counts),
                    action_description=g.action_description,
                    testing_only=g.testing_only,
                    default_search=g.default_search,
                    outcome=g.outcome,
                    hidden_information=g.hidden_information,
                    variant_player_counts=[
                        pb.VariantPlayers(variant=v, player_counts=list(counts))
                        for v, counts in g.variant_player_counts
                    ],
                    num_distinct_actions=game_bounds(g.name)[0],
                    max_game_length=game_bounds(g.name)[1],
                    learned_models=[
                        _learned_model(m, self.default_config) for m in shipped_models() if m.game == g.name
                    ],
                )
                for g in registered_games()
            ]
        )

    @_rpc
    async def CreateMatch(self, request: pb.CreateMatchRequest, context: Any) -> pb.CreateMatchResponse:
        required(request.game, "game")
        required(request.players, "players")
        specs = self._seat_specs(request)
        seed = request.seed if request.HasField("seed") else None
        peer = peer_host(context.peer() or "")
        self.create_limit.take(peer)
        owner = new_owner_token()
        created = await self.db(
            self.store.create,
            request.game,
            request.players,
            request.variant or None,
            seed,
            specs,
            peer,
            spectator_token=spectator_token_of(owner),
        )
        self.metrics.matches_created.labels(game=created.game).inc()
        self._count_active_matches()
        if any(created.ai):
            self.ai.poke(created.match_id)
        return pb.CreateMatchResponse(
            match_id=created.match_id,
            game=created.game,
            variant=created.variant,
            players=created.players,
            seat_tokens=[
                pb.SeatToken(seat=s, token=t, ai=ai)
                for s, (t, ai) in enumerate(zip(created.tokens, created.ai, strict=True))
            ],
            current_player=created.current_player,
            spectator_token=created.spectator_token,
            owner_token=owner,
        )

    def _seat_specs(self, request: pb.CreateMatchRequest) -> list[AiSpec | None]:
        """CreateMatchRequest.seats as AiSpec (None for a human seat), validated field by field."""
        specs: list[AiSpec | None] = []
        for i, seat in enumerate(request.seats):
            kind = seat.WhichOneof("kind")
            if kind is None:
                raise invalid(f"seats[{i}]", "give human or ai")
            if kind == "human":
                specs.append(None)
                continue
            ai, path = seat.ai, f"seats[{i}].ai"
            level = positions.level_name(ai.level, field=f"{path}.level")
            if ai.bot:
                config = positions.search_config(ai.bot, "", request.game, field=f"{path}.bot")
                self._check_seat_evaluation(request, config, f"{path}.bot")
            elif self.default_config:  # the seat plays the server's --config
                config = positions.search_config("", self.default_config, None, field=f"{path}.bot")
                self._check_seat_evaluation(request, config, f"{path}.bot")
            iterations, milliseconds = budget_fields(
                ai.budget if ai.HasField("budget") else None, f"{path}.budget"
            )
            turn_iterations, turn_milliseconds = budget_fields(
                ai.turn_budget if ai.HasField("turn_budget") else None, f"{path}.turn_budget"
            )
            seed = ai.seed if ai.HasField("seed") else None
            specs.append(
                AiSpec(
                    level,
                    ai.bot,
                    iterations,
                    milliseconds,
                    seed,
                    turn_iterations=turn_iterations,
                    turn_milliseconds=turn_milliseconds,
                )
            )
        return specs

    @staticmethod
    def _check_seat_evaluation(request: pb.CreateMatchRequest, config: Any, field: str) -> None:
        """An AI seat's learned evaluation needs a model for the match's game setting. Checked only once
        the game, variant and player count are ones the game has: a wrong one gets its own error later."""
        games = {g.name: g for g in registered_games()}
        info = games.get(request.game)
        if info is None:
            return
        variant = request.variant or info.default_variant
        if variant in info.variants and request.players in info.players_for(variant):
            positions.check_evaluation(config, request.game, variant, request.players, field=field)

    def _count_active_matches(self) -> None:
        self.metrics.matches_active.set(self.store.active_count())  # a counter: no query

    @_rpc
    async def GetObservation(
        self, request: pb.GetObservationRequest, context: Any
    ) -> pb.GetObservationResponse:
        view = await self.db(self.store.seat_view, request.match_id, request.seat)
        return pb.GetObservationResponse(
            match_id=view.match_id,
            seat=view.seat,
            observation_json=view.observation_json,
            rendered=view.rendered,
            legal_actions=[_action(a) for a in view.legal_actions],
            current_player=view.current_player,
            your_turn=view.current_player == view.seat,
            game_over=view.game_over,
            move_number=view.move_number,
            scores=list(view.scores),
            ranks=list(view.ranks),
            ai_seats=list(view.ai),
            status=view.status,
            svg=view.svg,
            seat_teams=list(view.seat_teams),
            resigned_seat=view.resigned_seat,
            score_breakdown=[_seat_score(entry) for entry in view.score_breakdown],
        )

    @_rpc
    async def ApplyAction(self, request: pb.ApplyActionRequest, context: Any) -> pb.ApplyActionResponse:
        kind = request.WhichOneof("action")
        if kind is None:
            raise invalid("action", "give action_id or action_json")
        applied = await self.db(
            self.store.apply,
            request.match_id,
            request.seat,
            action_id=request.action_id if kind == "action_id" else None,
            action_json=request.action_json if kind == "action_json" else None,
            expected_move_number=(
                request.expected_move_number if request.HasField("expected_move_number") else None
            ),
        )
        self._published_move(request.match_id, applied)
        return pb.ApplyActionResponse(
            applied=_action(applied.action),
            move_number=applied.move_number,
            current_player=applied.current_player,
            game_over=applied.game_over,
        )

    def _published_move(self, match_id: str, applied: Any) -> None:
        """After a move is committed: tell the watchers, count, and let AI seats play their turn."""
        events = [
            _Published(
                pb.MatchEvent(
                    kind=pb.MATCH_EVENT_MOVE,
                    move_number=applied.move_number,
                    seat=applied.seat,
                    action=_action_seen_by(applied.action, applied.seat, SPECTATOR),
                    by_ai=applied.by_ai,
                    current_player=applied.current_player,
                    status=applied.status,
                    resigned_seat=-1,
                ),
                applied.action,
            )
        ]
        if applied.game_over:
            end = _Published(
                pb.MatchEvent(
                    kind=pb.MATCH_EVENT_END,
                    move_number=applied.move_number,
                    current_player=-1,
                    status=applied.status,
                    scores=list(applied.scores),
                    ranks=list(applied.ranks),
                    resigned_seat=-1,
                )
            )
            events.append(end)
            self._count_active_matches()
        self.events.publish(match_id, *events)
        if not applied.game_over:
            self.ai.poke(match_id)

    def _stop_ai_search(self, match_id: str) -> None:
        """The match ended: stop its AI seat's search, if one runs (its move would be refused anyway)."""
        job = self._ai_jobs.get(match_id)
        if job is not None:
            job.stop(STOP_STOPPED)

    def _published_end(self, ended: Ended) -> None:
        self._count_active_matches()
        self.events.publish(ended.match_id, _Published(_end_event(ended)))

    # ---- AI seats ----

    async def _ai_turn(self, match_id: str) -> AiTurn | None:
        turn = await self.db(self.store.ai_turn, match_id)
        if turn is None:
            self.ai_clocks.forget(match_id)
        return turn  # type: ignore[no-any-return]

    def _ai_ended(self, match_id: str) -> None:
        self.ai_clocks.forget(match_id)

    async def _ai_play(self, turn: AiTurn) -> bool:
        """Search for an AI seat and apply its move. False: stop playing this match (a drain).

        A forced move (one legal action) is played at once. With a per-turn budget (service/_ai_clock.py)
        the seat's turn clock allots each decision its share; once a turn's budget and allowance are
        spent, the rest of the turn is played by the greedy bot."""
        from orrery.search import CancelToken, make_bot

        started = time.perf_counter()
        spec = turn.spec
        seed = (spec.seed + turn.move_number) % (1 << 63) if spec.seed is not None else secrets.randbits(63)
        legal = turn.observation.legal_actions()
        iterations = 0
        played = turn.observation.game
        turn_budget = seat_turn_budget(spec, turn.game, played.variant, played.num_players)
        clock = self.ai_clocks.clock(turn, turn_budget) if turn_budget is not None else None
        allotment = clock.allot(len(legal)) if clock is not None else None
        if len(legal) == 1:
            chosen = int(legal[0])
        elif allotment is not None and allotment.budget is None:  # the turn's budget is spent
            chosen = await self.cpu(make_bot("greedy").select_action, turn.observation, seed=seed)
        else:
            move_iterations, move_milliseconds = (
                capped(allotment.budget, spec)
                if allotment is not None and allotment.budget is not None
                else (spec.iterations, spec.milliseconds)
            )
            arrival = time.time()
            grant = grant_budget(
                iterations=move_iterations,
                milliseconds=move_milliseconds,
                level=spec.level,
                max_budget_ms=self.max_budget_ms,
                default_budget_ms=self.default_budget_ms,
                arrival=arrival,
                call_time_remaining=None,
                game=turn.game,
                variant=played.variant,
                players=played.num_players,
            )
            game = turn.observation.game
            config = positions.search_config(
                spec.bot,
                self.default_config,
                turn.game,
                level=spec.level,
                setting=(game.variant, game.num_players),
            )
            match_id = turn.match_id
            tree = self.ai_clocks.tree(match_id, config) if clock is not None else None
            taken = None if tree is None else functools.partial(self.ai_clocks.searching, match_id, tree)
            job = SearchJob(
                observation=turn.observation,
                config=config,
                grant=grant,
                seed=seed,
                arrival=arrival,
                call_deadline=None,
                cancel=CancelToken(),
                peer=f"ai@{turn.creator}",
                tree=tree,
                on_tree_taken=taken,
            )
            self._ai_jobs[match_id] = job
            renewal = asyncio.get_running_loop().create_task(self._keep_claim(turn, job))
            try:
                result = await self.scheduler.run(job)
            finally:
                renewal.cancel()
                self._ai_jobs.pop(match_id, None)
                if tree is not None:  # kept for the turn's next decision, within the server's bound
                    self.ai_clocks.searched(match_id)
            if job.stop_reason is not None:  # drained, abandoned, or the claim was lost: leave the move
                return False
            self.metrics.count_ai_decision(
                keeps_trees=job.tree is not None, carried_visits=job.carried_visits
            )
            iterations = result.iterations
            chosen = choose_within_turn(result, grant.tolerance, seed, clock)  # the tolerance covers the turn
        applied = await self.db(
            self.store.apply,
            turn.match_id,
            turn.seat,
            action_id=int(chosen),
            expected_move_number=turn.move_number,
            by_ai=True,
        )
        if clock is not None:  # the decision's whole time: a millisecond turn budget covers the overhead too
            clock.charge(iterations=iterations, elapsed_s=time.perf_counter() - started)
        self.ai_clocks.moved(
            turn.match_id,
            seat=turn.seat,
            move_number=applied.move_number,
            seat_to_move=applied.current_player,
            game_over=applied.game_over,
            action=int(chosen),
        )
        self._published_move(turn.match_id, applied)
        return True

    async def _keep_claim(self, turn: AiTurn, job: SearchJob) -> None:
        """Renew this replica's claim on the AI turn every third of its lease while its search waits in
        the queue or runs, so no other replica searches the same turn while this one lives. A claim
        found lost (it lapsed during a database outage and another replica took it) stops the search."""
        lease_s = getattr(self.store, "claim_s", None)
        if lease_s is None or not self.store.shared:
            return
        while True:
            await asyncio.sleep(lease_s / 3.0)
            try:
                kept = await self.db(self.store.renew_ai_claim, turn.match_id, turn.move_number)
            except ServiceError:
                continue  # the database is away: try again; the claim lapses only after a whole lease
            if not kept:
                log.info(
                    "AI claim on %s move %d taken over; stopping its search", turn.match_id, turn.move_number
                )
                job.stop(STOP_STOPPED)
                return

    def resume_ai_matches(self, match_ids: list[str]) -> None:
        for match_id in match_ids:
            self.ai.poke(match_id)

    # ---- changes made by other replicas (a shared store) ----

    def relay_change(self, match_id: str | None, move_number: int) -> None:
        """On the event loop: another replica changed a match (move_number -1: it ended; match_id None:
        changes may have been missed). Watchers of it here get the stored events; they skip repeats."""
        targets = self.events.watched_matches() if match_id is None else [match_id]
        for target in targets:
            if not self.events.is_watched(target):
                continue
            after = 0 if match_id is None else (move_number - 1 if move_number > 0 else _AFTER_ALL)
            task = asyncio.get_running_loop().create_task(self._relay(target, after))
            task.add_done_callback(_consume_exception)

    async def _relay(self, match_id: str, after: int) -> None:
        for wait_s in RELAY_RETRY_S:  # the notification can come back before the store answers again
            try:
                history = await self.db(self.store.history, match_id, after)
            except ServiceError as exc:
                if exc.code != grpc.StatusCode.UNAVAILABLE:
                    raise
                await asyncio.sleep(wait_s)
                continue
            self.events.publish(match_id, *_history_events(history))
            return

    # ---- lifecycle ----

    @_rpc
    async def ListMatches(self, request: pb.ListMatchesRequest, context: Any) -> pb.ListMatchesResponse:
        tokens = tokens_from_metadata(context.invocation_metadata())
        if not tokens:
            raise unauthenticated(f"metadata {TOKEN_KEY}", "give one entry per seat token to list its match")
        if len(tokens) > MAX_LIST_TOKENS:
            raise invalid(
                f"metadata {TOKEN_KEY}", f"{len(tokens)} tokens, at most {MAX_LIST_TOKENS} per call"
            )
        host = peer_host(context.peer() or "")
        self.token_failures.check(host)
        found = await self.db(self.store.list_by_tokens, tokens)
        self.token_failures.failed(host, max(0, len(set(tokens)) - len(found)))  # one row per right token
        return pb.ListMatchesResponse(
            matches=[
                pb.MatchSummary(
                    match_id=m.match_id,
                    game=m.game,
                    variant=m.variant,
                    players=m.players,
                    seat=m.seat,
                    status=m.status,
                    move_number=m.move_number,
                    current_player=m.current_player,
                    ai_seats=list(m.ai),
                    created_at=m.created_at,
                    updated_at=m.updated_at,
                )
                for m in found
            ]
        )

    @_rpc
    async def ResignMatch(self, request: pb.ResignMatchRequest, context: Any) -> pb.ResignMatchResponse:
        ended = await self.db(self.store.resign, request.match_id, request.seat)
        self._stop_ai_search(request.match_id)
        self._published_end(ended)
        return pb.ResignMatchResponse(
            move_number=ended.move_number, scores=list(ended.scores), ranks=list(ended.ranks)
        )

    @_rpc
    async def AbandonMatch(self, request: pb.AbandonMatchRequest, context: Any) -> pb.AbandonMatchResponse:
        ended = await self.db(self.store.abandon, request.match_id, request.seat)
        self._stop_ai_search(request.match_id)
        self._published_end(ended)
        return pb.AbandonMatchResponse(move_number=ended.move_number)

    async def expire_matches(self, ttl_s: float) -> int:
        """One sweep of --match-ttl: end idle matches, delete long-ended ones. Returns those deleted."""
        expired, deleted = await self.db(self.store.expire, ttl_s)
        for ended in expired:
            self._published_end(ended)
        if expired or deleted:
            log.info("match expiry: %d ended idle, %d deleted", len(expired), deleted)
        return int(deleted)

    @_rpc_stream
    async def WatchMatch(self, request: pb.WatchMatchRequest, context: Any) -> AsyncIterator[pb.MatchEvent]:
        """The match's events after request.after_move, then live ones until it ends (token checked by
        the auth interceptor: the seat's, or the spectator token when no seat is given)."""
        match_id = request.match_id
        watcher = request.seat if request.HasField("seat") else SPECTATOR
        queue = self.events.watch(match_id)
        try:
            required(match_id, "match_id")
            history = await self.db(self.store.history, match_id, request.after_move)
            yield pb.MatchEvent(
                kind=pb.MATCH_EVENT_SYNC,
                move_number=history.move_number,
                current_player=history.current_player,
                status=history.status,
                resigned_seat=-1,
            )
            sent = request.after_move
            for event in _history_events(history):
                yield _as_seen_by(event, watcher)
                sent = max(sent, event.message.move_number)
            if history.status != ACTIVE:
                return
            while True:
                event = await queue.get()
                if event is CLOSED:
                    await context.abort(
                        grpc.StatusCode.UNAVAILABLE,
                        f"the server is shutting down; watch again with after_move={sent}",
                    )
                kind, number = event.message.kind, event.message.move_number
                if kind == pb.MATCH_EVENT_MOVE and number <= sent:
                    continue
                # A gap: moves made on another replica arrived after a later one (or were missed):
                # the store has them all, since the later event was committed after them.
                gap = number - (1 if kind == pb.MATCH_EVENT_MOVE else 0)
                if gap > sent:
                    filled = await self.db(self.store.history, match_id, sent)
                    for missed in _history_events(filled, moves_only=True):
                        if missed.message.move_number <= gap:
                            yield _as_seen_by(missed, watcher)
                            sent = missed.message.move_number
                if kind == pb.MATCH_EVENT_MOVE:
                    sent = number
                yield _as_seen_by(event, watcher)
                if kind == pb.MATCH_EVENT_END:
                    return
        finally:
            self.events.unwatch(match_id, queue)

    @_rpc
    async def GetReplay(self, request: pb.GetReplayRequest, context: Any) -> pb.GetReplayResponse:
        """Every move as its viewer saw it. Once the match has ended anyone who knows its id may ask (the
        seed and the final state are public then); while it is played only a seat (its own view) or the
        spectator (the public view), by token, and without the seed, the state or a result. The token is
        checked here, not by the auth interceptor, because whether one is needed depends on the match."""
        required(request.match_id, "match_id")
        replay = await self.db(self.store.replay, request.match_id)
        viewer = _replay_viewer(replay, request)
        if replay.status == ACTIVE:
            await self._check_replay_token(request.match_id, viewer, context)
        pictures: dict[int, str] = {}  # position (0 = before move 1, n = after move n) -> SVG
        if request.HasField("svg_seat") or request.svg_public:
            window = _replay_window(replay, request)
            drawn_for = SPECTATOR if request.svg_public else request.svg_seat
            pictures = await self.cpu(_window_pictures, replay, drawn_for, window)
        elif request.svg_from or request.svg_count:
            raise invalid("svg_from" if request.svg_from else "svg_count", "needs svg_seat or svg_public")
        moves = [
            pb.ReplayMove(
                move_number=n, seat=s, action=_action_seen_by(a, s, viewer), svg=pictures.get(n, "")
            )
            for n, s, a in replay.moves
        ]
        answer = pb.GetReplayResponse(
            match_id=replay.match_id,
            game=replay.game,
            variant=replay.variant,
            players=replay.players,
            moves=moves,
            initial_svg=pictures.get(0, ""),
            status=cast("pb.MatchStatus", replay.status),
        )
        if replay.status != ACTIVE:  # the deal and every hand are public once the match has ended
            answer.seed = replay.seed
            answer.final_state_json = replay.final_state_json
            answer.scores.extend(replay.scores)
            answer.ranks.extend(replay.ranks)
        return answer

    async def _check_replay_token(self, match_id: str, viewer: int, context: Any) -> None:
        """While a match is played GetReplay needs the token of its viewer (a seat, or the spectator)."""
        token = token_from_metadata(context.invocation_metadata())
        whose = "the spectator token" if viewer == SPECTATOR else f"the token of seat {viewer}"
        if token is None:
            raise unauthenticated(f"metadata {TOKEN_KEY}", f"the match is being played: give {whose}")
        if not await self.check_token(match_id, viewer, token):
            raise ServiceError(grpc.StatusCode.PERMISSION_DENIED, f"metadata {TOKEN_KEY}", f"not {whose}")

    @_rpc
    async def GetVersion(self, request: pb.GetVersionRequest, context: Any) -> pb.GetVersionResponse:
        from orrery.search import list_configs

        return pb.GetVersionResponse(
            server_version=server_version(),
            api_version=API_VERSION,
            default_config=positions.search_config("", self.default_config, None).label
            if self.default_config
            else "",
            configs=[c.label for c in list_configs()],
            backend=self.backend_name,
            live_workers=self.scheduler.live_workers() if self.scheduler.ready else 0,
            max_budget_ms=int(self.max_budget_ms),
        )

    # ---- search ----

    async def _job(self, query: pb.SuggestMoveRequest, context: Any, progress_interval_s: float) -> SearchJob:
        """Validate a query into an admitted-to-be SearchJob (nothing runs yet)."""
        from orrery.search import CancelToken

        arrival = time.time()
        peer = peer_host(context.peer() or "")  # fair shares are per client host, across connections
        self.scheduler.admit_check(peer)
        params = query.params
        level = positions.level_name(params.level)
        positions.top_k(params.top_k)
        # range errors before the position is read
        iterations, milliseconds = budget_fields(
            params.budget if params.HasField("budget") else None, "params.budget"
        )
        remaining = context.time_remaining()
        observation, move_number = await self._position(query)
        grant = grant_budget(
            iterations=iterations,
            milliseconds=milliseconds,
            level=level,
            max_budget_ms=self.max_budget_ms,
            default_budget_ms=self.default_budget_ms,
            arrival=arrival,
            call_time_remaining=remaining,
            margin_s=self.scheduler.margin.for_call(remaining) if remaining is not None else None,
            expected_decisions=expected_decisions(observation.game.name, observation.game.variant),
            game=observation.game.name,
            variant=observation.game.variant,
            players=observation.game.num_players,
        )
        game = observation.game
        config = positions.search_config(
            params.config,
            self.default_config,
            game.name,
            level=level,
            setting=(game.variant, game.num_players),
        )
        positions.check_evaluation(config, game.name, game.variant, game.num_players, field="params.config")
        job = SearchJob(
            observation=observation,
            config=config,
            grant=grant,
            seed=positions.seed(params),
            arrival=arrival,
            call_deadline=arrival + remaining if remaining is not None else None,
            cancel=CancelToken(),
            progress_interval_s=progress_interval_s,
            peer=peer,
            move_number=move_number,
            waits_bounded=True,
            hints=not params.skip_hints,
        )
        self.scheduler.precheck(job)  # a full queue refuses before an Analyze stream's first message
        return job

    async def _position(self, query: pb.SuggestMoveRequest) -> tuple[Any, int | None]:
        """(the Observation to search, the hosted match's move number or None)."""
        kind = query.WhichOneof("position")
        if kind == "match":  # the seat's token was checked by the auth interceptor
            return await self.db(self.store.observation_at, query.match.match_id, query.match.seat)  # type: ignore[no-any-return]
        if kind == "observation":
            given = query.observation
            if len(given.observation_json) <= INLINE_JSON_CHARS:
                return positions.observation_from_input(given.game, given.observation_json), None
            return await self.cpu(positions.observation_from_input, given.game, given.observation_json), None
        raise invalid("position", "give match (a hosted seat) or observation (game and observation JSON)")

    def _response(self, job: SearchJob, result: Any, *, top_k: int, final: bool) -> pb.SuggestMoveResponse:
        observation = job.observation
        visits = [a.visits for a in result.actions]
        chosen = choose_from_result(result, job.grant.tolerance, job.seed) if final else result.best_action
        total = sum(visits) or 1
        sample_seed = random.Random(job.seed).getrandbits(63)
        candidates = [
            pb.Candidate(
                action=self._root_action(observation, a.action),
                visits=a.visits,
                value=a.mean_reward,
                availability=a.availability,
                visit_share=a.visits / total,
                principal_variation=_line(observation, a.principal_variation, sample_seed),
            )
            for a in result.actions[:top_k]
        ]
        grant = job.grant
        budget = (
            pb.Budget(iterations=grant.iterations)
            if grant.iterations is not None
            else pb.Budget(milliseconds=int(grant.milliseconds))
        )
        if grant.iterations is not None:
            share = result.iterations / grant.iterations
        else:
            share = result.elapsed_s * 1000.0 / grant.milliseconds
        ends = job.end if job.started is not None else grant.deadline
        answer = pb.SuggestMoveResponse(
            action=self._root_action(observation, chosen),
            candidates=candidates,
            principal_variation=_line(observation, result.principal_variation, sample_seed),
            stats=pb.SearchStats(
                iterations=result.iterations,
                tree_size=result.tree_size,
                max_depth=result.max_depth,
                workers=result.workers - result.workers_lost,
                workers_lost=result.workers_lost,
                elapsed_ms=result.elapsed_s * 1000.0,
                queue_ms=job.queue_s * 1000.0,
                cut_short=bool(result.cut_short or job.stop_reason is not None or job.late),
                seed=job.seed,
                config=job.config.label,
                budget=budget,
                budget_clamped=grant.clamped,
                deadline_ms=(ends - job.arrival) * 1000.0,
                tolerance=grant.tolerance,
                budget_share=min(1.0, share),
            ),
        )
        if job.move_number is not None:
            answer.move_number = job.move_number
        return answer

    @staticmethod
    def _root_action(observation: Any, action: int) -> pb.Action:
        struct = observation.action_to_struct(action)
        return pb.Action(
            id=action, label=str(struct["label"]), struct_json=json.dumps(struct, sort_keys=True)
        )

    @_rpc
    async def SuggestMove(self, request: pb.SuggestMoveRequest, context: Any) -> pb.SuggestMoveResponse:
        job = await self._job(request, context, progress_interval_s=3600.0)
        try:
            result = await self._search(job)
        except asyncio.CancelledError:
            self.scheduler.note_missed(job, time.time())
            raise
        top_k = positions.top_k(request.params.top_k)
        answer = self._response(job, result, top_k=top_k, final=True)
        await self._add_hints(job, result, answer)
        if job.started is not None:  # a forced answer searched nothing: no reserve to learn
            self.scheduler.note_answer(job, time.time())
        return answer

    async def _search(self, job: SearchJob) -> Any:
        """The job's search, or at once the forced answer when the position has one legal action."""
        if len(job.observation.legal_actions()) == 1:
            return forced_result(job.observation, seed=job.seed)
        return await self.scheduler.run(job)

    async def _add_hints(self, job: SearchJob, result: Any, answer: pb.SuggestMoveResponse) -> None:
        """Fill the final answer's hints (off the event loop: the rollout pass is CPU work)."""
        if not job.hints:
            return
        actions = [c.action.id for c in answer.candidates] + [answer.action.id]
        limit = None if job.grant.iterations is not None else HINT_TIME_SHARE * job.grant.milliseconds / 1e3
        if job.stop_reason is not None:  # stopped (StopAnalysis, drain): only the minimum rollouts
            limit = 0.0
        if job.call_deadline is not None:  # half the call's time left, so the answer still arrives
            left = max(0.0, (job.call_deadline - time.time()) / 2)
            limit = left if limit is None else min(limit, left)
        hints = await self.cpu(
            build_hints, job.observation, result, actions, seed=job.seed, time_limit_s=limit
        )
        fill_hints(answer, hints, job.observation)

    @_rpc_stream
    async def Analyze(self, request: pb.AnalyzeRequest, context: Any) -> AsyncIterator[pb.AnalyzeUpdate]:
        interval_ms = request.progress_interval_ms or DEFAULT_PROGRESS_MS
        if interval_ms < MIN_PROGRESS_MS:
            raise invalid("progress_interval_ms", f"{interval_ms} is below the minimum {MIN_PROGRESS_MS}")
        job = await self._job(request.query, context, progress_interval_s=interval_ms / 1000.0)
        top_k = positions.top_k(request.query.params.top_k)
        query_id = secrets.token_hex(12)
        loop = asyncio.get_running_loop()
        updates: asyncio.Queue[Any] = asyncio.Queue()

        def on_progress(partial: Any) -> None:  # in the search thread: build the message there too
            message = self._response(job, partial, top_k=top_k, final=False)
            loop.call_soon_threadsafe(updates.put_nowait, message)

        job.progress = on_progress
        self._queries[query_id] = job
        search = asyncio.ensure_future(self._search(job))
        search.add_done_callback(_consume_exception)
        sequence = 0
        try:
            yield pb.AnalyzeUpdate(query_id=query_id, sequence=sequence)
            while True:
                next_update = asyncio.ensure_future(updates.get())
                done, _ = await asyncio.wait({search, next_update}, return_when=asyncio.FIRST_COMPLETED)
                if next_update not in done:
                    next_update.cancel()
                    break
                sequence += 1
                yield pb.AnalyzeUpdate(query_id=query_id, sequence=sequence, result=next_update.result())
            result = search.result()
            sequence += 1
            answer = self._response(job, result, top_k=top_k, final=True)
            await self._add_hints(job, result, answer)
            if job.started is not None:  # a forced answer searched nothing: no reserve to learn
                self.scheduler.note_answer(job, time.time())
            yield pb.AnalyzeUpdate(
                query_id=query_id,
                sequence=sequence,
                final=True,
                stop_reason=STOP_REASONS[job.final_stop_reason(result)],
                result=answer,
            )
        finally:
            if not search.done():  # the client went away: stop the search, free its workers
                job.stop(STOP_STOPPED)
            self._queries.pop(query_id, None)

    @_rpc
    async def StopAnalysis(self, request: pb.StopAnalysisRequest, context: Any) -> pb.StopAnalysisResponse:
        required(request.query_id, "query_id")
        job = self._queries.get(request.query_id)
        if job is None:
            return pb.StopAnalysisResponse(stopped=False)
        job.stop(STOP_STOPPED)
        return pb.StopAnalysisResponse(stopped=True)

    def stop_all(self) -> None:
        for job in list(self._queries.values()):
            job.stop(STOP_SHUTDOWN)
        self.events.close()


def _text_problem(value: str) -> str | None:
    """Why a string cannot go to a database driver (PostgreSQL text refuses NUL; neither driver encodes a
    lone surrogate), or None."""
    if "\x00" in value:
        return "contains a NUL byte"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid UTF-8"
    return None


def _check_store_text(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """INVALID_ARGUMENT for a store call's text argument (or list of them) that no driver can take. The
    limits interceptor already names the request field; this catches metadata and anything else."""
    for value in (*args, *kwargs.values()):
        texts = value if isinstance(value, (list, tuple)) else (value,)
        for text in texts:
            if isinstance(text, str) and (problem := _text_problem(text)) is not None:
                raise invalid("request", f"a text value {problem}")


def required(value: Any, field: str) -> None:
    """Every RPC reports a missing required field the same way: INVALID_ARGUMENT "FIELD: required"."""
    if not value:
        raise invalid(field, "required")


def _end_event(ended: Ended) -> pb.MatchEvent:
    return pb.MatchEvent(
        kind=pb.MATCH_EVENT_END,
        move_number=ended.move_number,
        current_player=-1,
        status=cast("pb.MatchStatus", ended.status),  # the store keeps the enum's int value
        scores=list(ended.scores),
        ranks=list(ended.ranks),
        resigned_seat=ended.resigned_seat,
    )


def _history_events(history: History, *, moves_only: bool = False) -> list[_Published]:
    """Stored moves as MOVE events (each with every viewer's label and the mover's structured action),
    then END if the match is over."""
    events = []
    for i, move in enumerate(history.moves):
        last = i == len(history.moves) - 1
        message = pb.MatchEvent(
            kind=pb.MATCH_EVENT_MOVE,
            move_number=move.move_number,
            seat=move.seat,
            action=_action_seen_by(move.action, move.seat, SPECTATOR),
            by_ai=move.by_ai,
            current_player=history.current_player if last else history.moves[i + 1].seat,
            status=cast("pb.MatchStatus", history.status if last else ACTIVE),
            resigned_seat=-1,
        )
        events.append(_Published(message, move.action))
    if history.status != ACTIVE and not moves_only:
        h = history
        ended = Ended("", h.move_number, h.status, h.scores, h.ranks, h.resigned_seat)
        events.append(_Published(_end_event(ended)))
    return events


def _as_seen_by(event: _Published, watcher: int) -> pb.MatchEvent:
    """An event as a watcher (a seat, or SPECTATOR) sees it. A move: the seat that moved gets its full
    label and structured form; every other seat and the spectator the id and the label built from its
    own view of the position before the move (a stored move from before per-viewer labels: the kind of
    action from its id alone)."""
    message = event.message
    if message.kind != pb.MATCH_EVENT_MOVE or event.action is None:
        return message
    copy = pb.MatchEvent()
    copy.CopyFrom(message)
    copy.action.CopyFrom(_action_seen_by(event.action, message.seat, watcher))
    if event.action.events:  # a move stored before schema 6 has none
        seen = event.action.events_for(watcher)
        copy.events.extend(seen.events)
        copy.changes_json = json.dumps(seen.changes, sort_keys=True)
    return copy


def _consume_exception(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _line(observation: Any, line: Any, seed: int) -> list[pb.Action]:
    """A line of play as Actions. The first is the observer's own (exact label and structure); later
    ones are labelled from a determinization, so their hidden details are a sample, not the truth; a
    step no sampled determinization could play carries its id only."""
    if not line:
        return []
    labels = sampled_line_labels(observation, line, seed)
    out = [OrreryServicer._root_action(observation, line[0])]
    out.extend(pb.Action(id=a, label=label) for a, label in zip(line[1:], labels[1:], strict=False))
    out.extend(pb.Action(id=a) for a in line[len(out) :])
    return out


def _turns(groups: Any) -> list[pb.TurnGroup]:
    return [pb.TurnGroup(seat=g.seat, seat_name=g.seat_name, labels=list(g.labels)) for g in groups]


def _move_hint(hint: Any) -> pb.MoveHint:
    message = pb.MoveHint(
        expected_score=hint.expected_score,
        score_behind=hint.score_behind,
        score_behind_error=hint.score_behind_error,
        value_behind=hint.value_behind,
        this_move=[pb.Tally(name=t.name, change=t.change) for t in hint.this_move],
        this_turn=[pb.Tally(name=t.name, change=t.change) for t in hint.this_turn],
        turns=_turns(hint.turns),
        rollouts=hint.rollouts,
    )
    if hint.win_chance is not None:
        message.win_chance = hint.win_chance
    if hint.expected_place is not None:
        message.expected_place = hint.expected_place
    return message


def fill_hints(answer: pb.SuggestMoveResponse, hints: Any, observation: Any) -> None:
    """Copy search._hints.Hints into a final answer: each candidate's hint and the summary."""
    for candidate in answer.candidates:
        hint = hints.for_action(candidate.action.id)
        if hint is not None:
            candidate.hint.CopyFrom(_move_hint(hint))
    chosen = hints.for_action(answer.action.id)
    answer.hints.CopyFrom(
        pb.HintSummary(
            seat=hints.seat,
            players=hints.players,
            sides=hints.sides,
            score_unit=hints.score_unit,
            best=OrreryServicer._root_action(observation, hints.best_action),
            chosen=_move_hint(chosen) if chosen is not None else None,
            principal_variation=_turns(hints.principal_variation),
            rollouts_per_move=hints.rollouts_per_move,
            elapsed_ms=hints.elapsed_s * 1000.0,
        )
    )
