"""Which games a tournament plays: pairings, duplicate sets, seat rotations and derived seeds."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass

from orrery.search.tournament._config import BotSpec, BudgetSpec, TournamentConfig

GameKey = tuple[int, int, int]  # (pairing, set, rotation)


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from a tuple of parts: stable across runs, machines and Python versions."""
    digest = hashlib.blake2b(json.dumps(parts).encode(), digest_size=8, person=b"orrery-tourney").digest()
    return int.from_bytes(digest, "little") & (2**63 - 1)


def deal_seed(master_seed: int, set_index: int) -> int:
    """Set i deals the same game in every rotation and every pairing."""
    return derive_seed(master_seed, "deal", set_index)


def bot_seed(master_seed: int, pairing: int, set_index: int, rotation: int, seat: int) -> int:
    return derive_seed(master_seed, "bot", pairing, set_index, rotation, seat)


def move_seed(game_bot_seed: int, move_number: int) -> int:
    """Bots keep no memory between calls, so each decision gets its own seed."""
    return derive_seed(game_bot_seed, move_number)


def two_bot_seatings(a: str, b: str, players: int, rotations: str) -> tuple[tuple[str, ...], ...]:
    """Seatings for a head-to-head at a table of `players`; symmetric under swapping a and b.

    "all": every assignment in which both bots sit (2 for 2 players, 6 for 3, 14 for 4).
    "cyclic": the rotations of an evenly split lineup (each bot in each seat equally often).
    """
    if rotations == "all":
        seatings = [
            s for s in itertools.product((a, b), repeat=players) if a in s and b in s
        ]  # fmt: skip
        return tuple(seatings)
    lineups = [(a,) * (players // 2) + (b,) * (players - players // 2)]
    if players % 2:
        lineups.append((b,) * (players // 2) + (a,) * (players - players // 2))
    out: list[tuple[str, ...]] = []
    for lineup in lineups:
        for shift in range(players):
            seating = lineup[shift:] + lineup[:shift]
            if seating not in out:
                out.append(seating)
    return tuple(out)


def team_seatings(a: str, b: str, teams: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """Seatings for a head-to-head in a team game: each bot plays every seat of one team, and every
    team is played by each bot, so the result is reported by team."""
    team_ids = sorted(set(teams))
    if len(team_ids) != 2:
        raise ValueError(f"a team head-to-head needs 2 teams, the game has {len(team_ids)}")
    return tuple(
        tuple(first if teams[s] == team_ids[0] else second for s in range(len(teams)))
        for first, second in ((a, b), (b, a))
    )


def table_seatings(names: tuple[str, ...], rotations: str) -> tuple[tuple[str, ...], ...]:
    """Seatings for as many distinct bots as seats: all permutations, or the cyclic rotations."""
    if rotations == "all":
        return tuple(itertools.permutations(names))
    return tuple(names[shift:] + names[:shift] for shift in range(len(names)))


@dataclass(frozen=True)
class Pairing:
    """A group of bots that meets in duplicate sets; its seatings make up one set."""

    index: int
    bots: tuple[str, ...]
    seatings: tuple[tuple[str, ...], ...]


def seat_teams(config: TournamentConfig) -> tuple[int, ...]:
    from orrery.core_ext import load_game

    return tuple(load_game(config.game, players=config.players, variant=config.variant).seat_teams())


def pairings(config: TournamentConfig) -> tuple[Pairing, ...]:
    """In a team game every pairing is two bots, each playing a whole team (report by team)."""
    names = tuple(b.name for b in config.bots)
    teams = seat_teams(config)
    team_game = len(set(teams)) < len(teams)
    if config.format in ("sprt", "gauntlet"):
        assert config.baseline is not None
        groups: list[tuple[str, ...]] = [(config.baseline, n) for n in names if n != config.baseline]
    elif config.players == 2 or len(names) == 2 or team_game:
        groups = list(itertools.combinations(names, 2))
    else:
        groups = list(itertools.combinations(names, config.players))
    out = []
    for index, group in enumerate(groups):
        if team_game:
            seatings = team_seatings(group[0], group[1], teams)
        elif len(group) == 2:
            seatings = two_bot_seatings(group[0], group[1], config.players, config.rotations)
        else:
            seatings = table_seatings(group, config.rotations)
        out.append(Pairing(index, group, seatings))
    return tuple(out)


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game, and nothing it could get wrong."""

    key: GameKey  # (pairing, set, rotation)
    game: str
    players: int
    variant: str | None
    deal_seed: int  # game.new_initial_state(seed=deal_seed)
    seating: tuple[str, ...]  # bot name per seat
    bots: tuple[BotSpec, ...]  # bot spec per seat
    budgets: tuple[BudgetSpec, ...]  # per-move budget per seat
    bot_seeds: tuple[int, ...]  # per seat; each move's seed derives from it


def schedule(config: TournamentConfig) -> Iterator[GameTask]:
    """All games, set by set, so that a stopped or sequential run has whole, early sets."""
    groups = pairings(config)
    for set_index in range(config.sets):
        seed = deal_seed(config.seed, set_index)
        for pairing in groups:
            for rotation, seating in enumerate(pairing.seatings):
                specs = tuple(config.bot(name) for name in seating)
                yield GameTask(
                    key=(pairing.index, set_index, rotation),
                    game=config.game,
                    players=config.players,
                    variant=config.variant,
                    deal_seed=seed,
                    seating=seating,
                    bots=specs,
                    budgets=tuple(s.budget or config.budget for s in specs),
                    bot_seeds=tuple(
                        bot_seed(config.seed, pairing.index, set_index, rotation, seat)
                        for seat in range(config.players)
                    ),
                )


def games_per_set(config: TournamentConfig) -> int:
    """Games in one set summed over pairings."""
    return sum(len(p.seatings) for p in pairings(config))
