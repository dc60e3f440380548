"""Galaxy of Trian's observation tensor, all variants (layout: docs/rules/trian.md, "Observation tensor").

Tiles are encoded in placement order (action ids name a tile by that index), and every other reference to
a cell (a nebula excepted, which has x and y) is a one-hot over those placed indexes.
"""

from typing import Any

import numpy as np

from orrery.core_ext._tensor import (
    OBSERVER,
    SELF,
    Context,
    Counts,
    Custom,
    Flag,
    Maybe,
    Obj,
    OneHot,
    Scalar,
    Seat,
    Seq,
    TensorSpec,
)
from orrery.core_ext.trian.engine import (
    ADAPTED_UNIT_IDS,
    AFTER_EVENTS_IDS,
    AREA_IDS,
    CAUSE_IDS,
    COLOR_NAMES,
    FACE_NAMES,
    PHASE_IDS,
    RACE_NAMES,
    RACIAL_USE_IDS,
    SHIP_IDS,
    SIDE_IDS,
    SKILL_NAMES,
    STATION_IDS,
    STEP_IDS,
    UNIT_IDS,
    UNIVERSAL_NAMES,
)

# Bounds (core_ext/trian/state.pxd): tiles, stack size, closed nebulas, queued event areas, battle seats.
TILES, STACK, NEBULAS, EVENTS, BATTLE_SEATS = 84, 42, 48, 10, 4
SPECIAL_TOKENS = 3  # the most racial tokens one race has on the board (SYLPHEX)
REACH = 84  # |x|, |y| of a placed tile is below the tile count

FACE = OneHot(FACE_NAMES, label=f"the {len(FACE_NAMES)} faces in catalogue order")
TILE_ID = OneHot(range(TILES), label="tile ids 0..83 (null where hidden)")
COORDINATE = Scalar(REACH, low=-REACH)
MINERALS = Counts(COLOR_NAMES, cap=10)
RACIAL_USES = tuple(name for uses in RACIAL_USE_IDS.values() for _, name in uses)
PHASES = tuple(PHASE_IDS.values())  # an unknown phase raises


def _write_cell(out: np.ndarray, offset: int, cell: Any, ctx: Context) -> None:
    out[offset + ctx.extras["cells"][(cell["x"], cell["y"])]] = 1.0


CELL = Custom(
    TILES, _write_cell, "one-hot over the placed index (position in `galaxy`) of that cell; null: all 0"
)


def _index_cells(state: dict[str, Any], ctx: Context) -> None:
    ctx.extras["cells"] = {(tile["x"], tile["y"]): i for i, tile in enumerate(state["galaxy"])}


PLACED_TILE = Obj(
    ("x", COORDINATE),
    ("y", COORDINATE),
    ("tile", TILE_ID),
    ("side", OneHot((0, 1))),
    ("face", FACE),
    ("face_when_drawn", FACE),
    ("rotation", OneHot(range(3))),
    ("placer", Seat()),
    (
        "emissary",
        Obj(("seat", Seat()), ("unit", OneHot(UNIT_IDS)), ("station", OneHot(STATION_IDS[1:])), present=True),
    ),
    (
        "ship",
        Obj(
            ("seat", Seat()),
            ("kind", OneHot(SHIP_IDS[1:])),
            ("arrived_this_turn", Flag()),
            ("mined_this_turn", Flag()),
            present=True,
        ),
    ),
)

EVENTS_QUEUE = Obj(
    (
        "areas",
        Seq(
            EVENTS,
            Obj(
                ("cause", OneHot(CAUSE_IDS)),
                ("area", OneHot(AREA_IDS)),
                (SELF, CELL),
                ("side", OneHot(SIDE_IDS)),
            ),
        ),
    ),
    ("resolved", Scalar(EVENTS)),
    ("then", OneHot(AFTER_EVENTS_IDS)),
    ("value", Scalar(40)),
    present=True,
)

