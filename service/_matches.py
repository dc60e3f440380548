"""Hosted matches: SQLite storage plus the referee logic, one transaction per change.

Every change (create, apply) runs inside `BEGIN IMMEDIATE ... COMMIT`: the state is loaded, the
request validated against it, the game advanced on a copy, and only then are the new state and the
move written. Any error rolls the transaction back, so a bad request never changes a match, and a
crash or restart loses nothing that was acknowledged (synchronous=FULL).

Nothing here is game-specific: every game goes through core_ext's State/Observation interface.
Tokens are stored as SHA-256 digests, never in the clear.

Schema 2 adds, to schema 1 (migrated in place, additively): a match status (active, finished,
resigned, abandoned, expired), the seat to move, AI seats (their specification per seat), a spectator
token, the creating peer, whether a move was played by an AI seat, and indexes that keep every
lifecycle query off full scans: active matches are counted once at start-up (through a partial index)
and then by a counter kept with every change.

Schema 3: stored states are in each game's own versioned JSON format; schemas 1 and 2 held the retired
shared "orrery.state/1". Schema 4: the same, after a game raised its format (Trian to
"orrery.trian.state/3", issue 16), so schema 3 may hold states in a game's earlier format. Opening an
older database upgrades every stored state (Game.upgrade_state_json) in one transaction, or none: if
any cannot be upgraded the server refuses to start, names the matches, and leaves the stored states as
they were (docs/api.md, "Hosted matches").

Schema 5 adds `moves.labels_json`: each move's label as every viewer saw it, computed from the position
before the move when it is applied ({"-1": the spectator's, "0": seat 0's, ...}; the mover's entry is its
full label, the others are built from that viewer's own observation by State.move_label). Rows stored
before schema 5 have NULL there: every viewer but the mover gets the action's kind from its id alone
(`id_kind`), never the stored full label (docs/api.md, "What each viewer sees of a move").

Schema 6 adds `moves.events_json`: what each move set off as each viewer saw it ({"-1": {"events": [..],
"changes": {..}}, "0": ..}), from that viewer's own views before and after the move (core_ext/_move_events).
Rows stored before schema 6 have NULL there: no events.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from orrery.core_ext import GameInputError, StateFormatError, game_info, load_game
from orrery.core_ext._action_kinds import id_kind
from orrery.core_ext._move_events import MoveEvents, move_events
from orrery.core_ext.game import PUBLIC_VIEWER
from orrery.render import to_svg
from orrery.service._errors import invalid, not_found, precondition

SCHEMA_VERSION = 6
SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed TEXT NOT NULL,            -- uint64 as text: SQLite integers are signed 64-bit
    state_json TEXT NOT NULL,      -- the full state, in the game's format ("orrery.trian.state/3")
    move_number INTEGER NOT NULL,  -- actions applied so far
    finished INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    move_number INTEGER NOT NULL,  -- 1-based
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    label TEXT NOT NULL,
    struct_json TEXT NOT NULL,
    PRIMARY KEY (match_id, move_number)
);
"""
# Schema 1 -> 2: only additions (columns with defaults, indexes), so a schema-1 file upgrades in place.
MIGRATE_TO_2 = (
    "ALTER TABLE matches ADD COLUMN status INTEGER NOT NULL DEFAULT 1",  # MatchStatus, 1 = active
    "ALTER TABLE matches ADD COLUMN to_move INTEGER",  # the seat to move, -1 once over; NULL: unknown
    "ALTER TABLE matches ADD COLUMN has_ai INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE matches ADD COLUMN spectator_sha256 TEXT",
    "ALTER TABLE matches ADD COLUMN creator TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE matches ADD COLUMN resigned_seat INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE seats ADD COLUMN ai_json TEXT",  # NULL: a human seat
    "ALTER TABLE moves ADD COLUMN by_ai INTEGER NOT NULL DEFAULT 0",
    "UPDATE matches SET status = 2 WHERE finished = 1",
)
# Schema 4 -> 5: each move's label per viewer (JSON {"viewer": label}); NULL in rows stored before.
MIGRATE_TO_5 = ("ALTER TABLE moves ADD COLUMN labels_json TEXT",)
# Schema 5 -> 6: what each move set off, per viewer (JSON {"viewer": {"events", "changes"}}); NULL before.
MIGRATE_TO_6 = ("ALTER TABLE moves ADD COLUMN events_json TEXT",)
INDEXES = """
CREATE INDEX IF NOT EXISTS matches_active_by_age ON matches(updated_at) WHERE status = 1;
CREATE INDEX IF NOT EXISTS matches_ended_by_age ON matches(updated_at) WHERE status != 1;
CREATE INDEX IF NOT EXISTS matches_active_ai ON matches(match_id) WHERE status = 1 AND has_ai = 1;
CREATE INDEX IF NOT EXISTS seats_by_token ON seats(token_sha256);
"""
ACTIVE, FINISHED, RESIGNED, ABANDONED, EXPIRED = 1, 2, 3, 4, 5  # orrery.v1.MatchStatus
STATUS_NAMES = {ACTIVE: "active", FINISHED: "finished", RESIGNED: "resigned", ABANDONED: "abandoned"}
STATUS_NAMES[EXPIRED] = "expired"
SPECTATOR = PUBLIC_VIEWER  # the "seat" of the spectator token (-1), who sees public information only
EXPIRE_BATCH = 500  # matches expired or deleted per transaction
LAST_TURN_MOVES = 80  # the most moves of one turn read back to outline the last turn on the board
log = logging.getLogger("orrery.service")


