"""Galaxy of Trian's board picture (orrery.render.trian, issue 27 point 3): the tile edges, each seat's
race and skills, where the score comes from and the placement previews, each present, titled and built
from what the viewer may see; and the end-of-game breakdown (orrery.core_ext.trian.end_scoring) equal to
the engine's final scores."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from orrery.core_ext import load_game
from orrery.core_ext.trian import RACE_NAMES, SKILL_NAMES, UNIVERSAL_NAMES, end_scoring
from orrery.core_ext.trian.skills import SKILLS, tooltip
from orrery.render import to_svg
from orrery.render.trian import face_edges
from tests.test_trian_ships import drain_stacks, plunder

SVG = "{http://www.w3.org/2000/svg}"
# the neighbour across each side of cell (x, y) (docs/rules/trian.md section 2); "vert" is y + 1 for an
# up triangle (x + y even), y - 1 for a down one
OPPOSITE = {"left": "right", "right": "left", "vert": "vert"}


def neighbour(x: int, y: int, side: str) -> tuple[int, int]:
    if side == "left":
        return x - 1, y
    if side == "right":
        return x + 1, y
    return x, y + 1 if (x + y) % 2 == 0 else y - 1


def positions(variant: str, players: int, seed: int, every: int = 40) -> Iterator:
    """States along one seeded random game, every `every` moves and the end."""
    state = load_game("trian", players=players, variant=variant).new_initial_state(seed=seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            yield state.clone()
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    yield state


def tips(root: ET.Element) -> list[str]:
    """The tooltip of every titled element (the document's own title left out)."""
    return [t.text or "" for el in root.iter() if el is not root for t in el.findall(f"{SVG}title")]


def test_the_skill_texts_name_every_race_and_skill_the_engine_has() -> None:
    races = {s.race for s in SKILLS.values() if s.race}
    assert races == set(RACE_NAMES)
    for race, names in zip(RACE_NAMES, SKILL_NAMES, strict=True):
        assert [SKILLS[n].race for n in names] == [race] * 5
        assert [SKILLS[n].kind for n in names] == ["starting", "starting", "module", "module", "module"]
    assert [SKILLS[n].kind for n in UNIVERSAL_NAMES] == ["universal"] * 3
    assert len(SKILLS) == 43 and all(s.short and len(s.text) > len(s.short) for s in SKILLS.values())
    assert tooltip("Harvester").startswith("Harvester (MAEPHOS, starting skill): Your Rogues move up to 4")


@pytest.mark.parametrize("variant", ["beginner", "full"])
def test_edges_are_drawn_on_the_side_the_engine_matches_them(variant: str) -> None:
    """Every nebula, path and gas edge of every placed tile is a titled band; and the sides computed from
    the face and rotation agree across every border (the engine only lets equal edges touch), which
    pins the rotation to the engine's."""
    for state in positions(variant, 3, seed=2, every=60):
        facts = state.observation(0).to_dict()["state"]
        sides = {}
        for t in facts["galaxy"]:
            for side, letter in face_edges(t["face"], t["x"], t["y"], t["rotation"]):
                sides[(t["x"], t["y"], side)] = letter
        for (x, y, side), letter in sides.items():
            other = sides.get((*neighbour(x, y, side), OPPOSITE[side]))
            assert other in (None, letter), (x, y, side)
        root = ET.fromstring(to_svg(state.observation(0)))
        bands = [g for g in root.iter(f"{SVG}g") if g.get("data-edge")]
        assert len(bands) == sum(1 for letter in sides.values() if letter in "NPG")
        for g in bands:
            tip = g.find(f"{SVG}title").text or ""
            assert {"N": "nebula border", "P": "starlight path", "G": "gas cloud border"}[
                g.get("data-edge")
            ] in tip
        words = " ".join(tips(root))
        for t in facts["galaxy"]:
            assert f"({t['x']}, {t['y']}) {t['face']}: edges " in words


def test_the_legend_explains_edges_pieces_and_the_score() -> None:
    root = ET.fromstring(to_svg(next(positions("ships", 2, seed=1)).observation(0)))
    drawn = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    for words in (
        "nebula border",
        "starlight path: the system goes on",
        "gas cloud border",
        "Corvette",
        "Rogue",
    ):
        assert words in drawn
    assert "score = credits + 3 per mineral" in drawn and "plunder" in drawn


def test_every_seat_shows_its_race_and_skills_with_what_they_do() -> None:
    for state in positions("full", 4, seed=3, every=150):
        full = state.to_dict()["state"]["players"]
        for seat in (0, 2):
            root = ET.fromstring(to_svg(state.observation(seat)))
            drawn = " ".join(" ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text")).split())
            skill_tips = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.get("data-skill")]
            for player in full:
                assert f"race {player['race']}" in drawn
                for name in player["racial_skills"] + player["universal_skills"]:
                    assert f"• {name}: {SKILLS[name].short}" in drawn
                    assert tooltip(name) in skill_tips
            assert len(skill_tips) == sum(len(p["racial_skills"]) + len(p["universal_skills"]) for p in full)
    beginner = ET.fromstring(to_svg(next(positions("beginner", 2, seed=1)).observation(0)))
    assert "race " not in " ".join("".join(t.itertext()) for t in beginner.iter(f"{SVG}text"))


