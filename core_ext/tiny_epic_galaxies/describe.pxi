# Included by engine.pyx: action structs and labels (what Game._action_struct returns) and the action-id
# table ACTION_BLOCKS (docs sections 8 and 13.6).


# The action-id blocks, ascending: (first id, end id, kind), from the core's own constants. Ids in no
# block name no action. describe_action's id-only kinds read it (core_ext/_action_kinds.py); the rules
# doc's tables are checked against it (tests/test_tiny_epic_galaxies_actions.py).
ACTION_BLOCKS = (
    (A_ACTIVATE, A_ACTIVATE + TEG_FACES, "activate"),
    (A_END_TURN, A_END_TURN + 1, "end_turn"),
    (A_REROLL, A_REROLL + 1, "reroll"),
    (A_CONVERT, A_CONVERT + 1, "convert"),
    (A_DONE, A_DONE + 1, "done"),
    (A_FACE, A_FACE + TEG_FACES, "face"),
    (A_FOLLOW, A_FOLLOW + 1, "follow"),
    (A_USE, A_USE + 1, "use"),
    (A_FORCE, A_FORCE + 1, "force_reroll"),
    (A_KEEP, A_KEEP + KEEP_CHOICES, "keep_mission"),
    (A_UPG_E, A_UPG_E + 1, "upgrade_energy"),
    (A_UPG_C, A_UPG_C + 1, "upgrade_culture"),
    (A_TAKE_E, A_TAKE_E + 1, "take_energy"),
    (A_TAKE_C, A_TAKE_C + 1, "take_culture"),
    (A_AMOUNT, A_AMOUNT + CAP + 1, "amount"),                   # amounts 0..CAP
    (A_PLAYER, A_PLAYER + TEG_GALAXIES, "player"),
    (A_ROW, A_ROW + TEG_ROW, "row"),
    (A_SHIP, A_SHIP + TEG_SHIPS, "ship"),
    (A_ENEMY, A_ENEMY + TEG_GALAXIES * TEG_SHIPS, "enemy_ship"),
    (A_COLONY, A_COLONY + TEG_PLANETS, "colony"),
    (A_MOVE, A_MOVE_END, "move"),                               # ship * MOVE_DESTS + destination
    # Beyond the Black
    (A_EXPLORE, A_EXPLORE + TEG_SHIPS, "explore"),
    (A_PILOT, A_PILOT + TEG_PILOT_ROW, "hire"),
    (A_HANGAR, A_HANGAR + TEG_ADV, "hangar"),
    (A_DANGER_PAY, A_DANGER_PAY + TEG_SHIPS, "danger_pay"),
    (A_DANGER_MOVE, A_DANGER_MOVE + TEG_SHIPS, "danger_move"),
    (A_XROW, A_XROW + TEG_XROW, "take_exploration"),
    (A_XDRAW, A_XDRAW + 1, "reveal"),
    (A_XTAKE, A_XTAKE + 1, "take_revealed"),
    (A_XLEAVE, A_XLEAVE + 1, "leave_revealed"),
    (A_COLONY2, A_LIMIT, "colony"),                             # the expansion's planets
)


FACE_TITLES = ("Move a Ship", "Acquire Energy", "Acquire Culture", "Advance Diplomacy", "Advance Economy",
               "Utilize a Colony")


cdef object _ship_where(const TegState* s, int g, int k):
    cdef const TegGalaxy* gal = &s.gal[g]
    at = gal.ship_at[k]
    if at == TEG_HOME:
        return "galaxy"
    if at == TEG_EXPLORE:
        return "Unexplored Space"
    if at == TEG_DANGER:
        c = gal.track_card[k]
        return f"{CARD_NAMES[c]} danger track {gal.ship_space[k]}/{X_TRACK[c]}"
    if at >= TEG_PLANET_ROOM:
        return "locked"
    if gal.ship_orbit[k]:
        return f"{PLANET_NAMES[at]} track {gal.ship_space[k]}"
    return f"{PLANET_NAMES[at]} surface"


