"""Tournament configuration: frozen dataclasses, read from TOML and checked before any game is played."""

from __future__ import annotations

import hashlib
import json
import math
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from orrery.search.tournament._kinds import OPTIONAL_FIELDS, bot_kind, kinds_reading

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

FORMATS = ("round-robin", "gauntlet", "sprt")
BACKENDS = ("inline", "processes", "ray")
ROTATIONS = ("all", "cyclic")


class ConfigError(ValueError):
    """A tournament configuration that cannot be run, with the offending field named."""


@dataclass(frozen=True, kw_only=True)
class BudgetSpec:
    """Per-move search budget. Iterations are reproducible; milliseconds are not."""

    iterations: int | None = None  # search iterations per move
    milliseconds: float | None = None  # wall time per move (ms)

    def __post_init__(self) -> None:
        if self.iterations is None and self.milliseconds is None:
            raise ConfigError("budget: set iterations or milliseconds")
        if self.iterations is not None and self.iterations < 1:
            raise ConfigError(f"budget.iterations must be >= 1, got {self.iterations}")
        if self.milliseconds is not None and not self.milliseconds > 0:
            raise ConfigError(f"budget.milliseconds must be > 0, got {self.milliseconds}")

    @property
    def reproducible(self) -> bool:
        return self.milliseconds is None


@dataclass(frozen=True, kw_only=True)
class BotSpec:
    """One contestant: a built-in bot, a named search configuration, a factory function, or a kind
    registered from another layer such as an OpenSpiel bot or a remote Orrery server (docs/tournaments.md,
    "Bot kinds"). Each optional field is read by some kinds only (BotKind.fields); the kind checks it."""

    name: str  # the name used in results and reports; unique within a tournament
    kind: str  # a registered kind (search.tournament.bot_kinds())
    # search kinds: a preset, e.g. "ismcts@1" (search.get_config); other kinds: what their docs say
    config: str | None = None
    # search kinds: SearchConfig fields replaced on the preset; other kinds: their options
    overrides: tuple[tuple[str, Any], ...] = ()
    budget: BudgetSpec | None = None  # None: the tournament's per-move budget
    factory: str | None = None  # "module:function" for kind = "factory"
    address: str | None = None  # kind = "remote": the server, "host:port"
    level: str | None = None  # kind = "remote" or "level": a play level (orrery.search LEVELS)

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise ConfigError("bots: every bot needs a non-empty name")
        try:
            kind = bot_kind(self.kind)
        except ValueError as exc:
            raise ConfigError(f"bot {self.name!r}: {exc}") from None
        for key in OPTIONAL_FIELDS:
            value = getattr(self, key)
            given = bool(value) if key in ("config", "overrides") else value is not None
            if given and key not in kind.fields:
                readers = kinds_reading(key)
                raise ConfigError(
                    f"bot {self.name!r}: {key} is only for kind{'s' if len(readers) > 1 else ''} "
                    + ", ".join(repr(k) for k in readers)
                )
        if kind.check is not None:
            try:
                kind.check(self)
            except ValueError as exc:
                raise ConfigError(f"bot {self.name!r}: {exc}") from None


@dataclass(frozen=True, kw_only=True)
class SprtSpec:
    """Bounds of the head-to-head test, in normalised Elo (fishtest's nElo), and its error rates."""

    elo0: float = 0.0  # H0: candidate's normalised Elo over the baseline is elo0
    elo1: float = 10.0  # H1: it is elo1
    alpha: float = 0.05  # false positive rate (accept H1 when H0 holds)
    beta: float = 0.05  # false negative rate (accept H0 when H1 holds)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1) and self.elo0 < self.elo1):
            raise ConfigError(f"sprt: need finite elo0 < elo1, got {self.elo0}, {self.elo1}")
        for label, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ConfigError(f"sprt.{label} must lie in (0, 0.5), got {value}")


