"""Search results, one worker's report, and the root-parallel merge."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ActionStats:
    action: int  # the action id at the root
    label: str  # its human-readable label
    visits: int  # iterations that went through this action (summed over workers)
    mean_reward: float  # the searching seat's mean reward in [0, 1] after this action (0 if unvisited)
    availability: int  # iterations in which the action was legal at the root
    principal_variation: tuple[int, ...]  # most-visited line starting with this action


@dataclass(frozen=True)
class SearchResult:
    best_action: int  # the most visited root action (ties: higher mean reward, then lower id)
    best_label: str
    actions: tuple[ActionStats, ...]  # every legal root action, by visits, descending
    principal_variation: tuple[int, ...]  # the best action's line
    principal_variation_labels: tuple[str, ...]
    iterations: int  # total over workers
    tree_size: int  # nodes, total over workers
    max_depth: int  # deepest tree node below the root, over workers
    elapsed_s: float  # wall seconds from start to merged result
    workers: int  # workers the search started with
    workers_lost: int  # workers that died mid-search (their results are left out)
    cut_short: bool  # stopped by the deadline or a cancel before its own budget was spent
    seed: int

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class WorkerReport:
    """One worker's cumulative statistics for one search (sent back from Ray actors)."""

    root: tuple[tuple[int, int, float, int, tuple[int, ...]], ...]  # (action, visits, reward sum, avail, pv)
    iterations: int
    tree_size: int
    max_depth: int
    stop_reason: str  # "budget", "deadline" or "cancel"
    carried_visits: int = 0  # visits its root started with when the worker re-rooted a kept tree, else 0


def worker_seed(seed: int, worker: int) -> int:
    """An independent 64-bit seed per worker, so workers sample different determinizations."""
    x = (seed * 0x9E3779B97F4A7C15 + (worker + 1) * 0xD1B54A32D192ED03) % 2**64
    x ^= x >> 31
    x = (x * 0xBF58476D1CE4E5B9) % 2**64
    return x ^ (x >> 29)


def split_iterations(total: int | None, workers: int) -> list[int]:
    """Per-worker iteration quotas (-1: none). Worker i gets one more while the remainder lasts."""
    if total is None:
        return [-1] * workers
    return [total // workers + (1 if i < total % workers else 0) for i in range(workers)]


def merge_reports(
    observation,
    reports: Sequence[WorkerReport],
    *,
    seed: int,
    elapsed_s: float,
    workers: int,
    workers_lost: int,
    cut_short: bool,
) -> SearchResult:
    """Sum visits, rewards and availability per root action over the workers' reports."""
    legal = observation.legal_actions()
    totals: dict[int, list] = {a: [0, 0.0, 0, (a,), -1] for a in legal}
    for report in reports:
        for action, visits, reward_sum, avail, pv in report.root:
            entry = totals.setdefault(action, [0, 0.0, 0, (action,), -1])
            entry[0] += visits
            entry[1] += reward_sum
            entry[2] += avail
            if visits > entry[4]:  # the line from the worker that looked at this action most
                entry[3], entry[4] = tuple(pv), visits
    labels = {a: observation.action_label(a) for a in legal}

    def order(action: int) -> tuple:
        visits, reward_sum = totals[action][0], totals[action][1]
        return (-visits, -(reward_sum / visits if visits else 0.0), action)

    ranked = sorted(totals, key=order)
    stats = tuple(
        ActionStats(
            action=a,
            label=labels.get(a, str(a)),
            visits=totals[a][0],
            mean_reward=totals[a][1] / totals[a][0] if totals[a][0] else 0.0,
            availability=totals[a][2],
            principal_variation=totals[a][3],
        )
        for a in ranked
    )
    best = stats[0]
    return SearchResult(
        best_action=best.action,
        best_label=best.label,
        actions=stats,
        principal_variation=best.principal_variation,
        principal_variation_labels=line_labels(observation, best.principal_variation, seed),
        iterations=sum(r.iterations for r in reports),
        tree_size=sum(r.tree_size for r in reports),
        max_depth=max((r.max_depth for r in reports), default=0),
        elapsed_s=elapsed_s,
        workers=workers,
        workers_lost=workers_lost,
        cut_short=cut_short,
        seed=seed,
    )


LINE_SAMPLES = 4  # determinizations tried to label a line of play


def sampled_line_labels(observation, line: Sequence[int], seed: int) -> list[str]:
    """Labels for as much of a line of play as one determinization can play, trying up to
    LINE_SAMPLES of them and keeping the one that plays furthest: the tree's line was found across
    many determinizations, so a deep step can be illegal in any single one. Hidden details in the
    labels are a sample, not the truth."""
    rng = random.Random(seed)
    best: list[str] = []
    for _ in range(LINE_SAMPLES):
        state = observation.determinize(rng.getrandbits(63))
        labels: list[str] = []
        for action in line:
            if state.is_terminal() or not state.is_legal(action):
                break
            labels.append(state.action_label(action))
            state.apply(action)
        if len(labels) > len(best):
            best = labels
        if len(best) == len(line):
            break
    return best


def line_labels(observation, line: Sequence[int], seed: int) -> tuple[str, ...]:
    """Labels for a line of play (see sampled_line_labels); a step no sample could play is labelled
    by its id."""
    labels = sampled_line_labels(observation, line, seed)
    return tuple(labels) + tuple(str(a) for a in line[len(labels) :])


def forced_result(observation, *, seed: int) -> SearchResult:
    """The answer for a position with exactly one legal action, without searching: nothing was spent."""
    legal = observation.legal_actions()
    if len(legal) != 1:
        raise ValueError(f"a forced result needs exactly one legal action, got {len(legal)}")
    action = int(legal[0])
    label = str(observation.action_to_struct(action)["label"])
    stats = ActionStats(
        action=action, label=label, visits=0, mean_reward=0.0, availability=0, principal_variation=(action,)
    )
    return SearchResult(
        best_action=action,
        best_label=label,
        actions=(stats,),
        principal_variation=(action,),
        principal_variation_labels=(label,),
        iterations=0,
        tree_size=0,
        max_depth=0,
        elapsed_s=0.0,
        workers=0,
        workers_lost=0,
        cut_short=False,
        seed=seed,
    )
