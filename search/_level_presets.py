"""Which preset a play level searches with when no configuration is named: the game's default_search,
or, where a shipped learned model has proved stronger, the game's learned preset (issue 31: "the expert
level uses the learned evaluation where it wins")."""

from __future__ import annotations

from orrery.search._bots import default_config
from orrery.search._config import SearchConfig, learned_preset
from orrery.search._shipped import check_evaluation

# (game, variant, players) -> the levels that play the game's learned preset there. A setting is listed
# where its shipped model beat the game's default at equal time per turn by SPRT (docs/learning.md), or
# where it played stronger at hard's budget: Beyond the Black's first model drew the SPRT at about 3,000
# iterations a turn, but at 30,000 the learned hard scored +280 Elo against medium where the hand-written
# one scored +89 and at 100,000 +44 (docs/strength.md, "session 6"); its model retrained on 12,000 games
# beat the default by SPRT at 30,000 (docs/learning.md, "Session 10"). Expert and hard play it there
# (issue 25: hard on the hand-written evaluation was not 150 Elo above medium), each with its own budget
# and tolerance; easy and medium keep the hand-written evaluation their budgets and tolerances were
# measured with (docs/strength.md). At Trian full with 2 players only hard plays it (since session 12),
# at 3,000 iterations a turn, the budget where its model's lead is (about +200 at 2,000; gone at
# 20,000): that hard stood +280 [+181, +443] above medium and level with expert (-44 [-144, +49]),
# where the hand-written hard at 100,000 had been ahead of expert; expert, a time budget that buys tens of
# thousands of iterations, keeps the hand-written evaluation (docs/strength.md, "session 12").
LEARNED_LEVELS: dict[tuple[str, str, int], frozenset[str]] = {
    ("take_the_galaxy", "standard", 2): frozenset({"hard", "expert"}),
    ("tiny_epic_galaxies", "base", 2): frozenset({"hard", "expert"}),
    ("tiny_epic_galaxies", "beyond_the_black", 2): frozenset({"hard", "expert"}),
    ("trian", "full", 2): frozenset({"hard"}),
}


def level_config(level: str | None, game: str, variant: str, players: int) -> SearchConfig:
    """The preset `level` (None: no level) plays in this game setting when none is named: the game's
    learned preset where LEARNED_LEVELS lists the setting for the level and this build can use its model
    (a missing or refused model falls back), else the game's default_search."""
    default = default_config("ismcts", game)
    if level is None or level not in LEARNED_LEVELS.get((game, variant, players), frozenset()):
        return default
    learned = learned_preset(game)
    if learned is None:
        return default
    try:
        check_evaluation(learned, game, variant, players)
    except ValueError:
        return default
    return learned
