"""Galaxy of Trian rules: worked examples of sections VI, VII and X, rulings of docs/rules/trian.md."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

import pytest
from jsonschema import Draft202012Validator

from orrery.core_ext import IllegalActionError, StateFormatError, load_game
from orrery.core_ext.schemas import load_schema
from orrery.core_ext.trian import engine as T

FACES = T.CATALOGUE["faces"]
TILES = T.CATALOGUE["tiles"]
A, B = 0, 1


# ---------------------------------------------------------------- scenario builder
# Scenario builders for Galaxy of Trian tests: stack the tiles, then play real actions.
#
# A scenario is played through the engine's own actions (draw, place, expedition, ...), so every test
# also checks that the position is reachable. Geometry: cell (x, y) is an up triangle when x + y is even
# (neighbours left (x-1, y), right (x+1, y), below (x, y+1)) and a down triangle otherwise (the
# horizontal neighbour is (x, y-1)); "vert" names that horizontal edge.

CW = {0: ("right", "vert", "left"), 1: ("vert", "right", "left")}


def rotation_for(face: str, x: int, y: int, **sides: str) -> int:
    """The rotation that puts the given edge letters (S, P, N, G) on the named sides of (x, y)."""
    edges = next(f["edges"] for f in FACES if f["name"] == face)
    cw = CW[(x + y) & 1]
    for rot in range(3):
        slot = {cw[(i + rot) % 3]: edges[i] for i in range(3)}
        if all(slot[side] == letter for side, letter in sides.items()):
            return rot
    raise ValueError(f"{face} cannot show {sides} at ({x}, {y})")


class Scenario:
    """A game whose stack 0 holds the given faces on top, in play order."""

    def __init__(
        self, faces: list[str], *, players: int = 2, seed: int = 0, first: int = 0, variant: str = "beginner"
    ):
        game = load_game("trian", players=players, variant=variant)
        state = game.new_initial_state(seed=seed)
        data = json.loads(state.to_json())
        data["state"]["first_player"] = first
        data["state"]["turn_player"] = first
        data["state"]["this_turn"]["racial_uses"] = []
        state = game.state_from_json(json.dumps(data))
        used: set[int] = set()
        order = []
        for face in faces:
            tile, side = next(
                (t, s)
                for t, s in T.tiles_with_face(face)
                if t not in used and not FACES[T.CATALOGUE["tiles"][t][1 - s]]["special"]
            )
            used.add(tile)
            special = FACES[T.CATALOGUE["tiles"][tile][side]]["special"]
            order.append((tile, 1 - side if special else side))
        T._debug_stack_top(state, 0, list(reversed(order)))
        self.game = game
        self.state = state

    @property
    def seat(self) -> int:
        return self.state.current_player

    def act(self, kind: str, **fields) -> dict:
        for a in self.state.legal_actions():
            d = self.state.action_to_struct(a)
            if d["kind"] == kind and all(d.get(k) == v for k, v in fields.items()):
                self.state.apply(a)
                self.check_json()
                return d
        raise AssertionError(f"no legal {kind} {fields}; legal: {self.labels()}")

    def check_json(self) -> None:
        """Every position a scenario reaches comes back unchanged from its JSON, and so do its observations
        (the scenarios reach racial steps and battles that random games seldom do)."""
        assert self.game.state_from_json(self.state.to_json()) == self.state
        for seat in range(self.game.num_players):
            observation = self.state.observation(seat)
            assert self.game.observation_from_json(observation.to_json()) == observation

    def labels(self) -> list[str]:
        return [self.state.action_label(a) for a in self.state.legal_actions()]

    def has(self, kind: str, **fields) -> bool:
        for a in self.state.legal_actions():
            d = self.state.action_to_struct(a)
            if d["kind"] == kind and all(d.get(k) == v for k, v in fields.items()):
                return True
        return False

    def place(self, x: int, y: int, face: str, **sides: str) -> None:
        """Phase 1 skipped, draw from stack 0, place `face` at (x, y) with the given edges."""
        if self.state.action_to_struct(self.state.legal_actions()[0])["kind"] == "end_phase1":
            self.act("end_phase1")
        self.act("draw", stack=0)
        side = self._side_of(face)
        self.act("place", x=x, y=y, side=side, rotation=rotation_for(face, x, y, **sides))

    def _side_of(self, face: str) -> int:
        for a in self.state.legal_actions():
            d = self.state.action_to_struct(a)
            if d["kind"] == "place" and d["face"] == face:
                return d["side"]
        raise AssertionError(f"the tile in hand has no {face} side that fits")

    def turn(self, x: int, y: int, face: str, *then: str, **sides: str) -> None:
        """A whole turn: place, then the phase 3 actions named in `then` ('expedition', 'pass', ...)."""
        self.place(x, y, face, **sides)
        for kind in then:
            self.act(kind)

    def data(self) -> dict:
        """The payload of the state's JSON (docs/rules/trian.md, section 15)."""
        return json.loads(self.state.to_json())["state"]

    def edit(self, change: Callable[[dict], object]) -> None:
        """Change the payload in place (`change(payload)`), through the validating JSON loader."""
        data = json.loads(self.state.to_json())
        change(data["state"])
        self.state = self.game.state_from_json(json.dumps(data))

    def player(self, seat: int) -> dict:
        return self.data()["players"][seat]

    def credits(self, seat: int) -> int:
        return self.player(seat)["credits"]

    def set_credits(self, *credits: int) -> None:
        def change(d: dict) -> None:
            for seat, value in enumerate(credits):
                d["players"][seat]["credits"] = value

        self.edit(change)

    def tokens(self, seat: int) -> int:
        return self.player(seat)["combat_tokens"]["count"]

    def emissaries(self) -> list[int]:
        """The seat of the emissary on each tile of the galaxy (in placement order), -1 for none."""
        return [t["emissary"]["seat"] if t["emissary"] else -1 for t in self.data()["galaxy"]]

    def nebula_minerals(self, k: int = 0) -> int:
        nebulas = self.data()["nebulas"]
        return sum(nebulas[k]["minerals"].values()) if k < len(nebulas) else 0

    def fix_dice(self, rolls: list[int]) -> None:
        """Seed the dice stream so that the next dice are `rolls`."""
        for seed in range(1_000_000):
            if T._debug_dice(seed, len(rolls)) == rolls:
                T._debug_seed_dice(self.state, seed)
                return
        raise AssertionError(f"no dice seed found for {rolls}")


# ---------------------------------------------------------------- payload helpers (docs/rules/trian.md, 15)


def tile_index(payload: dict, cell: dict) -> int:
    """The galaxy position (the placed index action ids use) of the tile at a cell."""
    return next(i for i, t in enumerate(payload["galaxy"]) if (t["x"], t["y"]) == (cell["x"], cell["y"]))


def cell_of(payload: dict, i: int) -> dict:
    return {"x": payload["galaxy"][i]["x"], "y": payload["galaxy"][i]["y"]}


def skill_bits(player: dict) -> int:
    """A seat's skills as bits: bit k racial skill k of its race, bit 8 + u universal skill u."""
    racial = T.SKILL_NAMES[T.RACE_NAMES.index(player["race"])] if player["race"] else ()
    bits = sum(1 << racial.index(name) for name in player["racial_skills"])
    return bits | sum(1 << (8 + T.UNIVERSAL_NAMES.index(name)) for name in player["universal_skills"])


