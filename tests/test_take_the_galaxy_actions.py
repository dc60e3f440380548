"""Take The Galaxy's action table: the core's ACTION_BLOCKS (built from its own id constants) against the
registry's description text, the rules doc's table, the id range,
and the struct the core gives every legal id."""

import random
import re
from pathlib import Path

from orrery.core_ext._registry import game_info, load_game
from orrery.core_ext.take_the_galaxy.engine import ACTION_BLOCKS

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules" / "take_the_galaxy.md"
# The largest value of each variable in the doc's id formulas (24 card types, 5 explored positions, 8
# ships, 4 systems, 2 owners, 4 slots, 4 bounty resources, 9 build targets).
LARGEST = {
    "type": 23,
    "position": 4,
    "ship": 7,
    "system": 3,
    "owner": 1,
    "slot": 3,
    "resource": 3,
    "target": 8,
}


def _doc_blocks():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 8. Action encoding") :]
    section = section[: section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # the header row left out
    blocks = []
    for row in rows:
        ids, kinds = (cell.strip() for cell in row.strip("|").split("|")[:2])
        if "+" in ids:
            assert re.fullmatch(r"[\d\sa-z+*()]+", ids), ids
            names = set(re.findall(r"[a-z]+", ids))
            assert names <= set(LARGEST), ids
            first = eval(ids, {"__builtins__": {}}, dict.fromkeys(names, 0))  # noqa: S307 - checked above
            last = eval(ids, {"__builtins__": {}}, {k: LARGEST[k] for k in names})  # noqa: S307
        else:
            numbers = [int(x) for x in ids.split(",")]
            first, last = min(numbers), max(numbers)
        blocks.append((first, last + 1, " or ".join(re.findall(r"`([a-z_]+)`", kinds))))
    return tuple(blocks)


def test_blocks_are_ascending_and_dense():
    assert ACTION_BLOCKS[0][0] == 0
    for (_, end, _), (start, _, _) in zip(ACTION_BLOCKS, ACTION_BLOCKS[1:], strict=False):
        assert end == start, "ids are dense: every block ends where the next begins"
    assert all(start < end for start, end, _ in ACTION_BLOCKS)


def test_rules_doc_table_matches_the_blocks():
    assert _doc_blocks() == ACTION_BLOCKS


def test_registry_description_names_every_block():
    text = game_info("take_the_galaxy").action_description
    firsts = [int(x) for x in re.findall(r"(?:^|; )(\d+)", text)]
    assert firsts == [start for start, _, _ in ACTION_BLOCKS]


def test_id_range_covers_the_last_block():
    for variant, players in (("standard", 2), ("random", 1), ("team", 4)):
        g = load_game("take_the_galaxy", players=players, variant=variant)
        assert g.num_distinct_actions == ACTION_BLOCKS[-1][1]


def _block_kinds(action):
    for start, end, kind in ACTION_BLOCKS:
        if start <= action < end:
            return kind.split(" or ")
    raise AssertionError(f"id {action} is in no block")


def test_every_legal_struct_has_its_blocks_kind():
    seen = set()
    for variant, players in (("standard", 2), ("team", 4), ("random", 3)):
        g = load_game("take_the_galaxy", players=players, variant=variant)
        for seed in range(3):
            rng = random.Random(seed)
            state = g.new_initial_state(seed=seed)
            while not state.is_terminal():
                actions = state.legal_actions()
                for a in actions:
                    struct = state.action_to_struct(a)
                    assert struct["id"] == a
                    assert struct["kind"] in _block_kinds(a), (a, struct)
                    seen.add(struct["kind"])
                state.apply(rng.choice(actions))
    assert {"end_turn", "choose_frontier", "discard", "build", "claim", "use_colony"} <= seen
