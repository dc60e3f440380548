"""A small Python client for the Orrery service.

    with OrreryClient("localhost:50051") as client:
        match = client.create_match("kuhn", players=2, seed=7)
        view = client.observation(match, seat=0)
        client.apply(match, seat=0, action_id=view.legal_actions[0].id)
        hint = client.suggest(match=match, seat=1, milliseconds=200)

Seat tokens returned by create_match are remembered per (match, seat) and sent as call metadata
automatically; pass token= to override. Errors surface as grpc.RpcError (.code(), .details()).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc

from orrery.v1 import orrery_pb2 as pb
from orrery.v1 import orrery_pb2_grpc as pb_grpc

TOKEN_KEY = "x-orrery-seat-token"
LEVELS = {"easy": pb.LEVEL_EASY, "medium": pb.LEVEL_MEDIUM, "hard": pb.LEVEL_HARD, "expert": pb.LEVEL_EXPERT}


@dataclass(frozen=True)
class Match:
    match_id: str
    game: str
    variant: str
    players: int
    tokens: tuple[str, ...] = field(repr=False)  # one per seat ("" for an AI seat)
    ai: tuple[bool, ...] = ()  # per seat: played by the server
    spectator_token: str = field(default="", repr=False)
    current_player: int = 0
    owner_token: str = field(default="", repr=False)  # the creator's: abandon_as_owner


def ai_seat(
    level: str | None = None,
    *,
    bot: str = "",
    iterations: int | None = None,
    milliseconds: int | None = None,
    seed: int | None = None,
    turn_iterations: int | None = None,
    turn_milliseconds: int | None = None,
) -> pb.SeatSpec:
    """A SeatSpec for an AI seat (create_match(seats=[...])): iterations/milliseconds per move,
    turn_iterations/turn_milliseconds per whole turn (docs/api.md, AiSeat)."""
    ai = pb.AiSeat(bot=bot)
    if level is not None:
        ai.level = LEVELS[level]
    if iterations is not None:
        ai.budget.iterations = iterations
    elif milliseconds is not None:
        ai.budget.milliseconds = milliseconds
    if turn_iterations is not None:
        ai.turn_budget.iterations = turn_iterations
    elif turn_milliseconds is not None:
        ai.turn_budget.milliseconds = turn_milliseconds
    if seed is not None:
        ai.seed = seed
    return pb.SeatSpec(ai=ai)


HUMAN = pb.SeatSpec(human=pb.HumanSeat())


def search_params(
    *,
    iterations: int | None = None,
    milliseconds: int | None = None,
    level: str | None = None,
    top_k: int = 0,
    seed: int | None = None,
    config: str = "",
    skip_hints: bool = False,
) -> pb.SearchParams:
    params = pb.SearchParams(top_k=top_k, config=config, skip_hints=skip_hints)
    if iterations is not None:
        params.budget.iterations = iterations
    elif milliseconds is not None:
        params.budget.milliseconds = milliseconds
    if level is not None:
        params.level = LEVELS[level]
    if seed is not None:
        params.seed = seed
    return params


class OrreryClient:
    def __init__(
        self,
        target: str,
        *,
        root_certificates: bytes | None = None,
        tls: bool = False,
        timeout: float | None = 30.0,
        options: list[tuple[str, Any]] | None = None,
    ) -> None:
        """options: gRPC channel options (("grpc.use_local_subchannel_pool", 1) gives this client a
        connection of its own, where channels in one process otherwise share one)."""
        if tls or root_certificates is not None:
            credentials = grpc.ssl_channel_credentials(root_certificates=root_certificates)
            self.channel = grpc.secure_channel(target, credentials, options=options)
        else:
            self.channel = grpc.insecure_channel(target, options=options)
        self.stub = pb_grpc.OrreryStub(self.channel)
        self.timeout = timeout
        self._tokens: dict[tuple[str, int], str] = {}

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> OrreryClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_ready(self, timeout: float = 30.0) -> None:
        grpc.channel_ready_future(self.channel).result(timeout=timeout)

    def _metadata(self, match_id: str, seat: int, token: str | None) -> list[tuple[str, str]]:
        token = token if token is not None else self._tokens.get((match_id, seat))
        return [(TOKEN_KEY, token)] if token else []

    @staticmethod
    def _id(match: Match | str) -> str:
        return match.match_id if isinstance(match, Match) else match

    # ---- games and matches ----

    def games(self) -> list[pb.GameDescription]:
        return list(self.stub.ListGames(pb.ListGamesRequest(), timeout=self.timeout).games)

    def version(self) -> pb.GetVersionResponse:
        return self.stub.GetVersion(pb.GetVersionRequest(), timeout=self.timeout)

    def create_match(
        self,
        game: str,
        *,
        players: int,
        variant: str = "",
        seed: int | None = None,
        seats: list[pb.SeatSpec] | None = None,
    ) -> Match:
        """seats: one SeatSpec per seat (HUMAN or ai_seat(...)); None: every seat human."""
        request = pb.CreateMatchRequest(game=game, players=players, variant=variant, seats=seats or [])
        if seed is not None:
            request.seed = seed
        r = self.stub.CreateMatch(request, timeout=self.timeout)
        tokens = tuple(t.token for t in r.seat_tokens)
        for seat, token in enumerate(tokens):
            if token:
                self._tokens[(r.match_id, seat)] = token
        self._tokens[(r.match_id, -1)] = r.spectator_token
        ai = tuple(t.ai for t in r.seat_tokens)
        return Match(
            r.match_id,
            r.game,
            r.variant,
            r.players,
            tokens,
            ai,
            r.spectator_token,
            r.current_player,
            r.owner_token,
        )

    def observation(
        self, match: Match | str, seat: int, *, token: str | None = None
    ) -> pb.GetObservationResponse:
        mid = self._id(match)
        return self.stub.GetObservation(
            pb.GetObservationRequest(match_id=mid, seat=seat),
            metadata=self._metadata(mid, seat, token),
            timeout=self.timeout,
        )

    def apply(
        self,
        match: Match | str,
        seat: int,
        *,
        action_id: int | None = None,
        action_json: str | None = None,
        expected_move_number: int | None = None,
        token: str | None = None,
    ) -> pb.ApplyActionResponse:
        mid = self._id(match)
        request = pb.ApplyActionRequest(match_id=mid, seat=seat)
        if action_json is not None:
            request.action_json = action_json
        elif action_id is not None:
            request.action_id = action_id
        if expected_move_number is not None:
            request.expected_move_number = expected_move_number
        return self.stub.ApplyAction(request, metadata=self._metadata(mid, seat, token), timeout=self.timeout)

    def replay(
        self,
        match: Match | str,
        *,
        svg_seat: int | None = None,
        svg_from: int = 0,
        svg_count: int = 0,
        seat: int | None = None,
        token: str | None = None,
        svg_public: bool = False,
    ) -> pb.GetReplayResponse:
        """A match's moves as a viewer saw them: `seat`'s, else svg_seat's once ended, else the spectator's
        (while the match is played, with that viewer's token: the one given or the one this client holds).
        With svg_seat, pictures as that seat saw them (svg_public: the public view's): positions svg_from ..
        svg_from + svg_count - 1 (0 = before move 1; svg_count 0 = to the end)."""
        mid = self._id(match)
        request = pb.GetReplayRequest(
            match_id=mid, svg_from=svg_from, svg_count=svg_count, svg_public=svg_public
        )
        if svg_seat is not None:
            request.svg_seat = svg_seat
        if seat is not None:
            request.seat = seat
        viewer = seat if seat is not None else (svg_seat if svg_seat is not None else -1)
        metadata = self._metadata(mid, viewer, token)
        return self.stub.GetReplay(request, metadata=metadata, timeout=self.timeout)

    def watch(
        self,
        match: Match | str,
        seat: int | None = None,
        *,
        after_move: int = 0,
        token: str | None = None,
        timeout: float | None = None,
    ) -> Any:
        """The stream of MatchEvent messages (as `seat`, or as a spectator when seat is None); it ends
        after the END event. Call .cancel() on it to stop listening."""
        mid = self._id(match)
        request = pb.WatchMatchRequest(match_id=mid, after_move=after_move)
        if seat is not None:
            request.seat = seat
        metadata = self._metadata(mid, -1 if seat is None else seat, token)
        return self.stub.WatchMatch(request, metadata=metadata, timeout=timeout)

    def list_matches(self, tokens: list[str]) -> list[pb.MatchSummary]:
        metadata = [(TOKEN_KEY, t) for t in tokens]
        return list(
            self.stub.ListMatches(pb.ListMatchesRequest(), metadata=metadata, timeout=self.timeout).matches
        )

    def resign(self, match: Match | str, seat: int, *, token: str | None = None) -> pb.ResignMatchResponse:
        mid = self._id(match)
        request = pb.ResignMatchRequest(match_id=mid, seat=seat)
        return self.stub.ResignMatch(request, metadata=self._metadata(mid, seat, token), timeout=self.timeout)

    def abandon(self, match: Match | str, seat: int, *, token: str | None = None) -> pb.AbandonMatchResponse:
        mid = self._id(match)
        request = pb.AbandonMatchRequest(match_id=mid, seat=seat)
        return self.stub.AbandonMatch(
            request, metadata=self._metadata(mid, seat, token), timeout=self.timeout
        )

    def abandon_as_owner(self, match: Match, *, token: str | None = None) -> pb.AbandonMatchResponse:
        """End the match with its owner token (the creator's; AI-only matches too)."""
        request = pb.AbandonMatchRequest(match_id=match.match_id)
        metadata = [(TOKEN_KEY, token if token is not None else match.owner_token)]
        return self.stub.AbandonMatch(request, metadata=metadata, timeout=self.timeout)

    # ---- search ----

    def _query(
        self,
        match: Match | str | None,
        seat: int | None,
        game: str | None,
        observation_json: str | None,
        params: pb.SearchParams,
    ) -> tuple[pb.SuggestMoveRequest, list[tuple[str, str]]]:
        if match is not None:
            if seat is None:
                raise ValueError("a hosted suggestion needs the seat")
            mid = self._id(match)
            request = pb.SuggestMoveRequest(match=pb.HostedSeat(match_id=mid, seat=seat), params=params)
            return request, self._metadata(mid, seat, None)
        if game is None or observation_json is None:
            raise ValueError("give match and seat, or game and observation_json")
        observation = pb.ObservationInput(game=game, observation_json=observation_json)
        return pb.SuggestMoveRequest(observation=observation, params=params), []

    def suggest(
        self,
        *,
        match: Match | str | None = None,
        seat: int | None = None,
        game: str | None = None,
        observation_json: str | None = None,
        timeout: float | None = None,
        token: str | None = None,
        **params: Any,
    ) -> pb.SuggestMoveResponse:
        request, metadata = self._query(match, seat, game, observation_json, search_params(**params))
        if token is not None:
            metadata = [(TOKEN_KEY, token)]
        return self.stub.SuggestMove(request, metadata=metadata, timeout=timeout or self.timeout)

    def analyze(
        self,
        *,
        match: Match | str | None = None,
        seat: int | None = None,
        game: str | None = None,
        observation_json: str | None = None,
        progress_interval_ms: int = 500,
        timeout: float | None = None,
        token: str | None = None,
        **params: Any,
    ) -> Any:
        """The stream of AnalyzeUpdate messages; call .cancel() on it to stop listening."""
        query, metadata = self._query(match, seat, game, observation_json, search_params(**params))
        if token is not None:
            metadata = [(TOKEN_KEY, token)]
        request = pb.AnalyzeRequest(query=query, progress_interval_ms=progress_interval_ms)
        return self.stub.Analyze(request, metadata=metadata, timeout=timeout or self.timeout)

    def stop_analysis(self, query_id: str) -> bool:
        request = pb.StopAnalysisRequest(query_id=query_id)
        return bool(self.stub.StopAnalysis(request, timeout=self.timeout).stopped)


def final_update(updates: Iterator[pb.AnalyzeUpdate]) -> pb.AnalyzeUpdate:
    """Read a stream to its end and return its final message."""
    final = None
    for update in updates:
        if update.final:
            final = update
    if final is None:
        raise RuntimeError("the stream ended without a final message")
    return final
