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
    placed = len(galaxy["galaxy"])
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


@pytest.mark.parametrize("game", ["trian", "take_the_galaxy", "tiny_epic_galaxies"])
def test_an_ended_game_says_game_over_not_whose_turn(game: str) -> None:
    """At the game's end, and for a match that ended otherwise (`ended`: a resignation), no picture
    says "to play"."""
    finished = played(game, 2, 100_000)
    assert finished.is_terminal()
    text = to_svg(finished.observation(0).to_dict())
    assert "game over" in text and "to play" not in text
    resigned = to_svg(played(game, 2, 30).observation(1).to_dict(), ended="seat 0 resigned")
    assert "game over — seat 0 resigned" in resigned and "to play" not in resigned


# ---------------------------------------------------------------- Take The Galaxy and Tiny Epic Galaxies

GAMES = [
    ("take_the_galaxy", 1, None),
    ("take_the_galaxy", 2, None),
    ("take_the_galaxy", 3, "random"),
    ("take_the_galaxy", 4, None),
    ("take_the_galaxy", 4, "team"),
    ("tiny_epic_galaxies", 1, None),
    ("tiny_epic_galaxies", 2, None),
    ("tiny_epic_galaxies", 3, None),
    ("tiny_epic_galaxies", 4, None),
    ("tiny_epic_galaxies", 5, None),
    ("tiny_epic_galaxies", 2, "beyond_the_black"),
    ("tiny_epic_galaxies", 4, "beyond_the_black"),
    ("tiny_epic_galaxies", 1, "beyond_the_black_rogue_5"),
]


def positions(game: str, players: int, variant: str | None, seed: int):  # type: ignore[no-untyped-def]
    """States along one seeded random game: the start, a few early and middle points and the end."""
    g = load_game(game, players=players, variant=variant) if variant else load_game(game, players=players)
    state = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    stops = {0, 1, 3, 9, 30, 80, 160}
    for n in range(20_000):
        if n in stops or state.is_terminal():
            yield state.clone()
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


def svg_text(root: ET.Element) -> str:
    return "\n".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def flat_text(root: ET.Element) -> str:
    """The drawn text with line breaks as spaces (a long name may wrap onto a second line)."""
    return " ".join(svg_text(root).split())


def every_word(root: ET.Element) -> str:
    """Everything a viewer can read in a picture: drawn text and tooltips (<title>)."""
    return " ".join(" ".join(root.itertext()).split())


def test_the_galaxy_games_have_their_own_renderers() -> None:
    assert has_renderer("take_the_galaxy") and has_renderer("tiny_epic_galaxies")


@pytest.mark.parametrize(("game", "players", "variant"), GAMES, ids=lambda v: str(v))
def test_galaxy_pictures_are_valid_and_hide_what_the_seat_cannot_see(game, players, variant) -> None:  # type: ignore[no-untyped-def]
    for seed in (1, 2):
        for state in positions(game, players, variant, seed):
            full = state.to_dict()["state"]
            for seat in range(players):
                obs = state.observation(seat)
                root = ET.fromstring(to_svg(obs))
                assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title") is not None
                shown = svg_text(root)
                seen = obs.to_dict()["state"]
                if game == "take_the_galaxy":
                    _check_take_the_galaxy(root, shown, full, seen, seat)
                else:
                    _check_tiny_epic_galaxies(root, shown, full, seen, seat)
                # what the seat cannot see does not change its picture
                other = state.determinize(seat, seed=seed + 7).observation(seat)
                assert to_svg(other.to_dict()) == to_svg(obs.to_dict())


def _names_in(value) -> set[str]:  # type: ignore[no-untyped-def]
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*(_names_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_names_in(v) for v in value))
    return set()


def _check_take_the_galaxy(root, shown, full, seen, seat) -> None:  # type: ignore[no-untyped-def]
    from orrery.render.take_the_galaxy import score

    flat, readable = flat_text(root), every_word(root)
    for entry in seen["explored"]:
        assert entry["card"] in flat  # whole, not cut off
    for p, player in enumerate(seen["players"]):
        assert f"renown {score(player)}" in shown
        for system in player["systems"]:
            assert system["card"] in flat
        facedown = [r for r in root.iter(f"{SVG}rect") if r.get("data-facedown")]
        if player["hand"] is None:  # hidden: only its size, no names
            assert p != seat
            assert not [t for t in root.iter(f"{SVG}text") if t.get("data-hand") == str(p)]
            public = (
                _names_in({k: v for k, v in seen.items() if k != "players"})
                | _names_in([{k: v for k, v in q.items() if k != "hand"} for q in seen["players"]])
                | _names_in(seen["players"][seat]["hand"] or {})
            )
            for name in full["players"][p]["hand"] or {}:
                if name not in public:
                    assert name not in readable, f"seat {seat} sees seat {p}'s {name}"
        assert len(facedown) == sum(min(q["hand_size"], 12) for q in seen["players"] if q["hand"] is None)


