"""Markdown and HTML reports with a ratings chart (SVG, drawn by matplotlib)."""

from __future__ import annotations

import html
import io
import math
from dataclasses import dataclass
from pathlib import Path

from orrery.search.tournament._analysis import Analysis, analyse
from orrery.search.tournament._config import BotSpec, BudgetSpec
from orrery.search.tournament._kinds import bot_kind
from orrery.search.tournament._results import header_config, read_results

DECISIONS = {
    "H1": "H1 accepted: {candidate} is stronger (by about {elo1:g} normalised Elo or more)",
    "H0": "H0 accepted: {candidate} is not stronger than {baseline} by {elo1:g} normalised Elo",
    "continue": "no decision yet",
}


def _f(value: float, digits: int = 1) -> str:
    return (
        "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"
    )


def _pct(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.1f}%"


def _tables(a: Analysis) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) for every table in the report, shared by Markdown and HTML."""
    c = a.config
    tables = []
    if a.sprt is not None:
        s = a.sprt
        st = s.state
        e = s.estimate
        rows = [
            [
                "decision",
                DECISIONS[st.decision].format(candidate=s.candidate, baseline=s.baseline, elo1=s.elo1),
            ],
            ["LLR", f"{st.llr:.3f}"],
            ["bounds (alpha, beta)", f"[{st.lower:.3f}, {st.upper:.3f}] ({s.alpha:g}, {s.beta:g})"],
            ["bounds after overshoot correction", f"[{st.lower_corrected:.3f}, {st.upper_corrected:.3f}]"],
            ["H0 / H1 (normalised Elo)", f"{s.elo0:g} / {s.elo1:g}"],
            ["sets / games counted", f"{s.sets} / {s.games}"],
            ["games played after the decision (not counted)", str(s.games_after_decision)],
            ["mean set score", f"{e.score:.4f}"],
            ["Elo (95% interval)", f"{_f(e.elo)} [{_f(e.elo_low)}, {_f(e.elo_high)}]"],
            ["normalised Elo (95% interval)", f"{_f(e.nelo)} [{_f(e.nelo_low)}, {_f(e.nelo_high)}]"],
            ["LOS", _pct(e.los)],
        ]
        tables.append((f"SPRT: {s.candidate} against {s.baseline}", ["", ""], rows))
    tables.append(
        (
            "Ratings (Bradley-Terry, 95% bootstrap interval by set)",
            ["bot", "Elo", "95% interval", "games"],
            [
                [
                    r.name,
                    _f(r.elo),
                    "anchor" if r.name == c.baseline else f"[{_f(r.low)}, {_f(r.high)}]",
                    str(r.games),
                ]
                for r in sorted(a.ratings, key=lambda r: -r.elo if not math.isnan(r.elo) else math.inf)
            ],
        )
    )
    tables.append(
        (
            "Head to head (first against second, from duplicate-set scores)",
            ["pair", "sets", "score", "Elo [95%]", "nElo [95%]", "LOS"],
            [
                [
                    f"{p.a} vs {p.b}",
                    str(p.estimate.sets),
                    f"{p.estimate.score:.3f}",
                    f"{_f(p.estimate.elo)} [{_f(p.estimate.elo_low)}, {_f(p.estimate.elo_high)}]",
                    f"{_f(p.estimate.nelo)} [{_f(p.estimate.nelo_low)}, {_f(p.estimate.nelo_high)}]",
                    _pct(p.estimate.los),
                ]
                for p in a.pairs
            ],
        )
    )
    tables.append(
        (
            "Seats (seat bias)",
            ["seat", "games", "win rate", "mean return"],
            [[str(s.seat), str(s.games), _pct(s.win_rate), _f(s.mean_return, 3)] for s in a.seats],
        )
    )
    tables.append(
        (
            "Bots",
            ["bot", "version(s)", "games", "moves/game", "ms/move"]
            + [f"return in seat {i}" for i in range(c.players)],
            [
                [
                    b.name,
                    ", ".join(b.versions),
                    str(b.games),
                    _f(b.moves_per_game),
                    _f(b.think_ms_per_move, 2),
                ]
                + [_f(x, 3) for x in b.seat_returns]
                for b in a.bots
            ],
        )
    )
    return tables


def _bot_text(spec: BotSpec, default_budget: BudgetSpec, game: str, setting: tuple[str, int] | None) -> str:
    kind = bot_kind(spec.kind)
    budget = spec.budget or default_budget
    text = (
        kind.describe(spec, budget, game=game, setting=setting)
        if kind.takes_setting
        else kind.describe(spec, budget)
    )
    return f"{spec.name} ({text})"


def _played_setting(a: Analysis) -> tuple[str, int] | None:
    """The (variant, players) the games were played in: the variant the game resolves a missing one to."""
    from orrery.core_ext import load_game

    try:
        game = load_game(a.config.game, players=a.config.players, variant=a.config.variant)
    except (KeyError, ValueError):  # a results file of a game or variant this build does not know
        return None
    return str(game.variant), int(game.num_players)


def _summary_lines(a: Analysis) -> list[str]:
    c = a.config
    setting = _played_setting(a)
    return [
        f"game {c.game} ({c.variant or 'default variant'}), {c.players} players; format {c.format}; "
        f"rotations {c.rotations}; master seed {c.seed}",
        "bots: " + "; ".join(_bot_text(b, c.budget, c.game, setting) for b in c.bots),
        f"{a.games_recorded} games recorded, {a.complete_sets} complete sets "
        f"({a.games_in_complete_sets} games) used for ratings and seat statistics",
        "every game of a set began from the same deal: " + ("yes" if a.deals_identical else "NO"),
        "results reproducible regardless of worker count: "
        + (
            "yes (iteration budgets)" if c.reproducible else f"no (time budgets: {', '.join(c.timed_bots())})"
        ),
    ]


def ratings_svg(a: Analysis) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = [r for r in a.ratings if not math.isnan(r.elo)]
    ratings.sort(key=lambda r: r.elo)
    fig, ax = plt.subplots(figsize=(6.4, 1.2 + 0.5 * max(len(ratings), 1)))
    ys = list(range(len(ratings)))
    elos = [r.elo for r in ratings]
    errors = [[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]]
    ax.errorbar(elos, ys, xerr=errors, fmt="o", color="#1f5f99", ecolor="#7aa6cf", capsize=4)
    ax.set_yticks(ys, [r.name for r in ratings])
    ax.axvline(0.0, color="#999999", linewidth=0.8)
    ax.set_xlabel("Elo (Bradley-Terry), 95% bootstrap interval")
    ax.set_title(a.config.name)
    fig.tight_layout()
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})  # no timestamp: same input, same file
    plt.close(fig)
    return buffer.getvalue()


def sample_position_svg(a: Analysis, records: list[dict]) -> tuple[str, str] | None:
    """(caption, SVG) of the final position of the first game that recorded its actions, as seat 0 saw
    it; None for results written before games recorded their actions."""
    from orrery.core_ext import load_game
    from orrery.render import to_svg

    for record in records:
        if record.get("type") == "game" and "actions" in record:
            game = load_game(a.config.game, players=a.config.players, variant=a.config.variant)
            state = game.new_initial_state(seed=record["deal_seed"])
            for action in record["actions"]:
                state.apply(action)
            seats = ", ".join(f"seat {i}: {bot}" for i, bot in enumerate(record["seats"]))
            caption = (
                f"Final position of a sample game (pairing {record['pairing']}, set {record['set']}, "
                f"rotation {record['rotation']}; {seats}), as seat 0 saw it"
            )
            return caption, to_svg(state.observation(0).to_dict())
    return None


def markdown(a: Analysis, chart_name: str, position: tuple[str, str] | None = None) -> str:
    out = [f"# Tournament {a.config.name}", ""]
    out += [f"- {line}" for line in _summary_lines(a)]
    out += ["", f"![ratings]({chart_name})", ""]
    if position is not None:
        out += [f"![{position[0]}]({position[1]})", "", f"*{position[0]}.*", ""]
    for title, header, rows in _tables(a):
        out += [f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        out.append("")
    return "\n".join(out)


def html_page(a: Analysis, svg: str, position: tuple[str, str] | None = None) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>Tournament {e(a.config.name)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse;"
        "margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}</style>",
        f"</head><body><h1>Tournament {e(a.config.name)}</h1><ul>",
    ]
    parts += [f"<li>{e(line)}</li>" for line in _summary_lines(a)]
    parts.append("</ul>")
    parts.append(svg[svg.index("<svg") :])  # inline, without the XML prolog
    if position is not None:
        caption, picture = position
        parts.append(f"<figure>{picture}<figcaption>{e(caption)}</figcaption></figure>")
    for title, header, rows in _tables(a):
        parts.append(
            f"<h2>{e(title)}</h2><table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"
        )
        parts += ["<tr>" + "".join(f"<td>{e(x)}</td>" for x in row) + "</tr>" for row in rows]
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)


@dataclass(frozen=True)
class ReportFiles:
    markdown: Path
    html: Path
    chart: Path
    position: Path | None = None  # the final position of a sample game (SVG)


def write_report(
    results: str | Path, out_dir: str | Path | None = None, *, resamples: int = 1000
) -> ReportFiles:
    """Writes <stem>.md, <stem>.html and <stem>-ratings.svg next to the results (or into out_dir)."""
    results = Path(results)
    header, records = read_results(results)
    analysis = analyse(header_config(header), records, resamples=resamples)
    folder = Path(out_dir) if out_dir is not None else results.parent
    folder.mkdir(parents=True, exist_ok=True)
    stem = results.stem
    chart = folder / f"{stem}-ratings.svg"
    svg = ratings_svg(analysis)
    chart.write_text(svg)
    sample = sample_position_svg(analysis, records)
    position = None
    if sample is not None:
        position = folder / f"{stem}-final-position.svg"
        position.write_text(sample[1])
    md = folder / f"{stem}.md"
    md.write_text(markdown(analysis, chart.name, (sample[0], position.name) if position and sample else None))
    page = folder / f"{stem}.html"
    page.write_text(html_page(analysis, svg, sample))
    return ReportFiles(md, page, chart, position)