class StoredMatchesError(RuntimeError):
    """Stored matches this server cannot read; their states were left unchanged."""


@dataclass(frozen=True)
class AiSpec:
    """How the server plays an AI seat: a level and/or a search configuration, budgets per move and per
    turn (service/_servicer.py, _ai_budget, says how they combine)."""

    level: str | None = None  # easy, medium, hard, expert; None: full strength (tolerance 0)
    bot: str = ""  # search configuration name[@version]; "": the server's, else the game's own
    iterations: int | None = None  # per-move budget (iterations), a cap on each decision
    milliseconds: int | None = None  # per-move budget (ms)
    seed: int | None = None  # move n searches with seed + n; None: a fresh seed per move
    turn_iterations: int | None = None  # per-turn budget (iterations over the seat's whole turn)
    turn_milliseconds: int | None = None  # per-turn budget (ms of search over the seat's whole turn)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> AiSpec:
        return AiSpec(**json.loads(text))


@dataclass(frozen=True)
class ActionView:
    """An action: id, the full label and structured form (as the seat that plays it sees them), and, for
    a move that was played, its label as each viewer saw it ((viewer, label) pairs: SPECTATOR and every
    seat, the mover's entry being `label`)."""

    id: int
    label: str
    struct_json: str
    labels: tuple[tuple[int, str], ...] = ()
    events: tuple[tuple[int, MoveEvents], ...] = ()  # (viewer, what the move set off as it saw it)

    def events_for(self, viewer: int) -> MoveEvents:
        """What the move set off as `viewer` saw it; nothing for a viewer with no entry."""
        for who, seen in self.events:
            if who == viewer:
                return seen
        return MoveEvents()

    def label_for(self, viewer: int) -> str:
        """The label `viewer` may see (a seat, or SPECTATOR); a viewer with no entry gets the id only."""
        for who, text in self.labels:
            if who == viewer:
                return text
        return f"action {self.id}"


@dataclass(frozen=True)
class CreatedMatch:
    match_id: str
    game: str
    variant: str
    players: int
    tokens: tuple[str, ...]  # one per seat; "" for an AI seat
    current_player: int
    ai: tuple[bool, ...] = ()  # per seat: played by the server
    spectator_token: str = ""


@dataclass(frozen=True)
class SeatView:
    match_id: str
    seat: int
    observation_json: str
    rendered: str
    legal_actions: tuple[ActionView, ...]
    current_player: int  # -1 once over
    game_over: bool
    move_number: int
    scores: tuple[float, ...]  # empty until over
    ranks: tuple[int, ...]
    ai: tuple[bool, ...] = ()
    status: int = ACTIVE
    svg: str = ""  # the board picture of this view (orrery.render)
    seat_teams: tuple[int, ...] = ()  # per seat: its team (the game's seat_teams())
    resigned_seat: int = -1
    # where each seat's points come from, from this seat's observation (Position.score_breakdown)
    score_breakdown: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class AppliedAction:
    action: ActionView
    move_number: int
    current_player: int
    game_over: bool
    seat: int = 0
    by_ai: bool = False
    status: int = ACTIVE
    scores: tuple[float, ...] = ()
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True)
class Ended:
    """A match that has just ended (resigned, abandoned, expired)."""

    match_id: str
    move_number: int
    status: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    resigned_seat: int = -1


@dataclass(frozen=True)
class MatchMeta:
    status: int
    to_move: int | None
    has_ai: bool
    resigned_seat: int
    creator: str
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class AiTurn:
    """An AI seat to move: what the server needs to search and play for it."""

    match_id: str
    game: str
    seat: int
    spec: AiSpec
    observation: Any
    move_number: int
    creator: str


@dataclass(frozen=True)
class MoveRecord:
    move_number: int
    seat: int
    action: ActionView
    by_ai: bool


@dataclass(frozen=True)
class History:
    """A match's moves after some move number, and where it stands now (for WatchMatch)."""

    moves: tuple[MoveRecord, ...]
    move_number: int
    current_player: int
    status: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    resigned_seat: int


