"""The start-up check of the search configurations a server plays with when a query names none: its
`--config` and each game's `default_search`.

Each query and AI seat is checked again when it comes (INVALID_ARGUMENT `params.config` or
`seats[i].ai.bot`); this check only refuses a server that could never answer with the configuration it
was given, so the operator reads the reason once at start, not in every client's error: an unknown
preset, or one with `evaluation = "learned"` where no usable learned model is shipped at all (a missing,
damaged or stale model file: search/_shipped.py says why a file is refused). A learned `--config` that
works for some games only starts, with a warning naming where it works.
"""

from __future__ import annotations

from typing import Any

from orrery.core_ext import registered_games
from orrery.search import get_config
from orrery.search._shipped import ShippedIndex, shipped_index


class SearchConfigError(RuntimeError):
    """A search configuration the server would be given cannot search; the message starts with its key."""


def check_server_configs(default_config: str, *, index: ShippedIndex | None = None) -> list[str]:
    """Raise SearchConfigError for `--config` (`default_config`, "" = none) or a game's default_search
    that no query could search with; else return warnings to log (a learned `--config` usable only for
    some game settings, a shipped model no preset plays). `index`: the shipped models (tests pass one)."""
    index = shipped_index() if index is None else index
    warnings = []
    if default_config:
        warnings += _check_default_config(default_config, index)
    for game in registered_games():
        _check_game_default(game, index)
    for model in index.models:
        if not model.search_config:
            warnings.append(
                f"the learned model {model.file_name} is usable but no preset plays it "
                "(register one with learned_for in search/_config.py)"
            )
    return warnings


def _check_default_config(name: str, index: ShippedIndex) -> list[str]:
    try:
        config = get_config(name)
    except ValueError as exc:
        raise SearchConfigError(f"--config: {exc}") from None
    if config.evaluation != "learned":
        return []
    if not index.models:
        refused = "; ".join(index.refused.values())
        why = f"every shipped model file is refused: {refused}" if refused else "none is shipped"
        raise SearchConfigError(
            f"--config: {config.label} has evaluation 'learned', but no learned evaluation model is "
            f"usable ({why}); `orrery games` lists the usable ones"
        )
    settings = ", ".join(f"{m.game} {m.variant} {m.players}p" for m in index.models)
    return [
        f"--config {config.label} has evaluation 'learned': a query or AI seat that names no "
        f"configuration works only for {settings}; any other is refused (INVALID_ARGUMENT params.config, "
        "seats[i].ai.bot)"
    ]


def _check_game_default(game: Any, index: ShippedIndex) -> None:
    """A game's default_search serves every variant and player count of it: it must exist, and where it
    is learned, every one of them needs a usable model."""
    key = f"{game.name} default_search"
    try:
        config = get_config(game.default_search)
    except ValueError as exc:
        raise SearchConfigError(f"{key}: {exc}") from None
    if config.evaluation != "learned":
        return
    usable = {(m.game, m.variant, m.players) for m in index.models}
    for variant in game.variants:
        for players in game.players_for(variant):
            if (game.name, variant, players) not in usable:
                reason = index.refused.get((game.name, variant, players), "no model file is shipped")
                raise SearchConfigError(
                    f"{key}: {config.label} has evaluation 'learned', but {game.name} ({variant}, "
                    f"{players} players) has no usable learned evaluation model: {reason}"
                )
