"""Play-strength levels: how much a level searches, and how it picks among the moves it searched.

A weaker level plays the way a weaker person does. It searches less, and it may pick any move whose
searched value lies within the level's tolerance of the best one. It never plays a move that its own
search rates further below the best. This is how chess engines build their skill levels. The levels used
to draw from the visit distribution instead. With few iterations spread over many legal moves, that draw
is close to uniform, so the weak levels played blunders no person would (issue 25; the measurement is
in docs/performance.md, "Levels").

A level's budget covers a seat's whole turn, all its consecutive decisions, and the turn clock
(search/_clock.py) shares it out over the turn's decisions. The levels were redefined so on 2026-11-27
(issue 25, part 3): before, each decision got the whole budget, and an expert turn of Take The Galaxy
(about 25 decisions at 2 s each) took 35 to 52 s. The budgets below meet the per-turn targets on the
2-core machine (expert p95 at most 3 s, medium at most 0.5 s per whole turn; docs/performance.md,
"Turn clock").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from orrery.search._clock import TurnBudget, TurnClock
from orrery.search._result import SearchResult

# A move's searched value is trusted when the search visited it at least this share of the most-visited
# move's visits. A move with fewer visits has too noisy a mean to be compared with the best.
TRUSTED_VISIT_SHARE = 0.1
# ... and at least (RETURN_SD_BOUND / tolerance)**2 times, so that its mean's standard error is at most the
# tolerance (a return in [0, 1] has a standard deviation of at most 0.5). Without this rule a small
# budget spread over many legal moves (Trian medium: about 300 iterations over 15 moves, about 20 visits
# each) left every move trusted with values noisier than the tolerance, and the level picked nearly at
# random among them at every decision of a turn: medium lost 6 of 6 games to greedy in Trian, by 138 to
# 243 points, against 4 of 6 won at tolerance 0 (docs/strength.md, 2026-11-27). A level whose search
# cannot tell its moves apart within its tolerance plays the search's choice, the most-visited move.
RETURN_SD_BOUND = 0.5


@dataclass(frozen=True, kw_only=True)
class Level:
    name: str
    iterations: int | None  # search iterations per whole turn (reproducible), or
    milliseconds: int | None  # search wall time per whole turn (ms)
    # How far below the best move's searched value (return units: the seat's expected outcome in [0, 1])
    # a chosen move's value may lie. At 0 the level plays the most-visited move.
    tolerance: float
    # (game, factor) pairs: an iteration budget is multiplied by its game's factor (LEVEL_ITERATION_SCALE
    # for the service's levels; none for a level built elsewhere, e.g. a tournament's per-turn search)
    iteration_scale: tuple[tuple[str, int], ...] = ()

    @property
    def turn_budget(self) -> TurnBudget:
        """The budget per whole turn in a game with no iteration scale."""
        return self.turn_budget_for(None)

    def turn_budget_for(self, game: str | None) -> TurnBudget:
        """The budget per whole turn in `game`: an iteration budget times the game's scale."""
        if self.iterations is not None:
            return TurnBudget(iterations=self.iterations * dict(self.iteration_scale).get(game or "", 1))
        return TurnBudget(milliseconds=float(self.milliseconds or 0))


# A level's iteration budget is multiplied by its game's scale, per level. Take The Galaxy's turns are long
# chains of small choices (about 19 searched decisions a turn against Trian's 4.7 and Tiny Epic Galaxies'
# 1.8) and its iterations are among the cheapest, so the unscaled budgets left each decision too little
# search to beat the greedy one-ply bot. x10 keeps hard's turn under expert's 2 s; medium needs x30 to
# reach its target against greedy, still within medium's time per turn (docs/strength.md, "Take The
# Galaxy's medium at x30"; docs/performance.md, "Turn clock").
LEVEL_ITERATION_SCALE: dict[str, dict[str, int]] = {
    "take_the_galaxy": {"easy": 10, "medium": 30, "hard": 10},
}


def _scale_of(level: str) -> tuple[tuple[str, int], ...]:
    """The (game, factor) pairs LEVEL_ITERATION_SCALE gives `level`."""
    return tuple(sorted((game, factors[level]) for game, factors in LEVEL_ITERATION_SCALE.items()))


