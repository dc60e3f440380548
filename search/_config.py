"""Search configurations (named, versioned presets) and budgets.

A configuration says *how* to search; a budget says *how long*. Presets are immutable: a change of
behaviour gets a new version (``ismcts@2``), so results and tournament entries stay comparable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

ALGORITHMS = ("ismcts", "pimc")
PLAYOUTS = ("random", "heuristic", "none")
REWARDS = ("win", "rank", "score_share")
HORIZONS = ("leaf", "root")
EVALUATIONS = ("handwritten", "learned")


@dataclass(frozen=True, kw_only=True)
class SearchConfig:
    name: str  # preset name, e.g. "ismcts"
    version: int  # bumped whenever behaviour changes
    algorithm: str  # "ismcts" (SO-ISMCTS) or "pimc" (determinized UCT ensemble)
    exploration: float = 0.7  # UCB constant c on [0, 1] rewards
    # "random", "heuristic" (the game's policy_action) or "none" (no playout: the tree's new leaf is scored
    # by the game's evaluate() at once; max_playout_depth and horizon then stay at their defaults)
    playout: str = "random"
    max_playout_depth: int = 0  # moves; 0 = play to the end, else stop and use the game's evaluate()
    # Where max_playout_depth counts from: "leaf" (the playout's own moves, after the tree) or "root"
    # (all the iteration's moves from the searched position: every leaf is evaluated at one horizon).
    horizon: str = "leaf"
    reward: str = "rank"  # "win", "rank" or "score_share", each normalised to [0, 1]
    pimc_determinizations: int = 16  # PIMC only: fixed determinizations (one UCT tree each) per worker
    max_tree_nodes: int = 2_000_000  # nodes per worker tree (80 to 128 bytes each); then no expansion
    # What scores a truncated playout: the game's "handwritten" evaluate(), or the "learned" network shipped
    # for the game, variant and player count (docs/learning.md; an error where none is shipped).
    evaluation: str = "handwritten"
    # A plan: a bias of the searching seat toward one way of scoring (docs/search.md "Plans"). "" = none;
    # else one of the game's plans (Game.plans, e.g. Tiny Epic Galaxies' "pilots", "explore",
    # "colonies"; Take The Galaxy's "science", "anomalies", "negative_renown", "relinquish"), whose term,
    # times plan_weight, is added to evaluate()'s value of the searching seat.
    plan: str = ""
    plan_weight: float = 1.0  # value points a unit of the plan's progress is worth, on top of evaluate()
    # A plan whose term, times all_seats_plan_weight, is added to EVERY seat's value before they are
    # compared (docs/search.md "Plans"): not a bias of the searching seat but a change of how the search
    # values positions, opponents included (ismcts-ttg@3 values Take The Galaxy's room to relinquish this
    # way). "" = none, so evaluate() itself, which learned models read, never changes. Same names as plan.
    all_seats_plan: str = ""
    all_seats_plan_weight: float = 1.0  # value points a unit of all_seats_plan's progress is worth
    # A seat's next decision of the same turn starts from this search's tree, re-rooted at the move played,
    # where nothing hidden or random happened in between (search/_reuse.py; docs/search.md, "Tree reuse").
    # Read by the per-turn players (LevelBot, the service's AI seats) on an in-process backend; a single
    # search (SuggestMove, Analyze, a per-move bot) is the same either way.
    reuse_tree: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name or "@" in self.name:
            raise ValueError(f"name must be non-empty and without '@', got {self.name!r}")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise ValueError(f"version must be an int >= 1, got {self.version!r}")
        _check_choice("algorithm", self.algorithm, ALGORITHMS)
        _check_choice("playout", self.playout, PLAYOUTS)
        _check_choice("reward", self.reward, REWARDS)
        _check_choice("horizon", self.horizon, HORIZONS)
        _check_choice("evaluation", self.evaluation, EVALUATIONS)
        if not (isinstance(self.exploration, int | float) and math.isfinite(self.exploration)) or (
            self.exploration < 0
        ):
            raise ValueError(f"exploration must be a finite number >= 0, got {self.exploration!r}")
        _check_int("max_playout_depth", self.max_playout_depth, 0)
        if self.playout == "none" and (self.max_playout_depth != 0 or self.horizon != "leaf"):
            raise ValueError(
                "playout 'none' scores the leaf at once: leave max_playout_depth at 0 and horizon at 'leaf'"
            )
        _check_int("pimc_determinizations", self.pimc_determinizations, 1)
        _check_int("max_tree_nodes", self.max_tree_nodes, 1, 2**31 - 1)
        if not isinstance(self.reuse_tree, bool):
            raise ValueError(f"reuse_tree must be true or false, got {self.reuse_tree!r}")
        self._check_plan()

    def _check_plan(self) -> None:
        # Which plans exist is the game's to say (Searcher checks it); here the form of the fields.
        for field in ("plan", "all_seats_plan"):
            plan = getattr(self, field)
            if not isinstance(plan, str) or not all(c.isascii() and (c.islower() or c == "_") for c in plan):
                raise ValueError(
                    f"{field} must be '' (none) or a plan name in lowercase letters, got {plan!r}"
                )
            weight = getattr(self, f"{field}_weight")
            if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight <= 1e6:
                raise ValueError(f"{field}_weight must be a number in (0, 1e6], got {weight!r}")
            if plan and self.evaluation != "handwritten":
                raise ValueError(
                    f"{field} needs evaluation 'handwritten': the plan's term is added to evaluate()"
                )

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    def kernel_options(self) -> dict:
        """Keyword arguments for search._kernel.Searcher."""
        return {
            "algorithm": self.algorithm,
            "exploration": float(self.exploration),
            "playout": self.playout,
            "max_playout_depth": self.max_playout_depth,
            "horizon": self.horizon,
            "reward": self.reward,
            "determinizations": self.pimc_determinizations,
            "max_nodes": self.max_tree_nodes,
            "evaluation": self.evaluation,
            "plan": self.plan,
            "plan_weight": float(self.plan_weight),
            "all_seats_plan": self.all_seats_plan,
            "all_seats_plan_weight": float(self.all_seats_plan_weight),
        }


def _check_choice(field: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{field} must be one of {', '.join(choices)}; got {value!r}")


def _check_int(field: str, value: object, low: int, high: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high and value > high):
        raise ValueError(f"{field} must be an int >= {low}, got {value!r}")


@dataclass(frozen=True, kw_only=True)
class Budget:
    iterations: int | None = None  # total over all workers (split evenly); reproducible for a seed
    milliseconds: float | None = None  # wall time from the start of the search, per worker in parallel
    deadline: float | None = None  # absolute time.time() seconds; the search stops before it

    def __post_init__(self) -> None:
        if self.iterations is None and self.milliseconds is None and self.deadline is None:
            raise ValueError("a budget needs iterations, milliseconds or a deadline")
        if self.iterations is not None:
            _check_int("iterations", self.iterations, 1)
        for field in ("milliseconds", "deadline"):
            value = getattr(self, field)
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value <= 0
            ):
                raise ValueError(f"{field} must be a finite number > 0, got {value!r}")

    @property
    def label(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations}it")
        if self.milliseconds is not None:
            parts.append(f"{self.milliseconds:g}ms")
        if self.deadline is not None:
            parts.append("deadline")
        return "+".join(parts)


_PRESETS: dict[str, SearchConfig] = {}


# The preset that plays each game's shipped learned models, by game: its name, so that its latest version
# is the one offered (ListGames' LearnedModel.search_config, the web client's "learned evaluation" choice).
_LEARNED_FOR: dict[str, str] = {}


def _preset(config: SearchConfig, *, learned_for: str = "") -> None:
    """Register a preset; `learned_for`: the game whose shipped models it plays (evaluation "learned")."""
    if learned_for and config.evaluation != "learned":
        raise ValueError(f"{config.label}: learned_for={learned_for!r} needs evaluation 'learned'")
    _PRESETS[config.label] = config
    if learned_for:
        _LEARNED_FOR[learned_for] = config.name


def learned_preset(game: str) -> SearchConfig | None:
    """The latest preset that plays `game`'s shipped learned models, or None where no preset does."""
    name = _LEARNED_FOR.get(game)
    return None if name is None else get_config(name)