def _check_tiny_epic_galaxies(root, shown, full, seen, seat) -> None:  # type: ignore[no-untyped-def]
    from orrery.render.tiny_epic_galaxies import points

    flat, readable = flat_text(root), every_word(root)
    for name in seen["row"]:
        if name:
            assert name in flat  # whole, not cut off
    for g, galaxy in enumerate(seen["galaxies"]):
        assert f"{points(galaxy)} VP" in shown
        for planet in galaxy["colonies"]:
            assert planet in flat
        if galaxy.get("mission") == "?":  # another seat's secret mission: face down, never named
            assert g != seat
            hidden = set(full["galaxies"][g]["dealt"]) - set(seen["galaxies"][seat].get("dealt") or [])
            for name in hidden:
                assert name not in readable, f"seat {seat} sees seat {g}'s mission {name}"
    mine = seen["galaxies"][seat].get("mission")
    if mine and mine != "?":
        assert mine in shown
    if "beyond_the_black" in seen:  # another seat's face-down exploration cards are never named
        for g, galaxy in enumerate(seen["galaxies"]):
            secret = set(full["galaxies"][g]["exploration_cards"]) - set(galaxy["exploration_cards"])
            for name in secret - set(seen["galaxies"][seat]["exploration_cards"]):
                assert name not in readable, f"seat {seat} sees seat {g}'s exploration card {name}"


def test_beyond_the_black_picture_shows_pilots_hangars_and_the_exploration_row() -> None:
    # the fields come from the observation dict of the beyond_the_black variant (rules doc section 13.7)
    g = load_game("tiny_epic_galaxies", players=3, variant="beyond_the_black")
    rng = random.Random(4)
    for seed in range(1, 40):
        state = g.new_initial_state(seed=seed)
        while not state.is_terminal():
            seen = state.observation(0).to_dict()["state"]
            hired = [h["pilot"] for h in seen["galaxies"][0]["hangar"].values() if h]
            if hired and seen["beyond_the_black"]["exploration_row"]:
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            continue
        break
    else:
        pytest.fail("no random game reached a hire and a face-up exploration card")
    root = ET.fromstring(to_svg(state.observation(0)))
    shown = svg_text(root)
    btb = seen["beyond_the_black"]
    assert "Pilots for hire:" in shown and "Exploration row:" in shown
    for name in [p for p in btb["pilot_row"] if p] + btb["exploration_row"]:
        assert name[:23] in shown
    pilots = {t.get("data-pilot") for t in root.iter(f"{SVG}text") if t.get("data-pilot")}
    cards = {t.get("data-exploration") for t in root.iter(f"{SVG}text") if t.get("data-exploration")}
    assert pilots == {p for p in btb["pilot_row"] if p} and cards == set(btb["exploration_row"])
    ships = seen["galaxies"][0]["ships"]
    for kind, h in seen["galaxies"][0]["hangar"].items():
        if h:
            assert f"{kind}: {h['pilot']}" in shown
            # a ship on the mat is drawn as an icon, without a text line (so without its kind)
            assert ships[h["ship"]] == "home" or f"ship {h['ship']} ({kind})" in shown
    assert "badges: " in shown and "exploration cards (" in shown


@pytest.mark.parametrize("game", ["take_the_galaxy", "tiny_epic_galaxies"])
def test_galaxy_pictures_mark_what_legal_moves_touch(game: str) -> None:
    state = played(game, 2, 40, seed=5)
    marked_any = False
    for _ in range(60):
        if state.is_terminal():
            break
        obs = state.observation(state.current_player)
        root = ET.fromstring(to_svg(obs))
        legal = {int(a) for a in obs.legal_actions()}
        targets = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "target"]
        assert all({int(i) for i in t.get("data-actions").split()} <= legal for t in targets)
        for a in obs.legal_actions():
            if obs.action_to_struct(a)["kind"] in ("claim", "use_colony", "move", "activate"):
                marked = ET.fromstring(to_svg(obs, highlight=a))
                marked_any |= bool([r for r in marked.iter(f"{SVG}rect") if r.get("class") == "highlight"])
                break
        state.apply(random.Random(len(legal)).choice(sorted(legal)))
    assert marked_any