@dataclass(frozen=True, kw_only=True)
class TournamentConfig:
    name: str
    game: str
    players: int
    variant: str | None = None  # None: the game's default variant
    format: str  # one of FORMATS
    bots: tuple[BotSpec, ...]
    baseline: str | None = None  # gauntlet and sprt: the reference bot
    sets: int  # duplicate sets per pairing (sprt: the most it will play)
    seed: int = 0  # master seed: deals and bot seeds derive from it
    rotations: str = "all"  # "all" seatings, or "cyclic" (each bot in each seat once)
    budget: BudgetSpec = field(default_factory=lambda: BudgetSpec(iterations=100))
    sprt: SprtSpec = field(default_factory=SprtSpec)
    # How the games are played; none of these change the results.
    workers: int = 1  # games played at once
    backend: str = "processes"  # "inline" (this process), "processes" or "ray"
    ray_address: str | None = None  # None: $RAY_ADDRESS, else a local Ray
    results: str | None = None  # JSONL path; None: "<name>.jsonl" in the working directory

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ConfigError(f"format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.rotations not in ROTATIONS:
            raise ConfigError(f"rotations must be one of {', '.join(ROTATIONS)}, got {self.rotations!r}")
        if not 2 <= self.players <= 5:  # a solo game has no opponent seat to rate against
            raise ConfigError(
                f"players must be 2 to 5 (the game's own counts are checked too), got {self.players}"
            )
        if self.sets < 1:
            raise ConfigError(f"sets must be >= 1, got {self.sets}")
        if self.workers < 1:
            raise ConfigError(f"workers must be >= 1, got {self.workers}")
        if not 0 <= self.seed < 2**63:
            raise ConfigError(f"seed must lie in [0, 2**63), got {self.seed}")
        names = [b.name for b in self.bots]
        if len(set(names)) != len(names):
            raise ConfigError(f"bots: names must be unique, got {names}")
        if len(names) < 2:
            raise ConfigError("bots: a tournament needs at least two bots")
        if self.format == "sprt" and len(names) != 2:
            raise ConfigError("format 'sprt' is a head-to-head test: give exactly two bots")
        if self.format in ("sprt", "gauntlet"):
            if self.baseline is None:
                raise ConfigError(f"format {self.format!r} needs baseline = one of the bot names")
            if self.baseline not in names:
                raise ConfigError(f"baseline {self.baseline!r} is not one of the bots {names}")
        elif self.baseline is not None and self.baseline not in names:
            raise ConfigError(f"baseline {self.baseline!r} is not one of the bots {names}")
        if self.format == "round-robin" and 2 < len(names) < self.players:
            raise ConfigError(
                f"round-robin with {self.players} players needs 2 bots or at least {self.players} bots"
            )

    def bot(self, name: str) -> BotSpec:
        for spec in self.bots:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @property
    def candidate(self) -> str | None:
        """The bot tested against the baseline in an sprt."""
        if self.format != "sprt":
            return None
        return next(b.name for b in self.bots if b.name != self.baseline)

    @property
    def reproducible(self) -> bool:
        """True when every budget counts iterations, so results do not depend on timing."""
        return not self.timed_bots()

    def timed_bots(self) -> list[str]:
        """The bots that play a wall-clock budget: their own or the tournament's milliseconds, or a level
        (kind "level" or a remote level) whose budget in this game is time, as expert's is. Random and
        greedy search nothing; a factory's bot keeps its budget to itself: neither is counted."""
        from orrery.search import LEVELS, level_in

        timed = []
        for bot in self.bots:
            if bot.level in LEVELS:
                budget_is_time = (
                    level_in(bot.level, self.game, self.variant, self.players).milliseconds is not None
                )
            elif bot.kind in ("factory", "random", "greedy"):
                continue
            else:
                budget_is_time = not (bot.budget or self.budget).reproducible
            if budget_is_time:
                timed.append(bot.name)
        return timed

    def results_path(self) -> Path:
        return Path(self.results) if self.results else Path(f"{self.name}.jsonl")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for bot in data["bots"]:
            bot["overrides"] = dict(bot["overrides"])
            for key in ("address", "level"):  # absent unless set: older results keep their fingerprint
                if bot[key] is None:
                    del bot[key]
        return data

    def fingerprint(self) -> str:
        """Hash of everything that decides which games are played and how; not how many at once."""
        data = self.to_dict()
        for key in ("workers", "backend", "ray_address", "results"):
            data.pop(key)
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _take(table: dict[str, Any], where: str, allowed: set[str]) -> dict[str, Any]:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}"
        )
    return table


