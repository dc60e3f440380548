"""Orrery's games inside OpenSpiel, and OpenSpiel's bots inside Orrery tournaments (docs/openspiel.md).

    import pyspiel
    from orrery import openspiel           # needs `pip install 'orrery[openspiel]'`
    openspiel.register_games()             # every Orrery game as pyspiel game "orrery_<name>"
    game = pyspiel.load_game("orrery_trian", {"players": 2, "variant": "beginner"})

The names below load on first use, so `orrery` (its command line included) works without OpenSpiel
and only a use of the bridge asks for it.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "GAME_PREFIX": "_bridge",
    "RANDOM_DEALS": "_bridge",
    "OrreryGame": "_bridge",
    "OrreryState": "_bridge",
    "load": "_bridge",
    "openspiel_name": "_bridge",
    "register_games": "_bridge",
    "OpenSpielBot": "_bots",
    "OpenSpielBudget": "_bots",
}
INSTALL_HINT = "orrery.openspiel needs OpenSpiel: pip install 'orrery[openspiel]' (CPython 3.11+)"

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'orrery.openspiel' has no attribute {name!r}")
    try:
        module = importlib.import_module(f"orrery.openspiel.{_EXPORTS[name]}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("pyspiel", "open_spiel") and not (exc.name or "").startswith("open_spiel."):
            raise
        raise ImportError(f"{INSTALL_HINT} ({exc})") from exc
    return getattr(module, name)