@dataclass(frozen=True)
class Summary:
    match_id: str
    game: str
    variant: str
    players: int
    seat: int
    status: int
    move_number: int
    current_player: int
    ai: tuple[bool, ...]
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class Replay:
    match_id: str
    game: str
    variant: str
    players: int
    seed: int
    moves: tuple[tuple[int, int, ActionView], ...]  # (move_number, seat, action)
    final_state_json: str
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    status: int = FINISHED  # ACTIVE: still being played (the servicer then withholds seed and state)
    ended: str = ""  # how it ended when not by the game's rules ("seat 1 resigned"), for the last picture


@dataclass(frozen=True)
class _Row:
    match_id: str
    game: str
    variant: str
    players: int
    seed: int
    state_json: str
    move_number: int
    finished: bool

    def state(self) -> Any:
        game = load_game(self.game, players=self.players, variant=self.variant)
        try:
            return game.state_from_json(self.state_json)
        except StateFormatError:
            # a state stored in an earlier format of its game: the PostgreSQL store's migrations are SQL
            # only, so its rows are upgraded as they are read (and stored in the current one by the next move)
            return game.state_from_json(game.upgrade_state_json(self.state_json))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def action_view(view: Any, action: int) -> ActionView:
    """An action as id, label and structured JSON, from a State or an Observation that can see it."""
    struct = view.action_to_struct(action)
    return ActionView(int(action), str(struct["label"]), json.dumps(struct, sort_keys=True))


def viewer_labels(state: Any, action: int, full_label: str) -> dict[int, str]:
    """The label of `action` (legal in `state`, before it is applied) as each viewer sees it: SPECTATOR and
    every seat; the seat to move gets `full_label`, the others State.move_label's view of it."""
    mover = int(state.current_player)
    viewers = (PUBLIC_VIEWER, *range(state.game.num_players))
    return {v: full_label if v == mover else str(state.move_label(action, v)) for v in viewers}


def viewer_views(state: Any) -> dict[int, Any]:
    """Every viewer's own view of `state`: SPECTATOR's public observation and each seat's observation."""
    views = {PUBLIC_VIEWER: state.public_observation()}
    views.update({seat: state.observation(seat) for seat in range(state.game.num_players)})
    return views


def viewer_events(before: dict[int, Any], state: Any, mover: int) -> dict[int, MoveEvents]:
    """What a move set off as each viewer sees it, from that viewer's views before (viewer_views of the
    position before the move) and after (`state`, the move applied)."""
    after = viewer_views(state)
    return {viewer: move_events(before[viewer], after[viewer], mover=mover) for viewer in before}


def events_to_json(events: dict[int, MoveEvents]) -> str:
    return json.dumps({str(v): e.to_json_dict() for v, e in events.items()}, sort_keys=True)


def events_from_json(text: str | None) -> tuple[tuple[int, MoveEvents], ...]:
    if text is None:
        return ()
    out = []
    for viewer, seen in json.loads(text).items():
        changes = {str(who): {str(k): int(v) for k, v in c.items()} for who, c in seen["changes"].items()}
        touched = tuple(tuple(key) for key in seen.get("touched", ()))
        out.append((int(viewer), MoveEvents(tuple(str(e) for e in seen["events"]), changes, touched)))
    return tuple(sorted(out, key=lambda pair: pair[0]))


def stored_action(
    game: str,
    players: int,
    seat: int,
    action: int,
    label: str,
    struct_json: str,
    labels_json: str | None,
    events_json: str | None = None,
) -> ActionView:
    """A stored move as an ActionView with its label per viewer. A row stored before schema 5 has no
    labels_json: every viewer but the mover gets the action's kind from its id alone, never `label`
    (which was built from the full state)."""
    if labels_json is not None:
        labels = {int(viewer): str(text) for viewer, text in json.loads(labels_json).items()}
    else:
        kind = id_kind(game, action) or f"action {action}"
        labels = {v: kind for v in (PUBLIC_VIEWER, *range(players))}
    labels[seat] = label
    seen = events_from_json(events_json)
    return ActionView(action, label, struct_json, tuple(sorted(labels.items())), seen)


def resolve_game(name: str, players: int, variant: str | None) -> Any:
    """load_game, with INVALID_ARGUMENT naming the field that is wrong."""
    try:
        info = game_info(name)
    except GameInputError as exc:
        raise invalid("game", str(exc)) from None
    if variant is not None and variant not in info.variants:
        raise invalid(
            "variant", f"{name} has no variant {variant[:64]!r}; variants: {', '.join(info.variants)}"
        )
    if players not in info.player_counts:
        counts = ", ".join(map(str, info.player_counts))
        raise invalid("players", f"{name} is not played by {players}; player counts: {counts}")
    return load_game(name, players=players, variant=variant)


def _current_player(state: Any) -> int:
    return -1 if state.is_terminal() else int(state.current_player)


