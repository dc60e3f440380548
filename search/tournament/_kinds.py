"""The registry of tournament bot kinds: what a `[[bots]]` table's `kind` means.

A kind checks the BotSpec fields it reads, builds the bot for a game and a budget, and says what the
report prints about it. This module registers search's own kinds (random, greedy, the search kinds and
factory). Layers above search add theirs from their own modules, which this module never imports by name:
each is an entry point in the group ENTRY_POINT_GROUP (pyproject.toml: service's "remote", openspiel's
"openspiel"), whose name is the kind and whose value is its BotKind, loaded the first time a config names
a kind not registered yet. Outside code can also call register_bot_kind() before it builds a config.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, distributions
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orrery.search.tournament._config import BotSpec, BudgetSpec

ENTRY_POINT_GROUP = "orrery.tournament_bots"
# The optional BotSpec fields a kind may read; one it does not read must be left unset.
OPTIONAL_FIELDS = ("config", "overrides", "factory", "address", "level")


@dataclass(frozen=True, kw_only=True)
class BotKind:
    """One `kind` of tournament bot."""

    name: str  # the `kind` value in a config
    fields: frozenset[str]  # which of OPTIONAL_FIELDS this kind reads
    # (spec, budget, game[, setting=]) -> an object with name, version and select_action(observation, *, seed)
    build: Callable[..., Any]
    # what the report says in the parentheses after the bot's name, from the bot's effective budget
    # (and, for a kind that takes_setting, setting=(variant, players) as build gets it)
    describe: Callable[..., str]
    # raises ValueError (its message names the field) for a spec this kind cannot build; None: no checks
    check: Callable[[BotSpec], None] | None = None
    # build and describe also take setting=(variant, players), the tournament's game setting: a level's
    # preset, budget and tolerance depend on it (orrery.search.level_config, level_in)
    takes_setting: bool = False

    def __post_init__(self) -> None:
        unknown = sorted(self.fields - set(OPTIONAL_FIELDS))
        if unknown:
            raise ValueError(f"bot kind {self.name!r}: unknown field(s) {', '.join(unknown)}")


_KINDS: dict[str, BotKind] = {}


def register_bot_kind(kind: BotKind) -> None:
    """Add a kind, or replace the one of that name."""
    _KINDS[kind.name] = kind


def _entry_points() -> list[EntryPoint]:
    """The group's entry points of every distribution on the path. Not entry_points(group=...), which
    keeps only the first distribution of each name: an editable install leaves an orrery.egg-info in
    the repository root that can be older than the installed metadata and, run from there, hide it."""
    found: dict[tuple[str, str], EntryPoint] = {}
    for dist in distributions():
        for point in dist.entry_points:
            if point.group == ENTRY_POINT_GROUP:
                found.setdefault((point.name, point.value), point)
    return list(found.values())


def _load_entry_points(name: str | None = None) -> list[str]:
    """Register the plug-in kinds named `name` (all when None); returns why any failed to load."""
    failures = []
    points = _entry_points()
    if not points:
        failures.append(
            f"no {ENTRY_POINT_GROUP!r} entry points are installed: reinstall orrery (pip install -e .)"
        )
    for point in points:
        if (name is not None and point.name != name) or point.name in _KINDS:
            continue
        try:
            kind = point.load()
        except Exception as exc:  # a broken plug-in must not hide the others
            failures.append(f"{point.name} ({point.value}): {type(exc).__name__}: {exc}")
            continue
        if not isinstance(kind, BotKind) or kind.name != point.name:
            failures.append(f"{point.name} ({point.value}): not a BotKind named {point.name!r}")
            continue
        register_bot_kind(kind)
    return failures


@cache
def _load_all_entry_points() -> tuple[str, ...]:
    return tuple(_load_entry_points())


def bot_kind(name: str) -> BotKind:
    """The kind registered as `name`, loading its plug-in on first use; ValueError lists the known ones."""
    kind = _KINDS.get(name)
    if kind is not None:
        return kind
    failures = _load_entry_points(name)
    if name in _KINDS:
        return _KINDS[name]
    failures += _load_all_entry_points()
    message = f"kind must be one of {', '.join(bot_kinds())}, got {name!r}"
    if failures:
        message += "; plug-ins: " + "; ".join(dict.fromkeys(failures))
    raise ValueError(message)


def bot_kinds() -> tuple[str, ...]:
    """Every kind's name, plug-ins included (their modules are imported)."""
    _load_all_entry_points()
    return tuple(_KINDS)


def kinds_reading(field: str) -> tuple[str, ...]:
    """The kinds that read an optional BotSpec field, plug-ins included."""
    return tuple(k.name for k in (bot_kind(n) for n in bot_kinds()) if field in k.fields)


def budget_text(budget: BudgetSpec) -> str:
    if budget.iterations is not None:
        return f"{budget.iterations} iterations/move"
    return f"{budget.milliseconds:g} ms/move"


# Search's own kinds.

SEARCH_KINDS = ("ismcts", "pimc")


