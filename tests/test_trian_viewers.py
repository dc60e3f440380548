"""What another seat and a spectator read of a Galaxy of Trian move (issue 26; docs/rules/trian.md, "What
other seats and spectators read of a move"): the mover's label names the sides of the tile in hand, the
types of declared combat tokens and of a token sold with Priceless technology; no other viewer's may."""

from __future__ import annotations

import json
import random

import pytest
from test_trian import A, B, Scenario, set_tokens
from test_trian_skills import full, set_race

from orrery.core_ext import load_game
from orrery.core_ext.game import PUBLIC_VIEWER
from orrery.core_ext.trian import engine as T

QELLIA = 3

# the words of the mover's labels that name a hidden fact (describe.pxi): token types and tile sides
HIDDEN_WORDS = ("+1 combat token", "reroll combat token", "+1 and", "reroll tokens", "side 0", "side 1")


def action_of(state, kind: str, **fields) -> int:
    for a in state.legal_actions():
        d = state.action_to_struct(a)
        if d["kind"] == kind and all(d.get(k) == v for k, v in fields.items()):
            return a
    raise AssertionError(f"no legal {kind} {fields}")


def readers(state) -> list[int]:
    """Every viewer other than the seat to move: the other seats and the spectator."""
    return [v for v in range(state.game.num_players) if v != state.current_player] + [PUBLIC_VIEWER]


# ---------------------------------------------------------------- concrete cases


def test_a_token_sold_with_priceless_technology_reads_without_its_type_to_others():
    sc = full(["space"])
    set_race(sc, A, QELLIA)
    sc.edit(lambda d: d["players"][A].update(combat_tokens={"count": 3, "plus": 1}))
    for token in ("+1", "reroll"):
        a = action_of(sc.state, "sell_token", token=token)
        mine = f"Priceless technology: sell a {token} combat token for 2 credits"
        assert sc.state.action_label(a) == sc.state.move_label(a, A) == mine
        for viewer in (B, PUBLIC_VIEWER):
            assert sc.state.move_label(a, viewer) == "Priceless technology: sell a combat token for 2 credits"


