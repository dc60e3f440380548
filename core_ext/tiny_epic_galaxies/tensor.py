"""Tiny Epic Galaxies' observation tensor, base game and Beyond the Black (layout:
docs/rules/tiny_epic_galaxies.md, "Observation tensor")."""

from typing import Any

import numpy as np

from orrery.core_ext._tensor import (
    OBSERVER,
    Context,
    Counts,
    Custom,
    Flag,
    Obj,
    OneHot,
    Scalar,
    Seat,
    Seq,
    TensorSpec,
)
from orrery.core_ext.tiny_epic_galaxies.engine import (
    BADGE_NAMES,
    CARD_NAMES,
    FACE_NAMES,
    MISSION_NAMES,
    PILOT_NAMES,
    PLANET_NAMES,
    SHIP_KIND_NAMES,
)

# Bounds (state.pxd and the catalogue): row slots, ships, pilot row, exploration row.
ROW, SHIPS, PILOT_ROW, EXPLORATION_ROW = 6, 4, 6, 3
PENDING = 10  # decisions encoded from the top of the stack (random games reach 8)
TRACK = 6  # a ship's track space / 6
RESOURCE_CAP = 7
DICE = 7

PLANET = OneHot(PLANET_NAMES, label=f"the {len(PLANET_NAMES)} planets in catalogue order")
PLANET_SET = Counts(PLANET_NAMES, cap=1, label="the planets")
FACE = OneHot(FACE_NAMES)
FACE_COUNTS = Counts(FACE_NAMES, cap=DICE)
CARD = OneHot(CARD_NAMES, label=f"the {len(CARD_NAMES)} exploration cards in catalogue order")
PILOT = OneHot(PILOT_NAMES, label=f"the {len(PILOT_NAMES)} pilots in catalogue order")
DECISIONS = (
    "keep_mission", "turn", "reroll", "convert", "follow", "resolve_die", "landed", "planet_action",
    "rogue_turn", "rogue_die", "rogue_takes", "hire", "explore", "exploration_advance",
)  # fmt: skip

DECISION = Obj(
    ("decision", OneHot(DECISIONS)),
    ("galaxy", Seat("rogue")),
    ("picked", FACE_COUNTS),
    ("from_face", FACE),
    ("zalax", Flag()),
    ("stage", Scalar(3)),
    ("spent", Counts(FACE_NAMES, cap=2)),
    ("die", FACE),
    ("gyore", Flag()),
    ("face", FACE),
    ("next", Scalar(4)),
    ("cost", Scalar(2)),
    ("excluded_ship", OneHot(range(SHIPS))),
    ("second_move", Flag()),
    ("planet", PLANET),
    ("data", Seq(2, Scalar(20))),
    ("dice_left", Scalar(DICE)),
    ("checked", Flag()),
    ("rerolled", Flag()),
    ("left", Scalar(3)),
    ("slot", OneHot(range(PILOT_ROW))),
    ("ship_kind", OneHot(SHIP_KIND_NAMES)),
    ("ship", OneHot(range(SHIPS))),
    ("revealed", CARD),
    ("card", CARD),
)

GLOBAL = Obj(
    OBSERVER,
    ("round", Scalar(60)),
    ("active", Seat("rogue")),
    ("over", Flag()),
    ("trigger", Seat("rogue")),
    ("row", Seq(ROW, PLANET)),
    ("discarded", PLANET_SET),
    (
        "dice",
        Obj(
            ("inactive", FACE_COUNTS),
            ("activated", FACE_COUNTS),
            ("rerolls", Scalar(8)),
            ("converter_used", Flag()),
            ("hiring", FACE_COUNTS),  # Beyond the Black: dice activated to hire pilots (from the btb branch)
        ),
    ),
    ("follow_cost", Scalar(2)),
    ("follow_bonus", Counts(("energy", "culture"), cap=1)),
    ("pending", Seq(PENDING, DECISION, keep_last=True)),
    (
        "beyond_the_black",
        Obj(("pilot_row", Seq(PILOT_ROW, PILOT)), ("exploration_row", Seq(EXPLORATION_ROW, CARD))),
    ),
)

SHIP_STATES = ("home", "locked", "unexplored", "orbit", "surface", "danger")


def _write_ship(out: np.ndarray, offset: int, ship: Any, ctx: Context) -> None:
    if isinstance(ship, str):
        out[offset + SHIP_STATES.index(ship)] = 1.0
        return
    if "danger" in ship:
        out[offset + 5] = 1.0
        CARD.write(out, offset + 7 + PLANET.size, ship["danger"], ctx)
    else:
        out[offset + (4 if ship.get("surface") else 3)] = 1.0
        PLANET.write(out, offset + 7, ship["planet"], ctx)
    if "track" in ship:
        out[offset + 6] = min(1.0, ship["track"] / TRACK)


SHIP = Custom(
    len(SHIP_STATES) + 1 + PLANET.size + CARD.size,
    _write_ship,
    f"one-hot over {', '.join(SHIP_STATES)} (orbit: on a planet's track; danger: on a danger card's track); "
    f"then track space / {TRACK}; then the planet one-hot ({PLANET.size}); then the danger card one-hot "
    f"({CARD.size}, exploration cards in catalogue order)",
)


def _write_hidden_cards(out: np.ndarray, offset: int, cards: Any, ctx: Context) -> None:
    for card in cards:
        i = offset + BADGE_NAMES.index(card["badge"])
        out[i] = min(1.0, out[i] + 1 / 6)
        out[offset + 4] = min(1.0, out[offset + 4] + card["dwarf_planet_vp"] / 6)


HIDDEN_CARDS = Custom(
    len(BADGE_NAMES) + 1,
    _write_hidden_cards,
    f"another seat's face-down cards: count / 6 per badge ({', '.join(BADGE_NAMES)}), then the sum of their "
    "dwarf_planet_vp / 6, clipped at 1",
)

HANGAR = Obj(
    *((kind, Obj(("pilot", PILOT), ("ship", OneHot(range(SHIPS))), present=True)) for kind in SHIP_KIND_NAMES)
)

GALAXY = Obj(
    ("energy", Scalar(RESOURCE_CAP)),
    ("culture", Scalar(RESOURCE_CAP)),
    ("empire", OneHot(range(1, 7))),
    ("colonies", PLANET_SET),
    ("ships", Seq(SHIPS, SHIP)),
    ("once_used", PLANET_SET),
    ("dealt", Counts(MISSION_NAMES, cap=1, unknown="?", label="the missions")),
    ("mission", OneHot(MISSION_NAMES, unknown="?", label="the missions")),
    ("exploration_cards", Counts(CARD_NAMES, cap=1, label="the exploration cards")),
    ("hangar", HANGAR),
    ("retired_pilots", Counts(PILOT_NAMES, cap=1, label="the pilots")),
    ("hidden_cards", HIDDEN_CARDS),
)

SPEC = TensorSpec(
    global_part=GLOBAL,
    seats_key="galaxies",
    seat_block=GALAXY,
    blocks=lambda players: 2 if players == 1 else players,  # solo: block 1 is the Rogue
    not_encoded=("version",),
)