def _build_plain(spec: BotSpec, budget: BudgetSpec, game: str) -> Any:
    from orrery import search

    return search.make_bot(spec.kind)


def _build_search(spec: BotSpec, budget: BudgetSpec, game: str) -> Any:
    """A search bot; with no config named it uses `game`'s own default preset."""
    from orrery import search

    config = _search_config(spec, search.default_config(spec.kind, game), game)
    search_budget = search.Budget(iterations=budget.iterations, milliseconds=budget.milliseconds)
    return search.make_bot(spec.kind, config=config, budget=search_budget)


def _search_config(spec: BotSpec, default: Any, game: str) -> Any:
    """The bot's preset (or `default`) with its overrides; a plan is checked against the game's plans
    here, so a config naming a plan the game lacks fails before any game is played."""
    from orrery import search
    from orrery.search._config import check_plan

    config = search.get_config(spec.config) if spec.config else default
    if spec.overrides:
        config = dataclasses.replace(config, **dict(spec.overrides))
    check_plan(config, game)
    return config


def _describe_search(spec: BotSpec, budget: BudgetSpec) -> str:
    overrides = "".join(f", {k}={v}" for k, v in spec.overrides)
    return f"{spec.kind} {spec.config or spec.kind}{overrides}, {budget_text(budget)}"


def _check_factory(spec: BotSpec) -> None:
    if not spec.factory or ":" not in spec.factory:
        raise ValueError("kind 'factory' needs factory = 'module:function'")


def _build_factory(spec: BotSpec, budget: BudgetSpec, game: str) -> Any:
    assert spec.factory is not None
    module_name, _, attr = spec.factory.partition(":")
    return getattr(importlib.import_module(module_name), attr)()


def _check_level(spec: BotSpec) -> None:
    from orrery.search import LEVELS

    if spec.level not in LEVELS:
        raise ValueError(f"kind 'level' needs level = one of {', '.join(LEVELS)}, got {spec.level!r}")


def _build_level(
    spec: BotSpec, budget: BudgetSpec, game: str, *, setting: tuple[str, int] | None = None
) -> Any:
    """A service level played in-process: its own budget (the tournament's is not used) and tolerance,
    and with no config named the preset the service's level plays in this setting (variant, players)."""
    from orrery import search
    from orrery.search._bots import LevelBot

    assert spec.level is not None
    if spec.config:
        config = search.get_config(spec.config)
    elif setting is not None:
        config = search.level_config(spec.level, game, *setting)
    else:
        config = search.default_config("ismcts", game)
    return LevelBot(search.level_in(spec.level, game, *(setting or (None, None))), config)


def _build_turn(spec: BotSpec, budget: BudgetSpec, game: str) -> Any:
    """A search that plays as a hosted AI seat does, tolerance 0: the tournament's budget (or the bot's)
    is per whole turn, shared over the turn's decisions by the turn clock. Presets are compared "at the
    same time per turn" (issue 25) with it."""
    from orrery import search
    from orrery.search._bots import LevelBot
    from orrery.search._levels import Level

    config = _search_config(spec, search.default_config("ismcts", game), game)
    ms = None if budget.milliseconds is None else round(budget.milliseconds)
    level = Level(name="turn", iterations=budget.iterations, milliseconds=ms, tolerance=0.0)
    return LevelBot(level, config)


def _describe_turn(spec: BotSpec, budget: BudgetSpec) -> str:
    overrides = "".join(f", {k}={v}" for k, v in spec.overrides)
    per_turn = budget_text(budget).replace("/move", "/turn")
    return f"turn {spec.config or 'default'}{overrides}, {per_turn}"


def _describe_level(
    spec: BotSpec, budget: BudgetSpec, *, game: str | None = None, setting: tuple[str, int] | None = None
) -> str:
    """The level's budget per whole turn and tolerance as it plays in the tournament's game setting (with
    the game's iteration scale and any LEVEL_SETTINGS entry), or its own where no game is given."""
    from orrery.search import level_in

    level = level_in(spec.level or "", game, *(setting or (None, None)))
    return f"level {level.name}: {level.turn_budget_for(game).label}, tolerance {level.tolerance:g}"


for _name in ("random", "greedy"):
    register_bot_kind(
        BotKind(name=_name, fields=frozenset(), build=_build_plain, describe=lambda spec, budget: spec.kind)
    )
for _name in SEARCH_KINDS:
    register_bot_kind(
        BotKind(
            name=_name,
            fields=frozenset({"config", "overrides"}),
            build=_build_search,
            describe=_describe_search,
        )
    )
register_bot_kind(
    BotKind(
        name="factory",
        fields=frozenset({"factory"}),
        build=_build_factory,
        describe=lambda spec, budget: f"factory {spec.factory}",
        check=_check_factory,
    )
)
register_bot_kind(
    BotKind(
        name="turn", fields=frozenset({"config", "overrides"}), build=_build_turn, describe=_describe_turn
    )
)
register_bot_kind(
    BotKind(
        name="level",
        fields=frozenset({"level", "config"}),
        build=_build_level,
        takes_setting=True,
        describe=_describe_level,
        check=_check_level,
    )
)
