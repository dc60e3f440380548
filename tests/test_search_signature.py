"""The pinned `orrery bench signature`: fixed positions, seeds and iterations give these moves and counts.

If this test fails, search behaviour changed. That is fine only in a commit that means to change it
(a new kernel feature, a fixed bug): then bump the affected preset's version if its play changed, rerun
`orrery bench signature --json`, and update the pin below in the same commit, saying why.
The Trian positions are reached by random moves and searched through the Trian core, so a change to
that core's rules or action numbering moves the pin as well: say so in that commit.
"""

import json

import pytest

from orrery.core_ext import registered_games
from orrery.search._bench import SIGNATURE_ITERATIONS, bench_signature
from orrery.service.cli import main

# (position, config, best action, visits of the best action, tree size)
PINNED = [
    ("kuhn/2p/deal0/", "ismcts@1", 1, 1062, 9),
    ("kuhn/2p/deal0/", "ismcts@2", 1, 1062, 9),
    ("kuhn/2p/deal0/", "ismcts@3", 1, 1062, 9),
    ("kuhn/2p/deal0/", "ismcts-score@1", 0, 1688, 9),
    ("kuhn/2p/deal0/", "pimc@1", 1, 1188, 144),
    ("kuhn/2p/deal0/", "pimc@2", 1, 1188, 144),
    ("kuhn/2p/deal1/", "ismcts@1", 1, 1403, 9),
    ("kuhn/2p/deal1/", "ismcts@2", 1, 1403, 9),
    ("kuhn/2p/deal1/", "ismcts@3", 1, 1403, 9),
    ("kuhn/2p/deal1/", "ismcts-score@1", 1, 1245, 9),
    ("kuhn/2p/deal1/", "pimc@1", 1, 1211, 144),
    ("kuhn/2p/deal1/", "pimc@2", 1, 1211, 144),
    ("kuhn/2p/deal2/", "ismcts@1", 1, 1070, 9),
    ("kuhn/2p/deal2/", "ismcts@2", 1, 1070, 9),
    ("kuhn/2p/deal2/", "ismcts@3", 1, 1070, 9),
    ("kuhn/2p/deal2/", "ismcts-score@1", 1, 1009, 9),
    ("kuhn/2p/deal2/", "pimc@1", 1, 1319, 140),
    ("kuhn/2p/deal2/", "pimc@2", 1, 1319, 140),
    ("kuhn/2p/deal0/1", "ismcts@1", 1, 1987, 3),
    ("kuhn/2p/deal0/1", "ismcts@2", 1, 1987, 3),
    ("kuhn/2p/deal0/1", "ismcts@3", 1, 1987, 3),
    ("kuhn/2p/deal0/1", "ismcts-score@1", 1, 1958, 3),
    ("kuhn/2p/deal0/1", "pimc@1", 1, 1544, 48),
    ("kuhn/2p/deal0/1", "pimc@2", 1, 1544, 48),
    ("kuhn/2p/deal1/1", "ismcts@1", 0, 1000, 3),
    ("kuhn/2p/deal1/1", "ismcts@2", 0, 1000, 3),
    ("kuhn/2p/deal1/1", "ismcts@3", 0, 1000, 3),
    ("kuhn/2p/deal1/1", "ismcts-score@1", 0, 1776, 3),
    ("kuhn/2p/deal1/1", "pimc@1", 0, 1001, 48),
    ("kuhn/2p/deal1/1", "pimc@2", 0, 1001, 48),
    ("kuhn/2p/deal2/1", "ismcts@1", 1, 1987, 3),
    ("kuhn/2p/deal2/1", "ismcts@2", 1, 1987, 3),
    ("kuhn/2p/deal2/1", "ismcts@3", 1, 1987, 3),
    ("kuhn/2p/deal2/1", "ismcts-score@1", 1, 1958, 3),
    ("kuhn/2p/deal2/1", "pimc@1", 1, 1544, 48),
    ("kuhn/2p/deal2/1", "pimc@2", 1, 1544, 48),
    ("kuhn/2p/deal5/0.1", "ismcts@1", 1, 1987, 3),
    ("kuhn/2p/deal5/0.1", "ismcts@2", 1, 1987, 3),
    ("kuhn/2p/deal5/0.1", "ismcts@3", 1, 1987, 3),
    ("kuhn/2p/deal5/0.1", "ismcts-score@1", 1, 1958, 3),
    ("kuhn/2p/deal5/0.1", "pimc@1", 1, 1544, 48),
    ("kuhn/2p/deal5/0.1", "pimc@2", 1, 1544, 48),
    ("kuhn/3p/deal0/0", "ismcts@1", 1, 1943, 17),
    ("kuhn/3p/deal0/0", "ismcts@2", 1, 1943, 17),
    ("kuhn/3p/deal0/0", "ismcts@3", 1, 1943, 17),
    ("kuhn/3p/deal0/0", "ismcts-score@1", 1, 1617, 17),
    ("kuhn/3p/deal0/0", "pimc@1", 0, 1088, 269),
    ("kuhn/3p/deal0/0", "pimc@2", 0, 1088, 269),
    ("kuhn/3p/deal1/1", "ismcts@1", 1, 1990, 7),
    ("kuhn/3p/deal1/1", "ismcts@2", 1, 1990, 7),
    ("kuhn/3p/deal1/1", "ismcts@3", 1, 1990, 7),
    ("kuhn/3p/deal1/1", "ismcts-score@1", 1, 1985, 7),
    ("kuhn/3p/deal1/1", "pimc@1", 1, 1922, 112),
    ("kuhn/3p/deal1/1", "pimc@2", 1, 1922, 112),
    ("kuhn/4p/deal3/0.1", "ismcts@1", 0, 1977, 15),
    ("kuhn/4p/deal3/0.1", "ismcts@2", 0, 1977, 15),
    ("kuhn/4p/deal3/0.1", "ismcts@3", 0, 1977, 15),
    ("kuhn/4p/deal3/0.1", "ismcts-score@1", 0, 1775, 15),
    ("kuhn/4p/deal3/0.1", "pimc@1", 0, 1797, 236),
    ("kuhn/4p/deal3/0.1", "pimc@2", 0, 1797, 236),
    ("trian/2p/deal1/", "ismcts@1", 3, 646, 2001),
    ("trian/2p/deal1/", "ismcts@2", 0, 1285, 2001),
    ("trian/2p/deal1/", "ismcts@3", 0, 1006, 2001),
    ("trian/2p/deal1/", "ismcts-score@1", 3, 429, 2001),
    ("trian/2p/deal1/", "pimc@1", 3, 396, 2016),
    ("trian/2p/deal1/", "pimc@2", 0, 469, 2016),
    ("trian/2p/deal2/+40random", "ismcts@1", 240, 1366, 2001),
    ("trian/2p/deal2/+40random", "ismcts@2", 241, 1086, 2001),
    ("trian/2p/deal2/+40random", "ismcts@3", 241, 1216, 2001),
    ("trian/2p/deal2/+40random", "ismcts-score@1", 240, 1139, 2001),
    ("trian/2p/deal2/+40random", "pimc@1", 240, 1091, 2016),
    ("trian/2p/deal2/+40random", "pimc@2", 241, 1064, 2016),
    ("trian/3p/deal3/+60random", "ismcts@1", 245, 1184, 2001),
    ("trian/3p/deal3/+60random", "ismcts@2", 245, 1498, 2001),
    ("trian/3p/deal3/+60random", "ismcts@3", 245, 1504, 2001),
    ("trian/3p/deal3/+60random", "ismcts-score@1", 245, 1132, 2001),
    ("trian/3p/deal3/+60random", "pimc@1", 245, 1044, 2016),
    ("trian/3p/deal3/+60random", "pimc@2", 245, 1209, 2016),
    # each big game's own default preset (added with the per-game defaults of 2026-11-27, issue 25)
    ("trian/2p/deal1/+20random", "ismcts-trian@1", 0, 1950, 2001),
    # ismcts-ttg@2 (2026-11-27, tree reuse across a turn's decisions) searches once exactly as @1 did
    ("take_the_galaxy/2p/deal1/+30random", "ismcts-ttg@2", 1143, 1840, 2001),
    # ismcts-teg@3 (2026-11-27 evening, tree reuse) searches once exactly as @2 did
    ("tiny_epic_galaxies/2p/deal1/+30random", "ismcts-teg@3", 7, 1590, 2001),
]
PINNED_TOTAL_ITERATIONS = 162000


