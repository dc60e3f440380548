"""Strength tournaments between bots: duplicate deals, a sequential test, ratings with intervals.

    from orrery.search.tournament import load_config, run_tournament, write_report
    config = load_config("search/tournament/examples/kuhn-sprt.toml", workers=2)
    summary = run_tournament(config)          # appends to config.results_path(); resumes if present
    files = write_report(summary.results)     # Markdown, HTML and an SVG ratings chart

See docs/tournaments.md for the config format and the statistics.
"""

from orrery.search.tournament._analysis import Analysis, PairResult, SeatStats, SprtOutcome, analyse
from orrery.search.tournament._config import (
    BotSpec,
    BudgetSpec,
    ConfigError,
    SprtSpec,
    TournamentConfig,
    config_from_dict,
    load_config,
)
from orrery.search.tournament._kinds import BotKind, bot_kinds, register_bot_kind
from orrery.search.tournament._ratings import Rating, fit_bradley_terry, rate
from orrery.search.tournament._report import ReportFiles, write_report
from orrery.search.tournament._results import ResultsError, read_results
from orrery.search.tournament._runner import RunSummary, run_tournament
from orrery.search.tournament._schedule import deal_seed, pairings, schedule
from orrery.search.tournament._stats import EloEstimate, SequentialTest, elo_estimate, llr_normalized

__all__ = [
    "Analysis",
    "BotKind",
    "BotSpec",
    "BudgetSpec",
    "ConfigError",
    "EloEstimate",
    "PairResult",
    "Rating",
    "ReportFiles",
    "ResultsError",
    "RunSummary",
    "SeatStats",
    "SequentialTest",
    "SprtOutcome",
    "SprtSpec",
    "TournamentConfig",
    "analyse",
    "bot_kinds",
    "config_from_dict",
    "deal_seed",
    "elo_estimate",
    "fit_bradley_terry",
    "llr_normalized",
    "load_config",
    "pairings",
    "rate",
    "read_results",
    "register_bot_kind",
    "run_tournament",
    "schedule",
    "write_report",
]
