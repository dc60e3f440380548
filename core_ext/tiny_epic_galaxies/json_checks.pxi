# Included by engine.pyx: whole-state consistency checks after loading (json_load.pxi). The pending
# decisions must follow the stack's grammar and the loaded state must already be settled (no
# automatic step may be left to run); Beyond the Black's cards, rows and decks must add up.


cdef void _check_loaded(TegState* s, dict d, int observer) except *:
    # After the fields: Beyond the Black's cards and rows, the row against the deck, the missions dealt,
    # the end condition (the pending decisions are checked by _check_pending once loaded).
    n_gal, solo = s.n_gal, s.solo
    if s.btb.on:
        _check_btb(s)
    if any(s.row[i] == TEG_NONE for i in range(s.row_size)) and \
            any(s.where[p] == W_DECK for p in range(N_PLANETS)):
        fail("state.row", "an empty row slot while the deck still has planets")
    if observer >= 0 and s.gal[observer].dealt[0] == TEG_HIDDEN:
        fail(f"state.galaxies[{observer}].dealt", "the observer sees its own missions")
    seen = [m for g in range(_n_seats(s)) for m in (s.gal[g].dealt[0], s.gal[g].dealt[1])
            if m < TEG_MISSION_ROOM]
    if len(seen) != len(set(seen)):
        fail("state.galaxies", "a mission is dealt twice")
    for g in range(_n_seats(s)):
        known = s.gal[g].dealt[0] < TEG_MISSION_ROOM or s.gal[g].dealt[0] == TEG_HIDDEN
        if not known:
            fail(f"state.galaxies[{g}].dealt", "every seat is dealt 2 missions")
        if (s.gal[g].mission == TEG_NONE) != (s.round == 0 and g >= _pending_mission_floor(d)):
            fail(f"state.galaxies[{g}].mission", "kept missions must match the pending mission choices")
    for g in range(n_gal):
        if s.trigger < 0 and _meets_end_condition(s, g):
            fail("state.trigger", f"galaxy {g} has reached the end condition, so the end must be triggered")
    if s.trigger >= 0 and not _meets_end_condition(s, s.trigger) and not (s.btb.on and _deck_left(s) == 0):
        who = "the Rogue" if s.solo and s.trigger == ROGUE else f"galaxy {s.trigger}"
        fail("state.trigger", f"{who} has not reached the end condition "
             f"({POINTS_TO_END} points{', the Rogue empire level 6' if solo else ''}"
             f"{', or the last exploration card' if s.btb.on else ''}), so it cannot have triggered the end")


cdef bint _meets_end_condition(const TegState* s, int g) noexcept:
    # Points never go down in play (colonies, empire levels, hired pilots, taken cards all stay), so the
    # galaxy that triggered the end still meets its condition (End of game; Solo: the Rogue at level 6).
    return _points(s, g) >= POINTS_TO_END or (s.solo and g == ROGUE and s.gal[g].empire == MAX_LEVEL)


def _pending_mission_floor(dict d):
    # Seats still choosing their mission are the bottom-most "keep_mission" tasks: seats >= the first.
    seats = [t.get("galaxy") for t in d["pending"]
             if isinstance(t, dict) and t.get("decision") == "keep_mission"]
    return min(seats) if seats and all(isinstance(x, int) and not isinstance(x, bool) for x in seats) else 99


