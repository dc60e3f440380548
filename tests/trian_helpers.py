"""Scenario builders for Galaxy of Trian tests: stack the tiles, then play real actions.

A scenario is played through the engine's own actions (draw, place, expedition, ...), so every test
also checks that the position is reachable. Geometry: cell (x, y) is an up triangle when x + y is even
(neighbours left (x-1, y), right (x+1, y), below (x, y+1)) and a down triangle otherwise (the
horizontal neighbour is (x, y-1)); "vert" names that horizontal edge.
"""

from __future__ import annotations

import json

from core_ext import load_game
from core_ext import trian as T

CW = {0: ("right", "vert", "left"), 1: ("vert", "right", "left")}
FACES = T.CATALOGUE["faces"]


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

    def __init__(self, faces: list[str], *, players: int = 2, seed: int = 0, first: int = 0):
        game = load_game("trian", players=players)
        state = game.new_initial_state(seed=seed)
        data = json.loads(state.to_json())
        data["state"]["first_player"] = first
        data["state"]["turn_player"] = first
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
                return d
        raise AssertionError(f"no legal {kind} {fields}; legal: {self.labels()}")

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
        return json.loads(self.state.to_json())["state"]

    def edit(self, **fields) -> None:
        """Change payload fields (e.g. player_credits=[...]) through the validating JSON loader."""
        data = json.loads(self.state.to_json())
        data["state"].update(fields)
        self.state = self.game.state_from_json(json.dumps(data))

    def credits(self, seat: int) -> int:
        return self.data()["player_credits"][seat]

    def tokens(self, seat: int) -> int:
        return self.data()["player_tok_count"][seat]

    def fix_dice(self, rolls: list[int]) -> None:
        """Seed the dice stream so that the next dice are `rolls`."""
        for seed in range(1_000_000):
            if T._debug_dice(seed, len(rolls)) == rolls:
                T._debug_seed_dice(self.state, seed)
                return
        raise AssertionError(f"no dice seed found for {rolls}")