def test_the_score_breakdown_is_the_engines_score_and_its_final_score() -> None:
    """credits + 3 x minerals is scores() at every position; adding the plunder the breakdown foresees
    just before the last move gives the final scores; each seat's panel says it."""
    for variant in ("beginner", "ships", "full"):
        for seed in (1, 2, 3):
            before = None
            for state in positions(variant, 2, seed=seed, every=25):
                parts = end_scoring(state)
                if not state.is_terminal():
                    assert [p["credits"] + 3 * p["minerals"] for p in parts] == state.scores()
                    assert end_scoring(state.observation(state.current_player)) == parts
                    before = state
                else:
                    assert all(p["minerals"] == 0 and p["plunder"] == 0 for p in parts)
            assert before is not None
            root = ET.fromstring(to_svg(before.observation(0)))
            drawn = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
            for p in end_scoring(before):
                assert f"= {p['credits']} credits + {p['minerals']} mineral" in drawn
    # the state right before the last move foresees the final scores, plunder included
    sc = plunder(1)
    drain_stacks(sc)
    parts = end_scoring(sc.state)
    assert sorted(p["plunder"] for p in parts) == [-6, 6]
    root = ET.fromstring(to_svg(sc.state.observation(1)))
    drawn = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "plunder if it ended now: +6 credits" in drawn and "plunder if it ended now: −6 credits" in drawn
    # a spectator: the Observation itself asks the engine; the public JSON (a replay's picture) cannot
    # be loaded back as a view, so it draws the score without the plunder line
    assert "plunder if it ended now: +6" in to_svg(sc.state.public_observation())
    public = to_svg(sc.state.public_observation().to_dict())
    assert (
        "plunder if it ended now" not in public and f"= {parts[0]['credits']} credits + 0 minerals" in public
    )
    sc.turn(-2, 0, "space", "pass")  # B's last turn ends the game
    assert sc.state.is_terminal()
    assert sc.state.scores() == [p["credits"] + 3 * p["minerals"] + p["plunder"] for p in parts]
    final = " ".join(
        "".join(t.itertext()) for t in ET.fromstring(to_svg(sc.state.observation(0))).iter(f"{SVG}text")
    )
    assert "plundering done at the end" in final


def placing(variant: str = "beginner", seed: int = 5):  # type: ignore[no-untyped-def]
    """The first position after the opening where the seat to play places its drawn tile."""
    state = load_game("trian", players=3, variant=variant).new_initial_state(seed=seed)
    rng = random.Random(seed)
    n = 0
    while True:
        obs = state.observation(state.current_player)
        if (
            n > 20
            and obs.to_dict()["state"]["phase"] == "phase2_place"
            and sum(obs.action_to_struct(a)["kind"] == "place" for a in obs.legal_actions()) > 3
        ):
            return state
        state.apply(rng.choice(state.legal_actions()))
        n += 1


def test_each_placement_has_a_hidden_preview_at_its_cell_and_rotation() -> None:
    state = placing()
    seat = state.current_player
    obs = state.observation(seat)
    places = [obs.action_to_struct(a) for a in obs.legal_actions()]
    places = [p for p in places if p["kind"] == "place"]
    root = ET.fromstring(to_svg(obs))
    previews = {int(g.get("data-action")): g for g in root.iter(f"{SVG}g") if g.get("class") == "preview"}
    assert set(previews) == {p["id"] for p in places}
    for p in places:
        g = previews[p["id"]]
        assert g.get("visibility") == "hidden" and g.get("pointer-events") == "none"
        assert (g.find(f"{SVG}title").text or "").startswith(p["label"])
        drawn = sorted(b.get("data-edge") for b in g.iter(f"{SVG}g") if b.get("data-edge"))
        letters = [e for _, e in face_edges(p["face"], p["x"], p["y"], p["rotation"])]
        assert drawn == sorted(e for e in letters if e != "S")
    # the rotations of one cell and side differ where the face is not symmetric
    by_spot: dict[tuple, set] = {}
    for p in places:
        by_spot.setdefault((p["x"], p["y"], p["side"]), set()).add(
            tuple(face_edges(p["face"], p["x"], p["y"], p["rotation"]))
        )
    assert any(len(v) > 1 for v in by_spot.values())
    # nobody else sees the tile in hand's other side: no previews in another seat's or the public picture
    for other in (state.observation((seat + 1) % 3), state.public_observation()):
        assert "class='preview'" not in to_svg(other)


def test_trian_pictures_have_no_text_below_12_units() -> None:
    # 1 unit = 1 CSS px at full size (issue 27 point 3), as for the other galaxy games (test_render.py)
    sizes = []
    for variant, players in (("beginner", 2), ("ships", 3), ("full", 4)):
        for state in positions(variant, players, seed=1, every=50):
            for seat in range(players):
                root = ET.fromstring(to_svg(state.observation(seat)))
                sizes += [float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")]
    state = placing()  # with the previews
    root = ET.fromstring(to_svg(state.observation(state.current_player)))
    sizes += [float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")]
    assert sizes and [s for s in sizes if s < 12] == []
