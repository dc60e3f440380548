# Included by engine.pyx: the action-id table (ACTION_BLOCKS) and each id's struct and label, what
# action_to_struct returns (docs/rules/take_the_galaxy.md, section 8).

# The action-id blocks, ascending and dense: (first id, end id, kind), from the core's id constants
# (engine.pyx) and the struct's sizes. describe_action's id-only kinds read it (_action_kinds.py); the
# registry's description and the rules doc's table are checked against it
# (tests/test_take_the_galaxy_actions.py).
ACTION_BLOCKS = (
    (A_END, A_END + 1, "end_turn"),
    (A_FRONTIER, A_FRONTIER + 2, "choose_frontier"),
    (A_DISCARD, A_DISCARD + TG_TYPES, "discard"),
    (A_RETRIEVE, A_RETRIEVE + TG_TYPES, "retrieve"),
    (A_DRAW_M, A_DRAW_P + 1, "draw"),
    (A_SOLVE, A_SOLVE + TG_EXPLORED, "study_anomaly or solve_event"),
    (A_OPPORT, A_OPPORT + TG_EXPLORED, "opportunity"),
    (A_SELL, A_SELL + TG_MAX_SHIPS, "sell_ship"),
    (A_RELINQ, A_RELINQ + TG_MAX_SYSTEMS, "relinquish"),
    (A_USE_SHIP, A_USE_SHIP + 2 * TG_MAX_SHIPS, "use_ship"),                 # owner 0 self, 1 mate
    (A_USE_COLONY, A_USE_COLONY + 2 * TG_MAX_SYSTEMS * TG_SLOTS, "use_colony"),
    (A_BOUNTY, A_BOUNTY + 2 * TG_MAX_SYSTEMS * 4, "take_bounty"),           # 4 resources M, P, S, C
    (A_BUILD_SHIP, A_BUILD_SHIP + TG_TYPES, "build_ship"),
    (A_UPGRADE, A_UPGRADE + TG_MAX_SYSTEMS * TG_SLOTS * TG_TYPES, "upgrade"),
    (A_BUILD, A_BUILD + (TG_MAX_SYSTEMS + TG_EXPLORED) * TG_SLOTS * TG_TYPES, "build or claim"),
)
assert ACTION_BLOCKS[len(ACTION_BLOCKS) - 1][1] == MAX_ACTIONS and all(
    a[1] == b[0] for a, b in zip(ACTION_BLOCKS, ACTION_BLOCKS[1:])), "the id constants overlap or leave gaps"


def _res_text(vec):
    parts = [f"{v} {RESOURCE_NAMES[r]}" for r, v in enumerate(vec) if v]
    return " + ".join(parts) if parts else "nothing"


