"""What kind of action each id names, from the id alone: the blocks of each game's action encoding (the
rules docs' action tables: docs/rules/<game>.md). describe_action uses them to label an id that is not
legal in the state at hand, where the game's action-struct code (which reads the state) cannot run.
"""

from __future__ import annotations

TRIAN_RACES = ("Aureli", "Korrax", "Vanth", "Qellia", "Maephos", "Orvin", "Sylphex", "Xemh")

# Per game: (first id, end id, kind) blocks, ascending; ids in no block name no action.
BLOCKS: dict[str, tuple[tuple[int, int, str], ...]] = {
    "kuhn": ((0, 1, "check or fold"), (1, 2, "bet or call")),
    "trian": (
        (0, 1, "end_phase1"),
        (1, 5, "buy_mineral"),
        (5, 6, "buy_token"),
        (6, 46, "exchange"),
        (46, 240, "gain_mineral"),
        (240, 242, "draw"),
        (242, 243, "discard"),
        (243, 244, "pass"),
        (244, 245, "events_first"),
        (245, 246, "research"),
        (246, 247, "expedition"),
        (248, 332, "construct"),
        (332, 584, "teleport"),
        (584, 585, "take_back_done"),
        (600, 616, "declare"),
        (616, 617, "reroll"),
        (617, 618, "stand"),
        (618, 620, "ship_expedition"),
        (620, 704, "ship_target"),
        (704, 704 + 84, "send_home"),
        (788, 788 + 84, "take_back"),
        (1024, 1024 + 176 * 6, "place"),
        (10000, 10000 + 84 * 4, "rogue_mine"),
        (20000, 20000 + 84 * 84, "ship_move"),
        (30000, 30000 + 84 * 84, "ship_teleport"),
        (40000, 40010, "unlock"),
        (40010, 40011, "mineral_set"),
        *(
            (50000 + r * 20000, 70000 + r * 20000, f"racial action ({race})")
            for r, race in enumerate(TRIAN_RACES)
        ),
    ),
    "take_the_galaxy": (
        (0, 1, "end_turn"),
        (1, 3, "choose_frontier"),
        (3, 27, "discard"),
        (27, 51, "retrieve"),
        (51, 53, "draw"),
        (53, 58, "study_anomaly or solve_event"),
        (58, 63, "opportunity"),
        (63, 71, "sell_ship"),
        (71, 75, "relinquish"),
        (75, 91, "use_ship"),
        (91, 123, "use_colony"),
        (123, 155, "take_bounty"),
        (155, 179, "build_ship"),
        (179, 563, "upgrade"),
        (563, 1427, "build or claim"),
    ),
    "tiny_epic_galaxies": (
        (0, 6, "activate"),
        (6, 7, "end_turn"),
        (7, 8, "reroll"),
        (8, 9, "convert"),
        (9, 10, "done"),
        (10, 16, "face"),
        (16, 17, "follow"),
        (17, 18, "use"),
        (18, 19, "force_reroll"),
        (20, 22, "keep_mission"),
        (24, 25, "upgrade_energy"),
        (25, 26, "upgrade_culture"),
        (26, 27, "take_energy"),
        (27, 28, "take_culture"),
        (30, 38, "amount"),
        (40, 45, "player"),
        (48, 54, "row"),
        (56, 60, "ship"),
        (60, 80, "enemy_ship"),
        (80, 120, "colony"),
        (128, 180, "move"),
        (180, 184, "explore"),
        (184, 190, "hire"),
        (190, 194, "hangar"),
        (194, 198, "danger_pay"),
        (198, 202, "danger_move"),
        (202, 205, "take_exploration"),
        (205, 206, "reveal"),
        (206, 207, "take_revealed"),
        (207, 208, "leave_revealed"),
        (208, 220, "colony"),
    ),
}


# Variants whose ids stop below the game's GameOps.num_distinct_actions (the range of all its variants):
# Trian's beginner game has no ship ids (20000 and above, 618 and above) and its ships variant no skill or
# racial ids (40000 and above). Game.num_distinct_actions reads this; tests/conformance.py checks it.
VARIANT_ACTION_RANGE: dict[tuple[str, str], int] = {
    ("trian", "beginner"): 1024 + 176 * 6,
    ("trian", "ships"): 30000 + 84 * 84,
}


def id_kind(game: str, action: int) -> str:
    """The kind of action `action` names in `game` ("" for a game without a table), from the id alone;
    an id in no block of the encoding is "unused id N"."""
    blocks = BLOCKS.get(game)
    if blocks is None:
        return ""
    for start, end, kind in blocks:
        if start <= action < end:
            offset = action - start
            return kind if end - start == 1 else f"{kind} #{offset}"
    return f"unused id {action}"
