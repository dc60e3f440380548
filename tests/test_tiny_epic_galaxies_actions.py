"""The action-id table of Tiny Epic Galaxies: the core's ACTION_BLOCKS (built from its own constants) is the
one table (describe_action's id-only kinds read it); the rules doc's tables (sections 8 and 13.6) and the
registered range must agree with it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from orrery.core_ext import load_game
from orrery.core_ext.tiny_epic_galaxies import engine

GAME = "tiny_epic_galaxies"
DOC = Path(__file__).resolve().parent.parent / "docs" / "rules" / "tiny_epic_galaxies.md"
VARIANTS = [(v, n) for v in engine.VARIANTS for n in ((1,) if "rogue" in v else (1, 2, 5))]


def _by_id(blocks) -> dict[int, str]:
    return {a: kind for start, end, kind in blocks for a in range(start, end)}


def test_action_blocks_ascend_without_overlap():
    blocks = engine.ACTION_BLOCKS
    assert blocks, "no blocks"
    for start, end, kind in blocks:
        assert isinstance(kind, str) and kind and 0 <= start < end
    for (_, end, _), (start, _, _) in zip(blocks, blocks[1:], strict=False):
        assert end <= start


def test_no_variant_stops_below_the_games_range():
    # The engine exports no VARIANT_ACTION_RANGE: every variant uses every block.
    assert not hasattr(engine, "VARIANT_ACTION_RANGE")


@pytest.mark.parametrize("variant,players", VARIANTS)
def test_num_distinct_actions_covers_the_last_block(variant, players):
    game = load_game(GAME, players=players, variant=variant)
    assert game.num_distinct_actions == engine.ACTION_BLOCKS[-1][1]


def _doc_table(heading: str) -> dict[int, str]:
    """id -> kind from the table under `heading` ("| ids | action |"): ids "a-b" or "a, b, c", the kinds
    are the backticked upper-case names that open the action cell, one per id group."""
    text = DOC.read_text()
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    out: dict[int, str] = {}
    for row in rows[2:]:  # past the header and the |---| line
        ids_cell, action_cell = [c.strip() for c in row.strip("|").split("|")][:2]
        lead = re.match(r"`[^`]+`(?:,\s*`[^`]+`)*", action_cell)  # the names; the rest is commentary
        names = [n.lower() for n in re.findall(r"`([A-Z_]+)", lead.group(0) if lead else "")]
        groups = [g.strip() for g in ids_cell.split(",")]
        assert len(groups) == len(names), f"{heading}: cannot pair ids and actions in {row!r}"
        for group, name in zip(groups, names, strict=True):
            lo, _, hi = group.partition("-")
            for a in range(int(lo), int(hi or lo) + 1):
                assert a not in out, f"id {a} listed twice in {heading}"
                out[a] = name
    return out


def test_rules_doc_tables_match_the_action_blocks():
    doc = _doc_table("## 8. Action encoding")
    btb = _doc_table("### 13.6 Action ids")
    assert not set(doc) & set(btb)
    assert {**doc, **btb} == _by_id(engine.ACTION_BLOCKS)


@pytest.mark.parametrize("variant,players", [("base", 2), ("base", 1), ("beyond_the_black", 3)])
def test_every_legal_id_lies_in_a_block_of_its_struct_kind(variant, players):
    # the struct's kind names the block ("upgrade" for upgrade_energy, "rogue_takes" for take_energy)
    game = load_game(GAME, players=players, variant=variant)
    kinds = _by_id(engine.ACTION_BLOCKS)
    rng = random.Random(3)
    state = game.new_initial_state(seed=11)
    alias = {"upgrade": "upgrade", "rogue_takes": "take"}
    for _ in range(600):
        if state.is_terminal():
            break
        for a in state.legal_actions():
            kind = state.action_to_struct(a)["kind"]
            assert a in kinds, a
            assert kinds[a] == kind or kinds[a].startswith(alias.get(kind, "\0")), (a, kind, kinds[a])
        state.apply(rng.choice(state.legal_actions()))


def test_registered_description_names_every_block():
    from orrery.core_ext import registered_games

    (info,) = [g for g in registered_games(include_testing=True) if g.name == GAME]
    numbers = {int(n) for n in re.findall(r"\d+", info.action_description)}
    missing = [(start, kind) for start, _, kind in engine.ACTION_BLOCKS if start not in numbers]
    assert not missing, f"the registered action_description does not mention {missing}"
