"""Trian's one action-id table: ACTION_BLOCKS (core_ext/trian/describe.pxi, built from the engine's own
constants) against every other place that states the ids: id_kind (_action_kinds.py), the registration's
action_description, the rules doc's tables (docs/rules/trian.md, sections 10 and 14.6) and
num_distinct_actions."""

from __future__ import annotations

import random
import re
from itertools import pairwise
from pathlib import Path

import pytest

import orrery.core_ext  # noqa: F401 - registers the games
from orrery.core_ext import _action_kinds
from orrery.core_ext._registry import game_info
from orrery.core_ext.trian import engine

RULES_DOC = Path(__file__).resolve().parents[1] / "docs" / "rules" / "trian.md"
ROW = re.compile(r"^\| (\d+)(?:-(\d+))? \| ([^|]+?) \|")


def doc_blocks() -> list[tuple[int, int, str]]:
    """(first id, end id, kind) of every row of the action tables (header "| ids | kind | encoding |")."""
    blocks = []
    in_table = False
    for line in RULES_DOC.read_text().splitlines():
        if line.startswith("| ids | kind | encoding |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table or line.startswith("|---"):
            continue
        match = ROW.match(line)
        assert match, f"an action table row without ids 'a' or 'a-b': {line}"
        first, last, kind = match.groups()
        blocks.append((int(first), int(last or first) + 1, kind))
    return blocks


def test_action_blocks_ascend_without_overlap():
    blocks = engine.ACTION_BLOCKS
    assert all(first < end for first, end, _ in blocks)
    assert all(a[1] <= b[0] for a, b in pairwise(blocks)), "ascending and disjoint"
    assert len({kind for _, _, kind in blocks}) == len(blocks), "one block per kind"


def test_the_smaller_variants_end_their_ids_where_the_engine_says():
    assert set(engine.VARIANT_ACTION_RANGE) == {"beginner", "ships"}
    for variant, end in engine.VARIANT_ACTION_RANGE.items():
        assert engine.make_game(2, variant).num_distinct_actions == end


def test_the_rules_doc_tables_list_every_block_in_order():
    assert doc_blocks() == list(engine.ACTION_BLOCKS)


@pytest.mark.parametrize("variant", ["beginner", "ships", "full"])
def test_num_distinct_actions_ends_a_block_and_the_full_game_covers_the_last(variant):
    game = engine.make_game(2, variant)
    ends = [end for _, end, _ in engine.ACTION_BLOCKS]
    assert game.num_distinct_actions in ends
    if variant == "full":
        assert game.num_distinct_actions == ends[-1]


def test_the_action_description_names_the_first_id_of_every_block():
    text = game_info("trian").action_description
    named = {int(n) for n in re.findall(r"\d+", text)}
    racial = [b for b in engine.ACTION_BLOCKS if b[2].startswith("racial action")]
    for first, _, kind in engine.ACTION_BLOCKS:
        if (first, _, kind) in racial[1:]:
            continue  # named by the formula: first racial id + race * block size
        assert first in named, f"{kind} ({first}) is not in action_description"
    size = racial[0][1] - racial[0][0]
    assert f"{racial[0][0]} + race*{size} + n" in text


def test_every_block_kind_is_what_action_to_struct_says():
    # the kinds of the table are the kinds of the action structs (legal actions of seeded games)
    kinds = {kind for _, _, kind in engine.ACTION_BLOCKS}
    seen = set()
    for variant in ("beginner", "ships"):
        game = engine.make_game(2, variant)
        rng = random.Random(7)
        state = game.new_initial_state(seed=7)
        for _ in range(400):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for a in legal:
                kind = state.action_to_struct(a)["kind"]
                assert kind in kinds, kind
                seen.add(kind)
                assert _action_kinds.id_kind("trian", a).split(" #")[0] == kind
            state.apply(rng.choice(legal))
    assert {"end_phase1", "draw", "place", "pass"} <= seen
