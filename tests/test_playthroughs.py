"""Golden playthroughs (tests/playthroughs/): every registered game, variant and player count, played
from a fixed seed by a fixed random policy, must reproduce its file exactly. A rules change shows up as
a readable diff; when the change is intended, regenerate the files and commit them with the change."""

from __future__ import annotations

import difflib

import pytest

from tests.playthroughs import generate

SPECS = generate.specs()
MAX_DIFF_LINES = 200


def _diff(old: str, new: str, name: str) -> str:
    lines = list(
        difflib.unified_diff(
            old.splitlines(), new.splitlines(), f"{name} (on disk)", f"{name} (regenerated)", lineterm=""
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = lines[:MAX_DIFF_LINES] + [f"... ({len(lines) - MAX_DIFF_LINES} more diff lines)"]
    return "\n".join(lines)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_playthrough_matches_its_golden_file(spec: generate.Spec) -> None:
    command = f"{generate.REGENERATE} {spec.name}"
    if not spec.path.exists():
        pytest.fail(
            f"no golden playthrough for {spec.name}: generate it with `{command}` and commit it",
            pytrace=False,
        )
    old = spec.path.read_text()
    new = generate.render_playthrough(spec)
    if old != new:
        pytest.fail(
            f"{spec.path.name} differs from a fresh playthrough (rules, action labels or renders changed).\n"
            f"If the change is intended, regenerate with `{command}` and commit the file.\n\n"
            + _diff(old, new, spec.path.name),
            pytrace=False,
        )


def test_no_stale_playthroughs() -> None:
    stale = [p.name for p in generate.stale_files(SPECS)]
    assert not stale, (
        f"playthroughs for no registered game, variant and player count: {', '.join(stale)}; "
        f"`{generate.REGENERATE}` deletes them"
    )


def test_every_game_variant_and_player_count_has_a_playthrough() -> None:
    from orrery.core_ext import registered_games

    wanted = {
        (g.name, v, n)
        for g in registered_games(include_testing=True)
        for v in g.variants
        for n in g.players_for(v)
    }
    assert {(s.game, s.variant, s.players) for s in SPECS} == wanted
    assert len({s.name for s in SPECS}) == len(SPECS)  # no two specs share a file


def test_a_playthrough_is_the_same_when_generated_twice() -> None:
    spec = SPECS[0]
    assert generate.render_playthrough(spec) == generate.render_playthrough(spec)