@pytest.mark.parametrize("game", ["take_the_galaxy", "tiny_epic_galaxies"])
def test_selfplay_writes_one_galaxy_picture_per_move(game: str, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from orrery.service.cli import main

    assert (
        main(["selfplay", "--game", game, "--players", "2", "--seed", "3", "--svg", str(tmp_path), "--quiet"])
        == 0
    )
    out = capsys.readouterr().out
    moves = int(out.split("game over after ")[1].split()[0])
    assert f"pictures: {tmp_path}/move-0001.svg .. move-{moves:04d}.svg (seed 3)" in out
    files = sorted(tmp_path.glob("move-*.svg"))
    assert len(files) == moves > 0
    for f in (files[0], files[len(files) // 2], files[-1]):
        assert ET.parse(f).getroot().tag == f"{SVG}svg"


@pytest.mark.parametrize("info", registered_games(), ids=lambda g: g.name)
def test_the_public_view_says_so(info) -> None:  # type: ignore[no-untyped-def]
    """A spectator's picture (the public view, observer -1) is captioned as such, not as a seat's."""
    state = played(info.name, info.player_counts[-1], 3)
    svg = to_svg(state.public_observation())
    ET.fromstring(svg)
    assert "the public view" in svg and "seat -1" not in svg
    assert "seat 0's view" in to_svg(state.observation(0))


@pytest.mark.parametrize(("game", "players", "variant"), GAMES, ids=lambda v: str(v))
def test_galaxy_pictures_have_no_text_below_12_units(game, players, variant) -> None:  # type: ignore[no-untyped-def]
    # 1 unit = 1 CSS px at full size (issue 27 point 3: nothing smaller than 12 px)
    sizes = []
    for state in positions(game, players, variant, seed=1):
        for seat in range(players):
            root = ET.fromstring(to_svg(state.observation(seat)))
            sizes += [float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")]
    assert sizes and [s for s in sizes if s < 12] == []


def _tooltips(root: ET.Element) -> list[str]:
    """Every element tooltip in a picture (the document's own <title> left out)."""
    return [t.text or "" for g in root.iter(f"{SVG}g") for t in g.findall(f"{SVG}title")]


def test_take_the_galaxy_tooltips_carry_catalogue_text_for_visible_cards_only() -> None:
    from orrery.core_ext.take_the_galaxy import CATALOGUE

    texts = {c["name"]: c["text"] for c in CATALOGUE["player_cards"]}
    for seed in range(
        1, 40
    ):  # the first seeded position where the other seat holds a card this one cannot see
        state = played("take_the_galaxy", 2, 6, seed=seed)
        seat = state.current_player
        seen = state.observation(seat).to_dict()["state"]
        full = state.to_dict()["state"]
        other = 1 - seat
        mine = [n for n, c in seen["players"][seat]["hand"].items() if c]
        public = _names_in([{k: v for k, v in q.items() if k != "hand"} for q in seen["players"]]) | set(mine)
        secret = [n for n, c in full["players"][other]["hand"].items() if c and n not in public]
        if secret:
            break
    else:
        pytest.fail("no seeded position hides a card from the seat to play")
    tips = _tooltips(ET.fromstring(to_svg(state.observation(seat))))
    assert mine and seen["players"][other]["hand"] is None
    for name in mine:  # own hand: face up, with its catalogue text
        assert f"{name}: {texts[name]}" in tips
    for name in secret:  # the other seat's hidden cards: no tooltip names them
        assert not [t for t in tips if name in t]


def test_beyond_the_black_tooltips_carry_pilot_planet_and_mission_text() -> None:
    from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

    btb = CATALOGUE["beyond_the_black"]
    pilots = {p["name"]: p["text"] for p in btb["pilots"]}
    planets = {p["name"]: p["text"] for p in CATALOGUE["planets"] + btb["planets"]}
    g = load_game("tiny_epic_galaxies", players=2, variant="beyond_the_black")
    state = g.new_initial_state(seed=5)  # set-up: the pilot and planet rows face up, missions dealt
    seen = state.observation(0).to_dict()["state"]
    full = state.to_dict()["state"]
    tips = " | ".join(_tooltips(ET.fromstring(to_svg(state.observation(0)))))
    for name in [p for p in seen["beyond_the_black"]["pilot_row"] if p]:
        assert f"{name}: {pilots[name]}" in tips
    for name in [p for p in seen["row"] if p]:
        assert planets[name] in tips and f"{name}:" in tips
    for name in seen["galaxies"][0]["dealt"]:  # own missions while choosing: named with their goal
        assert f"{name} (secret mission)" in tips
    for name in full["galaxies"][1]["dealt"]:  # the other seat's: none
        if name not in seen["galaxies"][0]["dealt"]:
            assert name not in tips
