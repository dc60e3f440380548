"""Hosted matches: SQLite storage plus the referee logic, one transaction per change.

Every change (create, apply) runs inside `BEGIN IMMEDIATE ... COMMIT`: the state is loaded, the
request validated against it, the game advanced on a copy, and only then are the new state and the
move written. Any error rolls the transaction back, so a bad request never changes a match, and a
crash or restart loses nothing that was acknowledged (synchronous=FULL).

Nothing here is game-specific: every game goes through core_ext's State/Observation interface.
Tokens are stored as SHA-256 digests, never in the clear.

Stored states follow the games' JSON formats. A database written before those were versioned per game
(schema 1: the retired "orrery.state/1") is upgraded when it is opened, every match in one
transaction, or not at all: if any stored state cannot be upgraded the server refuses to start, names
the matches, and leaves the database as it was (docs/api.md, "Hosted matches").
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from orrery.core_ext import GameInputError, game_info, load_game
from orrery.service._errors import invalid, not_found, precondition

# 1: state_json in the retired shared format "orrery.state/1"; 2: in each game's own versioned format
SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed TEXT NOT NULL,            -- uint64 as text: SQLite integers are signed 64-bit
    state_json TEXT NOT NULL,      -- the full state, in the game's format ("orrery.trian.state/2")
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


class StoredMatchesError(RuntimeError):
    """Stored matches this server cannot read; the database was left unchanged."""


@dataclass(frozen=True)
class ActionView:
    id: int
    label: str
    struct_json: str


@dataclass(frozen=True)
class CreatedMatch:
    match_id: str
    game: str
    variant: str
    players: int
    tokens: tuple[str, ...]  # one per seat
    current_player: int


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


@dataclass(frozen=True)
class AppliedAction:
    action: ActionView
    move_number: int
    current_player: int
    game_over: bool


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
        return load_game(self.game, players=self.players, variant=self.variant).state_from_json(
            self.state_json
        )


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def action_view(view: Any, action: int) -> ActionView:
    """An action as id, label and structured JSON, from a State or an Observation that can see it."""
    struct = view.action_to_struct(action)
    return ActionView(int(action), str(struct["label"]), json.dumps(struct, sort_keys=True))


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


class MatchStore:
    """All hosted matches. Thread-safe (one lock); the server calls it from one worker thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, 1, SCHEMA_VERSION):
            raise RuntimeError(f"{path}: match database schema {version}, this server knows {SCHEMA_VERSION}")
        self._db.executescript(SCHEMA)
        if version == 1:
            try:
                self._upgrade_stored_states()
            except BaseException:
                self._db.close()
                raise
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _upgrade_stored_states(self) -> None:
        """Schema 1 to 2: every stored state from the retired format into its game's current one, all
        in one transaction; if any cannot be upgraded, nothing is and the server does not start."""
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
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _row(self, db: sqlite3.Connection, match_id: str) -> _Row:
        found = db.execute(
            "SELECT match_id, game, variant, players, seed, state_json, move_number, finished "
            "FROM matches WHERE match_id = ?",
            (match_id,),
        ).fetchone()
        if found is None:
            raise not_found("match_id", f"no match {match_id[:64]!r}")
        mid, game, variant, players, seed, state_json, move_number, finished = found
        return _Row(mid, game, variant, players, int(seed), state_json, move_number, bool(finished))

    # ---- queries used by every seat-scoped call ----

    def check_seat_token(self, match_id: str, seat: int, token: str) -> bool:
        """True if `token` is seat's token. Raises NOT_FOUND / INVALID_ARGUMENT for a bad match or seat."""
        with self._lock:
            row = self._row(self._db, match_id)
            if not 0 <= seat < row.players:
                raise invalid("seat", f"{seat} is not a seat of this {row.players}-player match")
            (stored,) = self._db.execute(
                "SELECT token_sha256 FROM seats WHERE match_id = ? AND seat = ?", (match_id, seat)
            ).fetchone()
        return hmac.compare_digest(stored, _digest(token))

    def active_count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM matches WHERE finished = 0").fetchone()[0])

    # ---- the API ----

    def create(self, game: str, players: int, variant: str | None, seed: int | None) -> CreatedMatch:
        g = resolve_game(game, players, variant)
        seed = secrets.randbits(63) if seed is None else seed
        state = g.new_initial_state(seed)
        match_id = uuid.uuid4().hex
        tokens = tuple(secrets.token_urlsafe(24) for _ in range(players))
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (
                    match_id,
                    game,
                    g.variant,
                    players,
                    str(seed),
                    state.to_json(),
                    int(state.is_terminal()),
                    now,
                    now,
                ),
            )
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?)",
                [(match_id, seat, _digest(token)) for seat, token in enumerate(tokens)],
            )
        return CreatedMatch(match_id, game, g.variant, players, tokens, _current_player(state))

    def seat_view(self, match_id: str, seat: int) -> SeatView:
        with self._lock:
            row = self._row(self._db, match_id)
        state = row.state()
        observation = state.observation(seat)
        legal = tuple(action_view(observation, a) for a in observation.legal_actions())
        over = state.is_terminal()
        return SeatView(
            match_id=match_id,
            seat=seat,
            observation_json=observation.to_json(),
            rendered=observation.render(),
            legal_actions=legal,
            current_player=_current_player(state),
            game_over=over,
            move_number=row.move_number,
            scores=tuple(state.scores()) if over else (),
            ranks=tuple(state.ranks()) if over else (),
        )

    def observation(self, match_id: str, seat: int) -> Any:
        """The seat's Observation object (for search), after checking it is that seat's turn."""
        with self._lock:
            row = self._row(self._db, match_id)
        state = row.state()
        self._check_turn(state, seat)
        return state.observation(seat)

    def apply(
        self,
        match_id: str,
        seat: int,
        *,
        action_id: int | None = None,
        action_json: str | None = None,
        expected_move_number: int | None = None,
    ) -> AppliedAction:
        with self._transaction() as db:
            row = self._row(db, match_id)
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
            state.apply(action)
            move_number = row.move_number + 1
            db.execute(
                "UPDATE matches SET state_json = ?, move_number = ?, finished = ?, updated_at = ? "
                "WHERE match_id = ?",
                (state.to_json(), move_number, int(state.is_terminal()), time.time(), match_id),
            )
            db.execute(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, move_number, seat, action, applied.label, applied.struct_json),
            )
        return AppliedAction(applied, move_number, _current_player(state), state.is_terminal())

    def replay(self, match_id: str) -> Replay:
        with self._lock:
            row = self._row(self._db, match_id)
            moves = self._db.execute(
                "SELECT move_number, seat, action, label, struct_json FROM moves "
                "WHERE match_id = ? ORDER BY move_number",
                (match_id,),
            ).fetchall()
        if not row.finished:
            # The seed and the moves would reveal hidden information (the deal, private choices).
            raise precondition("match_id", "the match is still being played; its replay opens when it ends")
        state = row.state()
        return Replay(
            match_id=match_id,
            game=row.game,
            variant=row.variant,
            players=row.players,
            seed=row.seed,
            moves=tuple((n, s, ActionView(a, label, sj)) for n, s, a, label, sj in moves),
            final_state_json=row.state_json,
            scores=tuple(state.scores()),
            ranks=tuple(state.ranks()),
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
