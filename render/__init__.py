"""Board pictures: one SVG renderer per game, drawn from an observation (what one seat knows).

    from orrery.render import to_svg
    svg = to_svg(state.observation(seat))      # an SVG document, as text

Each game's renderer lives in its own module (`orrery.render.<game>`) and reads only the observation's
public API (`to_dict()` and `action_to_struct()`), so a picture never shows what the seat cannot see.
This package sits above `orrery.core_ext` and below `orrery.search` and `orrery.service`: it imports
neither of those two.
"""

from __future__ import annotations

import importlib
from typing import Any

from orrery.render._svg import fallback_svg

__all__ = ["has_renderer", "to_svg", "write_svg"]

# game name -> module in this package with `render(obs_dict, highlight) -> str`
RENDERERS = {
    "kuhn": "orrery.render.kuhn",
    "take_the_galaxy": "orrery.render.take_the_galaxy",
    "tiny_epic_galaxies": "orrery.render.tiny_epic_galaxies",
    "trian": "orrery.render.trian",
}


def has_renderer(game: str) -> bool:
    return game in RENDERERS


def to_svg(observation: Any, *, highlight: Any = None, last_turn: Any = None, ended: str = "") -> str:
    """The picture of `observation` (an Observation, or its to_dict() / JSON form) as SVG text.

    `highlight`: an action id or its struct (dict); the board marks what that move touches where the
    game's renderer knows how (Trian: the cells a tile or piece comes from and goes to). Given an
    Observation, the picture also carries hidden outlines (class "target", data-actions="ids") of what
    each legal move touches, which a web page can show on hover. `last_turn`: the places the last turn
    changed, as the viewer saw them (MoveEvents.touched of its moves), outlined in solid orange (class
    "last-move"). A game with no renderer yet gets its text render in a framed box, so every game has a
    picture.

    `ended`: how a hosted match ended when not by the game's rules ("seat 1 resigned"): the picture
    says the game is over, and why, instead of whose turn it is."""
    data, text, struct = _inputs(observation, highlight)
    if ended:
        data = {**data, "ended": ended}
    game = data.get("game", "")
    if game not in RENDERERS:
        return fallback_svg(game, text or "")
    targets: list[dict] = []
    if hasattr(observation, "legal_actions") and not observation.is_terminal():
        targets = [observation.action_to_struct(a) for a in observation.legal_actions()]
    module = importlib.import_module(RENDERERS[game])
    if hasattr(module, "extra_facts") and not isinstance(observation, (str, dict)):
        data = {**data, **module.extra_facts(observation)}  # what the engine knows beyond the JSON
    return str(module.render(data, struct, targets, last_turn=list(last_turn or [])))


def write_svg(observation: Any, path: str, *, highlight: Any = None) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(to_svg(observation, highlight=highlight))


def _inputs(observation: Any, highlight: Any) -> tuple[dict, str | None, dict | None]:
    import json

    if isinstance(observation, str):
        return json.loads(observation), None, highlight if isinstance(highlight, dict) else None
    if isinstance(observation, dict):
        return observation, None, highlight if isinstance(highlight, dict) else None
    struct = highlight
    if isinstance(highlight, int):
        struct = observation.action_to_struct(highlight)
    return observation.to_dict(), observation.render(), struct