LEVELS: dict[str, Level] = {
    # Per whole turn, a factor of 10 in iterations between neighbours (before each game's scale). easy <
    # medium < hard < expert in time on every game. The iteration counts were raised on 2026-11-27 with
    # the per-game default presets (issue 25, part 4), whose iterations score the leaf with evaluate() and
    # no playout and so cost 3 (Trian) to 12 (Tiny Epic Galaxies) times less than before: hard's 30,000
    # take about 0.3 s in Trian, the slowest game now (about 100,000 iterations/s on the shared 2-core
    # machine), under expert's 2 s, and medium's 3,000 stay far under the 0.5 s medium target
    # (docs/performance.md, "Turn clock").
    "easy": Level(
        name="easy", iterations=300, milliseconds=None, tolerance=0.10, iteration_scale=_scale_of("easy")
    ),
    "medium": Level(
        name="medium", iterations=3000, milliseconds=None, tolerance=0.05, iteration_scale=_scale_of("medium")
    ),
    "hard": Level(
        name="hard", iterations=30000, milliseconds=None, tolerance=0.02, iteration_scale=_scale_of("hard")
    ),
    "expert": Level(name="expert", iterations=None, milliseconds=2000, tolerance=0.0),
}


@dataclass(frozen=True, kw_only=True)
class LevelSetting:
    """A level's budget and tolerance in one game setting, where a measurement moved them from the level's
    own. A field left None keeps the level's (its iterations times the game's scale, its tolerance)."""

    iterations: int | None = None  # search iterations per whole turn in this setting
    milliseconds: int | None = None  # or search wall time per whole turn (ms)
    tolerance: float | None = None  # return units, as Level.tolerance

    def __post_init__(self) -> None:
        if self.iterations is not None and self.milliseconds is not None:
            raise ValueError("a level setting gives iterations or milliseconds, not both")
        for field, value in (("iterations", self.iterations), ("milliseconds", self.milliseconds)):
            if value is not None and value < 1:
                raise ValueError(f"a level setting's {field} must be at least 1, got {value}")
        if self.tolerance is not None and not 0.0 <= self.tolerance < 1.0:
            raise ValueError(f"a level setting's tolerance must lie in [0, 1), got {self.tolerance}")