cdef dict _describe(const TegState* s, int a):
    cdef const TegTask* t = _ctop(s)
    cdef const TegGalaxy* gal
    g = teg_current_player(s)
    kind, label, extra = "", "", {}
    if A_ACTIVATE <= a < A_END_TURN:
        kind, label, extra = "activate", f"activate {FACE_TITLES[a]}", {"face": FACE_NAMES[a]}
    elif a == A_END_TURN:
        kind, label = "end_turn", "end the turn"
    elif a == A_REROLL:
        cost = "free" if s.rerolls == 0 else "1 energy"
        kind, label = "reroll", f"reroll dice ({cost}): pick them next"
    elif a == A_CONVERT:
        kind, label = "convert", "use the converter: pick 2 dice to spend, then the die to set"
    elif a == A_DONE:
        kind = "done"
        label = {K_REROLL: "roll the picked dice", K_FOLLOW: "do not follow", K_LAND: "do not use the planet",
                 K_ROGUE_DIE: "let the Rogue's die stand", K_PLANET: "stop here"}.get(t.kind, "done")
    elif A_FACE <= a < A_FACE + TEG_FACES:
        f = a - A_FACE
        kind, extra = "face", {"face": FACE_NAMES[f]}
        what = {K_REROLL: "reroll a die showing", K_PLANET: "choose",
                K_HIRE: "hire with the dice showing"}.get(t.kind, "")
        if t.kind == K_CONVERT:
            what = ("converter: spend a die showing" if t.a[0] < 2 else
                    "set a die showing" if t.a[0] == 2 else "set it to")
        label = f"{what} {FACE_TITLES[f]}"
    elif a == A_FOLLOW:
        kind, extra = "follow", {"face": FACE_NAMES[t.a[0]], "cost": t.a[2]}
        label = f"follow {FACE_TITLES[t.a[0]]} for {t.a[2]} culture"
    elif a == A_USE:
        kind, label = "use", f"use {PLANET_NAMES[t.a[0]]}'s action"
    elif a == A_FORCE:
        kind = "force_reroll"
        label = f"pay 1 energy and 1 culture: the Rogue rerolls its {FACE_TITLES[t.a[0]]}"
    elif A_KEEP <= a < A_KEEP + KEEP_CHOICES:
        m = s.gal[g].dealt[a - A_KEEP]
        kind = "keep_mission"
        extra = {"index": a - A_KEEP, "mission": _mission_json(m)}
        label = f"keep mission {_mission_json(m)}"
    elif a in (A_UPG_E, A_UPG_C):
        res = "energy" if a == A_UPG_E else "culture"
        kind, extra = "upgrade", {"resource": res}
        label = f"upgrade the empire to level {s.gal[g].empire + 1} paying {res}"
    elif a in (A_TAKE_E, A_TAKE_C):
        res = "energy" if a == A_TAKE_E else "culture"
        kind, extra, label = "rogue_takes", {"resource": res}, f"the Rogue takes 1 {res}"
    elif A_AMOUNT <= a <= A_AMOUNT + CAP:
        kind, extra, label = "amount", {"amount": a - A_AMOUNT}, f"amount {a - A_AMOUNT}"
        if t.kind == K_PLANET and P_KIND[t.a[0]] in (PK_UPGRADE_MIX, PK_RECALL):
            if P_KIND[t.a[0]] == PK_RECALL:
                label = f"take {a - A_AMOUNT} as energy, the rest as culture"
            else:
                label = f"pay {a - A_AMOUNT} energy, the rest in culture"
    elif A_PLAYER <= a < A_PLAYER + TEG_GALAXIES:
        kind, extra = "player", {"galaxy": _galaxy_name(s, a - A_PLAYER)}
        label = f"from {'the Rogue' if s.solo and a - A_PLAYER == ROGUE else f'seat {a - A_PLAYER}'}"
    elif A_ROW <= a < A_ROW + TEG_ROW:
        kind, extra = "row", {"slot": a - A_ROW, "planet": PLANET_NAMES[s.row[a - A_ROW]]}
        label = f"row planet {PLANET_NAMES[s.row[a - A_ROW]]}"
    elif A_SHIP <= a < A_SHIP + TEG_SHIPS:
        k = a - A_SHIP
        kind, extra = "ship", {"ship": k, "at": _ship_where(s, g, k)}
        gal = &s.gal[g]
        if t.kind == K_HIRE:
            label = f"the advanced ship replaces ship {k} ({_ship_where(s, g, k)})"
        elif t.kind == K_XCARD:
            label = (f"{CARD_NAMES[t.a[0]]}: advance ship {k} ({_ship_where(s, g, k)}) 1")
        elif t.kind == K_DIE and gal.ship_at[k] < TEG_PLANET_ROOM:
            label = (f"activate {FACE_TITLES[t.a[0]]}: {PLANET_NAMES[gal.ship_at[k]]} track "
                     f"{gal.ship_space[k]} -> {gal.ship_space[k] + 1}")
        else:
            label = f"ship {k} ({_ship_where(s, g, k)})"
    elif A_ENEMY <= a < A_ENEMY + TEG_GALAXIES * TEG_SHIPS:
        h, k = divmod(a - A_ENEMY, TEG_SHIPS)
        kind, extra = "enemy_ship", {"galaxy": _galaxy_name(s, h), "ship": k, "at": _ship_where(s, h, k)}
        whose = "the Rogue" if s.solo and h == ROGUE else f"seat {h}"
        label = f"push back {whose}'s ship at {_ship_where(s, h, k)}"
    elif A_COLONY <= a < A_COLONY + TEG_PLANETS or A_COLONY2 <= a < A_LIMIT:
        p = _colony_of(a)
        kind, extra, label = "colony", {"planet": PLANET_NAMES[p]}, f"use colony {PLANET_NAMES[p]}"
    elif A_MOVE_END <= a < A_COLONY2:
        kind, label, extra = _describe_btb(s, g, a)
    elif A_MOVE <= a < A_MOVE_END:
        k, dest = divmod(a - A_MOVE, MOVE_DESTS)
        if dest == 0:
            to = "galaxy"
        else:
            to = f"{PLANET_NAMES[s.row[(dest - 1) >> 1]]} {'orbit' if (dest - 1) & 1 else 'surface'}"
        kind, extra = "move", {"ship": k, "from": _ship_where(s, g, k), "to": to}
        label = f"move ship {k}: {_ship_where(s, g, k)} -> {to}"
    d = {"id": a, "kind": kind, "label": label}
    d.update(extra)
    return d


