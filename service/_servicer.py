"""The orrery.v1.Orrery servicer: request validation, conversion to and from the wire types.

Every handler raises ServiceError (or a game-layer input error) for bad requests; `_rpc` turns those
into a status with the field named. Blocking work goes to threads: the match store to its own (one for
SQLite), searches to the scheduler's request threads, so the event loop only moves messages.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import dataclasses
import functools
import json
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, cast

import grpc

from orrery.core_ext import GameInputError, game_bounds, registered_games
from orrery.search import build_hints, choose_from_result, sampled_line_labels
from orrery.service import _positions as positions
from orrery.service._ai import AiPlayers
from orrery.service._auth_interceptor import TOKEN_KEY, tokens_from_metadata
from orrery.service._errors import ServiceError, invalid, unauthenticated
from orrery.service._events import CLOSED, MatchEvents
from orrery.service._levels import MAX_ITERATIONS, MAX_MILLISECONDS, grant_budget
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
from orrery.service._quota import RateLimit, peer_host
from orrery.service._search import (
    STOP_BUDGET,
    STOP_DEADLINE,
    STOP_SHUTDOWN,
    STOP_STOPPED,
    SearchJob,
    SearchScheduler,
)
from orrery.service._store import MatchStoreBackend
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
    """Map ServiceError / game input errors to status codes; log anything unexpected as INTERNAL."""

    @functools.wraps(method)
    async def wrapper(self: OrreryServicer, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except ServiceError as exc:
            await context.abort(exc.code, exc.details)
        except GameInputError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception:
            log.exception("internal error in %s", method.__name__)
            await context.abort(grpc.StatusCode.INTERNAL, "internal error (logged on the server)")

    return wrapper


def _replay_window(replay: Replay, request: pb.GetReplayRequest) -> range:
    """The positions whose pictures GetReplay asks for (0 = before move 1, n = after move n): svg_from ..
    svg_from + svg_count - 1, or to the end when svg_count is 0. A window keeps a long match's answer
    under the message limit (a 1,431-move Tiny Epic Galaxies game is 46.6 MB of pictures)."""
    if request.svg_seat >= replay.players:
        raise invalid("svg_seat", f"must be below players ({replay.players})")
    total = len(replay.moves) + 1
    if request.svg_from >= total:
        raise invalid("svg_from", f"must be below {total} (this match's positions: its moves + 1)")
    end = total if request.svg_count == 0 else min(total, request.svg_from + request.svg_count)
    return range(request.svg_from, end)


def _window_pictures(replay: Replay, seat: int, window: range) -> dict[int, str]:
    """The pictures of the positions in `window`, as `seat` saw them (the moves before it are replayed,
    not drawn)."""
    return replay_pictures(
        dataclasses.replace(replay, moves=replay.moves[: window.stop - 1]),
        seat,
        first=window.start,
        last=len(replay.moves),
    )


def _action(view: ActionView) -> pb.Action:
    return pb.Action(id=view.id, label=view.label, struct_json=view.struct_json)


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
        self.ai = AiPlayers(turn=self._ai_turn, play=self._ai_play)
        self.create_limit = RateLimit(creates_per_minute, "new matches", "--max-matches-per-minute")

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a MatchStore call on the store's own thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_thread, functools.partial(fn, *args, **kwargs))

    async def cpu(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run CPU work (JSON parsing, answer building) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._cpu_threads, functools.partial(fn, *args, **kwargs))

    async def check_token(self, match_id: str, seat: int, token: str) -> bool:
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
        created = await self.db(
            self.store.create, request.game, request.players, request.variant or None, seed, specs, peer
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
                positions.search_config(ai.bot, "", request.game, field=f"{path}.bot")
            which = ai.budget.WhichOneof("limit") if ai.HasField("budget") else None
            iterations = ai.budget.iterations if which == "iterations" else None
            milliseconds = ai.budget.milliseconds if which == "milliseconds" else None
            if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
                raise invalid(
                    f"{path}.budget.iterations", f"{iterations} is out of range [1, {MAX_ITERATIONS}]"
                )
            if milliseconds is not None and not 1 <= milliseconds <= MAX_MILLISECONDS:
                raise invalid(
                    f"{path}.budget.milliseconds", f"{milliseconds} is out of range [1, {MAX_MILLISECONDS}]"
                )
            seed = ai.seed if ai.HasField("seed") else None
            specs.append(AiSpec(level, ai.bot, iterations, milliseconds, seed))
        return specs

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

    def _published_end(self, ended: Ended) -> None:
        self._count_active_matches()
        self.events.publish(ended.match_id, _Published(_end_event(ended)))

    # ---- AI seats ----

    async def _ai_turn(self, match_id: str) -> AiTurn | None:
        return await self.db(self.store.ai_turn, match_id)  # type: ignore[no-any-return]

    async def _ai_play(self, turn: AiTurn) -> bool:
        """Search for an AI seat and apply its move. False: stop playing this match (a drain)."""
        from orrery.search import CancelToken

        spec = turn.spec
        arrival = time.time()
        grant = grant_budget(
            iterations=spec.iterations,
            milliseconds=spec.milliseconds,
            level=spec.level,
            max_budget_ms=self.max_budget_ms,
            default_budget_ms=self.default_budget_ms,
            arrival=arrival,
            call_time_remaining=None,
        )
        seed = (spec.seed + turn.move_number) % (1 << 63) if spec.seed is not None else secrets.randbits(63)
        job = SearchJob(
            observation=turn.observation,
            config=positions.search_config(spec.bot, self.default_config, turn.game),
            grant=grant,
            seed=seed,
            arrival=arrival,
            call_deadline=None,
            cancel=CancelToken(),
            peer=f"ai@{turn.creator}",
        )
        result = await self.scheduler.run(job)
        if job.stop_reason is not None:  # drained: leave the move to the next start
            return False
        chosen = choose_from_result(result, grant.tolerance, seed)
        applied = await self.db(
            self.store.apply,
            turn.match_id,
            turn.seat,
            action_id=int(chosen),
            expected_move_number=turn.move_number,
            by_ai=True,
        )
        self._published_move(turn.match_id, applied)
        return True

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
        history = await self.db(self.store.history, match_id, after)
        self.events.publish(match_id, *_history_events(history))

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
        found = await self.db(self.store.list_by_tokens, tokens)
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
        self._published_end(ended)
        return pb.ResignMatchResponse(
            move_number=ended.move_number, scores=list(ended.scores), ranks=list(ended.ranks)
        )

    @_rpc
    async def AbandonMatch(self, request: pb.AbandonMatchRequest, context: Any) -> pb.AbandonMatchResponse:
        ended = await self.db(self.store.abandon, request.match_id, request.seat)
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

    async def WatchMatch(self, request: pb.WatchMatchRequest, context: Any) -> AsyncIterator[pb.MatchEvent]:
        """The match's events after request.after_move, then live ones until it ends (token checked by
        the auth interceptor: the seat's, or the spectator token when no seat is given)."""
        match_id = request.match_id
        watcher = request.seat if request.HasField("seat") else SPECTATOR
        queue = self.events.watch(match_id)
        try:
            try:
                required(match_id, "match_id")
                history = await self.db(self.store.history, match_id, request.after_move)
            except ServiceError as exc:
                await context.abort(exc.code, exc.details)
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
        required(request.match_id, "match_id")
        replay = await self.db(self.store.replay, request.match_id)
        pictures: dict[int, str] = {}  # position (0 = before move 1, n = after move n) -> SVG
        if request.HasField("svg_seat"):
            window = _replay_window(replay, request)
            pictures = await self.cpu(_window_pictures, replay, request.svg_seat, window)
        elif request.svg_from or request.svg_count:
            raise invalid("svg_from" if request.svg_from else "svg_count", "needs svg_seat")
        # Labels as the viewer of the pictures saw them (svg_seat; else the spectator): a seat's own moves
        # with their full label and structure, the others' as that viewer saw them (docs/api.md).
        viewer = request.svg_seat if request.HasField("svg_seat") else SPECTATOR
        return pb.GetReplayResponse(
            match_id=replay.match_id,
            game=replay.game,
            variant=replay.variant,
            players=replay.players,
            seed=replay.seed,
            moves=[
                pb.ReplayMove(
                    move_number=n, seat=s, action=_action_seen_by(a, s, viewer), svg=pictures.get(n, "")
                )
                for n, s, a in replay.moves
            ],
            initial_svg=pictures.get(0, ""),
            final_state_json=replay.final_state_json,
            scores=list(replay.scores),
            ranks=list(replay.ranks),
        )

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
        peer = context.peer() or ""
        self.scheduler.admit_check(peer)
        params = query.params
        level = positions.level_name(params.level)
        positions.top_k(params.top_k)
        which = params.budget.WhichOneof("limit") if params.HasField("budget") else None
        remaining = context.time_remaining()
        grant = grant_budget(
            iterations=params.budget.iterations if which == "iterations" else None,
            milliseconds=params.budget.milliseconds if which == "milliseconds" else None,
            level=level,
            max_budget_ms=self.max_budget_ms,
            default_budget_ms=self.default_budget_ms,
            arrival=arrival,
            call_time_remaining=remaining,
        )
        observation, move_number = await self._position(query)
        config = positions.search_config(params.config, self.default_config, observation.game.name)
        return SearchJob(
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
        )

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
        result = await self.scheduler.run(job)
        top_k = positions.top_k(request.params.top_k)
        answer = self._response(job, result, top_k=top_k, final=True)
        await self._add_hints(job, result, answer)
        self.scheduler.note_answer(job, time.time())
        return answer

    async def _add_hints(self, job: SearchJob, result: Any, answer: pb.SuggestMoveResponse) -> None:
        """Fill the final answer's hints (off the event loop: the rollout pass is CPU work)."""
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

    async def Analyze(self, request: pb.AnalyzeRequest, context: Any) -> AsyncIterator[pb.AnalyzeUpdate]:
        interval_ms = request.progress_interval_ms or DEFAULT_PROGRESS_MS
        try:
            if interval_ms < MIN_PROGRESS_MS:
                raise invalid("progress_interval_ms", f"{interval_ms} is below the minimum {MIN_PROGRESS_MS}")
            job = await self._job(request.query, context, progress_interval_s=interval_ms / 1000.0)
        except ServiceError as exc:
            await context.abort(exc.code, exc.details)
        except GameInputError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        top_k = positions.top_k(request.query.params.top_k)
        query_id = secrets.token_hex(12)
        loop = asyncio.get_running_loop()
        updates: asyncio.Queue[Any] = asyncio.Queue()

        def on_progress(partial: Any) -> None:  # in the search thread: build the message there too
            message = self._response(job, partial, top_k=top_k, final=False)
            loop.call_soon_threadsafe(updates.put_nowait, message)

        job.progress = on_progress
        self._queries[query_id] = job
        search = asyncio.ensure_future(self.scheduler.run(job))
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
            try:
                result = search.result()
            except ServiceError as exc:
                await context.abort(exc.code, exc.details)
            sequence += 1
            answer = self._response(job, result, top_k=top_k, final=True)
            await self._add_hints(job, result, answer)
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
