"""Each viewer's move labels through a real server (in-process search; issue 26, part 1): a hosted match
(Tiny Epic Galaxies, also Beyond the Black; Galaxy of Trian; Take The Galaxy) with an AI seat, played to
its end by a seat of seeded random moves, is watched through WatchMatch as that seat and as the
spectator (the AI seat has no token to watch with, so its view goes through the same code on the stored
history). Every move label a viewer receives is State.move_label(action, viewer), recomputed here by
replaying the match from its seed; the AI's secret mission never reaches another seat or the spectator
while the match is played. GetReplay labels follow its viewer, while the match is played (for the seat
and the spectator, by token, without the seed) and after its end; GetObservation and ListMatches during
play show the seat nothing more than its own observation."""

from __future__ import annotations

import io
import json
import random
import re
import sqlite3
from dataclasses import dataclass

import pytest
from test_service_matches import events_until_end

from orrery.core_ext import load_game
from orrery.core_ext.game import PUBLIC_VIEWER
from orrery.render import to_svg
from orrery.service._matches import MatchStore
from orrery.service._servicer import _as_seen_by, _history_events, _seat_score
from orrery.service._spawn import start_server
from orrery.service.client import HUMAN, OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow
# GetObservation's picture outlines what the latest turn changed as the seat saw it (its own move events)
LAST_MOVE_OUTLINE = re.compile(r"<(rect|polygon) [^>]*class='last-move'[^>]*/>")


def without_last_move(svg: str) -> str:
    return LAST_MOVE_OUTLINE.sub("", svg)


IN_PROCESS = ["--backend", "in-process", "--workers", "1", "--config", "test-fast"]
HUMAN_SEAT, AI = 0, 1


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hidden-labels")
    spawned = start_server(
        [*IN_PROCESS, "--db", str(folder / "m.sqlite3")], cwd=str(folder), same_imports=True
    )
    yield spawned, folder / "m.sqlite3"
    spawned.terminate()


def play_to_the_end(client, game: str, seed: int, variant: str = ""):
    """A 2-player match, seat 1 an AI seat, seat 0 seeded random moves; returns (the match, the seat's
    and the spectator's events, the seat's moves as it watched them)."""
    seats = [HUMAN, ai_seat(seed=seed, iterations=8)]
    match = client.create_match(game, players=2, variant=variant, seed=seed, seats=seats)
    spectator = client.watch(match, timeout=600)  # opened before the first move: every event is live
    mine = client.watch(match, HUMAN_SEAT, timeout=600)
    rng = random.Random(seed)
    seen: list[pb.MatchEvent] = []
    live: list[LiveLook] = []
    for event in mine:
        seen.append(event)
        if event.kind == pb.MATCH_EVENT_END:
            break
        if event.current_player == HUMAN_SEAT:
            view = client.observation(match, HUMAN_SEAT)
            if view.your_turn and view.move_number == event.move_number:
                if len(live) < 4 and view.move_number >= 6 * (len(live) + 1):
                    live.append(look_while_played(client, match, view))
                choice = rng.choice(list(view.legal_actions))
                client.apply(match, HUMAN_SEAT, action_id=choice.id, expected_move_number=view.move_number)
    return match, seen, events_until_end(spectator), live


@dataclass(frozen=True)
class LiveLook:
    """What the human seat and the spectator got from the service at one position of a match still being
    played: GetObservation, GetReplay as the seat (with the picture of the position) and as the spectator,
    and ListMatches."""

    move_number: int
    view: pb.GetObservationResponse
    as_seat: pb.GetReplayResponse
    as_spectator: pb.GetReplayResponse
    listed: list[pb.MatchSummary]


def look_while_played(client, match, view) -> LiveLook:
    n = view.move_number
    as_seat = client.replay(match, seat=HUMAN_SEAT, svg_seat=HUMAN_SEAT, svg_from=n, svg_count=1)
    as_spectator = client.replay(match, svg_public=True, svg_from=n, svg_count=1)
    listed = client.list_matches([match.tokens[HUMAN_SEAT]])
    return LiveLook(n, view, as_seat, as_spectator, listed)


def expected_labels(game: str, replay) -> list[dict[int, str]]:
    """Per move, State.move_label for every viewer, from the seed and the moves alone."""
    state = load_game(game, players=replay.players, variant=replay.variant).new_initial_state(replay.seed)
    out = []
    for move in replay.moves:
        assert state.current_player == move.seat
        out.append({v: state.move_label(move.action.id, v) for v in (PUBLIC_VIEWER, 0, 1)})
        state.apply(move.action.id)
    assert state.is_terminal()
    return out