_preset(
    SearchConfig(
        name="ismcts",
        version=1,
        algorithm="ismcts",
        description="SO-ISMCTS, random playouts to the end, rank reward: the default search.",
    )
)
_preset(
    SearchConfig(
        name="ismcts",
        version=2,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=40,
        description="The default from version 2: SO-ISMCTS, heuristic playouts cut after 40 moves and "
        "scored by the game's evaluate(), rank reward (it beat ismcts@1's full random playouts and greedy on "
        "2-player Trian; results in docs/performance.md).",
    )
)
_preset(
    SearchConfig(
        name="ismcts",
        version=3,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=48,
        horizon="root",
        description="The default from version 3: SO-ISMCTS, heuristic playouts, every leaf scored by the "
        "game's evaluate() 48 moves after the searched position (tree and playout moves together), rank "
        "reward. Leaves are compared at one point of the game, and an iteration costs what a raw 48-move "
        "playout costs (it won an SPRT against ismcts@2 on 2-player Trian at equal time; results in "
        "docs/performance.md).",
    )
)
_preset(
    SearchConfig(
        name="ismcts-long",
        version=1,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=160,
        horizon="root",
        description="ismcts@3 with leaves scored 160 moves after the searched position: for games whose "
        "turns are long chains of small choices (Take The Galaxy's default: it beat greedy more often than "
        "ismcts@3 did; results in docs/performance.md).",
    )
)
_preset(
    SearchConfig(
        name="ismcts-teg",
        version=1,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=48,
        horizon="root",
        description="Tiny Epic Galaxies' own default: ismcts@3's settings (heuristic playouts, leaves scored "
        "by evaluate() 48 moves after the searched position), registered under the game's name so that "
        "retuning ismcts for Trian cannot change it. 48 moves, not ismcts-long@1's 160: in duplicate sets "
        "ismcts@3 beat ismcts-long@1, whose longer iterations buy fewer of them in the same time "
        "(results in docs/performance.md).",
    )
)
# The per-game defaults from 2026-11-27 (issue 25, part 4): no playout, the tree's new leaf is scored by
# the game's evaluate() at once, and a smaller exploration constant because evaluate()'s values spread
# less than finished games' ranks do. An iteration costs 3 (Trian) to 26 (Take The Galaxy) times less
# than one with a 48- or 160-move playout, and the deeper tree those iterations buy beat the playouts at
# equal time per turn in every game. The measurements: docs/search.md, "Per-game defaults".
_preset(
    SearchConfig(
        name="ismcts-trian",
        version=1,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        description="Galaxy of Trian's default: SO-ISMCTS, each new leaf scored by evaluate() with no "
        "playout, rank reward, c = 0.15 (it beat ismcts@3 by SPRT at equal time per turn: docs/search.md).",
    )
)
# The learned evaluation (issue 31) as a preset, so that `--config` and SuggestMove's params.config can
# choose it. Its play depends on the shipped model too: a retrained model gets a new version here. Only
# the shipped model is ever loaded, so an older version plays the newest model; it stays registered so
# that stored matches and configs that name it still load.
_preset(
    SearchConfig(
        name="ismcts-trian-learned",
        version=1,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        evaluation="learned",
        description="ismcts-trian-learned until version 2: its model (SHA-256 928563e2..., +45 Elo over "
        "ismcts-trian@1) is no longer shipped, so it now plays the same model as version 2.",
    )
)
_preset(
    SearchConfig(
        name="ismcts-trian-learned",
        version=2,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        evaluation="learned",
        description="ismcts-trian@1 with each new leaf scored by the shipped learned model instead of "
        "evaluate(): Galaxy of Trian, variant full, 2 players (search/models/trian-full-2p.orrnet, "
        "SHA-256 2600a1aa..., trained on 3,125 self-play games; stronger than ismcts-trian@1 at equal time "
        "per turn by SPRT at 2,000 iterations a turn, not at 20,000) and 3 players (trian-full-3p.orrnet, "
        "SHA-256 015c632b..., trained on 1,483 games; weaker: -134 Elo against ismcts-trian@1 at equal "
        "time, SPRT H0; docs/learning.md). Other games, variants and player counts have no model and "
        "refuse it.",
    ),
    learned_for="trian",
)
_preset(
    SearchConfig(
        name="ismcts-teg",
        version=2,
        algorithm="ismcts",
        playout="none",
        exploration=0.3,
        description="Tiny Epic Galaxies' default from version 2 until 3: SO-ISMCTS, each new leaf scored by "
        "evaluate() with no playout, rank reward, c = 0.3 (it beat ismcts-teg@1 by SPRT at equal time per "
        "turn: docs/search.md).",
    )
)
_preset(
    SearchConfig(
        name="ismcts-teg",
        version=3,
        algorithm="ismcts",
        playout="none",
        exploration=0.3,
        reuse_tree=True,
        description="Tiny Epic Galaxies' default from version 3: ismcts-teg@2 whose turns reuse the tree "
        "across the seat's decisions where nothing hidden or random happened (it beat ismcts-teg@2 by SPRT "
        'at equal iterations per turn in the base game: docs/search.md, "Tree reuse"). A single search is '
        "the same.",
    )
)
# Issue 28, part 2 (session 8): the default with Beyond the Black's explore term in every seat's evaluation
# (all_seats_plan), since the explore plan at weight 0.5 beat the default (docs/rules/tiny_epic_galaxies.md
# 13.18, 13.19). evaluate() is unchanged, so are the learned model's features and ismcts-teg@3. Not the
# default: it did not beat ismcts-teg@3 by SPRT. A family of its own, not ismcts-teg@4, so that a client
# naming "ismcts-teg" (the latest version) keeps getting the default rather than an unproven candidate.
_preset(
    SearchConfig(
        name="ismcts-teg-explore",
        version=1,
        algorithm="ismcts",
        playout="none",
        exploration=0.3,
        reuse_tree=True,
        all_seats_plan="explore",
        all_seats_plan_weight=0.5,
        description="ismcts-teg@3 whose evaluation adds, for every seat, half a point an exploration card "
        "taken or under way (the explore plan's term, docs/rules/tiny_epic_galaxies.md section 13.19): the "
        "explore plan at that weight won 53.8% [51.5, 56.2] against the default, which prices an explore a "
        "little low. 0 in the base game, where it searches as ismcts-teg@3. A candidate: at equal iterations "
        "per turn (3,000) the SPRT against ismcts-teg@3 in Beyond the Black accepted H0 (+7.3 Elo "
        "[-17.9, +32.7]), and against it the colonies plan wins 53.7% [51.4, 56.0]: the edge moves from "
        "exploring to colonizing. Not a default: the game's default_search stays ismcts-teg@3.",
    )
)
# Issue 28, part 2 (session 9): the same term at half the weight, the one 13.19 named to try next. At 3
# players it beat ismcts-teg@3 by SPRT and no plan reached 55% against it; at 2 players it was not stronger
# (docs/rules/tiny_epic_galaxies.md 13.20). Not a default: the game's default_search is one for every
# player count, and at 2 players this is no better.
_preset(
    replace(
        _PRESETS["ismcts-teg-explore@1"],
        version=2,
        all_seats_plan_weight=0.25,
        description="ismcts-teg@3 whose evaluation adds, for every seat, a quarter of a point an exploration "
        "card taken or under way (the explore plan's term at half the weight of ismcts-teg-explore@1; "
        "docs/rules/tiny_epic_galaxies.md section 13.20). 0 in the base game, where it searches as "
        "ismcts-teg@3. A candidate for Beyond the Black at 3 players, where it beat ismcts-teg@3 by SPRT at "
        "equal iterations per turn; at 2 players it did not. Not a default.",
    )
)
# Tiny Epic Galaxies' learned evaluation (issue 31): its default (ismcts-teg@3, built from it so that the
# two cannot drift apart) with the shipped models scoring the leaves. Version 2 came with Beyond the Black's
# model retrained on 12,000 self-play games (session 10); version 1 stays registered so that stored matches
# and configs naming it still load, and plays the same (shipped) models.
_TEG_LEARNED = replace(
    _PRESETS["ismcts-teg@3"],
    name="ismcts-teg-learned",
    version=2,
    evaluation="learned",
    description="ismcts-teg@3 with each new leaf scored by the shipped learned model instead of "
    "evaluate(): Tiny Epic Galaxies at 2 players, base game (search/models/tiny_epic_galaxies-base-2p"
    ".orrnet, SHA-256 4abb728a...; stronger than ismcts-teg@3 at equal time per turn by SPRT) and Beyond "
    "the Black (tiny_epic_galaxies-beyond_the_black-2p.orrnet, 188099fa..., trained on 12,000 self-play "
    "games; stronger than ismcts-teg@3 at equal time per turn by SPRT at 30,000 iterations a turn); "
    "docs/learning.md. Other variants and player counts have no model and refuse it.",
)
_preset(
    replace(
        _TEG_LEARNED,
        version=1,
        description="ismcts-teg-learned until version 2: its Beyond the Black model (SHA-256 3ca7fc85..., "
        "1,999 self-play games, as strong as ismcts-teg@3) is no longer shipped, so it now plays the same "
        "models as version 2.",
    )
)
_preset(_TEG_LEARNED, learned_for="tiny_epic_galaxies")
_preset(
    SearchConfig(
        name="ismcts-ttg",
        version=1,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        description="Take The Galaxy's default until version 2: SO-ISMCTS, each new leaf scored by "
        "evaluate() with no playout, rank reward, c = 0.15 (it beat ismcts-long@1 by SPRT at equal time "
        "per turn: docs/search.md).",
    )
)
_preset(
    SearchConfig(
        name="ismcts-ttg",
        version=2,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        reuse_tree=True,
        description="Take The Galaxy's default from version 2: ismcts-ttg@1 whose turns reuse the tree "
        "across the seat's decisions where nothing hidden or random happened (it beat ismcts-ttg@1 by SPRT "
        'at equal iterations per turn: docs/search.md, "Tree reuse"). A single search is the same.',
    )
)
# Issue 28, part 3 (session 7): the default with Take The Galaxy's room to relinquish valued in every
# seat's evaluation (all_seats_plan), which evaluate() prices only as economy lost. evaluate() itself is
# unchanged, so the learned model's features and ismcts-ttg@2 are too. Not the default (docs/search.md).
_preset(
    SearchConfig(
        name="ismcts-ttg",
        version=3,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        reuse_tree=True,
        all_seats_plan="relinquish",
        all_seats_plan_weight=10.0,
        description="ismcts-ttg@2 whose evaluation adds, for every seat, 10 renown a system "
        "relinquished and half that for each held system's filled slots as a share of its slots (the "
        "relinquish plan's term, docs/rules/take_the_galaxy.md section 13.1): evaluate() prices a "
        "relinquish only as the economy it loses, never as the room it makes. Weight 10 chosen in "
        "duplicate sets (3, 6, 10, 16, 25, 40); it beat ismcts-ttg@2 by SPRT at equal iterations per turn "
        "(3,000). Not a default: the game's default_search stays ismcts-ttg@2.",
    )
)
# Take The Galaxy's learned evaluation (issue 31): its default with the shipped model; a retrained model
# gets a new version here.
_preset(
    SearchConfig(
        name="ismcts-ttg-learned",
        version=1,
        algorithm="ismcts",
        playout="none",
        exploration=0.15,
        reuse_tree=True,
        evaluation="learned",
        description="ismcts-ttg@2 with each new leaf scored by the shipped learned model instead of "
        "evaluate(): Take The Galaxy, variant standard, 2 players only "
        "(search/models/take_the_galaxy-standard-2p.orrnet, SHA-256 e593dc5d...; stronger than ismcts-ttg@2 "
        "by SPRT at budgets in the ratio of their speeds: docs/learning.md). Other games, variants and "
        "player counts have no model and refuse it.",
    ),
    learned_for="take_the_galaxy",
)
_preset(
    SearchConfig(
        name="ismcts-horizon",
        version=1,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=40,
        horizon="root",
        description="ismcts@2 with the 40-move cap counted from the searched position: each iteration "
        "plays 40 moves in all (tree and playout), so every leaf is scored at the same point of the game.",
    )
)
_preset(
    SearchConfig(
        name="ismcts-heuristic",
        version=1,
        algorithm="ismcts",
        playout="heuristic",
        description="SO-ISMCTS with the game's heuristic playout policy.",
    )
)
_preset(
    SearchConfig(
        name="ismcts-truncated",
        version=1,
        algorithm="ismcts",
        playout="heuristic",
        max_playout_depth=40,
        description="SO-ISMCTS, heuristic playouts cut after 40 moves and scored by the game's evaluate().",
    )
)
_preset(
    SearchConfig(
        name="ismcts-score",
        version=1,
        algorithm="ismcts",
        reward="score_share",
        description="SO-ISMCTS maximising the share of the total score (margin matters, e.g. chips).",
    )
)
_preset(
    SearchConfig(
        name="pimc",
        version=1,
        algorithm="pimc",
        pimc_determinizations=16,
        description="Determinized UCT ensemble (PIMC): 16 fixed determinizations per worker.",
    )
)
_preset(
    SearchConfig(
        name="pimc",
        version=2,
        algorithm="pimc",
        playout="heuristic",
        max_playout_depth=40,
        pimc_determinizations=16,
        description="PIMC with the playouts of ismcts@2: 16 determinizations, heuristic playouts cut "
        "after 40 moves.",
    )
)
_preset(
    SearchConfig(
        name="test-fast",
        version=1,
        algorithm="ismcts",
        reward="score_share",
        max_tree_nodes=50_000,
        description="Tests: SO-ISMCTS with a small tree cap and the score-share reward.",
    )
)
_preset(
    SearchConfig(
        name="test-pimc",
        version=1,
        algorithm="pimc",
        reward="score_share",
        pimc_determinizations=4,
        max_tree_nodes=50_000,
        description="Tests: PIMC with 4 determinizations and the score-share reward.",
    )
)