cdef dict _action_struct(const TgState* k, int a, int viewer):
    # `viewer` only words whose card a mate's colony, ship or bounty is ("your mate's" for the mover,
    # "your" for that mate, "seat N's" for anyone else): every other word is the same for every viewer.
    cdef const TgPlayer* pl = &k.players[k.current]
    cdef const TgSystem* sy
    cdef int x, target, slot, card, owner_rel, seat
    if k.phase == PH_FRONTIER:
        card = CARD_FRONTIER[a - A_FRONTIER]
        return {"id": a, "kind": "choose_frontier", "card": CARD_NAMES[card],
                "label": f"choose {CARD_NAMES[card]} for Haven"}
    if k.phase == PH_PAY:
        card = a - A_DISCARD
        why = "to the space pirates" if k.pay_then_draw else f"to pay ({k.pay_left} left)"
        return {"id": a, "kind": "discard", "card": CARD_NAMES[card],
                "label": f"discard {CARD_NAMES[card]} {why}"}
    if a == A_END:
        return {"id": a, "kind": "end_turn", "label": "end the turn"}
    if A_RETRIEVE <= a < A_DRAW_M:
        card = a - A_RETRIEVE
        return {"id": a, "kind": "retrieve", "card": CARD_NAMES[card],
                "label": f"spend 1 science: take {CARD_NAMES[card]} from the discard pile"}
    if a == A_DRAW_M:
        return {"id": a, "kind": "draw", "resource": "manpower", "label": "spend 3 manpower: draw a card"}
    if a == A_DRAW_P:
        return {"id": a, "kind": "draw", "resource": "production", "label": "spend 2 production: draw a card"}
    if A_SOLVE <= a < A_OPPORT:
        card = k.explored[a - A_SOLVE]
        if SPACE_KIND[card] == SK_ANOMALY:
            return {"id": a, "kind": "study_anomaly", "card": SPACE_NAMES[card], "position": a - A_SOLVE,
                    "label": f"study {SPACE_NAMES[card]} for {ANOM_SCIENCE[card]} science "
                             f"(+{SPACE_RENOWN[card]} renown)"}
        return {"id": a, "kind": "solve_event", "card": SPACE_NAMES[card], "position": a - A_SOLVE,
                "label": f"solve {SPACE_NAMES[card]} for {_res_text(list(EVENT_SOLVE[card][:3]))} "
                         f"(+{SPACE_RENOWN[card]} renown)"}
    if A_OPPORT <= a < A_SELL:
        card = k.explored[a - A_OPPORT]
        return {"id": a, "kind": "opportunity", "card": SPACE_NAMES[card], "position": a - A_OPPORT,
                "label": f"use the opportunity {SPACE_NAMES[card]}"}
    if A_SELL <= a < A_RELINQ:
        card = pl.ships[a - A_SELL]
        return {"id": a, "kind": "sell_ship", "ship": a - A_SELL, "card": CARD_NAMES[card],
                "label": f"exchange {CARD_NAMES[card]} (ship {a - A_SELL + 1}) at The Next Step for "
                         f"{NEXT_RP} renown"}
    if A_RELINQ <= a < A_USE_SHIP:
        card = pl.systems[a - A_RELINQ].card
        return {"id": a, "kind": "relinquish", "system": a - A_RELINQ, "card": SPACE_NAMES[card],
                "label": f"relinquish {SPACE_NAMES[card]}"}
    if A_USE_SHIP <= a < A_USE_COLONY:
        x = a - A_USE_SHIP
        owner_rel = x // TG_MAX_SHIPS
        seat = _owner(k, owner_rel)
        card = k.players[seat].ships[x % TG_MAX_SHIPS]
        return {"id": a, "kind": "use_ship", "owner": seat, "ship": x % TG_MAX_SHIPS,
                "card": CARD_NAMES[card],
                "label": f"use {_whose(k, owner_rel, viewer)}{CARD_NAMES[card]} "
                         f"(ship {x % TG_MAX_SHIPS + 1}): {_effect_text(card)}"}
    if A_USE_COLONY <= a < A_BOUNTY:
        x = a - A_USE_COLONY
        owner_rel = x // 16
        seat = _owner(k, owner_rel)
        sy = &k.players[seat].systems[(x % 16) // 4]
        slot = x % 4
        card = sy.stack[slot][sy.depth[slot] - 1]
        return {"id": a, "kind": "use_colony", "owner": seat, "system": (x % 16) // 4, "slot": slot,
                "card": CARD_NAMES[card],
                "label": f"use {_whose(k, owner_rel, viewer)}{CARD_NAMES[card]} on {SPACE_NAMES[sy.card]} "
                         f"slot {slot + 1}: "
                         f"{_effect_text(card)}"}
    if A_BOUNTY <= a < A_BUILD_SHIP:
        x = a - A_BOUNTY
        owner_rel = x // 16
        seat = _owner(k, owner_rel)
        sy = &k.players[seat].systems[(x % 16) // 4]
        return {"id": a, "kind": "take_bounty", "owner": seat, "system": (x % 16) // 4,
                "resource": RESOURCE_NAMES[x % 4],
                "label": f"take 1 {RESOURCE_NAMES[x % 4]} from "
                         f"{_whose(k, owner_rel, viewer)}{SPACE_NAMES[sy.card]}"}
    if A_BUILD_SHIP <= a < A_UPGRADE:
        card = a - A_BUILD_SHIP
        cost = _build_cost(card, _effects(k))
        return {"id": a, "kind": "build_ship", "card": CARD_NAMES[card], "discard": cost,
                "label": f"build {CARD_NAMES[card]}, discarding {cost}"}
    if A_UPGRADE <= a < A_BUILD:
        x = a - A_UPGRADE
        sy = &pl.systems[x // (4 * TG_TYPES)]
        slot = (x // TG_TYPES) % 4
        card = x % TG_TYPES
        old = sy.stack[slot][sy.depth[slot] - 1]
        cost = _upgrade_cost(old, card, _effects(k))
        return {"id": a, "kind": "upgrade", "system": x // (4 * TG_TYPES), "slot": slot,
                "card": CARD_NAMES[card],
                "discard": cost,
                "label": f"upgrade {CARD_NAMES[old]} on {SPACE_NAMES[sy.card]} slot {slot + 1} to "
                         f"{CARD_NAMES[card]}, discarding {cost}"}
    x = a - A_BUILD
    target = x // (4 * TG_TYPES)
    slot = (x // TG_TYPES) % 4
    card = x % TG_TYPES
    cost = _build_cost(card, _effects(k))
    if target < TG_MAX_SYSTEMS:
        return {"id": a, "kind": "build", "system": target, "slot": slot, "card": CARD_NAMES[card],
                "discard": cost,
                "label": f"build {CARD_NAMES[card]} on {SPACE_NAMES[pl.systems[target].card]} "
                         f"slot {slot + 1}, "
                         f"discarding {cost}"}
    space_card = k.explored[target - TG_MAX_SYSTEMS]
    hz = _hazards(k, space_card, _effects(k))
    hz_text = f", paying {hz} {RESOURCE_NAMES[HAZARD_RESOURCE]} for hazards" if hz else ""
    return {"id": a, "kind": "claim", "position": target - TG_MAX_SYSTEMS,
            "system_card": SPACE_NAMES[space_card],
            "slot": slot, "card": CARD_NAMES[card], "discard": cost, "hazards": hz,
            "label": f"claim {SPACE_NAMES[space_card]}: build {CARD_NAMES[card]} on slot {slot + 1}, "
                     f"discarding {cost}{hz_text}"}


cdef str _whose(const TgState* k, int owner_rel, int viewer):
    # Whose card the mover uses, as `viewer` says it; the mover's own cards need no owner.
    cdef int seat
    if not owner_rel:
        return ""
    if viewer == k.current:
        return "your mate's "
    seat = _owner(k, owner_rel)
    return "your " if viewer == seat else f"seat {seat}'s "


cdef bint _describable(const TgState* k, int a) noexcept nogil:
    # Whether every table _action_struct reads for id `a` holds a known, in-range card in `k` (an
    # observation included): a legal move always does; anything else is described by its kind only.
    cdef const TgPlayer* pl = &k.players[k.current]
    cdef const TgSystem* sy
    cdef int x, seat, slot, target
    if a < 0 or a >= MAX_ACTIONS or k.phase == PH_OVER or k.current < 0 or k.current >= k.params.num_players:
        return False
    if k.phase == PH_FRONTIER:
        return A_FRONTIER <= a < A_FRONTIER + 2
    if k.phase == PH_PAY:
        return A_DISCARD <= a < A_DISCARD + N_TYPES
    if A_SOLVE <= a < A_SELL:
        x = (a - A_SOLVE) % TG_EXPLORED
        return x < k.n_explored and k.explored[x] < N_SPACE
    if A_SELL <= a < A_RELINQ:
        return a - A_SELL < pl.n_ships and pl.ships[a - A_SELL] < N_TYPES
    if A_RELINQ <= a < A_USE_SHIP:
        return a - A_RELINQ < pl.n_systems
    if A_USE_SHIP <= a < A_BUILD_SHIP:
        if a < A_USE_COLONY:
            x = a - A_USE_SHIP
            seat = _owner(k, x // TG_MAX_SHIPS)
            return (0 <= seat < k.params.num_players and x % TG_MAX_SHIPS < k.players[seat].n_ships
                    and k.players[seat].ships[x % TG_MAX_SHIPS] < N_TYPES)
        x = (a - A_USE_COLONY) if a < A_BOUNTY else (a - A_BOUNTY)
        seat = _owner(k, x // 16)
        if not (0 <= seat < k.params.num_players) or (x % 16) // 4 >= k.players[seat].n_systems:
            return False
        sy = &k.players[seat].systems[(x % 16) // 4]
        return a >= A_BOUNTY or (sy.depth[x % 4] > 0 and sy.stack[x % 4][sy.depth[x % 4] - 1] < N_TYPES)
    if A_UPGRADE <= a < A_BUILD:
        x = a - A_UPGRADE
        if x // (4 * TG_TYPES) >= pl.n_systems or x % TG_TYPES >= N_TYPES:
            return False
        sy = &pl.systems[x // (4 * TG_TYPES)]
        slot = (x // TG_TYPES) % 4
        return sy.depth[slot] > 0 and sy.stack[slot][sy.depth[slot] - 1] < N_TYPES
    if a >= A_BUILD:
        x = a - A_BUILD
        target = x // (4 * TG_TYPES)
        if x % TG_TYPES >= N_TYPES:
            return False
        if target < TG_MAX_SYSTEMS:
            return target < pl.n_systems
        return target - TG_MAX_SYSTEMS < k.n_explored and k.explored[target - TG_MAX_SYSTEMS] < N_SPACE
    if A_BUILD_SHIP <= a < A_UPGRADE:
        return a - A_BUILD_SHIP < N_TYPES
    if A_RETRIEVE <= a < A_DRAW_M:
        return a - A_RETRIEVE < N_TYPES
    return a == A_END or a == A_DRAW_M or a == A_DRAW_P


cdef str _viewer_label(const TgState* view, int viewer, int a):
    # The label of the mover's move `a` for another seat or a spectator, from that viewer's observation
    # `view` only (docs/rules/take_the_galaxy.md, "What other seats and spectators read of a move").
    # Every move but a payment's discard shows what the mover's own label says: its card comes from a
    # public place (the table, explored space, a discard pile) or goes face up onto the table (a colony
    # or ship built, a frontier colony), and its costs come from printed numbers and events in force.
    # A card discarded from the hand (to pay a build or to the space pirates) is named by no rule as it
    # leaves the hand, so it stays "a card".
    if not _describable(view, a):
        return ""
    if view.phase == PH_PAY:
        why = "to the space pirates" if view.pay_then_draw else f"to pay ({view.pay_left} left)"
        return f"discard a card {why}"
    return _action_struct(view, a, viewer)["label"]


def _effect_text(int card):
    vin = [CARD_IN[card][r] for r in range(TG_RES)]
    vout = [CARD_OUT[card][r] for r in range(4)]
    text = _res_text(vout)
    if CARD_OUT_RENOWN[card]:
        gain = f"{CARD_OUT_RENOWN[card]} renown"
        text = gain if text == "nothing" else f"{text} + {gain}"
    return f"{_res_text(vin)} -> {text}" if any(vin) else f"+ {text}"