@pytest.mark.skipif(
    {"kuhn", "trian", "take_the_galaxy", "tiny_epic_galaxies"} - {g.name for g in registered_games()},
    reason="the pin covers every game",
)
def test_bench_signature_is_pinned():
    result = bench_signature()
    got = [
        (s["position"], s["config"], s["best_action"], s["best_visits"], s["tree_size"])
        for s in result["searches"]
    ]
    assert got == PINNED
    assert result["total_iterations"] == PINNED_TOTAL_ITERATIONS
    assert all(s["iterations"] == SIGNATURE_ITERATIONS for s in result["searches"])


@pytest.mark.skipif(
    {"kuhn", "trian", "take_the_galaxy", "tiny_epic_galaxies"} - {g.name for g in registered_games()},
    reason="the pin covers every game",
)
def test_bench_signature_command_prints_json(capsys):
    assert main(["bench", "signature", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["total_iterations"] == PINNED_TOTAL_ITERATIONS


def test_bench_preset_rates_compares_two_presets_on_the_same_positions(capsys):
    assert main(
        ["bench", "preset-rates", "--game", "trian", "--old", "ismcts@3", "--new", "ismcts-trian@1",
         "--positions", "2", "--rounds", "1", "--ms", "25", "--json"]
    ) == 0  # fmt: skip
    printed = json.loads(capsys.readouterr().out)
    assert printed["positions"] == 2 and printed["old"] == "ismcts@3" and printed["new"] == "ismcts-trian@1"
    assert printed["old_iterations_per_s"] > 0 and printed["new_iterations_per_s"] > 0
    assert printed["ratio"] == round(
        printed["new_iterations_per_s"] / printed["old_iterations_per_s"], 3
    ) or (abs(printed["ratio"] - printed["new_iterations_per_s"] / printed["old_iterations_per_s"]) < 0.01)
