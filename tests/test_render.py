"""Board pictures (orrery.render): every registered game has one, drawn from an observation only."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from orrery.core_ext import load_game, registered_games
from orrery.render import has_renderer, to_svg

SVG = "{http://www.w3.org/2000/svg}"


def played(game: str, players: int, moves: int, seed: int = 3):  # type: ignore[no-untyped-def]
    state = load_game(game, players=players).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.observation(state.current_player).legal_actions()))
    return state


@pytest.mark.parametrize("info", registered_games(), ids=lambda g: g.name)
def test_every_game_has_a_well_formed_picture(info) -> None:  # type: ignore[no-untyped-def]
    players = info.player_counts[0] if info.player_counts[0] > 1 else info.player_counts[-1]
    for moves in (0, 7, 10_000):
        state = played(info.name, players, moves)
        seat = 0 if state.is_terminal() else state.current_player
        root = ET.fromstring(to_svg(state.observation(seat)))
        assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title") is not None


def test_trian_and_kuhn_have_their_own_renderers() -> None:
    assert has_renderer("trian") and has_renderer("kuhn")


def test_a_picture_never_shows_a_hidden_card() -> None:
    state = load_game("kuhn", players=3).new_initial_state(seed=11)
    card = state.to_dict()["state"]["cards"][1]
    svg = ET.fromstring(to_svg(state.observation(0)))
    shown = [t.text for t in svg.iter(f"{SVG}text") if t.get("data-card")]
    assert len(shown) == 1  # only the observer's own card is face up
    other = ET.fromstring(to_svg(state.observation(1)))
    assert len([t for t in other.iter(f"{SVG}text") if t.get("data-card")]) == 1
    assert card is not None


def test_trian_picture_draws_every_tile_and_marks_what_moves_touch() -> None:
    state = played("trian", 2, 60)
    obs = state.observation(state.current_player)
    root = ET.fromstring(to_svg(obs))
    tiles = [
        p for p in root.iter(f"{SVG}polygon") if p.get("data-cell") and "target" not in (p.get("class") or "")
    ]
    galaxy = obs.to_dict()["state"]
    placed = len(galaxy["galaxy"]) if "galaxy" in galaxy else galaxy["n_placed"]
    assert len(tiles) == placed
    targets = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "target"]
    legal = {int(a) for a in obs.legal_actions()}
    assert all({int(i) for i in t.get("data-actions").split()} <= legal for t in targets)
    place = next((a for a in obs.legal_actions() if obs.action_to_struct(a).get("x") is not None), None)
    if place is not None:
        marked = ET.fromstring(to_svg(obs, highlight=place))
        assert [p for p in marked.iter(f"{SVG}polygon") if p.get("class") == "highlight"]


def test_pictures_are_deterministic() -> None:
    state = played("trian", 3, 40)
    obs = state.observation(1)
    assert to_svg(obs) == to_svg(state.observation(1))
    assert to_svg(obs.to_json()) == to_svg(obs.to_dict())
