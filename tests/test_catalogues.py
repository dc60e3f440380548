"""The designed catalogues as data people can read (issue 28): every entry says whether it is a rulebook
fact or Orrery's design, Take The Galaxy's cards carry their text, each catalogue has a revision that a
stored game records, and the documentation contradictions the issue named are settled."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from orrery.core_ext import StateFormatError, load_game
from orrery.core_ext.tiny_epic_galaxies import engine as teg_engine

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"trian": "full", "take_the_galaxy": "standard", "tiny_epic_galaxies": "beyond_the_black"}


def catalogue(game: str) -> dict:
    return json.loads((ROOT / "core_ext" / game / "catalogue.json").read_text())


def entries(node):
    """Every card-like entry: a dict inside a list (tiles, faces, cards, systems, pilots, ...)."""
    if isinstance(node, list):
        for x in node:
            if isinstance(x, dict):
                yield x
            yield from entries(x)
    elif isinstance(node, dict):
        for v in node.values():
            yield from entries(v)


# ---------------------------------------------------------------- provenance and revision


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_catalogue_entry_says_where_it_comes_from(game):
    data = catalogue(game)
    assert re.fullmatch(r"orrery\.[a-z_.-]+/\d+", data["format"]) and data["revision"] >= 2
    listed = [e for e in entries(data) if "name" in e or "id" in e]
    assert listed
    for entry in listed:
        assert re.match(r"(rulebook|designed)\b", entry.get("source", "")), entry
    assert all(re.match(r"(rulebook|designed)\b", s) for s in data["sources"].values())


def test_take_the_galaxy_entries_carry_their_text():
    data = catalogue("take_the_galaxy")
    for kind in ("player_cards", "systems", "anomalies", "events"):
        for entry in data[kind]:
            assert entry["text"] and entry["source"], entry["name"]
    outpost = next(c for c in data["player_cards"] if c["name"] == "Mining Outpost")
    assert outpost["text"] == (
        "mining colony on a deposit slot, costs 1 card; once a turn: produce 2 production"
    )
    hub = next(c for c in data["player_cards"] if c["name"] == "Trade Hub")
    assert "turn 2 manpower and 1 production into 2 credits" in hub["text"]
    crackdown = next(e for e in data["events"] if e["name"] == "Stellar Crackdown")
    assert crackdown["text"].startswith("effect while in explored space: colonies with negative renown")


def test_tiny_epic_galaxies_entries_carry_their_text():
    # what the board's tooltips show (issue 27 point 3): every planet, mission, pilot, card and Rogue mat
    data = catalogue("tiny_epic_galaxies")
    btb = data["beyond_the_black"]
    kinds = [data["planets"], data["missions"], btb["planets"], btb["missions"], btb["pilots"]]
    kinds += [btb["exploration_cards"], btb["rogue_galaxies"]]
    for entries_of_a_kind in kinds:
        assert entries_of_a_kind
        for entry in entries_of_a_kind:
            assert entry["text"].strip() and entry["source"], entry["name"]
    hermit = next(m for m in data["missions"] if m["name"] == "Hermit")
    assert hermit["text"].startswith("fewest colonies: 3 VP")


@pytest.mark.parametrize("game,variant", sorted(GAMES.items()))
def test_a_stored_game_records_its_catalogue_and_another_revision_is_refused(game, variant):
    data = catalogue(game)
    revision = f"{data['format']}@{data['revision']}"
    g = load_game(game, players=2, variant=variant)
    state = g.new_initial_state(7)
    document = state.to_dict()
    assert document["catalogue"] == revision == state.observation(1).to_dict()["catalogue"]
    assert g.state_from_json(json.dumps(document)) == state
    old = dict(document, catalogue=f"{data['format']}@1")
    refused = r"field 'catalogue': this game was dealt with catalogue .*@1'; this server has"
    with pytest.raises(StateFormatError, match=refused):
        g.state_from_json(json.dumps(old))
    observation = dict(state.observation(1).to_dict(), catalogue="orrery.other/9@9")
    with pytest.raises(StateFormatError, match="field 'catalogue'"):
        g.observation_from_dict(observation)
    # stored before revisions were recorded: read with today's cards
    document.pop("catalogue")
    assert g.state_from_json(json.dumps(document)) == state


def test_a_game_without_a_catalogue_refuses_the_field():
    g = load_game("kuhn", players=2)
    document = g.new_initial_state(1).to_dict()
    assert "catalogue" not in document
    document["catalogue"] = "orrery.kuhn.catalogue/1@1"
    with pytest.raises(StateFormatError, match="kuhn has no catalogue"):
        g.state_from_json(json.dumps(document))


# ---------------------------------------------------------------- Take The Galaxy's documentation


def test_the_solo_grades_in_the_doc_are_the_catalogue_s():
    doc = (ROOT / "docs/rules/take_the_galaxy.md").read_text()
    solo = catalogue("take_the_galaxy")["solo"]
    tables = re.findall(r"bronze (\d+), silver (\d+), gold (\d+)", doc.replace("**", ""))
    assert tables == [(str(solo["bronze"]), str(solo["silver"]), str(solo["gold"]))]


def test_production_draw_rate_is_the_documented_deviation():
    data = catalogue("take_the_galaxy")
    assert data["resource_uses"]["production"] == {"spend": 2, "draw": 1}
    assert "production's rate designed" in data["sources"]["resource_uses"]
    doc = (ROOT / "docs/rules/take_the_galaxy.md").read_text()
    assert "| production (P) | spend 2 P: draw 1 card (a deviation from the printed 1 P" in doc
    assert "**Production's rate (decision, issue 28).**" in doc


# ---------------------------------------------------------------- Beyond the Black revision (13.16)


def test_dwarf_planets_share_one_value_and_the_loader_refuses_two():
    btb = catalogue("tiny_epic_galaxies")["beyond_the_black"]
    assert {c["dwarf_planet_vp"] for c in btb["exploration_cards"]} == {0, 2}
    mixed = json.loads(json.dumps(btb))
    next(c for c in mixed["exploration_cards"] if c["dwarf_planet_vp"])["dwarf_planet_vp"] = 3
    try:
        with pytest.raises(RuntimeError, match=r"dwarf planets must share one value, not \[2, 3\]"):
            teg_engine._load_btb_catalogue(mixed)
    finally:
        teg_engine._load_btb_catalogue(teg_engine.CATALOGUE["beyond_the_black"])


def test_hangar_spots_show_the_track_faces_and_few_pilots_carry_badges():
    btb = catalogue("tiny_epic_galaxies")["beyond_the_black"]
    assert all(faces == ["diplomacy", "economy"] for faces in btb["hangar"].values())
    assert {p["ability"] for p in btb["pilots"] if p["badges"]} == {"shielded", "danger_runner"}
    assert all(len(p["badges"]) <= 1 for p in btb["pilots"])
    assert sum(len(p["badges"]) for p in btb["pilots"]) == 6


def test_the_counters_to_negative_renown_colonies_are_in_every_deck_of_two_or_more():
    # catalogue revision 3 (docs/rules/take_the_galaxy.md section 3): the numbered set-up uses every card
    # numbered <= the player count
    events = {e["name"]: e["players"] for e in catalogue("take_the_galaxy")["events"]}
    assert events["Stellar Crackdown"] == 1 and events["A.I. Strike"] == 2
    expanse = [e for e in catalogue("take_the_galaxy")["events"] if e["sector"] == "expanse"]
    assert sorted(e["players"] for e in expanse) == [1, 2, 3, 4]  # still the "Random Play" counts


def test_a_stored_match_of_another_revision_is_refused_and_one_stored_before_revisions_loads():
    from orrery.service._matches import _Row

    g = load_game("tiny_epic_galaxies", players=2, variant="beyond_the_black")
    state = g.new_initial_state(11)
    document = state.to_dict()
    document["catalogue"] = "orrery.tiny_epic_galaxies.catalogue/1@1"
    row = _Row("m0", g.name, g.variant, 2, 11, json.dumps(document), 0, False)
    with pytest.raises(
        StateFormatError, match="dealt with catalogue 'orrery.tiny_epic_galaxies.catalogue/1@1'"
    ):
        row.state()
    document.pop("catalogue")  # as a server before this change stored it
    assert _Row("m1", g.name, g.variant, 2, 11, json.dumps(document), 0, False).state() == state