BATTLE = Obj(
    (
        "seats",
        Seq(
            BATTLE_SEATS,
            Obj(
                ("seat", Seat()),
                ("bonus", Scalar(10)),
                ("die", Scalar(6)),
                ("rerolls", Scalar(3)),
                ("warcry", Flag()),
            ),
        ),
    ),
    ("acting", OneHot(range(BATTLE_SEATS))),
    present=True,
)

RACIAL_STEP = Obj(
    ("step", OneHot(tuple(STEP_IDS.values()))),
    ("seat", Seat()),
    ("nebula", OneHot(range(NEBULAS), label="nebula positions 0..47 in `nebulas`")),
    ("picks_left", Scalar(2)),
    ("at", CELL),
    ("unit", OneHot(ADAPTED_UNIT_IDS)),
    present=True,
)

GLOBAL = Obj(
    OBSERVER,
    ("turn", Scalar(120)),
    ("phase", OneHot(PHASES)),
    ("turn_player", Seat()),
    ("first_player", Seat()),
    ("stacks", Seq(2, Obj(("size", Scalar(STACK)), ("top_face", FACE)))),
    (
        "hand",
        Obj(
            ("stack", OneHot((0, 1))),
            ("face_up", FACE),
            ("tile", TILE_ID),
            ("side_up", OneHot((0, 1))),
            present=True,
        ),
    ),
    ("set_aside", Counts(range(TILES), cap=1, label="tile ids 0..83")),
    ("galaxy", Seq(TILES, PLACED_TILE)),
    (
        "nebulas",
        Seq(
            NEBULAS,
            Obj(
                ("x", COORDINATE), ("y", COORDINATE), ("minerals", MINERALS), ("gained_this_turn", Scalar(2))
            ),
        ),
    ),
    ("bag", Counts(COLOR_NAMES, cap=30)),
    (
        "this_turn",
        Obj(
            ("tile_added", CELL),
            ("actions_left", Scalar(3)),
            ("actions_taken", Scalar(3)),
            ("teleport_used", Flag()),
            ("skill_unlocked", Flag()),
            ("racial_uses", Counts(RACIAL_USES, cap=1)),
            ("emissary_arrived", CELL),
        ),
    ),
    ("events", EVENTS_QUEUE),
    ("battle", BATTLE),
    ("ship_battle", Obj(("attacker", CELL), ("defender", CELL), present=True)),
    ("racial_step", RACIAL_STEP),
    # after an emissary clash: the clash's winner, or null after a tie, and the seats still to send an
    # emissary home, in battle order
    ("send_home", Obj(("winner", Seat()), ("seats", Seq(BATTLE_SEATS, Seat())), present=True)),
    # taking emissaries back, after the first pick: the tile it left (only later tiles are offered)
    ("take_back", Obj(("after", CELL), present=True)),
)

TOKENS = Obj(("count", Scalar(11)), ("plus", Maybe(Scalar(11))))

PLAYER = Obj(
    ("credits", Scalar(50)),
    ("minerals", MINERALS),
    (
        "supply",
        Obj(
            ("emissaries", Scalar(9)),
            ("research_stations", Scalar(9)),
            ("space_stations", Scalar(4)),
            ("corvettes", Scalar(3)),
            ("rogues", Scalar(2)),
        ),
    ),
    ("combat_tokens", TOKENS),
    ("declared_tokens", TOKENS),
    ("race", OneHot(RACE_NAMES)),
    (
        "racial_skills",
        Counts([n for race in SKILL_NAMES for n in race], cap=1, label="the 40 racial skills, by race"),
    ),
    ("universal_skills", Counts(UNIVERSAL_NAMES, cap=1)),
    ("special_tokens", Seq(SPECIAL_TOKENS, Obj(("slot", OneHot(range(3))), (SELF, CELL)))),
)

SPEC = TensorSpec(global_part=GLOBAL, seats_key="players", seat_block=PLAYER, prepare=_index_cells)
