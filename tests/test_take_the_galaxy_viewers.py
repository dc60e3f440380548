"""Take The Galaxy seen by other seats and spectators (issue 26): move labels built from the viewer's own
view, the spectator's public view, and the team variant's seat teams (docs/rules/take_the_galaxy.md,
"What other seats and spectators read of a move")."""

from __future__ import annotations

import random
import re

import pytest
from ttg_positions import find, player, position, system

from orrery.core_ext import load_game
from orrery.core_ext.game import PUBLIC_VIEWER
from orrery.core_ext.take_the_galaxy.engine import CARD_NAMES, SPACE_NAMES
from orrery.search.tournament import config_from_dict, pairings, read_results, run_tournament

CONFIGS = [("standard", n) for n in (1, 2, 3, 4)] + [("random", n) for n in (1, 2, 3, 4)] + [("team", 4)]
# The moves that put their card face up on the table: the card is public from that moment on.
FACE_UP = ("choose_frontier", "build_ship", "build", "claim", "upgrade")


def _viewers(state):
    return [s for s in range(state.game.num_players) if s != state.current_player] + [PUBLIC_VIEWER]


# ---------------------------------------------------------------- concrete cases


def test_a_payment_discard_is_a_card_for_everyone_but_the_mover():
    haven = system("Haven", [["Frontier Settlement"], ["Strip Mine"], []])  # the Strip Mine just built
    seats = {0: player(hand=["Settlement", "Mining Outpost"], systems=[haven])}
    state = position(2, seats=seats, phase="payment", payment={"cards_left": 2, "reason": "build"})
    a = find(state, kind="discard", card="Settlement")
    assert state.move_label(a, 0) == state.action_label(a) == "discard Settlement to pay (2 left)"
    assert state.move_label(a, 1) == "discard a card to pay (2 left)"
    assert state.move_label(a, PUBLIC_VIEWER) == "discard a card to pay (2 left)"


def test_a_space_pirates_discard_is_a_card_for_everyone_but_the_mover():
    seats = {0: player(hand=["Township", "Scout"])}
    state = position(
        3,
        seats=seats,
        explored=["Space Pirates"],
        phase="payment",
        payment={"cards_left": 1, "reason": "space pirates"},
    )
    a = find(state, kind="discard", card="Scout")
    assert state.move_label(a, 0) == "discard Scout to the space pirates"
    for viewer in (1, 2, PUBLIC_VIEWER):
        assert state.move_label(a, viewer) == "discard a card to the space pirates"


def test_a_build_names_the_card_it_puts_face_up():
    seats = {0: player(hand=["Scout", "Settlement", "Township"])}
    state = position(2, seats=seats)
    a = find(state, kind="build_ship", card="Scout")
    assert state.move_label(a, 0) == "build Scout, discarding 1"
    assert state.move_label(a, 1) == state.move_label(a, PUBLIC_VIEWER) == "build Scout, discarding 1"
    b = find(state, kind="upgrade", card="Township")
    label = "upgrade Frontier Settlement on Haven slot 1 to Township, discarding 1"
    assert state.move_label(b, 1) == state.move_label(b, PUBLIC_VIEWER) == state.action_label(b) == label


def test_public_moves_read_the_same_for_every_viewer():
    state = position(2, seats={0: player(discard=["Monument"])}, pool={"science": 1, "manpower": 3})
    for kind in ("retrieve", "draw", "end_turn"):
        for a in state.legal_actions():
            if state.action_to_struct(a)["kind"] == kind:
                assert state.move_label(a, 1) == state.move_label(a, PUBLIC_VIEWER) == state.action_label(a)
    a = find(state, kind="retrieve", card="Monument")
    assert state.move_label(a, 1) == "spend 1 science: take Monument from the discard pile"


def test_a_mates_card_is_named_from_the_viewers_seat():
    state = position(4, "team")
    a = find(state, kind="use_colony", owner=2)
    effect = "+ 1 manpower + 1 credits"
    mover = f"use your mate's Frontier Settlement on Haven slot 1: {effect}"
    assert state.move_label(a, 0) == state.action_label(a) == mover
    assert state.move_label(a, 2) == f"use your Frontier Settlement on Haven slot 1: {effect}"
    assert state.move_label(a, 1) == f"use seat 2's Frontier Settlement on Haven slot 1: {effect}"
    assert state.move_label(a, 3) == state.move_label(a, PUBLIC_VIEWER) == state.move_label(a, 1)
    own = find(state, kind="use_colony", owner=0)
    own_label = f"use Frontier Settlement on Haven slot 1: {effect}"
    assert state.move_label(own, 1) == state.action_label(own) == own_label


def test_an_id_the_view_cannot_describe_gets_its_kind_only():
    g = load_game("take_the_galaxy", players=2)
    state = position(2)
    view = state.observation(1)
    # use_colony on a slot that is empty, and a ship the mover does not have: never legal, never a read
    assert g._move_label(view, 0, 91 + 1).startswith("use_colony")
    assert g._move_label(view, 0, 63 + 7).startswith("sell_ship")
    assert g._move_label(view, 1, 0).startswith("end_turn")  # seat 1 is not to move in this view


# ---------------------------------------------------------------- the spectator's view