cdef tuple _describe_btb(const TegState* s, int g, int a):
    cdef const TegTask* t = _ctop(s)
    if A_EXPLORE <= a < A_PILOT:
        k = a - A_EXPLORE
        return "explore", f"move ship {k} ({_ship_where(s, g, k)}) into Unexplored Space and explore", \
            {"ship": k, "from": _ship_where(s, g, k)}
    if A_PILOT <= a < A_HANGAR:
        slot = a - A_PILOT
        p = s.btb.pilot_row[slot]
        return "hire", f"hire pilot {PILOT_NAMES[p]} ({_BTB['pilots'][p]['text']})", \
            {"slot": slot, "pilot": PILOT_NAMES[p]}
    if A_HANGAR <= a < A_DANGER_PAY:
        kind = a - A_HANGAR
        p = s.btb.pilot_row[t.a[1]]
        trained = "trained" if (PIL_TRAINED[p] >> kind) & 1 else "not trained: 3 matching dice"
        return "hangar", f"{PILOT_NAMES[p]} flies the {SHIP_KIND_NAMES[kind]} ({trained})", \
            {"ship_kind": SHIP_KIND_NAMES[kind]}
    if A_DANGER_PAY <= a < A_DANGER_MOVE:
        k = a - A_DANGER_PAY
        res = TRACK_COSTS[X_COST[s.gal[g].track_card[k]]]
        return "danger_pay", f"pay 1 {res}: ship {k} advances on {_ship_where(s, g, k)}", {"ship": k}
    if A_DANGER_MOVE <= a < A_XROW:
        k = a - A_DANGER_MOVE
        return "danger_move", f"ship action: ship {k} advances on {_ship_where(s, g, k)}", {"ship": k}
    if A_XROW <= a < A_XDRAW:
        c = s.btb.xrow[a - A_XROW]
        return "take_exploration", f"take face-up {CARD_NAMES[c]} ({_BTB['exploration_cards'][c]['text']})", \
            {"slot": a - A_XROW, "card": CARD_NAMES[c]}
    if a == A_XDRAW:
        return "reveal", f"reveal the top exploration card ({_deck_left(s)} left)", {}
    c = t.a[2]
    text = f"{CARD_NAMES[c]} ({_BTB['exploration_cards'][c]['text']})"
    if a == A_XTAKE:
        return "take_revealed", f"take {text}", {"card": CARD_NAMES[c]}
    return "leave_revealed", f"leave {text} face up and reveal the next", {"card": CARD_NAMES[c]}


# ---------------------------------------------------------------- a move as another viewer reads it

cdef str _describe_for_other(const TegState* v, int a):
    # The label of the mover's legal action `a` built from `v`, another viewer's observation of the
    # position (another seat's, or the public one with observer -1): what v hides is worded generically.
    # Hidden fields hold TEG_HIDDEN (or TEG_NONE): they are tested before any table is indexed with them.
    # - the dealt and kept secret missions (Secret missions): v holds TEG_HIDDEN for another seat's
    #   dealt pair, so "keep a mission";
    # - Beyond the Black's face-down cards (After exploration): no label names one; the cards a label
    #   names (the face-up row, the card just revealed, a card under a ship or being resolved) are face
    #   up, and v shows them (hidden.pxi, _card_face_up); checked all the same below;
    # - the decks' order and future dice: no label names them ("reveal the top exploration card").
    cdef const TegTask* t = _ctop(v)
    cdef int g = teg_current_player(v)
    cdef int m, c
    if A_KEEP <= a < A_KEEP + KEEP_CHOICES:
        m = v.gal[g].dealt[a - A_KEEP]
        if m >= _mission_count(v):
            return "keep a mission"
        return f"keep mission {MISSION_NAMES[m]}"
    if a == A_XTAKE or a == A_XLEAVE:
        c = t.a[2] if t.kind == K_EXPLORE else TEG_NONE
        if c >= TEG_CARDS:
            if a == A_XTAKE:
                return "take the revealed card"
            return "leave the revealed card face up and reveal the next"
    elif A_XROW <= a < A_XDRAW:
        c = v.btb.xrow[a - A_XROW]
        if c >= TEG_CARDS:
            return "take a face-up exploration card"
    return _describe(v, a)["label"]