# (game, variant or None for every variant, players or None for every count) -> the levels whose budget or
# tolerance differs there. The levels' one-size budgets did not separate the levels by 150 Elo in every
# game (issue 25, part 2; docs/strength.md), so a setting whose ladder needed other numbers gets them
# here, each with a comment naming its measurement. The most specific key that lists a level wins
# (level_in).
LEVEL_SETTINGS: dict[tuple[str, str | None, int | None], dict[str, LevelSetting]] = {
    # Beyond the Black, 2 players: with the hand-written evaluation ten times medium's iterations bought
    # +29 Elo (and 33 times +44): evaluate() is what the search sees, and past about 3,000 iterations a
    # turn more search on it changes little. Hard plays the learned preset there (LEARNED_LEVELS) at
    # tolerance 0. At 30,000 iterations a turn it was +442 [+341, +651] above medium but only +108 [-65,
    # +367] below expert (10 sets), and at 5,000 +338 [+249, +487] above medium and +166 [+65, +303] below
    # expert (27 sets): too little room at the top. So the ladder sits lower (session 11), in duplicate sets
    # head to head: easy (300, tolerance 0.15) to medium at 1,000 (tolerance 0.05) +374 [+270, +583], medium
    # to hard at 3,000 +280 [+207, +382] (48 sets each), hard to expert +241 [+168, +339] (40 sets); medium
    # at 1,000 won all 96 games against greedy. docs/strength.md, "2026-11-28 (session 11): Beyond the
    # Black, 2 players, a lower ladder" (and "2026-11-27 (session 6): Beyond the Black's levels" for easy's
    # tolerance).
    ("tiny_epic_galaxies", "beyond_the_black", 2): {
        "easy": LevelSetting(tolerance=0.15),
        "medium": LevelSetting(iterations=1000),
        "hard": LevelSetting(iterations=3_000, tolerance=0.0),
    },
    # Tiny Epic Galaxies base, 2 players: hard plays the learned preset (LEARNED_LEVELS) at tolerance 0. At
    # 30,000 iterations a turn it was only +154 [+19, +362] below expert (12 sets), at 5,000 (session 7) +307
    # [+218, +450] above medium and +112 [+9, +240] below expert (16 sets). So the ladder sits lower since
    # session 11, as in Beyond the Black: medium at 1,000 iterations a turn (tolerance 0.05; -29 [-94, +34]
    # against the level's 3,000), hard at 2,000. Head to head in duplicate sets: easy (tolerance 0.15) to
    # medium +400 [+331, +501], medium to hard +227 [+174, +291] (96 sets each, pooled), hard to expert
    # +301 [+204, +467] (40 sets); medium won every game against greedy and easy every game against random.
    # docs/strength.md, "2026-11-28 (session 11): Tiny Epic Galaxies base, 2 players, a lower ladder".
    ("tiny_epic_galaxies", "base", 2): {
        "easy": LevelSetting(tolerance=0.15),
        "medium": LevelSetting(iterations=1000),
        "hard": LevelSetting(iterations=2_000, tolerance=0.0),
    },
    # Tiny Epic Galaxies base, 3 players (no learned model there): hard plays its search's most-visited move
    # (tolerance 0) on its own 30,000 iterations a turn. At 0.02 it was +164 [+128, +203] above medium (32
    # duplicate sets); at 0 +218 [+170, +276] (32 sets on other deals), at the same time a move. Easy to
    # medium is +271 [+231, +319]. docs/strength.md, "2026-11-27 (session 8): Tiny Epic Galaxies base and
    # Beyond the Black, 3 players, head to head".
    ("tiny_epic_galaxies", "base", 3): {
        "hard": LevelSetting(tolerance=0.0),
    },
    # Beyond the Black, 3 players (no learned model there): hard plays its search's most-visited move
    # (tolerance 0) on 60,000 iterations a turn. With the levels' own numbers (30,000, 0.02) it was +105
    # [+65, +148] above medium; at 30,000 and tolerance 0 +187 [+141, +240]; at 60,000 and 0 +224 [+182,
    # +272] (32 duplicate sets each), at 58 ms a move. docs/strength.md, "2026-11-28 (session 9): the
    # 3-player medium-to-hard steps".
    ("tiny_epic_galaxies", "beyond_the_black", 3): {
        "hard": LevelSetting(iterations=60_000, tolerance=0.0),
    },
    # Galaxy of Trian, full, 2 players: medium (3,000) to hard (30,000, tolerance 0.02) was +89 [-14, +209]
    # head to head in 24 sets. With medium at 1,000 and hard at 100,000 and tolerance 0 (session 6), pooled
    # head to head: medium to hard +394 [+285, +636] (48 sets), easy to medium +232 [+182, +292] (96 sets),
    # medium 0.99 against greedy; but that hard was ahead of expert (+89 [-30, +234], 12 sets). Since
    # session 12 hard plays the learned preset (LEARNED_LEVELS) at 3,000 iterations a turn and tolerance 0:
    # +280 [+181, +443] above medium, level with expert (expert +44 [-49, +144], 24 sets each), at about
    # 4 ms a move. docs/strength.md, "2026-11-28 (session 12)" and "2026-11-27 (session 6)".
    ("trian", "full", 2): {
        "medium": LevelSetting(iterations=1000),
        "hard": LevelSetting(iterations=3_000, tolerance=0.0),
    },
    # Galaxy of Trian, full, 3 players: medium at 1,000 iterations a turn (as at 2 players) and hard at its
    # own 30,000 with tolerance 0. With the levels' own numbers medium to hard was +120 [+62, +186] (the
    # 11:10 ladder); with these, head to head over 24 duplicate sets each: easy to medium +232 [+180, +294],
    # medium to hard +221 [+157, +302]. docs/strength.md, "2026-11-28 (session 9): the 3-player
    # medium-to-hard steps".
    ("trian", "full", 3): {
        "medium": LevelSetting(iterations=1000),
        "hard": LevelSetting(tolerance=0.0),
    },
    # Take The Galaxy standard, 3 players: medium plays its search's most-visited move (tolerance 0) on the
    # same 90,000 iterations a turn. Session 5's ladder had it at 0.70 against greedy (target 0.75). On equal
    # deals tolerance 0 scored 0.83 against greedy where 0.05 scored 0.80 and 150,000 iterations at 0.05
    # 0.81 (9 sets each, within noise of one another), and the ladder with it scored 0.92 against greedy,
    # easy to medium +147 [+77, +231], medium to hard +95 [+29, +169] (docs/strength.md, "2026-11-27
    # (session 6): Take The Galaxy's levels at 3 players"). Easy plays tolerance 0.15 on its own 3,000
    # iterations a turn since session 9: +273 [+198, +377] below medium (16 duplicate sets), where at 0.10
    # it was +147 [+77, +231] below, and it took first place in all 96 of its games against random
    # (docs/strength.md, "2026-11-28 (session 9): the 3-player medium-to-hard steps").
    ("take_the_galaxy", "standard", 3): {
        "easy": LevelSetting(tolerance=0.15),
        "medium": LevelSetting(tolerance=0.0),
    },
}


def _setting_keys(
    game: str, variant: str | None, players: int | None
) -> list[tuple[str, str | None, int | None]]:
    """LEVEL_SETTINGS' keys that apply to this game setting, most specific first."""
    keys: list[tuple[str, str | None, int | None]] = []
    for key_variant in (variant, None) if variant is not None else (None,):
        for key_players in (players, None) if players is not None else (None,):
            keys.append((game, key_variant, key_players))
    return keys