@pytest.mark.parametrize("variant,players", CONFIGS)
def test_the_public_view_hides_every_hand_and_deck(variant, players):
    g = load_game("take_the_galaxy", players=players, variant=variant)
    state = g.new_initial_state(seed=3)
    rng = random.Random(3)
    for step in range(120):
        if state.is_terminal():
            break
        view = state.public_observation()
        assert view.observer == PUBLIC_VIEWER
        d = view.to_dict()["state"]
        assert "shuffle_streams" not in d
        assert all(x is None for x in d["space_deck"])
        for p in d["players"]:
            assert all(x is None for x in p["draw_pile"])
            if d["phase"] != "frontier":  # set-up hands are the public marked cards
                assert p["hand"] is None
        picture = view.render()
        if d["phase"] != "frontier":
            assert "hand:" not in picture
        if step % 10 == 0:
            for a in state.legal_actions()[:40]:
                assert view.game._action_struct(view, a)["id"] == a  # reads nothing hidden, no crash
        state.apply(rng.choice(state.legal_actions()))


# ---------------------------------------------------------------- the sweep


def _names(obj, out):
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            _names(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _names(v, out)
    return out


def _hidden_names(state, viewer, seen):
    """Card names in places `viewer` cannot see (other hands, every draw pile, the space deck) that
    appear nowhere in its view."""
    s = state.to_dict()["state"]
    hidden = set(x for x in s["space_deck"])
    for seat, p in enumerate(s["players"]):
        hidden |= set(p["draw_pile"])
        if seat != viewer and s["phase"] != "frontier":
            hidden |= set(p["hand"])
    return {n for n in hidden if n not in seen}


def _strip(label, names):
    for n in sorted(names, key=len, reverse=True):
        label = label.replace(n, "")
    return label


@pytest.mark.parametrize("variant,players", CONFIGS)
def test_no_label_names_what_its_viewer_cannot_see(variant, players):
    g = load_game("take_the_galaxy", players=players, variant=variant)
    all_names = set(CARD_NAMES) | set(SPACE_NAMES)
    kinds = set()
    for seed in (1, 2):
        state = g.new_initial_state(seed=seed)
        rng = random.Random(seed * 101 + players)
        checked = 0
        for step in range(1500):
            if state.is_terminal() or checked >= 60:
                break
            legal = state.legal_actions()
            mover = state.current_player
            if step % 5 == 0 or state.to_dict()["state"]["phase"] == "payment":
                checked += 1
                for a in legal:
                    assert state.move_label(a, mover) == state.action_label(a)
                for viewer in _viewers(state):
                    public = viewer == PUBLIC_VIEWER
                    view = state.public_observation() if public else state.observation(viewer)
                    seen = _names(view.to_dict()["state"], set()) & all_names
                    hidden = _hidden_names(state, viewer, seen)
                    for a in legal:
                        label = state.move_label(a, viewer)
                        struct = state.action_to_struct(a)
                        shown = set(seen)
                        if struct["kind"] in FACE_UP:
                            shown.add(struct["card"])
                        if struct["kind"] == "discard":
                            kinds.add("discard")
                            assert label.startswith("discard a card "), label
                        rest = _strip(label, shown)
                        leaked = [n for n in hidden - shown if re.search(rf"\b{re.escape(n)}\b", rest)]
                        assert not leaked, (variant, players, seed, step, viewer, label, leaked)
            state.apply(rng.choice(legal))
    assert "discard" in kinds  # the sweep met payments


# ---------------------------------------------------------------- teams


def test_seat_teams():
    assert load_game("take_the_galaxy", players=4, variant="team").seat_teams() == (0, 1, 0, 1)
    assert load_game("take_the_galaxy", players=4).seat_teams() == (0, 1, 2, 3)
    assert load_game("take_the_galaxy", players=1).seat_teams() == (0,)


def test_teammates_always_get_equal_returns():
    g = load_game("take_the_galaxy", players=4, variant="team")
    teams = g.seat_teams()
    outcomes = set()
    for seed in range(4):
        state = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        returns, ranks = state.returns(), state.ranks()
        for a in range(4):
            for b in range(4):
                if teams[a] == teams[b]:
                    assert returns[a] == returns[b] and ranks[a] == ranks[b]
        outcomes.add(tuple(returns))
    assert outcomes  # every game ended


def test_a_team_tournament_scores_teams(tmp_path):
    config = config_from_dict(
        {
            "name": "ttg-team",
            "game": "take_the_galaxy",
            "players": 4,
            "variant": "team",
            "format": "round-robin",
            "bots": [{"kind": "random"}, {"kind": "greedy"}],
            "sets": 2,
            "seed": 7,
            "backend": "inline",
            "results": str(tmp_path / "results.jsonl"),
        }
    )
    teams = load_game("take_the_galaxy", players=4, variant="team").seat_teams()
    (pairing,) = pairings(config)
    assert sorted(pairing.seatings) == [
        ("greedy", "random", "greedy", "random"),
        ("random", "greedy", "random", "greedy"),
    ]
    run_tournament(config, progress=False)
    _, games = read_results(config.results)
    assert len(games) == 2 * len(pairing.seatings)
    for record in games:
        seats, ranks = record["seats"], record["ranks"]
        for a in range(4):
            for b in range(4):
                if teams[a] == teams[b]:
                    assert seats[a] == seats[b] and ranks[a] == ranks[b]
                else:
                    assert seats[a] != seats[b]
