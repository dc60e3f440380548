# Included by engine.pyx: Beyond the Black's part of the JSON payload (docs section 13.7): its
# catalogue names, the dump of its fields and the loaders of its fields (every value range-checked
# before it indexes anything). The whole-state checks are in json_checks.pxi.


_BTB = CATALOGUE["beyond_the_black"]
SHIP_KIND_NAMES = tuple(_BTB["advanced_ships"])
BADGE_NAMES = tuple(_BTB["badges"])
PILOT_NAMES = tuple(p["name"] for p in _BTB["pilots"])
CARD_NAMES = tuple(c["name"] for c in _BTB["exploration_cards"])
ROGUE_GALAXY_NAMES = tuple(r["name"] for r in _BTB["rogue_galaxies"])
_PILOT_ID = {n: i for i, n in enumerate(PILOT_NAMES)}
_CARD_ID = {n: i for i, n in enumerate(CARD_NAMES)}
BTB_GALAXY_KEYS = ("hangar", "retired_pilots", "exploration_cards")


cdef int _read_pilot(object value, str where) except -1:
    if type(value) is not str or value not in _PILOT_ID:
        fail(where, f"{show(value)} is not a pilot")
    return _PILOT_ID[value]


cdef int _read_card(object value, str where) except -1:
    if type(value) is not str or value not in _CARD_ID:
        fail(where, f"{show(value)} is not an exploration card")
    return _CARD_ID[value]


cdef void _btb_clear(TegState* s) noexcept:
    # A blank expansion part for the loader: everything in the decks, nothing hidden.
    cdef int i
    for i in range(TEG_PILOT_ROOM):
        s.btb.pilot_where[i] = PW_DECK if i < TEG_PILOTS else PW_ROW
    for i in range(TEG_CARD_ROOM):
        s.btb.card_where[i] = CW_DECK if i < TEG_CARDS else CW_ROW
    memset(s.btb.pilot_row, TEG_NONE, TEG_PILOT_ROW)
    memset(s.btb.xrow, TEG_NONE, TEG_XROW)
    memset(s.btb.hidden, 0, sizeof(s.btb.hidden))


# ---------------------------------------------------------------- dump

cdef object _btb_task_json(const TegTask* t, dict d):
    a = t.a
    if t.kind == K_HIRE:
        d.update(slot=a[1], ship_kind=SHIP_KIND_NAMES[a[2]] if a[0] >= 1 else None,
                 face=FACE_NAMES[a[3]] if a[0] >= 2 else None)
    elif t.kind == K_EXPLORE:
        d.update(ship=a[0], revealed=CARD_NAMES[a[2]] if a[1] == 1 else None)
    else:
        d.update(card=CARD_NAMES[a[0]])


