"""Translate a retired "orrery.state/1" Trian payload into an "orrery.trian.state/2" payload.

The old payload named every field of the C struct. The translation keeps the game facts and drops what
the loader rebuilds (board index, frontier, union-find): an index into the placed tiles becomes the cell
of that tile, a union-find root the tile and part of its area. Fields the old format gained over time
(ships, races) default to what a state without them held. Only Game.upgrade_state_json calls this, and
it loads the result like any input, so every check of the current loader applies; this module only
translates, and refuses what it cannot read with StateFormatError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from orrery.core_ext._errors import StateFormatError
from orrery.core_ext.trian import engine as T

UNKNOWN = 255  # the old "none" / "hidden" byte
AREA_UNBLOCKED = 4  # ev_kind of a battle started by an unblocking
PART_NEBULA = 3  # union-find node kinds: node = placed index * 5 + part (0..2 outer-space groups)
PART_SYSTEM = 4
CLOCKWISE_SIDES = ((1, 2, 0), (2, 1, 0))  # per orientation: the sides a face's edges 0..2 lie on
PRIESTESS_GAIN = 2  # race_count of a Supreme Priestess step before its first pick
BATTLE_MODES = (6, 7)
SHIP_TARGET_MODE = 9
RACIAL_STEP_MODE = 10


def payload_from_v1(old: dict[str, Any], players: int) -> dict[str, Any]:
    """The current payload holding the facts of an old one (StateFormatError if it cannot be read)."""
    try:
        return _Translation(old, players).payload()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise StateFormatError(
            f"cannot upgrade this orrery.state/1 payload: {type(exc).__name__}: {exc}"
        ) from None


def _pick(names: Sequence[Any], index: Any) -> Any:
    """names[index] for an index in range only (a negative one would count from the end)."""
    if type(index) is not int or not 0 <= index < len(names):
        raise ValueError(f"{index!r} is out of range")
    return names[index]


def _flag(value: Any) -> bool:
    return bool(_pick((False, True), value))


class _Translation:
    def __init__(self, old: dict[str, Any], players: int) -> None:
        self.old = old
        self.players = players
        self.placed = old["n_placed"]

    def seat_field(self, name: str, seat: int, default: int) -> Any:
        """A per-seat field (old lists have 4 entries); `default` for fields older payloads lack."""
        return self.old[name][seat] if name in self.old else default

    def placed_field(self, name: str, i: int, default: int) -> Any:
        return self.old[name][i] if name in self.old else default

    def cell(self, index: Any) -> dict[str, int]:
        _pick(range(self.placed), index)
        return {"x": self.old["placed_x"][index], "y": self.old["placed_y"][index]}

    def maybe_cell(self, index: Any) -> dict[str, int] | None:
        return None if index == UNKNOWN else self.cell(index)

    def face(self, index: Any) -> str | None:
        return None if index == UNKNOWN else _pick(T.FACE_NAMES, index)

    def payload(self) -> dict[str, Any]:
        old = self.old
        return {
            "turn": old["turn"],
            "phase": _named(T.PHASE_IDS, old["mode"], "mode"),
            "turn_player": old["turn_player"],
            "first_player": old["first_player"],
            "stacks": [self.stack(k) for k in (0, 1)],
            "hand": self.hand(),
            "set_aside": old["discarded"][: old["n_discarded"]],
            "galaxy": [self.placed_tile(i) for i in range(self.placed)],
            "nebulas": [self.nebula(k) for k in range(old["n_nebulas"])],
            "bag": dict(zip(T.COLOR_NAMES, old["bag"], strict=True)),
            "players": [self.player(p) for p in range(self.players)],
            "this_turn": self.this_turn(),
            "events": self.events(),
            "battle": self.battle(),
            "ship_battle": self.ship_battle(),
            "racial_step": self.racial_step(),
            "random_streams": {
                name: [format(w, "016x") for w in old[f"rng_{name}"]] for name in T.STREAM_IDS
            },
        }

    def stack(self, k: int) -> dict[str, Any]:
        size = self.old["stack_len"][k]
        tiles = self.old[f"stack{k}_tile"]
        sides = self.old[f"stack{k}_up"]
        return {
            "size": size,
            "top_face": self.face(self.old["stack_top_face"][k]),
            "tiles": [{"tile": tiles[i], "side_up": sides[i]} for i in range(size)],
        }

    def hand(self) -> dict[str, Any] | None:
        old = self.old
        if old["drawn_face"] == UNKNOWN:
            return None
        return {
            "stack": old["drawn_stack"],
            "face_up": self.face(old["drawn_face"]),
            "tile": old["drawn_tile"],
            "side_up": old["drawn_up"],
        }

    def placed_tile(self, i: int) -> dict[str, Any]:
        old = self.old
        emissary = None
        if old["placed_emissary"][i] >= 0:
            emissary = {
                "seat": old["placed_emissary"][i],
                "unit": _pick(T.UNIT_IDS, self.placed_field("placed_unit", i, 0)),
                "station": _pick(T.STATION_IDS, old["placed_station"][i]),
            }
        ship = None
        kind = self.placed_field("placed_ship_kind", i, 0)
        if kind:
            ship = {
                "seat": old["placed_ship"][i],
                "kind": _pick(T.SHIP_IDS, kind),
                "arrived_this_turn": _flag(old["placed_ship_new"][i]),
                "mined_this_turn": _flag(old["placed_rogue_used"][i]),
            }
        return {
            **self.cell(i),
            "tile": old["placed_tile"][i],
            "side": old["placed_side"][i],
            "face": self.face(old["placed_face"][i]),
            "face_when_drawn": self.face(old["placed_up_face"][i]),
            "rotation": old["placed_rot"][i],
            "placer": old["placed_placer"][i],
            "emissary": emissary,
            "ship": ship,
        }

    def nebula(self, k: int) -> dict[str, Any]:
        minerals = self.old["neb_minerals"][4 * k : 4 * k + 4]
        return {
            **self.cell(self.old["neb_root"][k] // 5),  # a root is a node of its area's first tile
            "minerals": dict(zip(T.COLOR_NAMES, minerals, strict=True)),
            "gained_this_turn": self.old["neb_gained"][k],
        }

    def player(self, p: int) -> dict[str, Any]:
        old = self.old
        race = self.seat_field("player_race", p, UNKNOWN)
        skills = self.seat_field("player_skills", p, 0)
        racial = [k for k in range(5) if skills >> k & 1]
        universal = [u for u in range(3) if skills >> (8 + u) & 1]
        if skills & ~0x71F or (racial and race == UNKNOWN):
            raise ValueError(f"player {p}: skills {skills} do not fit race {race}")
        tokens = [(k, self.seat_field(f"player_tok_at_{k}", p, UNKNOWN)) for k in range(4)]
        return {
            "credits": old["player_credits"][p],
            "minerals": {c: old[f"player_minerals_{c}"][p] for c in T.COLOR_NAMES},
            "supply": {
                "emissaries": old["player_emissaries"][p],
                "research_stations": old["player_research"][p],
                "space_stations": old["player_space"][p],
                "corvettes": self.seat_field("player_corvettes", p, 0),
                "rogues": self.seat_field("player_rogues", p, 0),
            },
            "combat_tokens": {"count": old["player_tok_count"][p], "plus": old["player_tok_plus"][p]},
            "declared_tokens": {"count": old["player_decl_count"][p], "plus": old["player_decl_plus"][p]},
            "race": None if race == UNKNOWN else _pick(T.RACE_NAMES, race),
            "racial_skills": [_pick(T.SKILL_NAMES, race)[k] for k in racial],
            "universal_skills": [T.UNIVERSAL_NAMES[u] for u in universal],
            "special_tokens": [{"slot": k, **self.cell(t)} for k, t in tokens if t != UNKNOWN],
        }

    def this_turn(self) -> dict[str, Any]:
        old = self.old
        race = self.seat_field("player_race", old["turn_player"], UNKNOWN)
        uses = T.RACIAL_USE_IDS.get(race, ())
        used = old.get("race_used", 0)
        if used & ~sum(bit for bit, _ in uses):
            raise ValueError(f"race_used {used} does not fit the race of the seat to play")
        return {
            "tile_added": self.maybe_cell(old["new_tile"]),
            "actions_left": old["actions_left"],
            "actions_taken": old["actions_taken"],
            "teleport_used": _flag(old["teleport_used"]),
            "skill_unlocked": _flag(old.get("evolved", 0)),
            "racial_uses": [name for bit, name in uses if used & bit],
            "emissary_arrived": self.maybe_cell(old.get("mission_tile", UNKNOWN)),
        }

    def events(self) -> dict[str, Any] | None:
        old = self.old
        if not old["ev_pending"]:
            return None
        return {
            "areas": [self.area(old["ev_root"][k], old["ev_kind"][k]) for k in range(old["ev_n"])],
            "resolved": old["ev_pos"],
            "then": _pick(T.AFTER_EVENTS_IDS, old["ev_return"]),
            "value": old["ev_credits"],
        }

    def area(self, root: int, kind: int) -> dict[str, Any]:
        tile, part = divmod(root, 5)
        out: dict[str, Any] = {
            **self.cell(tile),
            "cause": "unblocked" if kind == AREA_UNBLOCKED else "closed",
        }
        if part == PART_NEBULA:
            out["area"] = "nebula"
        elif part == PART_SYSTEM:
            out["area"] = "system"
        else:
            out["area"] = "space"
            out["side"] = self.side_of_space_group(tile, part)
        return out

    def side_of_space_group(self, i: int, group: int) -> str:
        """The side of placed tile i behind which its outer-space group `group` lies."""
        old = self.old
        face = T.CATALOGUE["faces"][old["placed_face"][i]]
        orientation = (old["placed_x"][i] + old["placed_y"][i]) & 1
        for edge in range(3):
            if face["edges"][edge] in "SP" and face["space_groups"][edge] == group:
                side = CLOCKWISE_SIDES[orientation][(edge + old["placed_rot"][i]) % 3]
                return str(T.SIDE_IDS[side])
        raise ValueError(f"tile {i} has no outer-space group {group}")

    def battle(self) -> dict[str, Any] | None:
        old = self.old
        if old["mode"] not in BATTLE_MODES:
            return None
        seats = old["b_order"][: old["b_n"]]
        warcry = old.get("b_warcry", 0)
        return {
            "seats": [
                {
                    "seat": p,
                    "bonus": _pick(old["b_bonus"], p),
                    "die": old["b_dice"][p],
                    "rerolls": old["b_rerolls"][p],
                    "warcry": bool(warcry >> p & 1),
                }
                for p in seats
            ],
            "acting": old["b_pos"],
        }

    def ship_battle(self) -> dict[str, Any] | None:
        old = self.old
        if not old.get("sb_on", 0):
            return None
        defender = None if old["mode"] == SHIP_TARGET_MODE else self.cell(old["sb_def"])
        return {"attacker": self.cell(old["sb_att"]), "defender": defender}

    def racial_step(self) -> dict[str, Any] | None:
        old = self.old
        if old["mode"] != RACIAL_STEP_MODE:
            return None
        step, arg, count = old["race_step"], old["race_arg"], old["race_count"]
        name = _named(T.STEP_IDS, step, "race_step")
        out: dict[str, Any] = {"step": name, "seat": old["race_seat"]}
        if name == "minerals_gatherer" or (name == "priestess_minerals" and count < PRIESTESS_GAIN):
            out.update(nebula=arg, picks_left=count)
        elif name == "priestess_minerals":
            out.update(at=self.cell(arg), picks_left=count)
        elif name == "adaptation":
            out.update(at=self.cell(arg), unit=_pick(T.ADAPTED_UNIT_IDS, count))
        else:
            out["at"] = self.cell(arg)
        return out


def _named(names: dict[int, str], value: Any, field: str) -> str:
    if type(value) is not int or value not in names:
        raise ValueError(f"{field} {value!r} is out of range")
    return names[value]
