"""Hints a player can act on: outcome, final score, gap to the best move, the line by turn, and what a
move changes this turn, each in the game's own terms (issue 25, part 5).

The search's root statistics say how often it tried a move and its mean reward in [0, 1]; a player
cannot act on "value 0.557". This module turns a finished search into hints with a short, seeded
rollout pass after the search (docs/search.md, "Hints", says why a pass and not kernel accumulators,
and how accurate it is):

- for every hinted root move and for rollout r = 0, 1, ..., the same determinization r of the asking
  seat's observation (common random numbers, so two moves are compared on the same samples),
- play the move, then the rest of the seat's turn along that move's principal variation, then the
  game's heuristic playout policy for every seat to the end,
- and record the seat's final score, place and outcome, and its visible tallies before the move, after
  it, and after the rest of its turn.

Everything starts from the observation: determinize() samples what the seat cannot see, tallies are
read from the seat's own observation of each sample, and line labels are move_label() as the seat sees
the move. Two true states the seat cannot tell apart give the same observation, so the same hints.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from orrery.search._result import LINE_SAMPLES, SearchResult

ROLLOUTS_PER_MOVE = 32  # rollouts per hinted move when nothing else limits them
MIN_ROLLOUTS_PER_MOVE = 8  # always done, even past the time limit, so every hint has a sample
MAX_ROLLOUTS = 256  # over all hinted moves: a top_k of 64 gets 8 rollouts each, not 32
UNKNOWN_SEAT = -1  # a turn group of line steps no sampled determinization could play


@dataclass(frozen=True)
class Tally:
    name: str  # what is counted, in the game's words ("credits", "energy", "colonies")
    change: float  # mean change over the rollouts' determinizations (the game's units)


@dataclass(frozen=True)
class TurnGroup:
    seat: int  # the seat that plays these steps; UNKNOWN_SEAT for steps no sample could play
    seat_name: str  # "you", "seat 2" (0-based, as the clients number seats), or "later"
    labels: tuple[str, ...]  # the steps as the asking seat sees them (move_label)


@dataclass(frozen=True)
class MoveHint:
    action: int
    # Chance the seat (its team) wins, in [0, 1]; a first place shared with another side counts its
    # share. Solo: the chance to beat the game's solo opponent; None when the solo game has none.
    win_chance: float | None
    expected_place: float | None  # mean finishing place in [1, players], 1 = first; None solo
    expected_score: float  # mean final score in the game's units (score_unit)
    score_behind: float  # best move's expected_score minus this one's; 0 for the best, < 0 if ahead
    # Standard error of score_behind: the rollouts pair each move's samples (the same determinizations
    # and playout seeds), so this is the spread of the per-rollout differences / sqrt(rollouts).
    score_behind_error: float
    value_behind: float  # best move's searched value minus this one's (search reward units, [0, 1])
    this_move: tuple[Tally, ...]  # what the move itself changes (every tally, zeros included)
    this_turn: tuple[Tally, ...]  # the change after the rest of this seat's turn along the line
    turns: tuple[TurnGroup, ...]  # the move's principal variation, grouped by turn
    rollouts: int


@dataclass(frozen=True)
class Hints:
    seat: int  # the asking seat
    players: int
    sides: int  # teams, or seats where there are none: 2 sides -> show win_chance, more -> place
    score_unit: str  # what the game's score counts ("credits", "renown", "points", "chips")
    best_action: int  # the search's best move, the reference for score_behind and value_behind
    moves: tuple[MoveHint, ...]  # in the order asked for
    principal_variation: tuple[TurnGroup, ...]  # the search's line from the root, grouped by turn
    rollouts_per_move: int
    elapsed_s: float  # wall seconds the rollout pass took

    def for_action(self, action: int) -> MoveHint | None:
        return next((m for m in self.moves if m.action == action), None)

    def to_dict(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------- the per-game hook


@dataclass(frozen=True)
class HintHooks:
    score_unit: str
    solo_win: bool  # a one-seat game has a win (returns() 1) rather than only a score to reach
    # The seat's visible tallies, read from its own observation (Observation.to_dict()["state"]).
    tallies: Callable[[dict, int], dict[str, float]]


def hooks_for(game_name: str) -> HintHooks:
    """The game's hint hooks: core_ext/<game>/hints.py defines SCORE_UNIT and tallies(state, seat)."""
    module = importlib.import_module(f"orrery.core_ext.{game_name}.hints")
    return HintHooks(score_unit=module.SCORE_UNIT, solo_win=module.SOLO_WIN, tallies=module.tallies)