cdef object _btb_galaxy_json(const TegState* s, int g, dict entry):
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int t, k, i, cls
    entry["exploration_cards"] = [CARD_NAMES[c] for c in range(TEG_CARDS)
                                  if s.btb.card_where[c] == CW_TAKEN + g]
    hidden = []
    for cls in range(TEG_CARD_CLASSES):
        hidden += [{"badge": BADGE_NAMES[cls // 4], "dwarf_planet_vp": cls % 4}] * s.btb.hidden[g][cls]
    if hidden:
        entry["hidden_cards"] = hidden
    if s.solo and g == ROGUE:
        return None
    hangar = {}
    for t in range(TEG_ADV):
        hangar[SHIP_KIND_NAMES[t]] = None
        if gal.pilot[t] != TEG_NONE:
            ship = [k for k in range(TEG_SHIPS) if gal.adv[k] == t]
            hangar[SHIP_KIND_NAMES[t]] = {"pilot": PILOT_NAMES[gal.pilot[t]],
                                          "ship": ship[0] if ship else None}
    entry["hangar"] = hangar
    active = {gal.pilot[t] for t in range(TEG_ADV)}
    entry["retired_pilots"] = [PILOT_NAMES[i] for i in range(TEG_PILOTS)
                               if s.btb.pilot_where[i] == PW_HIRED + g and i not in active]
    return None


cdef dict _btb_json(const TegState* s):
    return {
        "pilot_row": [None if s.btb.pilot_row[i] == TEG_NONE else PILOT_NAMES[s.btb.pilot_row[i]]
                      for i in range(s.btb.pilot_row_size)],
        "exploration_row": [CARD_NAMES[s.btb.xrow[i]] for i in range(TEG_XROW) if s.btb.xrow[i] != TEG_NONE],
    }


# ---------------------------------------------------------------- load

cdef bint _load_btb_ship(TegState* s, int g, int k, object ship, str sp) except *:
    # The expansion's ship places: "unexplored" or {"danger": card, "track": space}; False for others.
    cdef TegGalaxy* gal = &s.gal[g]
    if ship == "unexplored":
        gal.ship_at[k] = TEG_EXPLORE
        return True
    if type(ship) is not dict or "danger" not in ship:
        return False
    read_object(ship, sp, ("danger", "track"))
    c = _read_card(ship["danger"], sp + ".danger")
    if s.btb.card_where[c] != CW_TAKEN + g or not X_TRACK[c]:
        fail(sp + ".danger", f"{ship['danger']} is not a danger track card this galaxy holds")
    for j in range(k):
        if gal.ship_at[j] == TEG_DANGER and gal.track_card[j] == c:
            fail(sp + ".danger", "two ships on one danger track")
    gal.ship_space[k] = read_int(ship["track"], sp + ".track", 0, X_TRACK[c] - 1)
    gal.track_card[k] = c
    gal.ship_at[k] = TEG_DANGER
    return True


cdef void _load_btb(TegState* s, object d, list gals, int observer) except *:
    cdef int g, i, t
    read_object(d, "state.beyond_the_black", ("pilot_row", "exploration_row"))
    row = read_list(d["pilot_row"], "state.beyond_the_black.pilot_row", s.btb.pilot_row_size,
                    s.btb.pilot_row_size)
    for i, name in enumerate(row):
        if name is None:
            continue
        p = _read_pilot(name, f"state.beyond_the_black.pilot_row[{i}]")
        if s.btb.pilot_where[p] != PW_DECK:
            fail(f"state.beyond_the_black.pilot_row[{i}]", f"{name} appears twice")
        s.btb.pilot_where[p] = PW_ROW
        s.btb.pilot_row[i] = p
    xrow = read_list(d["exploration_row"], "state.beyond_the_black.exploration_row", 0, TEG_XROW)
    for i, name in enumerate(xrow):
        c = _read_card(name, f"state.beyond_the_black.exploration_row[{i}]")
        if s.btb.card_where[c] != CW_DECK:
            fail(f"state.beyond_the_black.exploration_row[{i}]", f"{name} appears twice")
        if X_DANGER[c]:
            fail(f"state.beyond_the_black.exploration_row[{i}]",
                 f"{name} is a danger card; only discoveries are left face up")
        s.btb.card_where[c] = CW_ROW
        s.btb.xrow[i] = c
    for g in range(s.n_gal):
        e = gals[g]
        where = f"state.galaxies[{g}]"
        if type(e) is not dict:
            fail(where, f"{show(e)} is not an object")
        rogue = s.solo and g == ROGUE
        cards = read_list(e.get("exploration_cards"), where + ".exploration_cards", 0, TEG_CARDS)
        for i, name in enumerate(cards):
            c = _read_card(name, f"{where}.exploration_cards[{i}]")
            if s.btb.card_where[c] != CW_DECK:
                fail(f"{where}.exploration_cards[{i}]", f"{name} appears twice")
            s.btb.card_where[c] = CW_TAKEN + g
        if "hidden_cards" in e:
            if observer < 0 or g == observer or rogue:
                fail(where + ".hidden_cards", "only another seat's cards are hidden, only in an observation")
            for i, h in enumerate(read_list(e["hidden_cards"], where + ".hidden_cards", 1, TEG_CARDS)):
                hp = f"{where}.hidden_cards[{i}]"
                read_object(h, hp, ("badge", "dwarf_planet_vp"))
                badge = read_name(h["badge"], hp + ".badge", BADGE_NAMES)
                vp = read_int(h["dwarf_planet_vp"], hp + ".dwarf_planet_vp", 0, 3)
                s.btb.hidden[g][badge * 4 + vp] += 1
        if rogue:
            continue
        hangar = read_object(e.get("hangar"), where + ".hangar", SHIP_KIND_NAMES)
        used_ships = set()
        for t in range(TEG_ADV):
            hp = f"{where}.hangar.{SHIP_KIND_NAMES[t]}"
            slot = hangar[SHIP_KIND_NAMES[t]]
            if slot is None:
                continue
            read_object(slot, hp, ("pilot", "ship"))
            p = _read_pilot(slot["pilot"], hp + ".pilot")
            if s.btb.pilot_where[p] != PW_DECK:
                fail(hp + ".pilot", f"{slot['pilot']} appears twice")
            s.btb.pilot_where[p] = PW_HIRED + g
            s.gal[g].pilot[t] = p
            k = read_int(slot["ship"], hp + ".ship", 0, TEG_SHIPS - 1)
            if k in used_ships:
                fail(hp + ".ship", "two advanced ships on one ship")
            used_ships.add(k)
            s.gal[g].adv[k] = t
        retired = read_list(e.get("retired_pilots"), where + ".retired_pilots", 0, TEG_PILOTS)
        if retired and not used_ships:
            fail(where + ".retired_pilots", "a replaced pilot needs an advanced ship flying")
        for i, name in enumerate(retired):
            p = _read_pilot(name, f"{where}.retired_pilots[{i}]")
            if s.btb.pilot_where[p] != PW_DECK:
                fail(f"{where}.retired_pilots[{i}]", f"{name} appears twice")
            s.btb.pilot_where[p] = PW_HIRED + g


cdef void _load_btb_task(TegState* s, TegTask* t, dict d, str where) except *:
    cdef int g = t.seat
    base = ("decision", "galaxy")
    if t.kind == K_HIRE:
        read_object(d, where, base + ("slot", "ship_kind", "face"))
        slot = read_int(d["slot"], where + ".slot", 0, s.btb.pilot_row_size - 1)
        p = s.btb.pilot_row[slot]
        if p == TEG_NONE:
            fail(where + ".slot", "no pilot there")
        t.a[1] = slot
        if d["ship_kind"] is None:
            if d["face"] is not None:
                fail(where + ".face", "the dice are chosen after the ship")
            return
        t.a[2] = read_name(d["ship_kind"], where + ".ship_kind", SHIP_KIND_NAMES)
        t.a[0] = 1
        if not _hire_ship_ok(s, g, p, t.a[2]):
            fail(where + ".ship_kind", "this pilot cannot be hired for that ship now")
        if d["face"] is None:
            return
        t.a[3] = _read_face(d["face"], where + ".face")
        t.a[0] = 2
        if not _hire_face_ok(s, p, t.a[2], t.a[3]) or s.gal[g].pilot[t.a[2]] != TEG_NONE:
            fail(where + ".face", "those dice cannot pay, or the ship already flies (no ship to choose)")
    elif t.kind == K_EXPLORE:
        read_object(d, where, base + ("ship", "revealed"))
        k = read_int(d["ship"], where + ".ship", 0, TEG_SHIPS - 1)
        if s.gal[g].ship_at[k] != TEG_EXPLORE:
            fail(where + ".ship", "the exploring ship is in Unexplored Space")
        t.a[0] = k
        if d["revealed"] is not None:
            c = _read_card(d["revealed"], where + ".revealed")
            if s.btb.card_where[c] != CW_DECK or X_DANGER[c]:
                fail(where + ".revealed", "a revealed discovery is nowhere else")
            if any(s.stack[i].kind == K_EXPLORE and s.stack[i].a[1] == 1 for i in range(s.depth)):
                fail(where, "one revealed card at a time")
            s.btb.card_where[c] = CW_REVEALED
            t.a[1] = 1
            t.a[2] = c
    else:
        read_object(d, where, base + ("card",))
        c = _read_card(d["card"], where + ".card")
        if s.btb.card_where[c] != CW_TAKEN + g or not X_ADVANCE[c]:
            fail(where + ".card", "a card this galaxy took that advances a ship")
        t.a[0] = c
