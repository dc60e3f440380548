"""Tiny Epic Galaxies: a move as each viewer reads it (issue 26, docs/rules/tiny_epic_galaxies.md, "What
other seats and spectators read of a move"). The mover reads its full label; another seat and a
spectator read a label built from their own view, which never names a secret mission, a face-down
exploration card or a card still in a deck."""

from __future__ import annotations

import json
import random
import re

import pytest

from orrery.core_ext import load_game
from orrery.core_ext.game import PUBLIC_VIEWER
from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

GAME = "tiny_epic_galaxies"
A_KEEP = 20
A_XROW, A_XDRAW, A_XTAKE, A_XLEAVE = 202, 205, 206, 207
BTB = CATALOGUE["beyond_the_black"]
MISSIONS = [m["name"] for m in CATALOGUE["missions"] + BTB["missions"]]
NAMES = sorted(
    set(MISSIONS)
    | {p["name"] for p in CATALOGUE["planets"] + BTB["planets"]}
    | {c["name"] for c in BTB["exploration_cards"]}
    | {p["name"] for p in BTB["pilots"]}
)
CONFIGS = [
    (variant, n)
    for variant in ("base", "beyond_the_black", *(f"beyond_the_black_rogue_{i}" for i in range(1, 6)))
    for n in ((1,) if variant.startswith("beyond_the_black_rogue") else (1, 2, 3, 4, 5))
]


def viewers_of(state):
    return [v for v in (*range(state.game.num_players), PUBLIC_VIEWER) if v != state.current_player]


def view_of(state, viewer):
    return state.public_observation() if viewer == PUBLIC_VIEWER else state.observation(viewer)


def unseen_names(view) -> list[str]:
    """Every catalogue name the view's JSON does not show: a label for this viewer must name none."""
    text = view.to_json()
    return [name for name in NAMES if json.dumps(name) not in text]


def named(label: str, hidden: list[str]) -> list[str]:
    """The hidden names a label contains, once every name the viewer sees is taken out of it (one name
    can be part of another: "Morrow" in "Dax Morrow")."""
    for name in sorted(set(NAMES) - set(hidden), key=len, reverse=True):
        label = label.replace(name, "|")
    return [n for n in hidden if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", label)]


def dealt(state, seat):
    return state.to_dict()["state"]["galaxies"][seat]["dealt"]


# ---------------------------------------------------------------- concrete cases


@pytest.mark.parametrize("variant", ["base", "beyond_the_black"])
def test_keeping_a_mission_reads_generic_to_other_seats_and_spectators(variant):
    state = load_game(GAME, players=2, variant=variant).new_initial_state(seed=3)
    state.apply(A_KEEP)  # seat 0 keeps its first mission
    assert state.current_player == 1
    first, second = dealt(state, 1)
    # the report: "seat 1 (AI) plays keep mission Orbiter" while the board shows "mission ?"
    assert state.move_label(A_KEEP, 1) == state.action_label(A_KEEP) == f"keep mission {first}"
    assert state.move_label(A_KEEP + 1, 1) == f"keep mission {second}"
    for action in (A_KEEP, A_KEEP + 1):
        assert state.move_label(action, 0) == "keep a mission"
        assert state.move_label(action, PUBLIC_VIEWER) == "keep a mission"
    assert state.observation(0).to_dict()["state"]["galaxies"][1]["dealt"] == ["?", "?"]
    public = state.public_observation().render()
    assert first not in public and second not in public


def test_solo_spectator_reads_a_generic_mission_choice():
    state = load_game(GAME, players=1, variant="beyond_the_black_rogue_2").new_initial_state(seed=5)
    assert state.current_player == 0
    first, _ = dealt(state, 0)
    assert state.move_label(A_KEEP, 0) == f"keep mission {first}"
    assert state.move_label(A_KEEP, PUBLIC_VIEWER) == "keep a mission"


def test_public_moves_read_the_same_to_everyone():
    # Round 1 of a 3-player game: dice, the row and ships are public, so every viewer reads the mover's
    # own label.
    state = load_game(GAME, players=3).new_initial_state(seed=7)
    while state.to_dict()["state"]["round"] == 0:
        state.apply(A_KEEP)
    for action in state.legal_actions():
        label = state.action_label(action)
        assert [state.move_label(action, v) for v in (1, 2, PUBLIC_VIEWER)] == [label] * 3


def find(variant, players, want, seeds=range(40), max_steps=3000):
    """The first state along seeded random games where `want(state)` holds."""
    game = load_game(GAME, players=players, variant=variant)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(max_steps):
            if state.is_terminal():
                break
            if want(state):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such state")


def test_a_revealed_exploration_card_is_public():
    # Exploration: the revealed card is face up for all to see before it is taken or left face up.
    state = find("beyond_the_black", 3, lambda s: A_XTAKE in s.legal_actions())
    label = state.action_label(A_XTAKE)
    assert label.startswith("take ") and label != "take the revealed card"
    for viewer in viewers_of(state):
        assert state.move_label(A_XTAKE, viewer) == label
        if A_XLEAVE in state.legal_actions():
            assert state.move_label(A_XLEAVE, viewer) == state.action_label(A_XLEAVE)


def test_the_public_view_hides_every_seat():
    state = find("beyond_the_black", 4, lambda s: s.to_dict()["state"]["round"] >= 6)
    public = state.public_observation()
    assert public.observer == PUBLIC_VIEWER
    d = public.to_dict()["state"]
    assert "chance" not in d  # the (zeroed) streams belong to a full state's JSON only
    for g in d["galaxies"]:
        assert g["dealt"] == ["?", "?"] and g["mission"] == "?"
    full = state.to_dict()["state"]
    for seat in range(4):
        # whatever a seat's own view hides of the others, the spectator's hides too
        assert set(unseen_names(state.observation(seat))) <= set(unseen_names(public))
        for m in full["galaxies"][seat]["dealt"]:
            assert m not in public.render()
    assert public.legal_actions() == []
    assert public.render()


# ---------------------------------------------------------------- the sweep


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=[f"{v}-{n}p" for v, n in CONFIGS])
def test_no_label_names_what_its_viewer_cannot_see(variant, players):
    game = load_game(GAME, players=players, variant=variant)
    checked = generic = 0
    for seed in (11,):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for action in legal:
                assert state.move_label(action, state.current_player) == state.action_label(action)
            for viewer in viewers_of(state):
                hidden = unseen_names(view_of(state, viewer))
                for action in legal:
                    label = state.move_label(action, viewer)
                    assert label and not label.startswith("action "), (action, label)
                    assert not named(label, hidden), (
                        f"seed {seed}: viewer {viewer} reads {label!r} for seat {state.current_player}'s "
                        f"action {action}, naming what it cannot see"
                    )
                    checked += 1
                    generic += label != state.action_label(action)
            state.apply(rng.choice(legal))
    assert checked > 0
    assert generic > 0  # the mission choices at least read generic to another seat or a spectator