SCORE_TALLY = "score"  # the tally of the seat's current score (in the game's score_unit)


def visible_tallies(hooks: HintHooks, observation, seat: int, score: float) -> dict[str, float]:
    """The seat's tallies from its own view, with its current score first."""
    counts = {SCORE_TALLY: float(score)}
    for name, value in hooks.tallies(observation.to_dict()["state"], seat).items():
        counts.setdefault(name, float(value))
    return counts


# ---------------------------------------------------------------- the rollout pass


def rollouts_per_move(moves: int) -> int:
    return max(MIN_ROLLOUTS_PER_MOVE, min(ROLLOUTS_PER_MOVE, MAX_ROLLOUTS // max(1, moves)))


def build_hints(
    observation,
    result: SearchResult,
    actions: Sequence[int],
    *,
    seed: int,
    time_limit_s: float | None = None,
) -> Hints:
    """Hints for `actions` (root moves of `result`) from the asking seat's observation.

    Rollouts run in rounds, one per move and round, on determinization r of round r; after
    MIN_ROLLOUTS_PER_MOVE rounds, `time_limit_s` (None: none, so the answer depends on the seed only)
    may end the pass early."""
    started = time.perf_counter()
    game = observation.game
    seat = observation.observer
    hooks = hooks_for(game.name)
    stats = {a.action: a for a in result.actions}
    wanted = list(dict.fromkeys([result.best_action, *actions]))
    lines = {a: stats[a].principal_variation if a in stats else (a,) for a in wanted}
    planned = rollouts_per_move(len(wanted))
    rng = random.Random(seed)
    round_seeds = [(rng.getrandbits(63), rng.getrandbits(63)) for _ in range(planned)]
    samples: dict[int, list[_Rollout]] = {a: [] for a in wanted}
    for done, (det_seed, playout_seed) in enumerate(round_seeds):
        out_of_time = time_limit_s is not None and time.perf_counter() - started > time_limit_s
        if out_of_time and done >= MIN_ROLLOUTS_PER_MOVE:
            break
        for action in wanted:
            samples[action].append(_rollout(observation, lines[action], hooks, det_seed, playout_seed))
    label_seed = rng.getrandbits(63)
    best = _summary(result.best_action, samples, stats, None, lines, observation, label_seed)
    moves = tuple(
        best if a == result.best_action else _summary(a, samples, stats, best, lines, observation, label_seed)
        for a in wanted
    )
    return Hints(
        seat=seat,
        players=game.num_players,
        sides=len(set(game.seat_teams())),
        score_unit=hooks.score_unit,
        best_action=result.best_action,
        moves=moves,
        principal_variation=line_turns(observation, result.principal_variation, label_seed),
        rollouts_per_move=len(samples[result.best_action]),
        elapsed_s=time.perf_counter() - started,
    )


@dataclass(frozen=True)
class _Rollout:
    win: float
    rank: int
    score: float
    before: dict[str, float]
    after_move: dict[str, float]
    after_turn: dict[str, float]


def _rollout(observation, line: Sequence[int], hooks: HintHooks, det_seed: int, playout_seed: int):
    seat = observation.observer
    state = observation.determinize(det_seed)
    before = visible_tallies(hooks, state.observation(seat), seat, state.scores()[seat])
    state.apply(line[0])
    after_move = visible_tallies(hooks, state.observation(seat), seat, state.scores()[seat])
    step = 1
    while (
        step < len(line)
        and not state.is_terminal()
        and state.current_player == seat
        and state.is_legal(line[step])
    ):
        state.apply(line[step])
        step += 1
    after_turn = visible_tallies(hooks, state.observation(seat), seat, state.scores()[seat])
    if not state.is_terminal():
        state.playout(playout_seed, True)
    ranks = state.ranks()
    if len(ranks) == 1:  # solo: the game's own result against its solo opponent (1 a win)
        win = float(state.returns()[0]) if hooks.solo_win else 0.0
    else:  # first place, shared between the sides (teams) that hold it
        teams = observation.game.seat_teams()
        firsts = {teams[s] for s, r in enumerate(ranks) if r == 0}
        win = 1.0 / len(firsts) if ranks[seat] == 0 else 0.0
    return _Rollout(win, ranks[seat], state.scores()[seat], before, after_move, after_turn)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _paired_error(best: Sequence[_Rollout], mine: Sequence[_Rollout]) -> float:
    diffs = [b.score - m.score for b, m in zip(best, mine, strict=False)]
    if len(diffs) < 2:
        return 0.0
    mean = _mean(diffs)
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return (variance / len(diffs)) ** 0.5


def _changes(samples: Sequence[_Rollout], later: str, earlier: str) -> tuple[Tally, ...]:
    names = list(getattr(samples[0], earlier)) if samples else []
    return tuple(
        Tally(name, _mean([getattr(s, later)[name] - getattr(s, earlier)[name] for s in samples]))
        for name in names
    )


def _summary(action, samples, stats, best: MoveHint | None, lines, observation, label_seed) -> MoveHint:
    mine = samples[action]
    players = observation.game.num_players
    solo_win = hooks_for(observation.game.name).solo_win
    score = _mean([s.score for s in mine])
    value = stats[action].mean_reward if action in stats else 0.0
    best_value = stats[best.action].mean_reward if best is not None and best.action in stats else value
    return MoveHint(
        action=action,
        win_chance=_mean([s.win for s in mine]) if players > 1 or solo_win else None,
        expected_place=1.0 + _mean([s.rank for s in mine]) if players > 1 else None,
        expected_score=score,
        score_behind=0.0 if best is None else best.expected_score - score,
        score_behind_error=0.0 if best is None else _paired_error(samples[best.action], mine),
        value_behind=best_value - value,
        this_move=_changes(mine, "after_move", "before"),
        this_turn=_changes(mine, "after_turn", "before"),
        turns=line_turns(observation, lines[action], label_seed),
        rollouts=len(mine),
    )


# ---------------------------------------------------------------- a line of play, by turn


def seat_name(seat: int, viewer: int) -> str:
    if seat == UNKNOWN_SEAT:
        return "later"
    return "you" if seat == viewer else f"seat {seat}"


def line_turns(observation, line: Sequence[int], seed: int) -> tuple[TurnGroup, ...]:
    """The line grouped into turns (one group per run of consecutive steps by one seat), labelled as
    the asking seat sees each move. Like sampled_line_labels, it keeps the sampled determinization
    that plays furthest; steps none could play form a last group with UNKNOWN_SEAT, labelled by id."""
    viewer = observation.observer
    rng = random.Random(seed)
    best: list[tuple[int, str]] = []
    for _ in range(LINE_SAMPLES):
        state = observation.determinize(rng.getrandbits(63))
        steps: list[tuple[int, str]] = []
        for action in line:
            if state.is_terminal() or not state.is_legal(action):
                break
            mover = state.current_player
            label = state.action_label(action) if mover == viewer else state.move_label(action, viewer)
            steps.append((mover, label))
            state.apply(action)
        if len(steps) > len(best):
            best = steps
        if len(best) == len(line):
            break
    best.extend((UNKNOWN_SEAT, str(a)) for a in line[len(best) :])
    groups: list[tuple[int, list[str]]] = []
    for mover, label in best:
        if groups and groups[-1][0] == mover:
            groups[-1][1].append(label)
        else:
            groups.append((mover, [label]))
    return tuple(TurnGroup(s, seat_name(s, viewer), tuple(labels)) for s, labels in groups)