def stored_history_as_seen_by(db_path, match_id: str, watcher: int) -> list[pb.MatchEvent]:
    """The stored history as WatchMatch sends it to `watcher` (a consistent copy of the server's file)."""
    copy = str(db_path) + ".copy"
    source, target = sqlite3.connect(db_path), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.close()
    store = MatchStore(copy)
    try:
        return [_as_seen_by(e, watcher) for e in _history_events(store.history(match_id, 0))]
    finally:
        store.close()


HOSTED = [
    ("tiny_epic_galaxies", "", 3),
    ("tiny_epic_galaxies", "beyond_the_black", 5),
    ("trian", "", 4),
    ("take_the_galaxy", "", 6),
]


@pytest.mark.parametrize(
    ("game", "variant", "seed"), HOSTED, ids=[f"{g}-{v or 'default'}" for g, v, _ in HOSTED]
)
def test_every_viewer_gets_the_label_of_its_own_view(served, game, variant, seed):
    server, db_path = served
    with OrreryClient(server.target, timeout=120) as client:
        match, seat_events, spectator_events, live = play_to_the_end(client, game, seed, variant)
        replay = client.replay(match)  # no picture window: the spectator's labels
        as_seat = client.replay(match, svg_seat=HUMAN_SEAT, svg_from=0, svg_count=1)
        final = client.observation(match, HUMAN_SEAT)
    # Once over: the breakdown GetObservation gives adds up to the scores it gives
    assert [e.total for e in final.score_breakdown if e.seat >= 0] == list(final.scores)
    assert all(sum(p.points for p in e.parts) == e.total for e in final.score_breakdown)
    expected = expected_labels(game, replay)
    n = len(expected)
    assert n > 20 and any(m.seat == AI for m in replay.moves)
    ai_events = stored_history_as_seen_by(db_path, match.match_id, AI)
    for watcher, events in ((HUMAN_SEAT, seat_events), (PUBLIC_VIEWER, spectator_events), (AI, ai_events)):
        moves = [e for e in events if e.kind == pb.MATCH_EVENT_MOVE]
        assert [m.move_number for m in moves] == list(range(1, n + 1)), watcher
        assert events[-1].kind == pb.MATCH_EVENT_END
        for move, want in zip(moves, expected, strict=True):
            assert move.action.label == want[watcher], (watcher, move.move_number)
            assert bool(move.action.struct_json) == (move.seat == watcher)  # the mover's own only
    assert [m.action.label for m in replay.moves] == [e[PUBLIC_VIEWER] for e in expected]
    assert [m.action.label for m in as_seat.moves] == [e[HUMAN_SEAT] for e in expected]
    assert all(bool(m.action.struct_json) == (m.seat == HUMAN_SEAT) for m in as_seat.moves)
    # Some move of the AI seat is labelled differently for the others than for itself (a hidden detail).
    assert any(e[AI] != e[HUMAN_SEAT] for m, e in zip(replay.moves, expected, strict=True) if m.seat == AI)
    check_looks_while_played(game, replay, expected, live)
    if game == "tiny_epic_galaxies":
        # The AI's kept secret mission: in the final state, never in a label seat 0 or the spectator got.
        secret = json.loads(replay.final_state_json)["state"]["galaxies"][AI]["mission"]
        word = re.compile(rf"\b{re.escape(secret)}\b")
        assert any(word.search(e[AI]) for e in expected), "the AI's own label names its mission"
        for events in (seat_events, spectator_events):
            labels = [e.action.label for e in events if e.kind == pb.MATCH_EVENT_MOVE]
            assert not any(word.search(label) for label in labels), secret
        for look in live:
            shown = [text for e in look.view.score_breakdown for p in e.parts for text in (p.label, p.detail)]
            assert shown and not any(word.search(text) for text in shown), secret
        assert any(p.label == f"secret mission {secret}" for p in final.score_breakdown[AI].parts)