cdef void _check_pending(TegState* s, dict d) except *:
    # The grammar of the stack: the bottom is the turn (or the mission choices, or the Rogue's turn).
    cdef int i
    kinds = [s.stack[i].kind for i in range(s.depth)]
    _check_turn_values(s)
    if s.over:
        if kinds:
            fail("state.pending", "a finished game has no pending decisions")
        if s.trigger < 0 and s.round < ROUND_CAP:
            fail("state.over", "the game ended without its end being triggered")
        return
    if not kinds:
        fail("state.pending", "a game in progress has a pending decision")
    if s.round == 0:
        seats = [s.stack[i].seat for i in range(s.depth)]
        if any(k != K_MISSION for k in kinds) or seats != sorted(seats, reverse=True) or \
                seats != list(range(_n_seats(s) - 1, _n_seats(s) - 1 - len(seats), -1)):
            fail("state.pending", "before round 1 only the mission choices, the last seat at the bottom")
        if s.active != 0:
            fail("state.active", "seat 0 starts")
        return
    if K_MISSION in kinds:
        fail("state.pending", "missions are chosen before round 1")
    bottom = kinds[0]
    rogue_turn = s.solo and s.active == ROGUE
    if bottom != (K_ROGUE_TURN if rogue_turn else K_TURN) or s.stack[0].seat != s.active:
        fail("state.pending[0]", "the bottom decision is the active galaxy's turn")
    if kinds.count(K_TURN) + kinds.count(K_ROGUE_TURN) != 1:
        fail("state.pending", "exactly one turn")
    for i in range(1, s.depth):
        k = kinds[i]
        if k in (K_REROLL, K_CONVERT) and s.stack[i].seat != s.active:
            fail(f"state.pending[{i}]", "only the active player rerolls or converts")
        if k in (K_REROLL, K_CONVERT) and i != s.depth - 1:
            fail(f"state.pending[{i}]", "a die selection is always the top decision")
        if k == K_HIRE and (s.stack[i].seat != s.active or i != s.depth - 1):
            fail(f"state.pending[{i}]", "only the active player hires, and hiring is the top decision")
        if k == K_ROGUE_DIE and (i != s.depth - 1 or not rogue_turn):
            fail(f"state.pending[{i}]", "a Rogue die is the top decision of the Rogue's turn")
    if not rogue_turn and any(s.gal[s.active].ship_at[k] == TEG_NONE for k in range(TEG_SHIPS)):
        fail("state.galaxies", "inconsistent ships")
    for i in range(s.depth):
        _check_task_precondition(s, &s.stack[i], f"state.pending[{i}]")
    # The loaded state must be settled: an automatic step left on top would change it.
    cdef TegState copy
    memcpy(&copy, s, sizeof(TegState))
    _settle(&copy)
    if memcmp(&copy, s, sizeof(TegState)) != 0:
        fail("state.pending", "the top decision is not one a player can take now (an automatic step is due)")


cdef void _check_btb(TegState* s) except *:
    # What needs the whole state: hangar ships unlocked, rows filled while decks last, the hidden
    # classes dealable, the end triggered by an empty exploration deck.
    cdef int g, k, cls, c, need, have
    for g in range(s.n_gal):
        for k in range(TEG_SHIPS):
            if s.gal[g].adv[k] != TEG_NONE and s.gal[g].ship_at[k] in (TEG_LOCKED, TEG_NONE):
                fail(f"state.galaxies[{g}].hangar", f"ship {k} is locked, it cannot be an advanced ship")
    if any(s.btb.pilot_row[i] == TEG_NONE for i in range(s.btb.pilot_row_size)) and \
            any(s.btb.pilot_where[p] == PW_DECK for p in range(TEG_PILOTS)):
        fail("state.beyond_the_black.pilot_row", "an empty pilot slot while the pilot deck still has pilots")
    for cls in range(TEG_CARD_CLASSES):
        need = sum(s.btb.hidden[g][cls] for g in range(TEG_GALAXIES))
        have = sum(1 for c in range(TEG_CARDS)
                   if s.btb.card_where[c] == CW_DECK and X_BADGE[c] * 4 + X_DWARF[c] == cls)
        if need > have:
            fail("state.galaxies",
                 f"more hidden {BADGE_NAMES[cls // 4]} cards worth {cls % 4} than unknown cards")
    if _deck_left(s) == 0 and s.trigger < 0 and not any(
            s.stack[i].kind == K_EXPLORE and s.stack[i].a[1] == 1 for i in range(s.depth)):
        fail("state.trigger", "the exploration deck is exhausted, so the end must be triggered")


