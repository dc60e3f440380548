"""Shared by the tournament tests of outside bot kinds: play a small inline Kuhn tournament and return
its games in a comparable form."""

from __future__ import annotations

from pathlib import Path

from orrery.search.tournament import BotSpec, TournamentConfig, read_results, run_tournament


def played_kuhn_games(results: Path, bots: tuple[BotSpec, ...], *, sets: int, seed: int) -> list[tuple]:
    """(pairing, set, rotation, deal seed, seats, actions, ranks) of every game, sorted."""
    config = TournamentConfig(
        name=results.stem,
        game="kuhn",
        players=2,
        format="round-robin",
        bots=bots,
        sets=sets,
        seed=seed,
        backend="inline",
        results=str(results),
    )
    run_tournament(config)
    _, records = read_results(config.results_path())
    return sorted(
        (r["pairing"], r["set"], r["rotation"], r["deal_seed"], r["seats"], r["actions"], r["ranks"])
        for r in records
    )
