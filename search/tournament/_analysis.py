"""From game records to the numbers a report shows: the SPRT, pairwise Elo, ratings, seat bias."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from orrery.search.tournament._config import TournamentConfig
from orrery.search.tournament._ratings import Rating, pairwise_points, rate
from orrery.search.tournament._schedule import Pairing, pairings
from orrery.search.tournament._stats import EloEstimate, SequentialTest, SprtState, elo_estimate

Record = dict[str, Any]


def _seat_pairs(seating: Sequence[str], a: str, b: str) -> list[tuple[int, int]]:
    return [(i, j) for i, x in enumerate(seating) if x == a for j, y in enumerate(seating) if y == b]


def score_denominator(pairing: Pairing, a: str, b: str) -> int:
    """Set scores of a against b are multiples of 1 / this (half points, averaged twice)."""
    per_game = [len(_seat_pairs(s, a, b)) for s in pairing.seatings]
    rotations = sum(1 for n in per_game if n)
    return 2 * rotations * math.lcm(*[n for n in per_game if n])


def set_score(games: Iterable[Record], a: str, b: str) -> Fraction:
    """a's mean pairwise score against b over the set's games, each game weighted equally."""
    total, count = Fraction(0), 0
    for record in games:
        pairs = _seat_pairs(record["seats"], a, b)
        if not pairs:
            continue
        half_points = sum(int(2 * pairwise_points(record["ranks"], i, j)) for i, j in pairs)
        total += Fraction(half_points, 2 * len(pairs))
        count += 1
    return total / count


class SetBook:
    """Records grouped by (pairing, set), knowing when a set has all its rotations."""

    def __init__(self, config: TournamentConfig) -> None:
        self.pairings = pairings(config)
        self.sets: dict[tuple[int, int], dict[int, Record]] = defaultdict(dict)

    def add(self, record: Record) -> bool:
        """Adds a record; returns False for a duplicate of a game already held."""
        games = self.sets[(record["pairing"], record["set"])]
        if record["rotation"] in games:
            return False
        games[record["rotation"]] = record
        return True

    def complete(self, pairing: int, set_index: int) -> list[Record] | None:
        games = self.sets.get((pairing, set_index), {})
        if len(games) < len(self.pairings[pairing].seatings):
            return None
        return [games[r] for r in sorted(games)]

    def complete_sets(self) -> list[tuple[tuple[int, int], list[Record]]]:
        out = []
        for key in sorted(self.sets):
            games = self.complete(*key)
            if games is not None:
                out.append((key, games))
        return out


class SprtTracker:
    """Feeds whole sets to the sequential test in set order, so the decision and the set it came at
    do not depend on which worker finished first."""

    def __init__(self, config: TournamentConfig) -> None:
        assert config.format == "sprt" and config.candidate is not None and config.baseline is not None
        self.candidate, self.baseline = config.candidate, config.baseline
        self.book = SetBook(config)
        pairing = self.book.pairings[0]
        self.games_per_set = len(pairing.seatings)
        self.test = SequentialTest(
            elo0=config.sprt.elo0,
            elo1=config.sprt.elo1,
            alpha=config.sprt.alpha,
            beta=config.sprt.beta,
            denominator=score_denominator(pairing, self.candidate, self.baseline),
            games_per_set=self.games_per_set,
        )
        self.next_set = 0

    def add(self, record: Record) -> str:
        self.book.add(record)
        while self.test.decision == "continue":
            games = self.book.complete(0, self.next_set)
            if games is None:
                break
            self.test.add(float(set_score(games, self.candidate, self.baseline)))
            self.next_set += 1
        return self.test.decision

    @property
    def sets_counted(self) -> int:
        return self.next_set


@dataclass(frozen=True)
class SprtOutcome:
    candidate: str
    baseline: str
    elo0: float  # normalised Elo bounds
    elo1: float
    alpha: float
    beta: float
    state: SprtState  # LLR, bounds, decision
    estimate: EloEstimate  # from the sets the test counted
    sets: int  # sets the test counted (up to and including the deciding one)
    games: int  # games in those sets
    games_after_decision: int  # games finished in flight after the decision; not counted


@dataclass(frozen=True)
class PairResult:
    a: str
    b: str
    estimate: EloEstimate  # a minus b


@dataclass(frozen=True)
class SeatStats:
    seat: int
    games: int
    win_rate: float  # share of games won (a shared first place splits the win)
    mean_return: float  # share of opponents beaten, ties half


@dataclass(frozen=True)
class BotStats:
    name: str
    versions: tuple[str, ...]
    games: int
    moves_per_game: float  # this bot's own decisions per game
    think_ms_per_move: float
    seat_returns: tuple[float, ...]  # mean return in each seat (nan where it never sat)


@dataclass(frozen=True)
class Analysis:
    config: TournamentConfig
    games_recorded: int
    games_in_complete_sets: int
    complete_sets: int
    deals_identical: bool  # every game of each set started from the same deal
    sprt: SprtOutcome | None
    pairs: tuple[PairResult, ...]
    ratings: tuple[Rating, ...]
    seats: tuple[SeatStats, ...]
    bots: tuple[BotStats, ...]


def _returns(ranks: Sequence[int]) -> list[float]:
    n = len(ranks)
    return [sum(pairwise_points(ranks, i, j) for j in range(n) if j != i) / (n - 1) for i in range(n)]


def analyse(config: TournamentConfig, records: Sequence[Record], *, resamples: int = 1000) -> Analysis:
    book = SetBook(config)
    for record in records:
        book.add(record)
    done = book.complete_sets()
    games = [g for _, set_games in done for g in set_games]
    deals_identical = all(len({g["deal_digest"] for g in set_games}) == 1 for _, set_games in done)
    deals_identical = deals_identical and all(
        len({g["deal_seed"] for (p, s), gs in book.sets.items() if s == set_index for g in gs.values()}) == 1
        for set_index in {s for _, s in book.sets}
    )
    return Analysis(
        config=config,
        games_recorded=sum(len(v) for v in book.sets.values()),
        games_in_complete_sets=len(games),
        complete_sets=len(done),
        deals_identical=deals_identical,
        sprt=_sprt(config, records),
        pairs=_pairs(config, book, done),
        ratings=_ratings(config, done, resamples),
        seats=_seats(config, games),
        bots=_bots(config, games),
    )


def _sprt(config: TournamentConfig, records: Sequence[Record]) -> SprtOutcome | None:
    if config.format != "sprt":
        return None
    tracker = SprtTracker(config)
    ordered = sorted(records, key=lambda r: (r["set"], r["rotation"]))
    for record in ordered:
        tracker.add(record)
    counted = tracker.sets_counted * tracker.games_per_set
    assert config.candidate is not None and config.baseline is not None
    return SprtOutcome(
        candidate=config.candidate,
        baseline=config.baseline,
        elo0=config.sprt.elo0,
        elo1=config.sprt.elo1,
        alpha=config.sprt.alpha,
        beta=config.sprt.beta,
        state=tracker.test.state(),
        estimate=tracker.test.estimate(),
        sets=tracker.sets_counted,
        games=counted,
        games_after_decision=(
            sum(len(v) for v in tracker.book.sets.values()) - counted
            if tracker.test.decision != "continue"
            else 0
        ),
    )


def _pairs(
    config: TournamentConfig, book: SetBook, done: list[tuple[tuple[int, int], list[Record]]]
) -> tuple[PairResult, ...]:
    scores: dict[tuple[str, str], list[Fraction]] = defaultdict(list)
    denominators: dict[tuple[str, str], int] = {}
    rotations: dict[tuple[str, str], int] = {}
    for (pairing_index, _), set_games in done:
        pairing = book.pairings[pairing_index]
        for i, a in enumerate(pairing.bots):
            for b in pairing.bots[i + 1 :]:
                scores[(a, b)].append(set_score(set_games, a, b))
                d = score_denominator(pairing, a, b)
                denominators[(a, b)] = math.lcm(denominators.get((a, b), 1), d)
                rotations[(a, b)] = sum(1 for s in pairing.seatings if a in s and b in s)
    out = []
    for (a, b), values in scores.items():
        d = denominators[(a, b)]
        counts = [0] * (d + 1)
        for v in values:
            counts[int(v * d)] += 1
        out.append(PairResult(a, b, elo_estimate(counts, games_per_set=rotations[(a, b)])))
    return tuple(out)


def _ratings(
    config: TournamentConfig, done: list[tuple[tuple[int, int], list[Record]]], resamples: int
) -> tuple[Rating, ...]:
    names = [b.name for b in config.bots]
    index = {n: i for i, n in enumerate(names)}
    sets = [[([index[n] for n in g["seats"]], g["ranks"]) for g in set_games] for _, set_games in done]
    anchor = config.baseline if config.baseline is not None else None
    return rate(names, sets, anchor=anchor, resamples=resamples, seed=config.seed)


def _seats(config: TournamentConfig, games: Sequence[Record]) -> tuple[SeatStats, ...]:
    out = []
    for seat in range(config.players):
        wins = returns = 0.0
        for g in games:
            ranks = g["ranks"]
            if ranks[seat] == min(ranks):
                wins += 1.0 / ranks.count(ranks[seat])
            returns += _returns(ranks)[seat]
        n = len(games)
        out.append(SeatStats(seat, n, wins / n if n else math.nan, returns / n if n else math.nan))
    return tuple(out)


def _bots(config: TournamentConfig, games: Sequence[Record]) -> tuple[BotStats, ...]:
    out = []
    for spec in config.bots:
        versions: set[str] = set()
        played = moves = 0
        think = 0.0
        seat_sum = [0.0] * config.players
        seat_count = [0] * config.players
        for g in games:
            if spec.name not in g["seats"]:
                continue
            played += 1
            returns = _returns(g["ranks"])
            for seat, name in enumerate(g["seats"]):
                if name == spec.name:
                    versions.add(g["bot_versions"][seat])
                    moves += g["moves_by_seat"][seat]
                    think += g["think_s"][seat]
                    seat_sum[seat] += returns[seat]
                    seat_count[seat] += 1
        out.append(
            BotStats(
                name=spec.name,
                versions=tuple(sorted(versions)),
                games=played,
                moves_per_game=moves / played if played else math.nan,
                think_ms_per_move=1000.0 * think / moves if moves else math.nan,
                seat_returns=tuple(
                    s / c if c else math.nan for s, c in zip(seat_sum, seat_count, strict=True)
                ),
            )
        )
    return tuple(out)
