"""`orrery tournament run CONFIG` and `orrery tournament report RESULTS`."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from orrery.core_ext._paths import data_dir
from orrery.search.tournament._analysis import analyse
from orrery.search.tournament._config import ConfigError, load_config
from orrery.search.tournament._report import DECISIONS, write_report
from orrery.search.tournament._results import ResultsError, read_results
from orrery.search.tournament._runner import run_tournament

EXAMPLES = Path(__file__).resolve().parent / "examples"


def config_file(given: str) -> Path:
    """The TOML file: the path as given, else a bundled example of that name (with or without its folder
    and .toml), so the README's examples run from any directory."""
    path = Path(given)
    if path.is_file():
        return path
    example = EXAMPLES / (path.name if path.suffix == ".toml" else f"{path.name}.toml")
    if example.is_file():
        return example
    names = ", ".join(sorted(p.stem for p in EXAMPLES.glob("*.toml")))
    raise ConfigError(f"{given}: no such file, and no bundled example of that name (examples: {names})")


def results_file(config_results: str | None, name: str, given: str | None) -> str:
    """Where the results go: --results as given (relative to the current directory); else the config's
    `results`. A relative one with a folder that exists here (the repository's balance-results/, run from
    its root) is kept relative to the current directory; a bare file name, the default <name>.jsonl, or
    a folder that is not here lies in the data folder's tournaments/ (docs/tournaments.md)."""
    if given:
        return given
    path = Path(config_results or f"{name}.jsonl")
    if path.is_absolute() or (path.parent != Path(".") and path.parent.is_dir()):
        return str(path)
    return str(data_dir("tournaments") / path)


def _run(args: argparse.Namespace) -> int:
    try:
        config = load_config(config_file(args.config), workers=args.workers, backend=args.backend)
        config = replace(config, results=results_file(config.results, config.name, args.results))
        summary = run_tournament(config, progress=not args.quiet, max_games=args.max_games)
    except (ConfigError, ResultsError) as exc:
        print(f"orrery tournament: {exc}", file=sys.stderr)
        return 2
    print(
        f"{summary.games_done}/{summary.games_total} games in {summary.results} "
        f"({summary.games_played} played now, {summary.elapsed_s:.1f} s)"
    )
    if summary.decision is not None:
        _, records = read_results(summary.results)
        sprt = analyse(config, records, resamples=0).sprt
        assert sprt is not None
        e, st = sprt.estimate, sprt.state
        print(
            DECISIONS[summary.decision].format(
                candidate=sprt.candidate, baseline=sprt.baseline, elo1=sprt.elo1
            )
        )
        print(
            f"LLR {st.llr:.3f} [{st.lower_corrected:.3f}, {st.upper_corrected:.3f}] after {sprt.sets} sets"
            f" ({sprt.games} games); Elo {e.elo:.1f} [{e.elo_low:.1f}, {e.elo_high:.1f}],"
            f" nElo {e.nelo:.1f} [{e.nelo_low:.1f}, {e.nelo_high:.1f}], LOS {100 * e.los:.1f}%"
        )
    if summary.stopped:
        print("stopped before the end; run the same command again to resume")
    if args.report:
        files = write_report(summary.results)
        print(f"report: {files.markdown}, {files.html}")
    return 0


def _report(args: argparse.Namespace) -> int:
    try:
        files = write_report(args.results, args.out, resamples=args.resamples)
    except ResultsError as exc:
        print(f"orrery tournament: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {files.markdown}, {files.html} and {files.chart}")
    return 0


def _ladder(args: argparse.Namespace) -> int:
    import json

    from orrery.search.tournament._ladder import ladder_config, ladder_json, run_ladder

    ladder_name = (
        f"ladder-{args.game}-{args.variant or 'default'}-{args.players}p"  # as ladder_config names it
    )
    try:
        config = ladder_config(
            game=args.game,
            players=args.players,
            variant=args.variant,
            levels=tuple(args.levels.split(",")),
            sets=args.sets,
            seed=args.seed,
            workers=args.workers,
            backend=args.backend,
            results=results_file(None, ladder_name, args.results),
        )
        ladder = run_ladder(config, resamples=args.resamples, progress=not args.json)
    except (ConfigError, ResultsError, ValueError) as exc:
        print(f"orrery bench ladder: {exc}", file=sys.stderr)
        return 2
    result = ladder_json(ladder)
    if args.json:
        print(json.dumps(result))
        return 0
    setting = f"{result['game']} {result['variant'] or '(default)'} {result['players']}p"
    print(f"{setting}, {ladder.complete_sets} sets")
    for r in result["ratings"]:
        print(f"  {r['bot']:10} {r['elo']:8.1f}  [{r['low']:.1f}, {r['high']:.1f}]  {r['games']} games")
    for s in result["steps"]:
        gap = "separated" if s["separated"] else "intervals overlap"
        line = f"  {s['lower']} -> {s['upper']}: {s['elo_gap']:+.1f} Elo ({gap})"
        h2h = s["head_to_head"]
        if h2h is not None:
            apart = "at least 150 apart" if s["apart_150"] else "not shown 150 apart"
            line += f"; head to head {h2h['elo']:+.1f} [{h2h['low']:+.1f}, {h2h['high']:+.1f}] ({apart})"
        print(line)
    for pair in result["pairs"]:
        print(f"  {pair['a']} vs {pair['b']}: {pair['score']:.2f} for {pair['a']} ({pair['games']} games)")
    return 0


def register(commands, bench) -> None:
    parser = commands.add_parser(
        "tournament", help="strength tournaments between bots (duplicate deals, SPRT)"
    )
    sub = parser.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")
    p = sub.add_parser("run", help="play (or resume) the tournament a TOML config describes")
    p.add_argument("config", help="TOML file, or the name of a bundled example (see docs/tournaments.md)")
    p.add_argument("--workers", type=int, help="games at once (overrides the config)")
    p.add_argument("--backend", choices=("inline", "processes", "ray"), help="overrides the config")
    p.add_argument(
        "--results", help="JSONL results path, relative to the current directory (overrides the config)"
    )
    p.add_argument("--max-games", type=int, help="stop after this many new games (resume later)")
    p.add_argument("--report", action="store_true", help="write the report when done")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)
    p = bench.add_parser("ladder", help="rate random, greedy and every service level in one round robin")
    p.add_argument("--game", required=True)
    p.add_argument("--variant", default=None)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--levels", default="easy,medium,hard,expert", help="comma-separated, weakest first")
    p.add_argument("--sets", type=int, default=10, help="duplicate sets per pairing")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="games at once")
    p.add_argument("--backend", choices=("inline", "processes", "ray"), default="processes")
    p.add_argument(
        "--results", help="JSONL results path (default: ladder-<setting>.jsonl in the data folder; resumable)"
    )
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples for rating intervals")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_ladder)
    p = sub.add_parser("report", help="write Markdown and HTML reports from a results file")
    p.add_argument("results", help="JSONL results file")
    p.add_argument("--out", help="folder for the report (default: next to the results)")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples for rating intervals")
    p.set_defaults(func=_report)
