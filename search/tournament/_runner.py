"""Run a tournament: schedule the games not yet in the results file, play them on the chosen
backend, append each record as it arrives, and stop early when the SPRT decides."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import IO, Any

from orrery.core_ext import load_game
from orrery.search._config import SearchConfig
from orrery.search._shipped import check_evaluation
from orrery.search.tournament._analysis import SprtTracker
from orrery.search.tournament._config import ConfigError, TournamentConfig
from orrery.search.tournament._play import build_bot, play_game
from orrery.search.tournament._results import ResultsWriter
from orrery.search.tournament._schedule import GameTask, games_per_set, schedule

OnResult = Callable[[dict[str, Any]], bool]  # returns False to stop scheduling new games


@dataclass(frozen=True)
class RunSummary:
    results: str  # path of the JSONL file
    games_total: int  # games the full schedule holds
    games_done: int  # games in the file now
    games_played: int  # games played by this run (the rest were there already)
    decision: str | None  # sprt: "H1", "H0" or "continue"; None for other formats
    llr: float | None
    elapsed_s: float
    stopped: bool  # stopped by max_games before the schedule (or the SPRT) finished


class Progress:
    """One line on stderr: games done, games per minute, ETA and, for an SPRT, the live LLR."""

    def __init__(self, total: int, done: int, *, stream: IO[str] | None = None, interval_s: float = 0.5):
        self.total, self.start_done = total, done
        self.stream = stream if stream is not None else sys.stderr
        self.interval_s = interval_s
        self.started = time.monotonic()
        self.last_draw = -math.inf
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def line(self, done: int, llr_text: str = "") -> str:
        elapsed = time.monotonic() - self.started
        played = done - self.start_done
        rate = played / elapsed * 60.0 if elapsed > 0 and played else 0.0
        eta = (self.total - done) / rate * 60.0 if rate else math.inf
        width = 24
        filled = int(width * done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        eta_text = "--" if math.isinf(eta) else _duration(eta)
        return f"[{bar}] {done}/{self.total} games  {rate:.1f} games/min  ETA {eta_text}{llr_text}"

    def update(self, done: int, llr_text: str = "", *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_draw < (self.interval_s if self.tty else 10 * self.interval_s):
            return
        self.last_draw = now
        text = self.line(done, llr_text)
        if self.tty:
            self.stream.write("\r" + text + "\x1b[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self, done: int, llr_text: str = "") -> None:
        self.update(done, llr_text, force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def _play_inline(tasks: Iterator[GameTask], on_result: OnResult, workers: int) -> None:
    for task in tasks:
        if not on_result(play_game(task)):
            return


def _play_processes(tasks: Iterator[GameTask], on_result: OnResult, workers: int) -> None:
    # spawn, not fork: the driver may hold threads (Ray, gRPC) that a forked child would inherit.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        go_on = True
        try:
            while True:
                while go_on and len(pending) < 2 * workers:
                    task = next(tasks, None)
                    if task is None:
                        break
                    pending.add(pool.submit(play_game, task))
                if not pending:
                    return
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    go_on = on_result(future.result()) and go_on
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _play_ray(tasks: Iterator[GameTask], on_result: OnResult, workers: int, address: str | None) -> None:
    import ray

    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address)
        else:
            ray.init(num_cpus=workers)
    remote_play = ray.remote(num_cpus=1)(play_game)
    pending: list[Any] = []
    go_on = True
    while True:
        while go_on and len(pending) < 2 * workers:
            task = next(tasks, None)
            if task is None:
                break
            pending.append(remote_play.remote(task))
        if not pending:
            return
        finished, pending = ray.wait(pending, num_returns=1)
        for ref in finished:
            go_on = on_result(ray.get(ref)) and go_on


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _terminate_as_interrupt() -> Any:
    """SIGTERM unwinds like Ctrl-C, so the worker pool is shut down instead of left orphaned."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def _check_playable(config: TournamentConfig) -> None:
    """Fail before writing anything when the game or a bot cannot be made."""
    try:
        game = load_game(config.game, players=config.players, variant=config.variant)
    except ValueError as exc:
        raise ConfigError(f"game: {exc}") from None
    setting = (str(game.variant), int(game.num_players))
    for spec in config.bots:
        try:
            bot = build_bot(spec, spec.budget or config.budget, config.game, setting=setting)
            # a search asking for a learned model this setting lacks would fail only at its first move,
            # inside a worker process
            search_config = getattr(bot, "config", None)
            if isinstance(search_config, SearchConfig):
                check_evaluation(search_config, config.game, *setting)
        except (ValueError, KeyError, TypeError, ImportError, AttributeError) as exc:
            raise ConfigError(f"bot {spec.name!r}: {exc}") from None


def run_tournament(
    config: TournamentConfig,
    *,
    progress: bool | IO[str] = True,
    max_games: int | None = None,
) -> RunSummary:
    """Play every scheduled game missing from config.results_path(), appending as they finish.

    max_games stops scheduling after that many new games (for smoke runs, and to test resuming).
    """
    started = time.monotonic()
    _check_playable(config)
    writer = ResultsWriter(config.results_path(), config)
    done_keys = {(r["pairing"], r["set"], r["rotation"]) for r in writer.records}
    tracker = SprtTracker(config) if config.format == "sprt" else None
    if tracker is not None:
        for record in sorted(writer.records, key=lambda r: (r["set"], r["rotation"])):
            tracker.add(record)
    total = config.sets * games_per_set(config)
    bar = None
    if progress:
        bar = Progress(total, len(done_keys), stream=None if progress is True else progress)
    played = 0

    def llr_text() -> str:
        if tracker is None:
            return ""
        s = tracker.test.state()
        return f"  LLR {s.llr:+.2f} [{s.lower_corrected:.2f}, {s.upper_corrected:.2f}] {s.decision}"

    def pending() -> Iterator[GameTask]:
        for task in schedule(config):
            if tracker is not None and tracker.test.decision != "continue":
                return
            if max_games is not None and played >= max_games:
                return
            if task.key not in done_keys:
                yield task

    def on_result(record: dict[str, Any]) -> bool:
        nonlocal played
        writer.append(record)
        played += 1
        decision = tracker.add(record) if tracker is not None else "continue"
        if bar is not None:
            bar.update(len(writer.records), llr_text())
        return decision == "continue" and (max_games is None or played < max_games)

    previous_handler = _terminate_as_interrupt()
    try:
        if config.backend == "inline":
            _play_inline(pending(), on_result, config.workers)
        elif config.backend == "processes":
            _play_processes(pending(), on_result, config.workers)
        else:
            _play_ray(pending(), on_result, config.workers, config.ray_address)
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGTERM, previous_handler)
        writer.close()
        if bar is not None:
            bar.finish(len(writer.records), llr_text())
    decided = tracker is not None and tracker.test.decision != "continue"
    stopped = not decided and len(writer.records) < total
    return RunSummary(
        results=str(config.results_path()),
        games_total=total,
        games_done=len(writer.records),
        games_played=played,
        decision=tracker.test.decision if tracker is not None else None,
        llr=tracker.test.llr if tracker is not None else None,
        elapsed_s=time.monotonic() - started,
        stopped=stopped,
    )