def _budget(table: Any, where: str) -> BudgetSpec:
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table such as {{ iterations = 200 }}")
    _take(table, where, {"iterations", "milliseconds"})
    return BudgetSpec(iterations=table.get("iterations"), milliseconds=table.get("milliseconds"))


def _bot(table: Any, index: int) -> BotSpec:
    where = f"bots[{index}]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    _take(table, where, {"name", "kind", "config", "overrides", "budget", "factory", "address", "level"})
    if "kind" not in table:
        raise ConfigError(f"{where}: kind is required")
    overrides = table.get("overrides", {})
    if not isinstance(overrides, dict):
        raise ConfigError(f"{where}.overrides must be a table")
    return BotSpec(
        name=str(table.get("name", table["kind"])),
        kind=table["kind"],
        config=table.get("config"),
        overrides=tuple(sorted(overrides.items())),
        budget=_budget(table["budget"], f"{where}.budget") if "budget" in table else None,
        factory=table.get("factory"),
        address=table.get("address"),
        level=table.get("level"),
    )


def config_from_dict(data: dict[str, Any]) -> TournamentConfig:
    """Build a config from the TOML layout: top-level settings, [budget], [sprt] and [[bots]]."""
    allowed = {
        "name", "game", "players", "variant", "format", "bots", "baseline", "sets", "seed",
        "rotations", "budget", "sprt", "workers", "backend", "ray_address", "results",
    }  # fmt: skip
    _take(data, "tournament", allowed)
    for key in ("game", "players", "format", "sets", "bots"):
        if key not in data:
            raise ConfigError(f"tournament: {key} is required")
    bots = data["bots"]
    if not isinstance(bots, list):
        raise ConfigError("bots must be an array of tables ([[bots]])")
    kwargs: dict[str, Any] = {
        k: data[k]
        for k in ("name", "game", "players", "variant", "format", "baseline", "sets", "seed", "rotations",
                  "workers", "backend", "ray_address", "results")
        if k in data
    }  # fmt: skip
    kwargs.setdefault("name", f"{data['game']}-{data['format']}")
    kwargs["bots"] = tuple(_bot(b, i) for i, b in enumerate(bots))
    if "budget" in data:
        kwargs["budget"] = _budget(data["budget"], "budget")
    if "sprt" in data:
        sprt = _take(data["sprt"], "sprt", {"elo0", "elo1", "alpha", "beta"})
        kwargs["sprt"] = SprtSpec(**{k: float(v) for k, v in sprt.items()})
    if "rotations" not in kwargs and data["players"] == 4:
        kwargs["rotations"] = "cyclic"  # all 24 seatings of four bots per deal is rarely affordable
    try:
        return TournamentConfig(**kwargs)
    except TypeError as exc:  # a wrongly typed value
        raise ConfigError(f"tournament: {exc}") from None


def load_config(path: str | Path, **overrides: Any) -> TournamentConfig:
    """Read a TOML config; keyword overrides (workers=4, results=...) replace its settings."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    config = config_from_dict(data)
    given = {k: v for k, v in overrides.items() if v is not None}
    return replace(config, **given) if given else config


def config_from_json(data: dict[str, Any]) -> TournamentConfig:
    """The inverse of TournamentConfig.to_dict (used to read a results file's header)."""
    data = dict(data)
    data["bots"] = tuple(
        BotSpec(
            **{
                **bot,
                "overrides": tuple(sorted(bot["overrides"].items())),
                "budget": BudgetSpec(**bot["budget"]) if bot["budget"] else None,
            }
        )
        for bot in data["bots"]
    )
    data["budget"] = BudgetSpec(**data["budget"])
    data["sprt"] = SprtSpec(**data["sprt"])
    return TournamentConfig(**data)