def test_declared_tokens_read_as_a_count_to_others():
    sc = Scenario(["planet-end", "planet-link", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")
    sc.place(2, 0, "planet-end", left="P")
    sc.edit(lambda d: set_tokens(d, {A: (3, 1), B: (3, 1)}))
    sc.act("pass")
    assert sc.state.current_player == A
    expected = {
        (0, 0): "no combat tokens",
        (1, 0): "1 combat token",
        (1, 1): "2 combat tokens",
        (0, 1): "1 combat token",
        (1, 2): "3 combat tokens",
    }
    for (plus, rerolls), count in expected.items():
        a = action_of(sc.state, "declare", plus=plus, rerolls=rerolls)
        mine = f"declare {plus} +1 and {rerolls} reroll tokens"
        assert sc.state.move_label(a, A) == sc.state.action_label(a) == mine
        assert sc.state.move_label(a, B) == sc.state.move_label(a, PUBLIC_VIEWER) == f"declare {count}"
    sc.act("declare", plus=1, rerolls=1)
    # B declares after A: B's own label is full, A (who cannot see B's types) reads the count
    a = action_of(sc.state, "declare", plus=0, rerolls=2)
    assert sc.state.move_label(a, B) == "declare 0 +1 and 2 reroll tokens"
    assert sc.state.move_label(a, A) == "declare 2 combat tokens"


def test_the_tile_in_hand_is_placed_without_naming_its_sides_to_others():
    sc = Scenario(["nebula-cap"])
    sc.act("end_phase1")
    sc.act("draw", stack=0)
    hand = sc.data()["hand"]
    assert hand["face_up"] == "nebula-cap"
    other = T.FACE_NAMES[T.CATALOGUE["tiles"][hand["tile"]][1 - hand["side_up"]]]
    for a in sc.state.legal_actions():
        d = sc.state.action_to_struct(a)
        assert sc.state.move_label(a, A) == sc.state.action_label(a)
        assert sc.state.action_label(a) == (
            f"place side {d['side']} ({d['face']}) at ({d['x']}, {d['y']}) rotation {d['rotation']}"
        )
        for viewer in (B, PUBLIC_VIEWER):
            label = sc.state.move_label(a, viewer)
            assert label == (
                f"place the drawn tile (nebula-cap up on the stack) at ({d['x']}, {d['y']}) "
                f"rotation {d['rotation']}"
            )
            if other != "nebula-cap":
                assert other not in label


def test_public_moves_read_the_same_to_every_viewer():
    sc = Scenario(["nebula-cap"])
    a = action_of(sc.state, "buy_mineral", color="red")
    assert {sc.state.move_label(a, v) for v in (A, B, PUBLIC_VIEWER)} == {sc.state.action_label(a)}
    sc.act("end_phase1")
    a = action_of(sc.state, "draw", stack=0)
    assert sc.state.move_label(a, B) == sc.state.move_label(a, PUBLIC_VIEWER) == sc.state.action_label(a)


def test_the_public_view_hides_every_seats_tiles_tokens_and_streams():
    sc = Scenario(["planet-end", "planet-link"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")
    sc.edit(lambda d: set_tokens(d, {A: (2, 1), B: (1, 0)}))
    sc.act("end_phase1")
    sc.act("draw", stack=0)
    public = sc.state.public_observation()
    assert public.observer == PUBLIC_VIEWER and public.legal_actions() == []
    view = public.to_dict()["state"]
    assert "random_streams" not in view and all("tiles" not in k for k in view["stacks"])
    assert view["hand"]["tile"] is None and view["hand"]["side_up"] is None
    assert view["hand"]["face_up"] == "planet-link"
    assert all(t["tile"] is None and t["side"] is None for t in view["galaxy"])
    assert [p["combat_tokens"]["plus"] for p in view["players"]] == [None, None]
    assert [p["combat_tokens"]["count"] for p in view["players"]] == [2, 1]
    # the public view is what every seat sees in common: nothing a seat's own view hides
    for seat in (A, B):
        seen = json.loads(sc.state.observation(seat).to_json())["state"]
        assert seen["players"][1 - seat]["combat_tokens"]["plus"] is None
    text = public.render()
    assert "tokens 2 (" not in text and "other side" not in text


# ---------------------------------------------------------------- the sweep over random games


def sweep(variant: str, players: int, seed: int, steps: int, per_step: int = 6):
    """Random seeded play; at every position each legal move's label for the mover is its action_label,
    and the label any other viewer reads names no hidden word (HIDDEN_WORDS) and, for a placement, no
    face but the one the tile showed on the stack. Returns the kinds of actions checked."""
    game = load_game("trian", players=players, variant=variant)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    kinds = set()
    faces = sorted(T.FACE_NAMES, key=len, reverse=True)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        mover = state.current_player
        structs = {a: state.action_to_struct(a) for a in legal}
        sensitive = [a for a in legal if structs[a]["kind"] in ("place", "declare", "sell_token")]
        rest = [a for a in legal if a not in sensitive]
        hand = json.loads(state.public_observation().to_json())["state"]["hand"]
        for a in sensitive + rng.sample(rest, min(per_step, len(rest))):
            kinds.add(structs[a]["kind"])
            assert state.move_label(a, mover) == state.action_label(a) == structs[a]["label"]
            for viewer in readers(state):
                label = state.move_label(a, viewer)
                assert not any(w in label for w in HIDDEN_WORDS), (variant, players, seed, viewer, label)
                if structs[a]["kind"] == "place":
                    rest_of_label = label.replace(hand["face_up"], "")
                    assert not any(f in rest_of_label for f in faces), (viewer, label)
        state.apply(rng.choice(legal))
    return kinds


@pytest.mark.parametrize("variant", ["beginner", "ships", "full"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_other_viewers_labels_name_nothing_hidden_in_random_games(variant, players):
    kinds = set()
    for seed in (1, 2):
        kinds |= sweep(variant, players, seed, steps=150)
    assert {"place", "draw", "end_phase1"} <= kinds