def set_skills(player: dict, race: int | None, bits: int) -> None:
    """Give a seat (a payload's player) race `race` (None: no race) and the skills of `bits`."""
    player["race"] = None if race is None else T.RACE_NAMES[race]
    player["racial_skills"] = [T.SKILL_NAMES[race][k] for k in range(5) if race is not None and bits >> k & 1]
    player["universal_skills"] = [T.UNIVERSAL_NAMES[u] for u in range(3) if bits >> (8 + u) & 1]


def set_minerals(payload: dict, seat: int, **counts: int) -> None:
    """Set a seat's minerals of the named colours, taking them from (or returning them to) the bag."""
    minerals = payload["players"][seat]["minerals"]
    for color, count in counts.items():
        payload["bag"][color] -= count - minerals[color]
        minerals[color] = count


def set_tokens(payload: dict, tokens: dict[int, tuple[int, int]]) -> None:
    """Give seats combat tokens, {seat: (count, of which "+1")}."""
    for seat, (count, plus) in tokens.items():
        payload["players"][seat]["combat_tokens"] = {"count": count, "plus": plus}


def system_line(sc: Scenario, *, closer_expedition: bool = False, middle: str = "starlight-path"):
    """A closes a 3-tile system (0,0)-(1,0)-(2,0); A has an emissary on (0,0)."""
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, middle, "pass", left="P", right="P")  # B
    sc.place(2, 0, "planet-end", left="P")  # A closes
    if closer_expedition:
        sc.act("expedition")


# ---------------------------------------------------------------- the catalogue (issue 2, section 4)


def test_catalogue_has_84_double_sided_tiles_honouring_the_tile_rules():
    assert len(TILES) == 84
    counts = Counter()
    for a, b in TILES:
        fa, fb = FACES[a], FACES[b]
        assert not (fa["special"] and fb["special"]), "specials appear only on their special side"
        counts[fa["feature"]] += 1
        counts[fb["feature"]] += 1
    for face in FACES:
        if face["feature"] == "extractor":
            assert "N" in face["edges"], "extractors sit on nebula parts"
        if face["feature"] in ("outpost", "teleport", "exmitter"):
            assert face["special"] and set(face["edges"]) == {"S"}
        if face["feature"] == "planet":
            assert "P" in face["edges"]
        parts = face.get("system_parts", [0, 0, 0])
        assert all(letter == "P" for letter, part in zip(face["edges"], parts, strict=True) if part), (
            "parts on paths"
        )
        if 1 in parts:
            assert any(letter == "P" and part == 0 for letter, part in zip(face["edges"], parts, strict=True))
    assert counts["outpost"] == counts["teleport"] == counts["exmitter"] == 4
    two_systems = [f["id"] for f in FACES if 1 in f.get("system_parts", [])]
    assert sum((a in two_systems) + (b in two_systems) for a, b in TILES) == 4, "section 1, the mix"


def test_no_special_side_is_face_up_in_a_stack():
    game = load_game("trian", players=3)
    for seed in range(5):
        state = game.new_initial_state(seed=seed)
        for sample in (state, state.determinize(1, seed)):
            for stack in json.loads(sample.to_json())["state"]["stacks"]:
                for entry in stack["tiles"]:
                    assert not FACES[TILES[entry["tile"]][entry["side_up"]]]["special"]


def test_setup_by_player_count():
    for players, (em, rs, ss) in {2: (9, 9, 4), 3: (8, 8, 3), 4: (7, 7, 2)}.items():
        data = json.loads(load_game("trian", players=players).new_initial_state(seed=3).to_json())["state"]
        for player in data["players"]:
            assert player["credits"] == 10
            assert player["combat_tokens"]["count"] == 1
            supply = player["supply"]
            assert (supply["emissaries"], supply["research_stations"], supply["space_stations"]) == (
                em,
                rs,
                ss,
            )
        assert [stack["size"] for stack in data["stacks"]] == [42, 42]


# ---------------------------------------------------------------- phase 2: placement


def test_placement_must_share_an_edge_and_match_every_border():
    sc = Scenario(["planet-end", "nebula-core", "space"])
    sc.place(0, 0, "planet-end", right="P")
    sc.act("pass")
    sc.act("end_phase1")
    sc.act("draw", stack=0)
    places = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    cells = {(d["x"], d["y"]) for d in places if d["kind"] == "place"}
    assert cells <= {(-1, 0), (1, 0), (0, 1)}
    for d in places:
        if d["kind"] == "place" and d["face"] == "nebula-core":
            raise AssertionError("a nebula edge can never meet the planet's space and path edges")


def test_game_ends_after_the_turn_of_the_last_tile():
    game = load_game("trian", players=2)
    state = game.new_initial_state(seed=11)
    state.playout(seed=5)
    data = json.loads(state.to_json())["state"]
    assert state.is_terminal()
    assert len(data["galaxy"]) + len(data["set_aside"]) == 84
    assert [stack["size"] for stack in data["stacks"]] == [0, 0]


# ---------------------------------------------------------------- section X / VI.1: closing areas


def test_closing_a_3_tile_system_with_1_emissary_pays_8_and_a_token():
    sc = Scenario(["planet-end", "starlight-path", "planet-end"])
    system_line(sc)
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.act("pass")  # events after the (skipped) action
    sc.act("take_back_done")  # A keeps its emissary: control and a combat token
    assert sc.credits(A) == before + 8
    assert sc.tokens(A) == tokens + 1