def check_looks_while_played(game: str, replay, expected: list[dict[int, str]], live: list[LiveLook]) -> None:
    """While the match was played, GetReplay gave the seat its own labels and the picture of its own
    view, and the spectator the public labels, neither the seed, the state nor a result; GetObservation
    was exactly the seat's observation; ListMatches named nothing but the match's standing."""
    assert len(live) == 4
    state = load_game(game, players=replay.players, variant=replay.variant).new_initial_state(replay.seed)
    played = 0
    for look in live:
        while played < look.move_number:
            state.apply(replay.moves[played].action.id)
            played += 1
        mine = state.observation(HUMAN_SEAT)
        # GetObservation's picture also outlines what the latest turn changed as this seat saw it (its
        # own move events, checked by check_move_events_follow_the_viewer); the rest is its own view.
        assert look.view.observation_json == mine.to_json() and without_last_move(look.view.svg) == to_svg(
            mine
        )
        # and its score breakdown is the one of its own view (another seat's mission unnamed, unscored)
        assert list(look.view.score_breakdown) == [_seat_score(e) for e in mine.score_breakdown()]
        for answer, viewer in ((look.as_seat, HUMAN_SEAT), (look.as_spectator, PUBLIC_VIEWER)):
            assert answer.status == pb.MATCH_STATUS_ACTIVE and answer.seed == 0
            assert answer.final_state_json == "" and not answer.scores and not answer.ranks
            labels = [m.action.label for m in answer.moves]
            assert labels == [e[viewer] for e in expected[: look.move_number]], viewer
            assert all(bool(m.action.struct_json) == (m.seat == viewer) for m in answer.moves)
        public = to_svg(state.public_observation().to_dict())
        for answer, picture in ((look.as_seat, to_svg(mine.to_dict())), (look.as_spectator, public)):
            pictures = [m.svg for m in answer.moves]
            assert pictures[-1] == picture and not any(pictures[:-1]) and not answer.initial_svg
        (summary,) = look.listed
        assert (summary.seat, summary.move_number, summary.current_player) == (HUMAN_SEAT, played, HUMAN_SEAT)
        assert summary.status == pb.MATCH_STATUS_ACTIVE and list(summary.ai_seats) == [False, True]


class FirstListedMove(io.StringIO):
    """Input that always picks the first move `orrery play` listed at its latest prompt (its option
    numbers stay put within a decision, so the first one is not always 0); at most 5000 answers."""

    PROMPT = "help)> "

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out, self.answers = out, 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.answers += 1
        if self.answers > 5000:
            return ""
        text = self.out.getvalue()
        latest = text.rfind(self.PROMPT)
        listed = re.findall(r"^  \[(\d+)\] ", text[text.rfind(self.PROMPT, 0, latest) + 1 : latest], re.M)
        return f"{listed[0] if listed else 0}\n"


def test_orrery_play_never_prints_the_ai_seats_secret_mission(served, tmp_path):
    """`orrery play` as a person uses it (always the first listed move) against an AI seat in Tiny Epic
    Galaxies, to the end: no line printed before the end names either mission dealt to the AI, while
    the person's own dealt missions are printed (so the check can see a mission name)."""
    import argparse
    import io

    from orrery.service._play import SavedSeats, play_in_terminal

    server, _ = served
    args = argparse.Namespace(
        game="tiny_epic_galaxies", variant="base", players=2, seat=0, level="easy", seed=7, resume=None
    )
    args.auto_single, args.resume_seat, args.resume_token = True, 0, None
    out = io.StringIO()
    saved = SavedSeats(tmp_path / "seats.json")
    assert play_in_terminal(server.target, args, saved=saved, stdin=FirstListedMove(out), stdout=out) == 0
    text = out.getvalue()
    match_id = text.split()[1].rstrip(":")
    with OrreryClient(server.target, timeout=120) as client:
        final = json.loads(client.replay(match_id).final_state_json)["state"]
    # Before the game ends: the last move's events (indented under it, among them "the game is over")
    # name the missions the end reveals, and the final board shows them.
    before_board = text.split("game over after")[0].rsplit("Tiny Epic Galaxies", 1)[0].splitlines()
    end = next(i for i, line in enumerate(before_board) if line.strip() == "the game is over")
    while before_board[end - 1].startswith("      "):  # the last move's other events
        end -= 1
    during = "\n".join(before_board[:end])
    ai_dealt, my_dealt = final["galaxies"][AI]["dealt"], final["galaxies"][HUMAN_SEAT]["dealt"]
    assert any(re.search(rf"\b{re.escape(m)}\b", during) for m in my_dealt)
    leaked = [m for m in ai_dealt if re.search(rf"\b{re.escape(m)}\b", during)]
    lines = during.splitlines()
    assert not leaked, [lines[max(0, i - 3) : i + 3] for i, line in enumerate(lines) if leaked[0] in line]