def resignation_result(state: Any, resigned: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Scores and ranks after a resignation: the scores are each seat's points in the game's unit when
    the seat resigned (the game's scores(), as at the end of a game); the resigner's team (in a game
    without teams, the resigner alone) is last, every other seat tied first."""
    teams = tuple(state.game.seat_teams())
    scores = tuple(float(s) for s in state.scores())
    ranks = tuple(1 if teams[s] == teams[resigned] else 0 for s in range(len(teams)))
    return scores, ranks


def _result(state: Any, status: int, resigned_seat: int) -> tuple[tuple, tuple]:
    """(scores, ranks) of an ended match; empty while active and for abandoned or expired ones."""
    if status == FINISHED or (status == ACTIVE and state.is_terminal()):
        return tuple(state.scores()), tuple(state.ranks())
    if status == RESIGNED:
        return resignation_result(state, resigned_seat)
    return (), ()


def _ending(meta: Any) -> str:
    """How a match that did not end by the game's rules ended, for its picture ("" otherwise)."""
    if meta.status == RESIGNED:
        return f"seat {meta.resigned_seat} resigned"
    if meta.status in (ABANDONED, EXPIRED):
        return "abandoned" if meta.status == ABANDONED else "expired"
    return ""


class MatchStore:
    """All hosted matches in one SQLite file. Thread-safe (one lock); the server calls it from one worker
    thread. The reference implementation of the MatchStoreBackend protocol (orrery.service._store)."""

    FOR_UPDATE = ""  # what locks a match's row in a change: nothing here (BEGIN IMMEDIATE serialises)
    SKIP_LOCKED = ""  # what makes a batch skip rows another change holds: nothing here
    shared = False  # one process only: several replicas need the PostgreSQL store
    threads = 1  # store calls that may run at once (one connection)

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, 1, 2, 3, 4, 5, SCHEMA_VERSION):
            raise RuntimeError(f"{path}: match database schema {version}, this server knows {SCHEMA_VERSION}")
        self._db.executescript(SCHEMA)
        if version in (1, 2, 3):
            try:
                self._upgrade_stored_states()  # first: when it refuses, nothing else has changed either
            except BaseException:
                self._db.close()
                raise
        if version < 2:
            self._migrate_to_2()
        if version < 5:
            self._add_column("labels_json", MIGRATE_TO_5)
        if version < 6:
            self._add_column("events_json", MIGRATE_TO_6)
        self._db.executescript(INDEXES)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        # Counted once (through the partial index), then kept up to date with every change.
        self.active = int(self._db.execute("SELECT COUNT(*) FROM matches WHERE status = 1").fetchone()[0])

    def _upgrade_stored_states(self) -> None:
        """Schemas 1, 2 and 3 to 4: every stored state from a retired or earlier format into its game's
        current one, all in one transaction; if any cannot be upgraded, none is and the server does not
        start."""
        with self._transaction() as db:
            rows = db.execute("SELECT match_id, game, variant, players, state_json FROM matches").fetchall()
            failed = []
            for match_id, game, variant, players, state_json in rows:
                try:
                    game_of_match = load_game(game, players=players, variant=variant)
                    upgraded = game_of_match.upgrade_state_json(state_json)
                except GameInputError as exc:
                    failed.append(f"{match_id}: {exc}")
                    continue
                db.execute("UPDATE matches SET state_json = ? WHERE match_id = ?", (upgraded, match_id))
            if failed:
                more = f" (and {len(failed) - 3} more)" if len(failed) > 3 else ""
                raise StoredMatchesError(
                    f"{self.path}: {len(failed)} of {len(rows)} stored matches cannot be upgraded to this "
                    f"server's state formats, so none was and the database is unchanged; "
                    f"{'; '.join(failed[:3])}{more}. Finish them with the previous server version, or "
                    "move the database aside."
                )

    def _migrate_to_2(self) -> None:
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "status" in columns:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATE_TO_2:
                self._db.execute(statement)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _add_column(self, column: str, statements: tuple[str, ...]) -> None:
        """Schemas 5 and 6: a column of moves (labels_json, events_json); rows already stored keep NULL."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(moves)")}
        if column in columns:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements:
                self._db.execute(statement)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def ping(self) -> None:
        """Raise unless the database answers a query now (the server's store health check)."""
        with self._reading() as db:
            db.execute("SELECT 1").fetchone()

    def renew_ai_claim(self, match_id: str, move_number: int) -> bool:
        """One process owns every AI turn here: nothing to renew (PostgreSQL's store renews its lease)."""
        return True

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        """The connection for a read (several statements, one consistent view)."""
        with self._lock:
            yield self._db

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _row(self, db: Any, match_id: str, *, lock: bool = False) -> _Row:
        """lock: in a change, lock the match's row until the change commits (a no-op on SQLite, where
        BEGIN IMMEDIATE already serialises every change)."""
        found = db.execute(
            "SELECT match_id, game, variant, players, seed, state_json, move_number, finished "
            "FROM matches WHERE match_id = ?" + (self.FOR_UPDATE if lock else ""),
            (match_id,),
        ).fetchone()
        if found is None:
            raise not_found("match_id", f"no match {match_id[:64]!r}")
        mid, game, variant, players, seed, state_json, move_number, finished = found
        return _Row(mid, game, variant, players, int(seed), state_json, move_number, bool(finished))

    # ---- queries used by every seat-scoped call ----

    def check_seat_token(self, match_id: str, seat: int, token: str) -> bool:
        """True if `token` is seat's token (seat SPECTATOR: the spectator token). Raises NOT_FOUND /
        INVALID_ARGUMENT for a bad match or seat."""
        with self._reading() as db:
            row = self._row(db, match_id)
            if seat == SPECTATOR:
                (stored,) = db.execute(
                    "SELECT spectator_sha256 FROM matches WHERE match_id = ?", (match_id,)
                ).fetchone()
                return stored is not None and hmac.compare_digest(stored, _digest(token))
            if not 0 <= seat < row.players:
                raise invalid("seat", f"{seat} is not a seat of this {row.players}-player match")
            (stored,) = db.execute(
                "SELECT token_sha256 FROM seats WHERE match_id = ? AND seat = ?", (match_id, seat)
            ).fetchone()
        return hmac.compare_digest(stored, _digest(token))

    def active_count(self) -> int:
        """Matches being played (a counter kept with every change, not a query)."""
        return self.active

    def _meta(self, db: Any, match_id: str) -> MatchMeta:
        found = db.execute(
            "SELECT status, to_move, has_ai, resigned_seat, creator, created_at, updated_at "
            "FROM matches WHERE match_id = ?",
            (match_id,),
        ).fetchone()
        if found is None:
            raise not_found("match_id", f"no match {match_id[:64]!r}")
        status, to_move, has_ai, resigned, creator, created, updated = found
        return MatchMeta(status, to_move, bool(has_ai), resigned, creator, created, updated)

    @staticmethod
    def _ai_specs(db: Any, match_id: str) -> tuple[AiSpec | None, ...]:
        rows = db.execute(
            "SELECT ai_json FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
        ).fetchall()
        return tuple(AiSpec.from_json(text) if text else None for (text,) in rows)

    @staticmethod
    def _check_active(meta: MatchMeta) -> None:
        if meta.status != ACTIVE:
            if meta.status == FINISHED:
                raise precondition("match_id", "the game is over")
            raise precondition("match_id", f"the match is over ({STATUS_NAMES.get(meta.status, '?')})")

    # ---- the API ----

    def create(
        self,
        game: str,
        players: int,
        variant: str | None,
        seed: int | None,
        ai: Sequence[AiSpec | None] = (),
        creator: str = "",
        spectator_token: str | None = None,
    ) -> CreatedMatch:
        """A new match. `ai`: per seat, how the server plays it (None: a human seat); empty: all human.
        AI seats get a token nobody is told (so no one can act for them) and "" in the answer.
        spectator_token: the caller's (the servicer derives it from the owner token); default random."""
        g = resolve_game(game, players, variant)
        if ai and len(ai) != players:
            raise invalid("seats", f"give one entry per seat: {len(ai)} for {players} players")
        specs = tuple(ai) if ai else (None,) * players
        seed = secrets.randbits(63) if seed is None else seed
        state = g.new_initial_state(seed)
        match_id = uuid.uuid4().hex
        secret = tuple(secrets.token_urlsafe(24) for _ in range(players))
        spectator = spectator_token or secrets.token_urlsafe(24)
        over = state.is_terminal()
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO matches (match_id, game, variant, players, seed, state_json, move_number, "
                "finished, created_at, updated_at, status, to_move, has_ai, spectator_sha256, creator) "
                "VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    game,
                    g.variant,
                    players,
                    str(seed),
                    state.to_json(),
                    int(over),
                    now,
                    now,
                    FINISHED if over else ACTIVE,
                    _current_player(state),
                    int(any(s is not None for s in specs)),
                    _digest(spectator),
                    creator,
                ),
            )
            db.executemany(
                "INSERT INTO seats (match_id, seat, token_sha256, ai_json) VALUES (?, ?, ?, ?)",
                [
                    (match_id, seat, _digest(token), spec.to_json() if spec else None)
                    for seat, (token, spec) in enumerate(zip(secret, specs, strict=True))
                ],
            )
            self.active += not over
        tokens = tuple("" if spec else token for token, spec in zip(secret, specs, strict=True))
        flags = tuple(spec is not None for spec in specs)
        return CreatedMatch(
            match_id, game, g.variant, players, tokens, _current_player(state), flags, spectator
        )

    def seat_view(self, match_id: str, seat: int) -> SeatView:
        with self._reading() as db:
            row = self._row(db, match_id)
            meta = self._meta(db, match_id)
            specs = self._ai_specs(db, match_id)
            last_turn = self._last_turn_touched(db, match_id, seat)
        state = row.state()
        observation = state.observation(seat)
        live = meta.status == ACTIVE and not state.is_terminal()
        legal = tuple(action_view(observation, a) for a in observation.legal_actions()) if live else ()
        scores, ranks = _result(state, meta.status, meta.resigned_seat)
        return SeatView(
            match_id=match_id,
            seat=seat,
            observation_json=observation.to_json(),
            rendered=observation.render(),
            legal_actions=legal,
            current_player=_current_player(state) if live else -1,
            game_over=not live,
            move_number=row.move_number,
            scores=scores,
            ranks=ranks,
            ai=tuple(spec is not None for spec in specs),
            status=meta.status if meta.status != ACTIVE or live else FINISHED,
            svg=to_svg(observation, last_turn=last_turn)
            if live
            else to_svg(observation.to_dict(), ended=_ending(meta)),
            seat_teams=tuple(state.game.seat_teams()),
            resigned_seat=meta.resigned_seat,
            score_breakdown=tuple(observation.score_breakdown()),
        )

    @staticmethod
    def _last_turn_touched(db: Any, match_id: str, viewer: int) -> list[tuple[Any, ...]]:
        """The places the last turn (the latest run of moves by one seat) changed, as `viewer` saw them."""
        rows = db.execute(
            "SELECT seat, events_json FROM moves WHERE match_id = ? ORDER BY move_number DESC LIMIT ?",
            (match_id, LAST_TURN_MOVES),
        ).fetchall()
        touched: list[tuple[Any, ...]] = []
        for seat, events_json in rows:
            if seat != rows[0][0]:
                break
            for who, seen in events_from_json(events_json):
                if who == viewer:
                    touched.extend(seen.touched)
        return list(dict.fromkeys(touched))

    def observation(self, match_id: str, seat: int) -> Any:
        """The seat's Observation object (for search), after checking it is that seat's turn."""
        return self.observation_at(match_id, seat)[0]

    def observation_at(self, match_id: str, seat: int) -> tuple[Any, int]:
        """(the seat's Observation, the move number it is at), after checking it is that seat's turn."""
        with self._reading() as db:
            row = self._row(db, match_id)
            meta = self._meta(db, match_id)
        self._check_active(meta)
        state = row.state()
        self._check_turn(state, seat)
        return state.observation(seat), row.move_number

    def apply(
        self,
        match_id: str,
        seat: int,
        *,
        action_id: int | None = None,
        action_json: str | None = None,
        expected_move_number: int | None = None,
        by_ai: bool = False,
    ) -> AppliedAction:
        """Play an action for a seat. by_ai: the server plays it for an AI seat (only those; a human
        seat's call cannot act for an AI seat)."""
        with self._transaction() as db:
            row = self._row(db, match_id, lock=True)
            meta = self._meta(db, match_id)
            self._check_active(meta)
            specs = self._ai_specs(db, match_id)
            if 0 <= seat < len(specs) and (specs[seat] is not None) != by_ai:
                raise precondition(
                    "seat", f"seat {seat} is played by the server" if not by_ai else f"seat {seat} is human"
                )
            if expected_move_number is not None and expected_move_number != row.move_number:
                raise precondition(
                    "expected_move_number",
                    f"the match is at move {row.move_number}, not {expected_move_number}",
                )
            state = row.state()
            self._check_turn(state, seat)
            observation = state.observation(seat)
            action = self._resolve_action(observation, action_id, action_json)
            applied = action_view(observation, action)
            labels = viewer_labels(state, action, applied.label)  # from the position before the move
            before = viewer_views(state)
            state.apply(action)
            seen = viewer_events(before, state, seat)
            applied = dataclasses.replace(
                applied, labels=tuple(sorted(labels.items())), events=tuple(sorted(seen.items()))
            )
            move_number = row.move_number + 1
            over = state.is_terminal()
            db.execute(
                "UPDATE matches SET state_json = ?, move_number = ?, finished = ?, updated_at = ?, "
                "status = ?, to_move = ? WHERE match_id = ?",
                (
                    state.to_json(),
                    move_number,
                    int(over),
                    time.time(),
                    FINISHED if over else ACTIVE,
                    _current_player(state),
                    match_id,
                ),
            )
            db.execute(
                "INSERT INTO moves (match_id, move_number, seat, action, label, struct_json, by_ai, "
                "labels_json, events_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    move_number,
                    seat,
                    action,
                    applied.label,
                    applied.struct_json,
                    int(by_ai),
                    json.dumps({str(v): text for v, text in labels.items()}, sort_keys=True),
                    events_to_json(seen),
                ),
            )
            self._changed(db, match_id, move_number)
            self.active -= over
        scores, ranks = (tuple(state.scores()), tuple(state.ranks())) if over else ((), ())
        return AppliedAction(
            applied,
            move_number,
            _current_player(state),
            over,
            seat=seat,
            by_ai=by_ai,
            status=FINISHED if over else ACTIVE,
            scores=scores,
            ranks=ranks,
        )

    # ---- lifecycle ----

    def resign(self, match_id: str, seat: int) -> Ended:
        """The seat gives up: the match ends, that seat last."""
        with self._transaction() as db:
            row = self._row(db, match_id, lock=True)
            meta = self._meta(db, match_id)
            self._check_active(meta)
            self._end(db, match_id, RESIGNED, resigned_seat=seat)
        scores, ranks = resignation_result(row.state(), seat)
        return Ended(match_id, row.move_number, RESIGNED, scores, ranks, seat)

    def abandon(self, match_id: str, seat: int) -> Ended:
        """End the match without a result."""
        del seat  # any human seat may (its token was checked)
        with self._transaction() as db:
            row = self._row(db, match_id, lock=True)
            self._check_active(self._meta(db, match_id))
            self._end(db, match_id, ABANDONED)
        return Ended(match_id, row.move_number, ABANDONED, (), ())

    def _end(self, db: Any, match_id: str, status: int, resigned_seat: int = -1) -> None:
        db.execute(
            "UPDATE matches SET status = ?, finished = 1, to_move = -1, resigned_seat = ?, updated_at = ? "
            "WHERE match_id = ?",
            (status, resigned_seat, time.time(), match_id),
        )
        self._changed(db, match_id, -1)
        self.active -= 1

    def _changed(self, db: Any, match_id: str, move_number: int) -> None:
        """A change to a match, inside its transaction: other replicas are told at commit (PostgreSQL);
        nothing to do for a store only this process uses. move_number -1: the match ended."""

    def expire(self, ttl_s: float, now: float | None = None) -> tuple[list[Ended], int]:
        """Matches with no change for ttl_s: active ones end as EXPIRED (and are deleted ttl_s later);
        ended ones are deleted with their moves and seats. Returns (the expired, how many deleted).
        Both go through partial indexes on the age, in batches."""
        cutoff = (time.time() if now is None else now) - ttl_s
        expired: list[Ended] = []
        while True:
            with self._transaction() as db:
                rows = db.execute(
                    "SELECT match_id, move_number FROM matches WHERE status = 1 AND updated_at < ? LIMIT ?"
                    + self.SKIP_LOCKED,
                    (cutoff, EXPIRE_BATCH),
                ).fetchall()
                for match_id, move_number in rows:
                    self._end(db, match_id, EXPIRED)
                    expired.append(Ended(match_id, move_number, EXPIRED, (), ()))
            if len(rows) < EXPIRE_BATCH:
                break
        deleted = 0
        while True:
            with self._transaction() as db:
                ids = [
                    (mid,)
                    for (mid,) in db.execute(
                        "SELECT match_id FROM matches WHERE status != 1 AND updated_at < ? LIMIT ?"
                        + self.SKIP_LOCKED,
                        (cutoff, EXPIRE_BATCH),
                    )
                ]
                db.executemany("DELETE FROM moves WHERE match_id = ?", ids)
                db.executemany("DELETE FROM seats WHERE match_id = ?", ids)
                db.executemany("DELETE FROM matches WHERE match_id = ?", ids)
            deleted += len(ids)
            if len(ids) < EXPIRE_BATCH:
                break
        return expired, deleted

    # ---- AI seats and events ----

    def active_ai_matches(self) -> list[str]:
        """Matches being played that have AI seats (through a partial index)."""
        with self._reading() as db:
            rows = db.execute("SELECT match_id FROM matches WHERE status = 1 AND has_ai = 1").fetchall()
        return [mid for (mid,) in rows]

    def ai_turn(self, match_id: str) -> AiTurn | None:
        """The AI seat to move and its observation, or None (a human's turn, or the match is over)."""
        with self._reading() as db:
            row = self._row(db, match_id)
            meta = self._meta(db, match_id)
            specs = self._ai_specs(db, match_id)
        if meta.status != ACTIVE:
            return None
        state = row.state()
        if state.is_terminal():
            return None
        seat = int(state.current_player)
        spec = specs[seat] if seat < len(specs) else None
        if spec is None:
            return None
        observation = state.observation(seat)
        return AiTurn(match_id, row.game, seat, spec, observation, row.move_number, meta.creator)

    def history(self, match_id: str, after: int) -> History:
        """The moves after move number `after`, and the match's standing now."""
        with self._reading() as db:
            row = self._row(db, match_id)
            meta = self._meta(db, match_id)
            moves = db.execute(
                "SELECT move_number, seat, action, label, struct_json, by_ai, labels_json, events_json "
                "FROM moves "
                "WHERE match_id = ? AND move_number > ? ORDER BY move_number",
                (match_id, after),
            ).fetchall()
        records = tuple(
            MoveRecord(n, s, stored_action(row.game, row.players, s, a, label, sj, lj, ej), bool(ai))
            for n, s, a, label, sj, ai, lj, ej in moves
        )
        scores: tuple = ()
        ranks: tuple = ()
        current = meta.to_move
        status = meta.status
        if status != ACTIVE or current is None:
            state = row.state()
            if status == ACTIVE and state.is_terminal():
                status = FINISHED
            scores, ranks = _result(state, status, meta.resigned_seat)
            current = _current_player(state) if status == ACTIVE else -1
        return History(records, row.move_number, current, status, scores, ranks, meta.resigned_seat)

    def list_by_tokens(self, tokens: Sequence[str]) -> list[Summary]:
        """The matches these seat tokens belong to, most recently changed first (ties: by match id, then
        seat, so that every store lists them in one order)."""
        digests = sorted({_digest(t) for t in tokens})
        if not digests:
            return []
        marks = ", ".join("?" * len(digests))
        with self._reading() as db:
            rows = db.execute(
                "SELECT m.match_id, m.game, m.variant, m.players, s.seat, m.status, m.move_number, "
                "m.to_move, m.created_at, m.updated_at "
                "FROM seats s JOIN matches m ON m.match_id = s.match_id "
                f"WHERE s.token_sha256 IN ({marks}) ORDER BY m.updated_at DESC, m.match_id, s.seat",
                digests,
            ).fetchall()
            out = []
            for mid, game, variant, players, seat, status, moves, to_move, created, updated in rows:
                ai = tuple(spec is not None for spec in self._ai_specs(db, mid))
                if to_move is None:  # a schema-1 match: from its state
                    to_move = -1 if status != ACTIVE else _current_player(self._row(db, mid).state())
                current = to_move if status == ACTIVE else -1
                summary = Summary(
                    mid, game, variant, players, seat, status, moves, current, ai, created, updated
                )
                out.append(summary)
        return out

    def replay(self, match_id: str) -> Replay:
        with self._reading() as db:
            row = self._row(db, match_id)
            moves = db.execute(
                "SELECT move_number, seat, action, label, struct_json, labels_json FROM moves "
                "WHERE match_id = ? ORDER BY move_number",
                (match_id,),
            ).fetchall()
            meta = self._meta(db, match_id)
        state = row.state()
        status = meta.status if meta.status != ACTIVE or not state.is_terminal() else FINISHED
        scores, ranks = _result(state, status, meta.resigned_seat)
        return Replay(
            match_id=match_id,
            game=row.game,
            variant=row.variant,
            players=row.players,
            seed=row.seed,
            moves=tuple(
                (n, s, stored_action(row.game, row.players, s, a, label, sj, lj))
                for n, s, a, label, sj, lj in moves
            ),
            final_state_json=row.state_json,
            scores=scores,
            ranks=ranks,
            status=status,
            ended=_ending(meta),
        )

    @staticmethod
    def _check_turn(state: Any, seat: int) -> None:
        if state.is_terminal():
            raise precondition("match_id", "the game is over")
        if state.current_player != seat:
            raise precondition("seat", f"it is seat {state.current_player}'s turn, not seat {seat}'s")

    @staticmethod
    def _resolve_action(observation: Any, action_id: int | None, action_json: str | None) -> int:
        if action_json is not None:
            try:
                struct = json.loads(action_json)
            except (ValueError, RecursionError) as exc:
                raise invalid("action_json", f"malformed JSON: {exc}") from None
            if not isinstance(struct, dict):
                raise invalid("action_json", "must be a JSON object")
            try:
                return int(observation.action_from_struct(struct))
            except (GameInputError, TypeError, KeyError) as exc:
                raise invalid("action_json", str(exc)) from None
        if action_id is None:
            raise invalid("action", "give action_id or action_json")
        if action_id not in observation.legal_actions():
            raise invalid("action_id", f"{action_id} is not legal here; legal: {observation.legal_actions()}")
        return action_id


def replay_pictures(replay: Replay, seat: int, *, first: int = 0, last: int | None = None) -> dict[int, str]:
    """The board pictures of a match as `seat` (SPECTATOR: the public view) saw it, by position (0 = before
    the first move, n = after move n), from position `first` on. Earlier moves are replayed but not drawn:
    drawing is the dear part. Each picture is drawn from that viewer's observation only, so a match still
    being played may be drawn for the viewer that asks (the seed and the hidden moves stay on the server).
    `last`: the match's final position (default: after replay.moves), whose picture says how it ended
    (replay.ended)."""
    state = load_game(replay.game, players=replay.players, variant=replay.variant).new_initial_state(
        replay.seed
    )
    last = len(replay.moves) if last is None else last

    def picture(number: int) -> str:
        view = state.public_observation() if seat == SPECTATOR else state.observation(seat)
        return to_svg(view.to_dict(), ended=replay.ended if number == last else "")

    pictures = {0: picture(0)} if first <= 0 else {}
    for number, (_, _, action) in enumerate(replay.moves, start=1):
        state.apply(action.id)
        if number >= first:
            pictures[number] = picture(number)
    return pictures