def test_controller_is_paid_when_another_player_closes_and_cannot_take_back():
    sc = Scenario(["planet-end", "starlight-path", "space", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B
    sc.turn(-1, 0, "space", "pass", right="S")  # A
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.turn(2, 0, "planet-end", "pass", left="P")  # B closes A's system
    assert sc.credits(A) == before + 8
    assert sc.tokens(A) == tokens + 1
    assert sc.emissaries()[0] == A, "no take-back on another player's turn"
    assert sc.state.current_player == A and sc.has("end_phase1")


def test_uncontrolled_system_pays_the_closer():
    sc = Scenario(["planet-end", "starlight-path", "planet-end"])
    sc.turn(0, 0, "planet-end", "pass", right="P")  # A
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.turn(2, 0, "planet-end", "pass", left="P")  # A closes, nobody there
    assert sc.credits(A) == before + 6  # 3 tiles x 2
    assert sc.tokens(A) == tokens  # no control, no token


def test_nebula_3_tiles_with_extractor_closes_for_6_and_4_minerals_appear():
    sc = Scenario(["nebula-cap", "nebula-bend", "extractor-cap"])
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    before = sc.credits(A)
    sc.turn(2, 0, "extractor-cap", "pass", left="N")
    data = sc.data()
    assert sc.credits(A) == before + 6  # 3 tiles x (1 + 1 extractor)
    assert len(data["nebulas"]) == 1
    assert sc.nebula_minerals() == 4  # 3 tiles + 1 extractor
    assert sum(data["bag"].values()) == 120 - 4


def test_nebula_3_tiles_plus_emissary_pays_4_and_4_minerals():
    sc = Scenario(["nebula-cap", "nebula-bend", "nebula-cap"])
    sc.turn(0, 0, "nebula-cap", "expedition", right="N")  # A
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")  # B
    before = sc.credits(A)
    sc.turn(2, 0, "nebula-cap", "pass", left="N")  # A closes
    sc.act("take_back_done")
    assert sc.credits(A) == before + 4  # (3 tiles + 1 emissary) x 1
    assert sc.nebula_minerals() == 4


def test_extractor_nebula_with_emissary_taken_back_pays_8_5_minerals_and_no_token():
    sc = Scenario(["nebula-cap", "nebula-bend", "extractor-cap"])
    sc.turn(0, 0, "nebula-cap", "expedition", right="N")  # A
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")  # B
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.place(2, 0, "extractor-cap", left="N")  # A closes; no emissary may stand on an extractor
    assert not sc.has("expedition")
    sc.act("pass")
    sc.act("take_back", x=0, y=0)  # A's only emissary: the take-back ends by itself
    assert sc.credits(A) == before + 8  # (3 + 1) x (1 + 1)
    assert sc.nebula_minerals() == 5  # 3 tiles + 1 emissary + 1 extractor
    assert sc.tokens(A) == tokens  # no control kept, no token
    assert sc.player(A)["supply"]["emissaries"] == 9


def test_expedition_before_events_joins_the_closing_area():
    # section VI.3 example B: place the emissary first, then resolve the events
    sc = Scenario(["nebula-cap", "nebula-bend", "nebula-cap"])
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.place(2, 0, "nebula-cap", left="N")
    sc.act("expedition")  # the only action ends phase 3; events follow
    sc.act("take_back_done")
    assert sc.credits(A) == before + 4
    assert sc.tokens(A) == tokens + 1
    assert sc.nebula_minerals() == 4


def test_events_first_then_expedition_takes_control_of_the_empty_closed_area():
    sc = Scenario(["nebula-cap", "nebula-bend", "nebula-cap"])
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.place(2, 0, "nebula-cap", left="N")
    sc.act("events_first")
    assert sc.credits(A) == before + 3  # 3 tiles, no emissary
    sc.act("expedition")
    assert sc.tokens(A) == tokens + 1  # took control of an uncontrolled closed nebula


def test_one_tile_closing_a_system_and_an_outer_space_area_pays_for_each():
    faces = ["planet-end", "nebula-bend", "nebula-bend", "nebula-bend", "nebula-bend", "nebula-bend"]
    faces += ["nebula-bend", "nebula-bend", "nebula-bend", "nebula-bend", "planet-end"]
    sc = Scenario(faces)
    sc.turn(0, 0, "planet-end", "pass", right="P")
    sc.turn(-1, 0, "nebula-bend", "pass", right="S")
    sc.turn(0, 1, "nebula-bend", "pass", vert="S")
    sc.turn(1, 1, "nebula-bend", "pass", left="N", right="N")
    sc.turn(2, 1, "nebula-bend", "pass", left="N", vert="N")
    sc.turn(2, 0, "nebula-bend", "pass", vert="N", left="S")
    sc.turn(3, 0, "nebula-bend", "pass", left="N", vert="N")
    sc.turn(3, -1, "nebula-bend", "pass", vert="N", left="N")
    sc.turn(2, -1, "nebula-bend", "pass", right="N", left="N")
    sc.turn(1, -1, "nebula-bend", "pass", right="N", vert="S")
    seat = sc.seat
    before = sc.credits(seat)
    sc.turn(1, 0, "planet-end", "pass", left="P")
    # a 2-tile system (2 x 2) and a 6-tile outer space area (6 x 3)
    assert sc.credits(seat) == before + 4 + 18


def test_figure_one_tile_closes_a_3_tile_system_and_a_3_tile_outer_space_area_for_15():
    # Section VI.1.B figure: "Upon adding a tile, two areas of the Galaxy worth 15 € in total were closed:
    # a planetary system worth 6 € - an outer space area worth 9 €". Planets and a path edged with gas
    # (planet-gas-end, path-gas; docs/rules/trian.md, section 1) enclose the system's own outer space.
    sc = Scenario(["planet-gas-end", "path-gas", "planet-gas-end"])
    sc.turn(0, 0, "planet-gas-end", "pass", right="P")  # A
    sc.turn(1, 0, "path-gas", "pass", left="P", right="P")  # B
    seat = sc.seat
    before = sc.credits(seat)
    sc.place(2, 0, "planet-gas-end", left="P")  # A closes both
    areas = sc.data()["events"]["areas"]
    assert sorted(a["area"] for a in areas) == ["space", "system"]
    sc.act("pass")
    assert sc.credits(seat) == before + 3 * 2 + 3 * 3


def test_figure_one_tile_closes_a_planetary_system_and_a_nebula_for_6_and_2_minerals():
    # Section VI.1.B figure: "two areas of the Galaxy worth 6 € in total were closed: a planetary system
    # worth 4 € - a nebula worth 2 € (2 random minerals appear in that nebula)". The closing tile is a
    # nebula-path face: a nebula corner and a starlight path (docs/rules/trian.md, section 1).
    sc = Scenario(["space", "planet-end", "space", "space", "nebula-cap", "nebula-path"])
    sc.turn(0, 0, "space", "pass")
    sc.turn(1, 0, "planet-end", "pass", right="P")
    sc.turn(0, 1, "space", "pass")  # round the corner to (2, 1)
    sc.turn(1, 1, "space", "pass")
    sc.turn(2, 1, "nebula-cap", "pass", vert="N")
    seat = sc.seat
    before = sc.credits(seat)
    sc.place(2, 0, "nebula-path", left="P", vert="N")
    areas = sc.data()["events"]["areas"]
    assert sorted(a["area"] for a in areas) == ["nebula", "system"]
    sc.act("pass")
    assert sc.credits(seat) == before + 2 * 2 + 2 * 1
    assert sc.nebula_minerals() == 2


def _two_planets_either_side_of_1_0(sc: Scenario) -> None:
    # planet-ends at (0, 0) and (2, 0), their paths pointing at the empty cell (1, 0) between them
    sc.turn(0, 0, "planet-end", "pass", right="P", vert="S")
    sc.turn(0, 1, "space", "pass")  # round the corner to (2, 0)
    sc.turn(1, 1, "space", "pass")
    sc.turn(2, 1, "space", "pass")
    sc.turn(2, 0, "planet-end", "pass", left="P", vert="S")


def test_figure_one_tile_closes_two_planetary_systems_for_4_each():
    # Section VI.1.B figure: "two areas of the Galaxy worth 8 € in total were closed: 2 planetary system
    # worth 4 € each". The closing tile's face holds two separate system parts, a planet at the end of one
    # starlight path and another path ending on the tile (docs/rules/trian.md, section 1): each 2-tile
    # system counts the closing tile, and each is paid on its own.
    faces = ["planet-end", "space", "space", "space", "planet-end", "planet-end-and-path-end"]
    sc = Scenario(faces)
    _two_planets_either_side_of_1_0(sc)
    seat = sc.seat
    before = sc.credits(seat)
    sc.place(1, 0, "planet-end-and-path-end", left="P", right="P", vert="S")
    areas = sc.data()["events"]["areas"]
    assert [a["area"] for a in areas] == ["system", "system"]
    assert len({(a["x"], a["y"], a.get("side")) for a in areas}) == 2, "two different systems"
    sc.act("pass")
    assert sc.credits(seat) == before + 2 * 2 + 2 * 2


def test_the_two_system_parts_of_a_face_are_not_joined_on_the_tile():
    # the same position with the planet-end at (2, 0) left out: the system through the face's second part
    # stays open, so the tile closes only the system of its planet (2 tiles, 4 €)
    sc = Scenario(["planet-end", "space", "space", "space", "space", "planet-end-and-path-end"])
    sc.turn(0, 0, "planet-end", "pass", right="P", vert="S")
    sc.turn(0, 1, "space", "pass")
    sc.turn(1, 1, "space", "pass")
    sc.turn(2, 1, "space", "pass")
    sc.turn(3, 1, "space", "pass")
    seat = sc.seat
    before = sc.credits(seat)
    sc.place(1, 0, "planet-end-and-path-end", left="P", right="P", vert="S")
    areas = sc.data()["events"]["areas"]
    assert [a["area"] for a in areas] == ["system"]
    sc.act("pass")
    assert sc.credits(seat) == before + 2 * 2


def test_a_second_system_part_is_named_by_a_starlight_path_side_in_the_json():
    # section 15: a system queued for the events is named by its root's tile; when that is a face's
    # second system part, by the side of its starlight path. The face goes first, so its parts are the
    # roots (the smaller node); the planet-ends on either side close one system each, one of them the
    # second part's. A side that is not a starlight path is refused.
    sc = Scenario(["planet-end-and-path-end", "planet-end", "planet-end"])
    sc.turn(0, 0, "planet-end-and-path-end", "pass", left="P", right="P", vert="S")
    pending = []
    for x, side in ((1, "left"), (-1, "right")):
        sc.place(x, 0, "planet-end", **{side: "P"})
        data = json.loads(sc.state.to_json())
        pending += [(data, a) for a in data["state"]["events"]["areas"]]
        sc.act("pass")
    assert [a["area"] for _, a in pending] == ["system", "system"]
    named = [(data, a) for data, a in pending if "side" in a]
    assert len(named) == 1 and (named[0][1]["x"], named[0][1]["y"]) == (0, 0)
    data, area = named[0]
    area["side"] = "horizontal"
    with pytest.raises(StateFormatError, match="not a starlight path"):
        sc.game.state_from_json(json.dumps(data))


# ---------------------------------------------------------------- section V.3.3: construction


def test_construction_in_a_system_pays_tiles_plus_emissaries_times_4():
    sc = Scenario(["planet-end", "starlight-path", "planet-end", "space", "space", "space", "space"])
    system_line(sc, closer_expedition=True)  # A: 2 emissaries, closes after the expedition
    sc.act("take_back_done")
    sc.turn(-1, 0, "space", "pass", right="S")  # B
    before = sc.credits(A)
    sc.place(0, 1, "space", vert="S")  # A
    assert sc.has("construct", x=2, y=0)
    sc.act("construct", x=0, y=0)
    assert sc.credits(A) == before + 20  # (3 tiles + 2 emissaries) x 4
    sc.turn(-1, 1, "space", "pass", right="S")  # B
    sc.place(3, 0, "space", left="S")  # A
    assert not sc.has("construct", x=2, y=0), "one station per planetary system"
    before = sc.credits(A)
    sc.act("construct", x=0, y=0)  # the research station becomes a space station
    assert sc.credits(A) == before + 20
    supply = sc.player(A)["supply"]
    assert supply["research_stations"] == 8 and supply["space_stations"] == 3


def test_construction_in_a_nebula_pays_tiles_plus_emissaries_and_adds_minerals():
    sc = Scenario(["nebula-cap", "nebula-bend", "nebula-cap", "space", "space", "space", "space"])
    sc.turn(0, 0, "nebula-cap", "expedition", right="N")  # A
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")  # B
    sc.place(2, 0, "nebula-cap", left="N")  # A
    sc.act("expedition")
    sc.act("take_back_done")
    minerals = sc.nebula_minerals()
    assert minerals == 5  # 3 tiles + 2 emissaries
    sc.turn(0, 1, "space", "pass", vert="S")  # B
    before = sc.credits(A)
    sc.place(-1, 0, "space", right="S")
    sc.act("construct", x=0, y=0)
    assert sc.credits(A) == before + 5  # (3 + 2) x 1
    assert sc.nebula_minerals() == minerals + 2
    sc.turn(1, 1, "space", "pass", left="S")  # B
    sc.place(3, 0, "space", left="S")
    sc.act("construct", x=2, y=0)  # another research station in the same nebula
    assert sc.nebula_minerals() == minerals + 4


def test_gaining_minerals_from_a_controlled_nebula_with_a_station():
    sc = Scenario(["nebula-cap", "nebula-bend", "nebula-cap", "space", "space", "space"])
    sc.turn(0, 0, "nebula-cap", "expedition", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    sc.place(2, 0, "nebula-cap", left="N")
    sc.act("pass")
    sc.act("take_back_done")
    sc.turn(0, 1, "space", "pass", vert="S")  # B
    assert not sc.has("gain_mineral"), "emissaries alone give no minerals"
    sc.place(-1, 0, "space", right="S")
    sc.act("construct", x=0, y=0)
    sc.turn(1, 1, "space", "pass", left="S")  # B
    gains = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    color = next(d["color"] for d in gains if d["kind"] == "gain_mineral")
    sc.act("gain_mineral", nebula=0, color=color)
    assert not sc.has("gain_mineral"), "a research station gives 1 mineral per turn"


# ---------------------------------------------------------------- section VI.2.B: emissary battles


def test_battle_yellow_wins_4_to_3_and_takes_control():
    sc = Scenario(["planet-end", "planet-link", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A: blue
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B: yellow
    sc.place(2, 0, "planet-end", left="P")  # A closes: A (blue) attacks
    sc.fix_dice([2, 3])  # attacker A rolls 2, defender B rolls 3
    credits_b, tokens_b = sc.credits(B), sc.tokens(B)
    sc.act("pass")
    sc.act("declare", plus=0, rerolls=0)  # A
    sc.act("declare", plus=0, rerolls=0)  # B
    # B wins 4 (3+1) to 3 (2+1): A's emissary goes home; B controls, is paid and gets a token
    assert sc.credits(B) == credits_b + (3 + 2) * 2
    assert sc.tokens(B) == tokens_b + 1
    assert sc.emissaries()[:3] == [-1, B, -1]
    assert sc.player(A)["supply"]["emissaries"] == 9


def test_battle_bonus_stays_for_the_whole_battle():
    # yellow (A) +2 loses 4 to 6, then wins 4 (2+2) to 3 (2+1)
    sc = Scenario(["planet-end", "planet-link", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B
    sc.place(2, 0, "planet-end", left="P")
    sc.act("expedition")  # A now has 2 emissaries in the closing system
    sc.fix_dice([2, 5, 2, 2])
    before = sc.credits(A)
    for _ in range(2):
        sc.act("declare", plus=0, rerolls=0)
    # B won the clash: B chooses which of A's two emissaries goes home (section VI.2.B, Fig. 14)
    assert sc.data()["send_home"] == {"winner": B, "seats": [A]}
    sc.act("send_home", x=0, y=0)
    data = sc.data()
    assert data["players"][A]["supply"]["emissaries"] == 8  # lost one emissary in the first clash
    assert [(e["seat"], e["bonus"]) for e in data["battle"]["seats"]] == [(A, 2), (B, 1)]
    for _ in range(2):
        sc.act("declare", plus=0, rerolls=0)
    sc.act("take_back_done")
    assert sc.credits(A) == before + (3 + 3) * 2  # value counted when the system closed
    assert sc.emissaries()[:3] == [-1, -1, A]


def test_battle_tie_removes_both_and_pays_the_closer_without_token():
    sc = Scenario(["planet-end", "planet-link", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")
    sc.place(2, 0, "planet-end", left="P")
    sc.fix_dice([4, 4])
    before, tokens = sc.credits(A), sc.tokens(A)
    sc.act("pass")
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.credits(A) == before + (3 + 2) * 2
    assert sc.tokens(A) == tokens
    assert sc.emissaries()[:3] == [-1, -1, -1]


def two_against_two(sc: Scenario) -> None:
    """A closes a 4-tile system (0,0)..(4,0): A's emissaries on (0,0) and (2,0), B's on (1,0) and (3,0)."""
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B
    sc.turn(2, 0, "planet-link", "expedition", left="P", right="P")  # A
    sc.turn(3, 0, "planet-link", "expedition", left="P", right="P")  # B
    sc.place(4, 0, "planet-end", left="P")  # A closes
    sc.act("pass")


def test_after_a_tied_clash_each_seat_chooses_which_of_its_emissaries_goes_home():
    # Section VI.2.B.4: "If there's a tie, there is no winner and each of the clashing players chooses 1
    # of his emissaries and returns him to his race board." The attacker chooses first, then clockwise.
    sc = Scenario(["planet-end", "planet-link", "planet-link", "planet-link", "planet-end"])
    two_against_two(sc)
    sc.fix_dice([3, 3])  # 3 + 2 each
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.data()["phase"] == "send_home"
    assert sc.data()["send_home"] == {"winner": None, "seats": [A, B]}
    schema = Draft202012Validator(load_schema("trian"))
    schema.validate(json.loads(sc.state.to_json()))
    schema.validate(json.loads(sc.state.observation(B).to_json()))
    assert sc.state.current_player == A
    choices = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    assert [(c["kind"], c["x"], c["seat"]) for c in choices] == [("send_home", 0, A), ("send_home", 2, A)]
    assert "send seat 0's emissary at (0, 0) home" in sc.labels()
    sc.act("send_home", x=2, y=0)
    assert sc.state.current_player == B, "then B chooses one of its own"
    assert [sc.state.action_to_struct(a)["x"] for a in sc.state.legal_actions()] == [1, 3]
    sc.act("send_home", x=3, y=0)
    assert sc.emissaries() == [A, B, -1, -1, -1]
    data = sc.data()
    assert data["phase"] == "battle_declare" and data["send_home"] is None
    assert [(e["seat"], e["bonus"]) for e in data["battle"]["seats"]] == [(A, 2), (B, 2)], "bonus kept"


def test_the_clash_winner_chooses_and_a_single_candidate_goes_home_without_a_decision():
    # Section VI.2.B.4: the winner "removes 1 emissary of each opponent"; Fig. 14: "The blue player chooses
    # 1 of the yellow emissaries". With one emissary left there is nothing to choose: no decision is asked.
    sc = Scenario(["planet-end", "planet-link", "planet-link", "planet-link", "planet-end"])
    two_against_two(sc)
    sc.fix_dice([1, 6])  # B wins 8 to 3
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.data()["send_home"] == {"winner": B, "seats": [A]}
    assert sc.state.current_player == B, "the winner chooses the loser's emissary"
    observation = sc.state.observation(B)
    assert observation.current_player == B and observation.legal_actions() == sc.state.legal_actions()
    sc.act("send_home", x=0, y=0)
    sc.fix_dice([1, 6])
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    # A's last emissary goes home by itself: the battle is over, B controls and is paid
    assert sc.data()["phase"] != "send_home"
    assert sc.emissaries() == [-1, B, -1, B, -1]


def one_emissary_home(payload: dict, i: int) -> None:
    """The emissary on galaxy[i] back in its owner's supply."""
    seat = payload["galaxy"][i]["emissary"]["seat"]
    payload["galaxy"][i]["emissary"] = None
    payload["players"][seat]["supply"]["emissaries"] += 1


def test_a_send_home_decision_in_json_must_agree_with_the_battle():
    sc = Scenario(["planet-end", "planet-link", "planet-link", "planet-link", "planet-end"])
    two_against_two(sc)
    sc.fix_dice([3, 3])
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    good = sc.state.to_json()
    for change, says in (
        (lambda d: d.update(send_home=None), "send_home is set exactly in the phase send_home"),
        (lambda d: d["send_home"].update(seats=[]), "send_home.seats"),
        (lambda d: d["send_home"].update(seats=[A, A]), "named twice"),
        (lambda d: d["send_home"].update(seats=[A, 2]), r"seats\[1\]': 2 is not an integer in \[0, 1\]"),
        (lambda d: d["send_home"].update(winner=A), "the winner fights the battle and sends none"),
        (lambda d: d["send_home"].update(winner=B, seats=[B]), "the winner fights the battle"),
        (lambda d: d.update(phase="battle_declare"), "send_home is set exactly"),
        (lambda d: d["battle"].update(acting=1), "nobody acts in the battle"),
        (lambda d: one_emissary_home(d, 2), "seat 0 has one emissary to send home"),
        (lambda d: d["send_home"].update(seats="A"), "send_home.seats"),
    ):
        document = json.loads(good)
        change(document["state"])
        with pytest.raises(StateFormatError, match=says):
            sc.game.state_from_json(json.dumps(document))
    assert sc.game.state_from_json(good) == sc.state


def test_the_closer_chooses_which_emissaries_to_take_back_one_at_a_time():
    # Section VI.1.A: "If there are only your emissaries in the area you're closing, after you gained the
    # points for that closing you can take any number of your emissary miniatures back to your supplies".
    # Which ones is the closer's choice too: one decision per emissary, up the galaxy's order.
    sc = Scenario(["planet-end", "planet-link", "planet-link", "planet-link", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "pass", left="P", right="P")  # B
    sc.turn(2, 0, "planet-link", "expedition", left="P", right="P")  # A
    sc.turn(3, 0, "planet-link", "pass", left="P", right="P")  # B
    sc.place(4, 0, "planet-end", left="P")  # A closes
    sc.act("expedition")  # A's third emissary, then the events
    tokens = sc.tokens(A)
    offered = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    assert [(d["kind"], d.get("x")) for d in offered] == [
        ("take_back_done", None),
        ("take_back", 0),
        ("take_back", 2),
        ("take_back", 4),
    ]
    sc.act("take_back", x=2, y=0)
    assert sc.data()["take_back"] == {"after": {"x": 2, "y": 0}}
    Draft202012Validator(load_schema("trian")).validate(json.loads(sc.state.to_json()))
    assert [sc.state.action_to_struct(a).get("x") for a in sc.state.legal_actions()] == [None, 4]
    for change, says in (
        (lambda d: d["take_back"].update(after={"x": 4, "y": 0}), "take_back.after is set only in"),
        (lambda d: d["take_back"].update(after={"x": 9, "y": 0}), "take_back.after"),
        (lambda d: d.update(take_back="x"), "take_back"),
    ):
        document = json.loads(sc.state.to_json())
        change(document["state"])
        with pytest.raises(StateFormatError, match=says):
            sc.game.state_from_json(json.dumps(document))
    sc.act("take_back_done")
    assert sc.emissaries() == [A, -1, -1, -1, A]
    assert sc.tokens(A) == tokens + 1, "an emissary kept: control and a combat token"
    assert sc.data()["take_back"] is None


def test_combat_tokens_declared_face_down_then_plus_one_and_reroll_after_the_roll():
    sc = Scenario(["planet-end", "planet-link", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")
    sc.place(2, 0, "planet-end", left="P")
    sc.edit(lambda d: set_tokens(d, {A: (2, 1), B: (3, 1)}))
    sc.fix_dice([3, 2, 1, 6])
    sc.act("pass")
    sc.act("declare", plus=1, rerolls=1)  # A: 3 + 1 bonus + 1
    hidden = sc.state.observation(B).to_json()
    assert json.loads(hidden)["state"]["players"][A]["declared_tokens"]["plus"] is None, "face down"
    sc.act("declare", plus=1, rerolls=2)  # B: 2 + 1 + 1 = 4, a tie at 5? A has 5
    obs = json.loads(sc.state.observation(B).to_json())["state"]
    assert obs["players"][A]["declared_tokens"]["plus"] == 1, "revealed after the roll"
    assert sc.state.current_player == A  # A may reroll after seeing the dice
    sc.act("stand")
    sc.act("reroll")  # B rerolls 2 -> 1
    sc.act("reroll")  # B rerolls 1 -> 6: 6 + 1 + 1 = 8 beats 5
    assert sc.emissaries()[:3] == [-1, B, -1]
    # every declared token went back to the bag, used or not; B won control and drew a new one
    assert [sc.tokens(A), sc.tokens(B)] == [0, 1]
    assert [sc.player(p)["declared_tokens"]["count"] for p in (A, B)] == [0, 0]


def test_battle_attacker_is_next_clockwise_when_the_closer_is_not_involved():
    sc = Scenario(["planet-end", "planet-link", "starlight-path", "planet-end"], players=3)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # seat 0
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # seat 1
    sc.turn(2, 0, "starlight-path", "pass", left="P", right="P")  # seat 2
    sc.place(3, 0, "planet-end", left="P")  # seat 0 closes: 0 attacks
    sc.act("pass")
    assert sc.state.current_player == 0
    sc = Scenario(["planet-end", "planet-link", "starlight-path", "planet-end"], players=3, first=1)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # seat 1
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # seat 2
    sc.turn(2, 0, "starlight-path", "pass", left="P", right="P")  # seat 0
    sc.place(3, 0, "planet-end", left="P")  # seat 1 closes, not involved
    sc.act("expedition")  # ...now it is: seat 1 attacks
    assert sc.state.current_player == 1


# ---------------------------------------------------------------- end of game (section VII)


def test_minerals_count_3_at_the_end():
    game = load_game("trian", players=2)
    state = game.new_initial_state(seed=2)
    state.playout(seed=2)
    data = json.loads(state.to_json())["state"]
    scores = state.scores()
    for p, player in enumerate(data["players"]):
        assert scores[p] == player["credits"] + 3 * sum(player["minerals"].values())


def test_ties_go_to_fewer_pieces_left_on_the_race_board():
    sc = Scenario(["planet-end", "space"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A: one emissary on the board
    sc.set_credits(30, 30)
    assert sc.state.scores() == [30, 30]
    assert sc.state.ranks() == [0, 1]
    sc.set_credits(30, 31)
    assert sc.state.ranks() == [1, 0]


# ---------------------------------------------------------------- hidden information (issue 2, section 3)


def test_observation_hides_undersides_stack_order_and_token_types():
    game = load_game("trian", players=2)
    state = game.new_initial_state(seed=4)
    for _ in range(40):
        state.apply(state.legal_actions()[-1])
    data = json.loads(state.to_json())["state"]
    for p in (0, 1):
        obs = json.loads(state.observation(p).to_json())["state"]
        assert all("tiles" not in stack for stack in obs["stacks"]), "only the size and the top face"
        tokens = [player["combat_tokens"]["plus"] for player in obs["players"]]
        assert tokens[1 - p] is None and tokens[p] == data["players"][p]["combat_tokens"]["plus"]
        for seen, truth in zip(obs["galaxy"], data["galaxy"], strict=True):
            mine = seen["placer"] == p
            assert (seen["tile"] is not None) == mine and (seen["side"] is not None) == mine
            assert seen["face"] == truth["face"] and seen["face_when_drawn"] == truth["face_when_drawn"]
        assert "random_streams" not in obs


def test_a_tile_seen_face_up_on_the_stack_keeps_that_face_after_determinize():
    game = load_game("trian", players=2)
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        state.playout(seed=seed)
        obs = state.observation(0)
        for k in range(4):
            sample = json.loads(obs.determinize(k).to_json())["state"]
            for tile in sample["galaxy"]:
                faces = [FACES[f]["name"] for f in TILES[tile["tile"]]]
                assert tile["face"] in faces and tile["face_when_drawn"] in faces
                if tile["face"] != tile["face_when_drawn"]:
                    assert sorted(faces) == sorted([tile["face"], tile["face_when_drawn"]])


def test_same_seed_same_deal_and_streams_per_source():
    game = load_game("trian", players=3)
    a, b = game.new_initial_state(seed=9), game.new_initial_state(seed=9)
    assert a == b
    assert game.new_initial_state(seed=10) != a


# ---------------------------------------------------------------- bad input


def test_illegal_actions_and_inconsistent_json_are_rejected():
    sc = Scenario(["planet-end", "starlight-path"])
    before = sc.state.to_json()
    with pytest.raises(IllegalActionError):
        sc.state.apply(246)  # no expedition in phase 1
    data = json.loads(before)
    data["state"]["players"][0]["credits"] = -5
    with pytest.raises(StateFormatError, match="credits"):
        sc.game.state_from_json(json.dumps(data))
    data = json.loads(before)
    data["state"]["bag"]["red"] = 29  # a mineral vanished
    with pytest.raises(StateFormatError, match="minerals"):
        sc.game.state_from_json(json.dumps(data))
    data = json.loads(before)
    stacks = data["state"]["stacks"]
    stacks[0]["tiles"][0] = stacks[1]["tiles"][0]  # a tile twice
    with pytest.raises(StateFormatError, match="twice"):
        sc.game.state_from_json(json.dumps(data))
    data = json.loads(before)
    tile = {"x": 5, "y": 0, "tile": 0, "side": 0, "face": "space", "face_when_drawn": "space", "rotation": 0}
    data["state"]["galaxy"] = [dict(tile, placer=0, emissary=None, ship=None)]
    with pytest.raises(StateFormatError, match=r"galaxy\[0\].*\(5, 0\) does not touch the galaxy"):
        sc.game.state_from_json(json.dumps(data))
    assert sc.state.to_json() == before


# ---------------------------------------------------------------- phase 1, outposts, teleports, exmitters


def test_purchases_cost_6_and_4_and_exchange_two_for_one():
    sc = Scenario(["space"])
    sc.set_credits(20, 10)
    sc.act("buy_mineral", color="red")
    sc.act("buy_mineral", color="red")
    sc.act("buy_token")
    assert sc.credits(A) == 20 - 6 - 6 - 4
    assert sc.player(A)["minerals"]["red"] == 2 and sc.tokens(A) == 2
    sc.act("exchange", give=["red", "red"], take="blue")
    minerals = sc.player(A)["minerals"]
    assert (minerals["red"], minerals["blue"]) == (0, 1)
    assert sc.data()["bag"] == {"red": 30, "blue": 29, "green": 30, "yellow": 30}
    assert not sc.has("buy_mineral"), "2 credits buy nothing"


def test_trade_outpost_gives_two_extra_actions_and_cheaper_trade():
    sc = Scenario(["space", "trade-outpost", "space", "space"])
    sc.turn(0, 0, "space", "pass")  # A
    sc.place(1, 0, "trade-outpost")  # B
    sc.act("expedition")
    assert sc.state.current_player == B, "two more actions this phase 3"
    assert not sc.has("expedition")
    sc.act("research")
    sc.act("research")
    assert sc.state.current_player == A
    assert sum(sc.player(B)["minerals"].values()) == 2
    sc.turn(-1, 0, "space", "pass")  # A
    sc.set_credits(10, 10)
    sc.act("buy_mineral", color="green")
    sc.act("buy_token")
    assert sc.credits(B) == 10 - 5 - 3


def test_teleport_moves_an_emissary_from_its_radius_once():
    sc = Scenario(["nebula-cap", "planet-end", "teleport"])
    sc.turn(0, 0, "nebula-cap", "expedition", vert="N")  # A, emissary next to the future teleport
    sc.turn(-1, 0, "planet-end", "pass", right="S")  # B
    sc.place(1, 0, "teleport")  # A adds the teleport: (0,0) is in its radius
    moves = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    targets = {(d["to"]["x"], d["to"]["y"]) for d in moves if d["kind"] == "teleport"}
    assert targets == {(-1, 0)}, "only to a planet, nebula part or outpost without an emissary"
    sc.act("teleport", to={"x": -1, "y": 0})
    assert sc.emissaries()[:3] == [-1, A, -1]
    assert sc.state.current_player == B


def test_exmitter_sends_units_home_and_nothing_may_enter_its_radius():
    sc = Scenario(["planet-end", "exmitter", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", vert="P")  # A
    sc.place(1, 0, "exmitter")  # B: A's emissary on (0,0) goes home
    assert sc.emissaries()[0] == -1
    assert sc.player(A)["supply"]["emissaries"] == 9
    assert not sc.has("expedition"), "no expedition onto an exmitter"
    sc.act("pass")
    sc.place(2, 0, "planet-end", left="S")  # A, next to the exmitter
    assert not sc.has("expedition"), "no expedition into an exmitter's radius"


def test_three_player_battle_bonuses_1_2_3_and_the_winner_removes_one_of_each():
    # yellow (seat 0) +3, green (seat 1) +2, red (seat 2) +1; green wins the first clash 7 to 4 and 6
    faces = ["planet-end"] + ["planet-link"] * 5 + ["planet-end"]
    sc = Scenario(faces, players=3)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # 0
    for x, act in ((1, "expedition"), (2, "expedition"), (3, "expedition"), (4, "expedition"), (5, "pass")):
        sc.turn(x, 0, "planet-link", act, left="P", right="P")  # 1, 2, 0, 1, 2
    sc.place(6, 0, "planet-end", left="P")  # seat 0 closes
    sc.act("expedition")
    assert sc.emissaries() == [0, 1, 2, 0, 1, -1, 0]
    seats = sc.data()["battle"]["seats"]
    assert [e["bonus"] for e in seats] == [3, 2, 1]
    assert [e["seat"] for e in seats] == [0, 1, 2], "the closer attacks, defenders clockwise"
    before = sc.credits(0)
    sc.fix_dice([1, 5, 5])
    for _ in range(3):
        sc.act("declare", plus=0, rerolls=0)
    # green chooses one of yellow's three emissaries (section VI.2.B, Fig. 14); red's only one then goes
    # home without a choice
    assert sc.state.current_player == 1
    assert sc.data()["send_home"] == {"winner": 1, "seats": [0, 2]}
    assert sorted(sc.state.action_to_struct(a)["x"] for a in sc.state.legal_actions()) == [0, 3, 6]
    sc.act("send_home", x=3, y=0)
    assert sc.emissaries() == [0, 1, -1, -1, 1, -1, 0]
    data = sc.data()
    supply = [player["supply"]["emissaries"] for player in data["players"]]
    assert supply == [8 - 3 + 1, 8 - 2, 8]  # yellow lost one, red went home
    assert [e["seat"] for e in data["battle"]["seats"]] == [0, 1]
    sc.fix_dice([4, 2])  # yellow 7, green 4
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.state.current_player == 0, "yellow won: yellow chooses which green emissary goes home"
    sc.act("send_home", x=1, y=0)
    sc.fix_dice([6, 1])
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    sc.act("take_back", x=0, y=0)
    sc.act("take_back_done")  # yellow keeps the emissary on (6, 0)
    assert sc.credits(0) == before + (7 + 6) * 2


def test_three_player_tie_sends_everyone_home_and_pays_the_closer():
    sc = Scenario(["planet-end", "planet-link", "planet-end"], players=3)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # 0
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # 1
    sc.place(2, 0, "planet-end", left="P")  # 2 closes
    sc.act("expedition")
    before, tokens = sc.credits(2), [sc.tokens(p) for p in range(3)]
    sc.fix_dice([3, 3, 3])
    for _ in range(3):
        sc.act("declare", plus=0, rerolls=0)
    assert sc.credits(2) == before + (3 + 3) * 2
    assert [sc.tokens(p) for p in range(3)] == tokens
    assert sc.emissaries()[:3] == [-1, -1, -1]


def test_an_observation_that_claims_hidden_values_is_rejected():
    game = load_game("trian", players=2)
    state = game.new_initial_state(seed=8)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    obs = json.loads(state.observation(0).to_json())
    full = json.loads(state.to_json())["state"]
    leaky = json.loads(json.dumps(obs))
    leaky["state"]["stacks"] = full["stacks"]
    with pytest.raises(StateFormatError, match="unknown keys 'tiles'"):
        game.observation_from_json(json.dumps(leaky))
    leaky = json.loads(json.dumps(obs))
    leaky["state"]["players"][1]["combat_tokens"] = full["players"][1]["combat_tokens"]
    with pytest.raises(StateFormatError, match="cannot see"):
        game.observation_from_json(json.dumps(leaky))
    leaky = json.loads(json.dumps(obs))
    leaky["state"]["players"][0]["combat_tokens"]["plus"] = None
    with pytest.raises(StateFormatError, match="must be known"):
        game.observation_from_json(json.dumps(leaky))
    assert game.observation_from_json(json.dumps(obs)) == state.observation(0)


def test_closing_a_3_tile_nebula_pays_3_and_3_minerals_appear():
    sc = Scenario(["nebula-cap", "nebula-bend", "nebula-cap"])
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    before = sc.credits(A)
    sc.turn(2, 0, "nebula-cap", "pass", left="N")
    assert sc.credits(A) == before + 3
    assert sc.nebula_minerals() == 3


def test_closing_a_3_tile_outer_space_area_pays_9_to_the_closer():
    sc = Scenario(["nebula-bend", "nebula-cap", "nebula-bend"])
    sc.turn(0, 0, "nebula-bend", "pass", right="S")
    sc.turn(1, 0, "nebula-cap", "pass", left="S", right="S")
    before = sc.credits(A)
    sc.turn(2, 0, "nebula-bend", "pass", left="S")
    assert sc.credits(A) == before + 9


TELEPORT_INTO_EMPTY_SYSTEM = ["planet-end", "starlight-path", "planet-end", "nebula-cap", "teleport"]


def empty_system_then_teleport(sc: Scenario, *, before_teleport: Callable[[], object] = lambda: None) -> None:
    """A closes an empty system (0,0)-(2,0); B sends an emissary to (-1,0); A adds a teleport at (-2,0)."""
    sc.turn(0, 0, "planet-end", "pass", right="P")  # A
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B
    sc.turn(2, 0, "planet-end", "pass", left="P")  # A closes an empty system
    sc.turn(-1, 0, "nebula-cap", "expedition", right="S", vert="N")  # B
    before_teleport()
    sc.place(-2, 0, "teleport")  # A: B's emissary on (-1, 0) is in the radius


def test_teleporting_into_an_uncontrolled_closed_system_takes_control_for_the_owner():
    sc = Scenario(TELEPORT_INTO_EMPTY_SYSTEM)
    empty_system_then_teleport(sc)
    moves = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    assert {(d["to"]["x"], d["to"]["y"]) for d in moves if d["kind"] == "teleport"} == {(0, 0), (2, 0)}
    tokens = sc.tokens(B)
    sc.act("teleport", to={"x": 0, "y": 0})  # teleport an enemy emissary
    assert sc.tokens(B) == tokens + 1
    assert sc.emissaries()[0] == B


def test_construction_in_a_system_3_tiles_1_emissary_pays_16():
    sc = Scenario(["planet-end", "starlight-path", "planet-end", "space", "space"])
    system_line(sc)
    sc.act("pass")
    sc.act("take_back_done")
    sc.turn(-1, 0, "space", "pass", right="S")  # B
    before = sc.credits(A)
    sc.place(0, 1, "space", vert="S")
    sc.act("construct", x=0, y=0)
    assert sc.credits(A) == before + 16  # (3 tiles + 1 emissary) x 4


def test_a_space_station_gives_2_minerals_per_turn_and_never_more():
    faces = ["nebula-cap", "nebula-bend", "nebula-cap"] + ["space"] * 6
    sc = Scenario(faces)
    sc.turn(0, 0, "nebula-cap", "expedition", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    sc.place(2, 0, "nebula-cap", left="N")
    sc.act("pass")
    sc.act("take_back_done")
    sc.turn(0, 1, "space", "pass", vert="S")  # B
    sc.place(-1, 0, "space", right="S")
    sc.act("construct", x=0, y=0)  # research station
    sc.turn(1, 1, "space", "pass", left="S")  # B
    sc.act("end_phase1")
    sc.place(3, 0, "space", left="S")
    sc.act("construct", x=0, y=0)  # space station
    sc.turn(-1, 1, "space", "pass", right="S")  # B
    for _ in range(2):
        d = next(
            sc.state.action_to_struct(a)
            for a in sc.state.legal_actions()
            if sc.state.action_to_struct(a)["kind"] == "gain_mineral"
        )
        sc.act("gain_mineral", nebula=0, color=d["color"])
    assert not sc.has("gain_mineral"), "at most 2 minerals per nebula per turn"


def test_actions_round_trip_through_structs_by_kind_and_fields():
    sc = Scenario(["planet-end", "starlight-path"])
    sc.act("end_phase1")
    assert sc.state.action_from_struct({"kind": "draw", "stack": 1}) == 241
    sc.act("draw", stack=0)
    for a in sc.state.legal_actions():
        d = sc.state.action_to_struct(a)
        fields = {k: v for k, v in d.items() if k not in ("id", "label")}
        assert sc.state.action_from_struct(fields) == a
    with pytest.raises(StateFormatError):
        sc.state.action_from_struct({"kind": "place", "x": 40, "y": 40, "side": 0, "rotation": 0})
    with pytest.raises(StateFormatError):
        sc.state.action_from_struct({"id": sc.state.legal_actions()[0], "kind": "research"})


def test_determinize_resamples_the_stacks_and_a_tile_in_another_hand():
    game = load_game("trian", players=2)
    state = game.new_initial_state(seed=12)
    state.apply(0)  # end phase 1
    state.apply(240)  # draw: the tile is in seat 0's hand
    other = state.observation(1)
    hands = {json.loads(other.determinize(k).to_json())["state"]["hand"]["tile"] for k in range(20)}
    stacks = {json.dumps(json.loads(other.determinize(k).to_json())["state"]["stacks"]) for k in range(5)}
    assert len(hands) > 1 and len(stacks) == 5
    truth = json.loads(state.to_json())["state"]["hand"]["tile"]
    own = state.observation(0)
    mine = {json.loads(own.determinize(k).to_json())["state"]["hand"]["tile"] for k in range(5)}
    assert mine == {truth}, "the drawer knows its tile"


def test_policy_playouts_end_and_evaluate_stays_in_0_1():
    for players in (2, 3, 4):
        game = load_game("trian", players=players)
        for seed in range(3):
            state = game.new_initial_state(seed=seed)
            for _ in range(120):
                state.apply(state.legal_actions()[seed % len(state.legal_actions())])
                assert all(0.0 <= v <= 1.0 for v in state.evaluate())
            state.playout(seed=seed, use_policy=True)
            assert state.is_terminal()
            assert sorted(state.returns()) == sorted(state.evaluate())


def test_a_tile_that_fits_nowhere_is_set_aside_and_the_player_draws_again():
    core = next(t for t, s in T.tiles_with_face("nebula-core") if not FACES[TILES[t][1 - s]]["special"])
    side = 0 if FACES[TILES[core][0]]["name"] == "nebula-core" else 1
    dry = next(t for t, (a, b) in enumerate(TILES) if "N" not in FACES[a]["edges"] + FACES[b]["edges"])
    dry_up = 1 if FACES[TILES[dry][0]]["special"] else 0
    sc = Scenario([])
    T._debug_stack_top(sc.state, 0, [(dry, dry_up), (core, side)])
    sc.place(0, 0, "nebula-core")  # every open border is nebula now
    sc.act("pass")
    sc.act("end_phase1")
    sc.act("draw", stack=0)
    assert [sc.state.action_to_struct(a)["kind"] for a in sc.state.legal_actions()] == ["discard"]
    sc.act("discard")
    assert sc.data()["set_aside"] == [dry]
    assert sc.has("draw", stack=1), "the player draws again"
    obs = json.loads(sc.state.observation(B).to_json())["state"]
    assert obs["set_aside"] == [dry], "a set-aside tile is shown to everyone"


def test_events_before_or_after_the_action_pay_the_same_here():
    paid = []
    for first in (True, False):
        sc = Scenario(["planet-end", "starlight-path", "planet-end"])
        system_line(sc)
        before = sc.credits(A)
        if first:
            sc.act("events_first")
            sc.act("take_back_done")
            sc.act("research")
        else:
            sc.act("research")
            sc.act("take_back_done")
        paid.append(sc.credits(A) - before)
        assert sc.state.current_player == B
    assert paid == [8, 8]


@pytest.mark.parametrize("variant", ["beginner", "ships", "full"])
def test_the_piece_sets_kept_move_by_move_equal_the_ones_a_load_rebuilds(variant: str) -> None:
    """Which tiles hold each seat's emissaries, a ship or an extractor is kept move by move
    (core_ext/trian/pieces.pxi) and rebuilt from the tiles when JSON is loaded; the state's bytes include
    both, so every position of these seeded random games must come back from its JSON byte for byte."""
    import random

    positions = 0
    for players in (2, 3, 4):
        game = load_game("trian", players=players, variant=variant)
        for seed in range(2):
            state, rng = game.new_initial_state(seed=seed), random.Random(seed)
            while not state.is_terminal():
                assert game.state_from_json(state.to_json()) == state, f"{players}p seed {seed}"
                positions += 1
                state.apply(rng.choice(state.legal_actions()))
    assert positions > 1000