def check_plan(config: SearchConfig, game: str) -> None:
    """ValueError naming the field when `config` has a plan (or all_seats_plan) that `game` does not
    (Game.plans); the Searcher checks it too, this says so before a game is played (tournament configs)."""
    asked = [
        (field, getattr(config, field)) for field in ("plan", "all_seats_plan") if getattr(config, field)
    ]
    if not asked:
        return
    from orrery.core_ext import game_info, load_game

    info = game_info(game)
    plans: tuple[str, ...] = ()
    for players in info.player_counts:  # any seat count of the default variant: plans are per game
        try:
            plans = load_game(game, players=players, variant=info.default_variant).plans
            break
        except ValueError:
            continue
    for field, plan in asked:
        if plan not in plans:
            have = f"its plans: {', '.join(plans)}" if plans else "it has no plans"
            raise ValueError(f"{field} {plan!r} is not a plan of {game} ({have})")


def list_configs() -> tuple[SearchConfig, ...]:
    """Every preset, every version, sorted by name then version."""
    return tuple(sorted(_PRESETS.values(), key=lambda c: (c.name, c.version)))


def get_config(name: str) -> SearchConfig:
    """A preset by "name" (its latest version) or "name@version"."""
    if name in _PRESETS:
        return _PRESETS[name]
    versions = [c for c in _PRESETS.values() if c.name == name]
    if "@" not in name and versions:
        return max(versions, key=lambda c: c.version)
    known = ", ".join(c.label for c in list_configs())
    raise ValueError(f"unknown search config {name!r}; known: {known}")
