"""Take The Galaxy loader: derived values and pending decisions are checked (issue 26, parts 3 and 4).

Each test plays seeded random moves until a real situation arises, dumps it, corrupts one value and
asserts that the loader refuses it with a StateFormatError naming the field
(docs/rules/take_the_galaxy.md, section 9, lists which values are compared).
"""

import json
import random
import re
from pathlib import Path

import pytest

from orrery.core_ext import StateFormatError, load_game

CATALOGUE = Path(__file__).resolve().parents[1] / "core_ext/take_the_galaxy/catalogue.json"
SYSTEMS = {c["name"] for c in json.loads(CATALOGUE.read_text())["systems"]}


def reach(test, players=2, variant="standard", seeds=40, moves=600):
    """The first state payload of seeded random play for which test(payload) holds."""
    g = load_game("take_the_galaxy", players=players, variant=variant)
    for seed in range(seeds):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        for _ in range(moves):
            d = state.to_dict()
            if test(d["state"]):
                assert g.state_from_json(json.dumps(d)) == state  # the real one loads
                return g, d
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no seeded game reached the situation")


def refused(g, d, edit, field):
    d = json.loads(json.dumps(d))
    edit(d["state"])
    with pytest.raises(StateFormatError, match=re.escape(f"field '{field}'")):
        g.state_from_json(json.dumps(d))


def mover(s):
    return s["players"][s["current"]]


def fresh_turn(s):
    return s["phase"] == "action" and s["turn_steps"] == 0


def used_cards(p):
    return sum(sum(sy["used"]) for sy in p["systems"]) + sum(x["used"] for x in p["ships"])


# ---------------------------------------------------------------- derived values


def test_turn_and_seat_follow_from_the_space_deck():
    g, d = reach(lambda s: s["phase"] == "action" and s["turn"] >= 3)
    refused(g, d, lambda s: s.update(turn=s["turn"] + 1), "state.turn")
    refused(g, d, lambda s: s.update(current=1 - s["current"]), "state.current")
    refused(g, d, lambda s: s["space_discard"].append(s["space_deck"].pop(0)), "state.turn")


def test_the_set_up_leaves_the_rest_of_the_deck():
    g, d = reach(lambda s: s["phase"] == "frontier" and s["current"] == 1, players=3)
    refused(g, d, lambda s: s["space_discard"].append(s["explored"].pop()["card"]), "state.explored")
    refused(g, d, lambda s: s.update(turn_steps=1), "state.turn_steps")


def test_the_pool_is_empty_before_the_first_choice_and_after_the_end():
    g, d = reach(fresh_turn)
    refused(g, d, lambda s: s.update(pool={"manpower": 2}), "state.pool")
    g, d = reach(lambda s: s["phase"] == "over", moves=3000)
    refused(g, d, lambda s: s.update(pool={"science": 1}), "state.pool")


def test_claim_and_relinquish_flags_need_a_choice_this_turn():
    g, d = reach(fresh_turn)
    refused(g, d, lambda s: s.update(claimed_this_turn=True), "state.claimed_this_turn")
    refused(g, d, lambda s: s.update(relinquished_this_turn=True), "state.relinquished_this_turn")


def test_relinquished_needs_a_system_in_the_renown_pile():
    def test(s):
        return (
            s["phase"] == "action"
            and s["turn_steps"] >= 12
            and not s["relinquished_this_turn"]
            and not any(c == "Haven" or c in SYSTEMS for c in mover(s)["renown_pile"])
        )

    g, d = reach(test)
    refused(g, d, lambda s: s.update(relinquished_this_turn=True), "state.relinquished_this_turn")


def test_turn_steps_cover_the_cards_used_this_turn():
    def test(s):
        return s["phase"] == "action" and not s["pool"] and used_cards(mover(s)) >= 1

    g, d = reach(test)
    refused(g, d, lambda s: s.update(turn_steps=used_cards(mover(s)) - 1), "state.turn_steps")


# ---------------------------------------------------------------- pending decisions


def test_a_build_payment_is_at_most_what_the_new_card_costs():
    def test(s):
        return s["phase"] == "payment" and s["payment"]["reason"] == "build" and mover(s)["hand_size"] >= 6

    g, d = reach(test)
    refused(g, d, lambda s: s["payment"].update(cards_left=mover(s)["hand_size"]), "state.payment.cards_left")


def test_no_payment_is_demanded_when_nothing_asks_for_one():
    g, d = reach(lambda s: fresh_turn(s) and not any(e["card"] == "Space Pirates" for e in s["explored"]))

    def demand(reason):
        return lambda s: s.update(phase="payment", payment={"cards_left": 1, "reason": reason})

    refused(g, d, demand("build"), "state.payment.reason")
    refused(g, d, demand("space pirates"), "state.payment.reason")


def test_space_pirates_take_one_card_before_the_first_choice():
    def test(s):
        return (
            s["phase"] == "payment"
            and s["payment"]["reason"] == "space pirates"
            and mover(s)["hand_size"] >= 2
        )

    g, d = reach(test, seeds=80)
    refused(g, d, lambda s: s["payment"].update(cards_left=2), "state.payment.cards_left")
    refused(g, d, lambda s: s.update(turn_steps=3), "state.payment.reason")


def test_once_per_turn_flags_only_on_cards_in_play_after_the_set_up():
    g, d = reach(lambda s: s["phase"] == "frontier" and s["current"] == 1, players=3)

    def use_frontier(s):
        haven = s["players"][0]["systems"][0]
        haven["used"][[bool(st) for st in haven["slots"]].index(True)] = True

    refused(g, d, use_frontier, "state.players[0].systems")
    g, d = reach(
        lambda s: s["phase"] == "action" and any(not any(st) for st in mover(s)["systems"][0]["slots"])
    )

    seat = d["state"]["current"]
    empty = [bool(st) for st in d["state"]["players"][seat]["systems"][0]["slots"]].index(False)

    def use_empty_slot(s):
        s["players"][seat]["systems"][0]["used"][empty] = True

    refused(g, d, use_empty_slot, f"state.players[{seat}].systems[0].used[{empty}]")


def test_the_set_up_moves_nothing_but_the_frontier_colony():
    g, d = reach(lambda s: s["phase"] == "frontier" and s["current"] == 1, players=3)

    def discard_a_card(s):
        s["players"][2]["discard"].append(s["players"][2]["draw_pile"].pop())

    refused(g, d, discard_a_card, "state.players[2].discard")
    refused(g, d, lambda s: s["players"][0].update(renown_tokens=2), "state.players[0]")

    def swap_hand_and_deck(s):
        p = s["players"][1]
        card = next(c for c in p["hand"] if not c.startswith("Frontier"))
        i = next(i for i, c in enumerate(p["draw_pile"]) if c != card)
        top, p["draw_pile"][i] = p["draw_pile"][i], card
        p["hand"][card] -= 1
        p["hand"][top] = p["hand"].get(top, 0) + 1
        p["hand"] = {k: v for k, v in p["hand"].items() if v}

    refused(g, d, swap_hand_and_deck, "state.players[1].hand")


def test_the_next_step_is_used_only_by_selling_a_ship():
    def test(s):
        return (
            s["phase"] == "action"
            and s["turn_steps"] >= 12
            and not mover(s)["sold_ships"]
            and any(e["card"] == "The Next Step" and not e["used"] for e in s["explored"])
        )

    g, d = reach(test, players=3, moves=3000)
    j = [e["card"] for e in d["state"]["explored"]].index("The Next Step")
    refused(g, d, lambda s: s["explored"][j].update(used=True), f"state.explored[{j}].used")
