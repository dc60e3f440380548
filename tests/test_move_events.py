"""What a move set off, per viewer (core_ext/_move_events.py): dice, revealed cards and tiles, the solo
Rogue's turn, closed areas and payments, and the per-seat changes a turn summary adds up (issue 27)."""

from __future__ import annotations

import random

import pytest

from orrery.core_ext import load_game
from orrery.core_ext._move_events import changes_text, move_events
from orrery.core_ext.game import PUBLIC_VIEWER


def played(name, variant, players, seed, steps):
    """(mover, label, before state, after state) for `steps` random moves from `seed`."""
    game = load_game(name, players=players, variant=variant)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if state.is_terminal():
            break
        before = state.clone()
        action = rng.choice(state.legal_actions())
        out.append((state.current_player, state.action_label(action), before, action))
        state.apply(action)
    return out


def seen(before, action, viewer):
    after = before.clone()
    mover = before.current_player
    after.apply(action)
    view = (
        (lambda s: s.public_observation()) if viewer == PUBLIC_VIEWER else (lambda s: s.observation(viewer))
    )
    return move_events(view(before), view(after), mover=mover)


def all_events(name, variant, players, seed, steps, viewer):
    return [
        (label, seen(before, action, viewer))
        for _, label, before, action in played(name, variant, players, seed, steps)
    ]


def test_teg_solo_names_the_dice_and_the_rogues_turn():
    events = all_events("tiny_epic_galaxies", "base", 1, 3, 60, 0)
    texts = [t for _, e in events for t in e.events]
    assert "seat 0's dice now show: 1 energy, 1 diplomacy" in texts  # a reroll's result
    assert "seat 0 rolls: 2 move, 1 economy, 1 colony" in texts  # the next turn's dice, after the Rogue's
    assert "planet revealed: Piedes" in texts
    assert "the Rogue colonizes Vici-KS156" in texts
    rogue_turn = next(e for label, e in events if label == "end the turn" and "rogue" in e.changes)
    assert changes_text(rogue_turn.changes["rogue"]) == "+3 energy, +1 culture"


def test_ttg_names_each_explored_card_and_what_the_seat_gained():
    events = all_events("take_the_galaxy", "standard", 2, 5, 40, PUBLIC_VIEWER)
    texts = [t for _, e in events for t in e.events]
    assert "explored: Space Pirates" in texts and "seat 1 claims Arcturus Gate" in texts
    assert "seat 0 must pay: space pirates" in texts
    solve = next(e for label, e in events if label.startswith("solve Intergalactic Migration"))
    assert solve.changes == {"0": {"renown cards": 1}}


def test_trian_says_what_closed_and_who_was_paid():
    events = all_events("trian", "ships", 2, 5, 300, 1)
    texts = [t for _, e in events for t in e.events]
    closed = texts.index("nebula at (-3, -1) closed")  # when the tile that closes it is placed
    paid = next(e for _, e in events if "seat 1 is paid 2 credits for the nebula at (-3, -1)" in e.events)
    assert paid.events == (
        "nebula at (-3, -1) holds 2 minerals",
        "seat 1 is paid 2 credits for the nebula at (-3, -1)",
    )
    assert paid.changes == {"1": {"credits": 2}} and closed < texts.index(paid.events[1])
    assert "stack 0: a tile is drawn; 41 left, the next shows nebula-core" in texts
    assert "tile extractor-core placed at (0, 0)" in texts


@pytest.mark.parametrize(
    ("name", "variant", "players"),
    [("tiny_epic_galaxies", "base", 2), ("take_the_galaxy", "standard", 3), ("trian", "ships", 2)],
)
def test_events_follow_the_viewer(name, variant, players):
    """A viewer's events come from its own views only: a position it cannot tell apart from the real one
    (a determinization of its view) gives the same events for the same move whenever its view after the
    move is the same too, and another seat's hidden mission or hand never shows up before it is public."""
    for mover, _, before, action in played(name, variant, players, 11, 120):
        for viewer in range(players):
            if viewer == mover:
                continue
            twin = before.observation(viewer).determinize(7)
            if action not in twin.legal_actions():
                continue
            real_after, twin_after = before.clone(), twin.clone()
            real_after.apply(action)
            twin_after.apply(action)
            if real_after.observation(viewer) != twin_after.observation(viewer):
                continue  # chance went another way in the twin: different events are right
            assert seen(before, action, viewer) == seen(twin, action, viewer)


def test_teg_missions_stay_secret_until_shown():
    named = []
    for _, _, before, action in played("tiny_epic_galaxies", "base", 2, 4, 400):
        after = before.clone()
        after.apply(action)
        for viewer in (PUBLIC_VIEWER, 0, 1):
            for text in seen(before, action, viewer).events:
                if "secret mission" in text:
                    named.append(text)
                    assert text.startswith(f"seat {viewer}'s") or after.is_terminal(), text
    assert named  # each seat's own kept mission, said to that seat


def test_full_states_are_refused():
    game = load_game("kuhn", players=2)
    state = game.new_initial_state(1)
    with pytest.raises(TypeError):
        move_events(state, state, mover=0)


def test_beyond_the_black_names_revealed_pilots_and_hires():
    events = all_events("tiny_epic_galaxies", "beyond_the_black", 2, 3, 40, 1)
    hire = next(e for label, e in events if label == "the advanced ship replaces ship 0 (galaxy)")
    assert hire.events == ("pilot revealed: Rho Sela", "seat 0 hires Brannic for the Nexus")


def test_the_beyond_the_black_rogue_takes_its_turn_in_the_feed():
    """Solo against a Beyond the Black Rogue (its galaxy is named "rogue" while it plays)."""
    events = all_events("tiny_epic_galaxies", "beyond_the_black_rogue_1", 1, 3, 40, 0)
    texts = [t for _, e in events for t in e.events]
    assert "the Rogue's ship goes to Vesper" in texts and "the Rogue colonizes Vici-KS156" in texts
    assert any("rogue" in e.changes for _, e in events)