def level_in(name: str, game: str | None, variant: str | None = None, players: int | None = None) -> Level:
    """Level `name` as it plays in this game setting: LEVELS[name] with the most specific LEVEL_SETTINGS
    entry for it applied (an iterations budget so given is per whole turn and takes no game scale). With
    no entry, or no game, LEVELS[name] itself. KeyError for an unknown level name."""
    level = LEVELS[name]
    if game is None:
        return level
    for key in _setting_keys(game, variant, players):
        setting = LEVEL_SETTINGS.get(key, {}).get(name)
        if setting is not None:
            return _apply_setting(level, setting)
    return level


def _apply_setting(level: Level, setting: LevelSetting) -> Level:
    tolerance = level.tolerance if setting.tolerance is None else setting.tolerance
    if setting.iterations is None and setting.milliseconds is None:
        return replace(level, tolerance=tolerance)
    return Level(
        name=level.name,
        iterations=setting.iterations,
        milliseconds=setting.milliseconds,
        tolerance=tolerance,
    )


def min_trusted_visits(tolerance: float) -> float:
    """The visits a move needs before its value takes part in a choice at `tolerance` (> 0)."""
    return (RETURN_SD_BOUND / tolerance) ** 2


def trusted_moves(visits: Sequence[int], tolerance: float) -> list[int]:
    """The indices of the moves whose searched values a level compares at `tolerance` (> 0): visited at
    least TRUSTED_VISIT_SHARE of the most-visited move's visits and at least min_trusted_visits(tolerance)
    times. Empty when even the most-visited move has fewer."""
    most = max(visits, default=0)
    least = max(TRUSTED_VISIT_SHARE * most, min_trusted_visits(tolerance), 1)
    return [i for i in range(len(visits)) if visits[i] >= least]


def choose_within_tolerance(
    actions: Sequence[int], values: Sequence[float], visits: Sequence[int], tolerance: float, seed: int
) -> int:
    """A move whose searched value is within `tolerance` of the best trusted value, from `seed`.

    Only moves with a trusted value (trusted_moves) take part, and the best of their values is the
    reference. Each candidate gets a seeded random push in [0, tolerance), and the move with the highest
    value plus push is played. The best move is therefore the most likely choice, and a move `tolerance`
    below it is never chosen. At tolerance 0, or when no move is trusted (nothing searched, or too few
    visits to compare values within the tolerance), the most-visited move is played, ties going to the
    earlier one.
    """
    if not actions:
        raise ValueError("no actions to choose from")
    best = max(range(len(actions)), key=lambda i: (visits[i], -i))
    if tolerance <= 0.0:
        return actions[best]
    trusted = trusted_moves(visits, tolerance)
    if not trusted:
        return actions[best]
    floor = max(values[i] for i in trusted) - tolerance
    rng = random.Random(seed ^ 0x5EED_7E3A)
    pushed = [(values[i] + tolerance * rng.random(), -i) for i in trusted if values[i] > floor]
    return actions[-max(pushed)[1]]


def value_gap(result: SearchResult, action: int, tolerance: float) -> float:
    """How far below the best trusted value (at `tolerance`) the search rated `action`; 0 when nothing
    was compared (tolerance 0, no trusted move, or the action itself not trusted)."""
    if tolerance <= 0.0 or not result.actions:
        return 0.0
    visits = [a.visits for a in result.actions]
    trusted = [result.actions[i] for i in trusted_moves(visits, tolerance)]
    chosen = [a.mean_reward for a in trusted if a.action == action]
    if not chosen:
        return 0.0
    return max(0.0, max(a.mean_reward for a in trusted) - chosen[0])


def choose_from_result(result: SearchResult, tolerance: float, seed: int) -> int:
    """choose_within_tolerance over a search's root actions (its best action when it lists none)."""
    stats = result.actions
    if not stats:
        return result.best_action
    actions, values, visits = zip(*((a.action, a.mean_reward, a.visits) for a in stats), strict=True)
    return choose_within_tolerance(actions, values, visits, tolerance, seed)


def choose_within_turn(result: SearchResult, tolerance: float, seed: int, clock: TurnClock | None) -> int:
    """choose_from_result with what is left of a level's `tolerance` in this turn, booking how far below
    the best the played move was on the turn's clock (None: no turn clock, the whole tolerance)."""
    if clock is None:
        return choose_from_result(result, tolerance, seed)
    left = clock.tolerance_left(tolerance)
    action = choose_from_result(result, left, seed)
    clock.spend_tolerance(value_gap(result, action, left))
    return action
