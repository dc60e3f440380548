"""Positions for the Take The Galaxy scenario tests, built as JSON and loaded through the public loader.

`position()` starts from a real deal after every seat chose its frontier colony, then rewrites the
parts a test names; the cards not placed anywhere go to the draw piles and the space deck, so every
position passes the loader's conservation checks.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from orrery.core_ext import load_game

CATALOGUE = json.loads(
    (Path(__file__).resolve().parents[1] / "core_ext/take_the_galaxy/catalogue.json").read_text()
)
DECK = Counter({c["name"]: c["copies"] for c in CATALOGUE["player_cards"]})
SECTORS = ("core", "expanse", "fringe")
SPACE = {x["name"]: x for x in CATALOGUE["systems"] + CATALOGUE["anomalies"] + CATALOGUE["events"]}


def game(players=2, variant="standard"):
    return load_game("take_the_galaxy", players=players, variant=variant)


def started(players=2, variant="standard", seed=0):
    """A real deal in seat 0's first action phase (every seat chose the Frontier Settlement)."""
    g = game(players, variant)
    state = g.new_initial_state(seed=seed)
    for _ in range(players):
        state.apply(1)
    return g, state


def system(card, slots=None, used=None, bounty=None):
    n = len(SPACE[card]["slots"]) if card != "Haven" else 3
    slots = slots if slots is not None else [[] for _ in range(n)]
    return {
        "card": card,
        "slots": slots,
        "used": used if used is not None else [False] * n,
        "bounty": dict(SPACE[card]["bounty"]) if bounty is None and card != "Haven" else (bounty or {}),
    }


def player(hand=(), systems=None, ships=(), discard=(), renown_pile=(), tokens=0, sold=()):
    hand = Counter(hand)
    return {
        "frontier": "Frontier Settlement",
        "hand": dict(hand),
        "hand_size": sum(hand.values()),
        "systems": systems if systems is not None else [system("Haven", [["Frontier Settlement"], [], []])],
        "ships": [{"card": s, "used": False} if isinstance(s, str) else s for s in ships],
        "sold_ships": list(sold),
        "discard": list(discard),
        "renown_pile": list(renown_pile),
        "renown_tokens": tokens,
    }


def _fill_draw_pile(p):
    placed = Counter(p["hand"]) + Counter(p["discard"]) + Counter(p["sold_ships"])
    placed += Counter(s["card"] for s in p["ships"])
    for sy in p["systems"]:
        for stack in sy["slots"]:
            placed += Counter(stack)
    rest = DECK - placed
    assert not (placed - DECK), f"more cards than the deck holds: {placed - DECK}"
    p["draw_pile"] = sorted(rest.elements())


def position(
    players=2,
    variant="standard",
    *,
    seats=None,
    explored=(),
    space_discard=(),
    pool=None,
    current=0,
    phase="action",
    payment=None,
    claimed=False,
    relinquished=False,
    space_deck=None,
    seed=0,
    explored_used=None,
    turn_steps=None,
):
    """A loaded State. `seats` maps seat -> player(...) (others keep a plain start); `explored` names
    the explored cards oldest first; the space deck holds every other card the set-up uses, less the
    cards discarded (top first) to make it `current`'s turn (the turn follows from the deck). The turn
    has seen 20 choices (`turn_steps`), none while the Space Pirates take their card."""
    g, state = started(players, variant, seed)
    d = state.to_dict()
    s = d["state"]
    for seat in range(players):
        p = (seats or {}).get(seat) or player(hand=["Settlement", "Mining Outpost", "Research Station"])
        _fill_draw_pile(p)
        s["players"][seat] = p
    used = explored_used or [False] * len(explored)
    s["explored"] = [{"card": c, "used": u} for c, u in zip(explored, used, strict=True)]
    s["space_discard"] = list(space_discard)
    taken = set(explored) | set(space_discard)
    for p in s["players"]:
        taken |= {sy["card"] for sy in p["systems"]} | set(p["renown_pile"])
    if space_deck is None:
        pool_cards = [n for n, x in SPACE.items() if x["players"] <= players and n not in taken]
        space_deck = sorted(pool_cards, key=lambda n: SECTORS.index(SPACE[n]["sector"]))
    total = sum(x["players"] <= players for x in SPACE.values())
    space_deck, space_discard = list(space_deck), list(space_discard)
    while (total - players - len(space_deck) - 1) % players != current or total - players - len(
        space_deck
    ) < 1:
        assert space_deck, "no turn of this seat fits the cards placed"
        space_discard.append(space_deck.pop(0))
    s["space_deck"] = space_deck
    s["space_discard"] = space_discard
    s.update(
        pool=pool or {},
        current=current,
        phase=phase,
        payment=payment,
        turn=total - players - len(space_deck),
        turn_steps=turn_steps
        if turn_steps is not None
        else 0
        if (payment or {}).get("reason") == "space pirates"
        else 20,
        claimed_this_turn=claimed,
        relinquished_this_turn=relinquished,
    )
    return g.state_from_json(json.dumps(d))


def find(state, **fields):
    """The one legal action whose struct has these fields."""
    hits = [
        a
        for a in state.legal_actions()
        if all(state.action_to_struct(a).get(k) == v for k, v in fields.items())
    ]
    assert len(hits) == 1, (fields, [state.action_label(a) for a in state.legal_actions()])
    return hits[0]


def has(state, **fields):
    return any(
        all(state.action_to_struct(a).get(k) == v for k, v in fields.items()) for a in state.legal_actions()
    )


def payload(state):
    return state.to_dict()["state"]


def pay(state, *cards):
    for c in cards:
        state.apply(find(state, kind="discard", card=c))