cdef void _check_turn_values(const TegState* s) except *:
    # The turn's values are derived from what happened this turn (docs section 10, "Derived values"):
    # they are reset when a turn starts, so they are blank before round 1 and after the end (the dice
    # and the follow values also in the Rogue's turn, the Rogue's planets always); the dice never
    # outnumber the active galaxy's dice; the follow bonus is set exactly when Birkomius / Bisschop is
    # marked used, and following costs 2 only after Nibiru.
    cdef int g, p, r, total
    cdef uint64_t used
    blank = s.over or s.round == 0 or _is_rogue(s, s.active)
    for g in range(s.n_gal):
        used = s.gal[g].once_used
        # The player following the Rogue's dice may use a once-per-turn planet in the Rogue's turn.
        if used and (s.over or s.round == 0 or _is_rogue(s, g)):
            fail(f"state.galaxies[{g}].once_used", "no planet action was used in this turn")
        for p in range(TEG_PLANET_ROOM):
            if (used >> p) & 1 and s.where[p] == W_DECK:
                fail(f"state.galaxies[{g}].once_used", f"{PLANET_NAMES[p]} has not been in play")
    total = sum(s.pool[f] + s.bay[f] + s.hire_bay[f] for f in range(TEG_FACES))
    if blank:
        if total or s.rerolls or s.converter_used:
            fail("state.dice", "no dice are rolled outside a player's turn")
    elif total > LEVEL_DICE[s.gal[s.active].empire]:
        fail("state.dice", f"more dice than galaxy {s.active}'s empire level rolls")
    elif s.converter_used and total + 2 > LEVEL_DICE[s.gal[s.active].empire]:
        # the converter spends 2 dice for good (Dice); an empire level gained this turn only adds dice
        fail("state.dice.converter_used", "the converter spends 2 dice, so at most the empire level's dice "
             f"less 2 are left ({total} are)")
    if s.follow_cost != 1 and (blank or not any(P_KIND[p] == PK_FOLLOW_COST and P_A[p] == s.follow_cost
                                                and s.where[p] != W_DECK for p in range(TEG_PLANET_ROOM))):
        fail("state.follow_cost", "following costs 2 only after Nibiru's action this turn")
    used = 0 if blank else s.gal[s.active].once_used
    for r in range(2):
        marked = any((used >> p) & 1 and P_KIND[p] == PK_FOLLOW_BONUS and P_A[p] == r
                     for p in range(TEG_PLANET_ROOM))
        if bool((s.follow_bonus >> r) & 1) != marked:
            fail("state.follow_bonus",
                 f"{RESOURCE_NAMES[r]} is listed exactly when the active galaxy used its planet this turn")


cdef bint _kind_in_play(const TegState* s, int kind) noexcept:
    # Some planet with this action has left the deck (a planet in the deck has never been used).
    cdef int p
    for p in range(TEG_PLANET_ROOM):
        if P_KIND[p] == kind and s.where[p] != W_DECK and s.where[p] != W_BOX:
            return True
    return False


cdef void _check_task_precondition(const TegState* s, const TegTask* t, str where) except *:
    # What play guarantees when it pushes a decision (docs section 10, "Pending decisions").
    cdef int g = t.seat, p, k
    if t.kind == K_ROGUE_TURN and t.a[0] > LEVEL_DICE[s.gal[g].empire]:
        fail(where + ".dice_left", f"the Rogue rolls {LEVEL_DICE[s.gal[g].empire]} dice at its empire level")
    elif t.kind == K_REROLL and t.a[7] and not _kind_in_play(s, PK_REROLL):
        fail(where + ".zalax", "Zalax's reroll needs Zalax in play")
    elif t.kind == K_CONVERT and t.a[4] and not _kind_in_play(s, PK_SET_DIE):
        fail(where + ".gyore", "Gyore's die needs Gyore in play")
    elif t.kind == K_FOLLOW and t.a[2] > s.follow_cost:
        fail(where + ".cost", f"following costs at most {s.follow_cost} culture this turn")
    elif t.kind == K_LAND:
        p = t.a[0]
        if not any(s.gal[g].ship_at[k] == p and not s.gal[g].ship_orbit[k] for k in range(TEG_SHIPS)):
            fail(where + ".planet", f"galaxy {g} has no ship on {PLANET_NAMES[p]}'s surface")
    elif t.kind == K_PLANET:
        p = t.a[0]
        if s.where[p] != W_ROW and not W_COLONY <= s.where[p] < W_COLONY + TEG_GALAXIES:
            fail(where + ".planet", f"{PLANET_NAMES[p]} is neither in the row nor colonized")
        if P_ONCE[p] and not (s.gal[g].once_used >> p) & 1:
            fail(where + ".planet", f"{PLANET_NAMES[p]}'s once-per-turn action is not marked used")
        if P_OWN_TURN[p] and g != s.active:
            fail(where + ".planet", f"{PLANET_NAMES[p]}'s action is used on one's own turn only")
