# Included by engine.pyx: JSON payload -> struct, field by field (docs section 10).
#
# Loading range-checks every value (json_fields readers) before it indexes anything and rebuilds the
# struct; json_checks.pxi then rejects a state that is not consistent as a whole. Beyond the Black's
# fields: btb_json.pxi.


_PLANET_ID = {n: i for i, n in enumerate(PLANET_NAMES)}
TASK_NAME_LIST = tuple(TASK_KINDS)
_MISSION_ID = {n: i for i, n in enumerate(MISSION_NAMES)}


# ---------------------------------------------------------------- the game's readers (json_fields style)

cdef int _read_planet(object value, str where, const TegState* s) except -1:
    # a planet name, of a planet in this game
    if type(value) is not str or value not in _PLANET_ID:
        fail(where, f"{show(value)} is not a planet name")
    if s.where[_PLANET_ID[value]] == W_BOX:
        fail(where, f"{value} is a Beyond the Black planet, not in this game")
    return _PLANET_ID[value]


cdef int _read_mission(object value, str where, const TegState* s) except -1:
    # a mission name, of a mission in this game
    if type(value) is not str or value not in _MISSION_ID or _MISSION_ID[value] >= _mission_count(s):
        fail(where, f"{show(value)} is not a mission of this game")
    return _MISSION_ID[value]


cdef int _read_face(object value, str where) except -1:
    return read_name(value, where, FACE_NAMES)


cdef list _read_face_counts(object value, str where, int total_max):
    # dice as counts per face: {"move": 2, ...}, absent faces 0
    read_object(value, where, (), FACE_NAMES)
    out = [0] * TEG_FACES
    for name, count in value.items():
        out[FACE_NAMES.index(name)] = read_int(count, f"{where}.{name}", 1, 7)
    if sum(out) > total_max:
        fail(where, f"more than {total_max} dice")
    return out


cdef int _read_galaxy(object value, str where, int n_gal, bint solo) except -1:
    # a seat number, or "rogue" for the Rogue's galaxy in solo
    if solo and type(value) is str and value == "rogue":
        return ROGUE
    return read_int(value, where, 0, n_gal - 1 if not solo else 0)


# ---------------------------------------------------------------- fields

cdef void _load_galaxy(TegState* s, int g, object e, str where, int observer) except *:
    cdef TegGalaxy* gal = &s.gal[g]
    rogue = s.solo and g == ROGUE
    keys = ("energy", "culture", "empire", "colonies", "ships", "once_used")
    if s.btb.on:
        keys = keys + (("exploration_cards",) if rogue else BTB_GALAXY_KEYS)
    read_object(e, where, keys if rogue else keys + ("dealt", "mission"),
                ("hidden_cards",) if s.btb.on else ())
    gal.energy = read_int(e["energy"], where + ".energy", 0, CAP)
    gal.culture = read_int(e["culture"], where + ".culture", 0, CAP)
    gal.empire = read_int(e["empire"], where + ".empire", 1, MAX_LEVEL)
    for i, name in enumerate(read_list(e["colonies"], where + ".colonies", 0, TEG_PLANETS)):
        p = _read_planet(name, f"{where}.colonies[{i}]", s)
        if s.where[p] != W_DECK:
            fail(f"{where}.colonies[{i}]", f"{name} is already in the row, discarded or colonized")
        s.where[p] = W_COLONY + g
    for i, name in enumerate(read_list(e["once_used"], where + ".once_used", 0, TEG_PLANETS)):
        p = _read_planet(name, f"{where}.once_used[{i}]", s)
        if not P_ONCE[p]:
            fail(f"{where}.once_used[{i}]", f"{name} has no once-per-turn action")
        gal.once_used |= (<uint64_t>1) << p
    ships = read_list(e["ships"], where + ".ships", TEG_SHIPS, TEG_SHIPS)
    for k, ship in enumerate(ships):
        sp = f"{where}.ships[{k}]"
        unlocked = rogue or k < LEVEL_SHIPS[gal.empire]
        if ship == "locked" or ship == "home":
            if (ship == "locked") == unlocked:
                fail(sp, f"ship {k} is {'unlocked' if unlocked else 'locked'} at empire level {gal.empire}")
            gal.ship_at[k] = TEG_LOCKED if ship == "locked" else TEG_HOME
            continue
        if not unlocked:
            fail(sp, f"ship {k} is locked at empire level {gal.empire}")
        if s.btb.on and not rogue and _load_btb_ship(s, g, k, ship, sp):
            continue
        if type(ship) is not dict or "planet" not in ship:
            fail(sp, f"{show(ship)} is not \"home\", \"locked\", {{\"planet\", \"track\"}} or "
                     f"{{\"planet\", \"surface\"}}")
        p = _read_planet(ship["planet"], sp + ".planet", s)
        if s.where[p] != W_ROW:
            fail(sp, f"{ship['planet']} is not in the row")
        if "track" in ship:
            read_object(ship, sp, ("planet", "track"))
            gal.ship_orbit[k] = 1
            gal.ship_space[k] = read_int(ship["track"], sp + ".track", 0, P_N[p])
        else:
            read_object(ship, sp, ("planet", "surface"))
            if ship["surface"] is not True:
                fail(sp + ".surface", "must be true")
        if rogue and not gal.ship_orbit[k]:
            fail(sp, "Rogue ships only orbit")
        for j in range(k):
            if gal.ship_at[j] == p and gal.ship_orbit[j] == gal.ship_orbit[k]:
                place = "track" if gal.ship_orbit[k] else "surface"
                fail(sp, f"two ships of one galaxy on the same {place}")
        gal.ship_at[k] = p
    if rogue:
        gal.dealt[0] = gal.dealt[1] = gal.mission = TEG_NONE
        return
    hidden_ok = observer >= 0 and g != observer
    dealt = read_list(e["dealt"], where + ".dealt", 2, 2)
    for i in range(2):
        if dealt[i] == "?":
            if not hidden_ok:
                fail(f"{where}.dealt[{i}]", "this mission must be known here")
            gal.dealt[i] = TEG_HIDDEN
        else:
            if hidden_ok:
                fail(f"{where}.dealt[{i}]", f"seat {observer} cannot see another seat's dealt missions")
            gal.dealt[i] = _read_mission(dealt[i], f"{where}.dealt[{i}]", s)
    if gal.dealt[0] == gal.dealt[1] and gal.dealt[0] != TEG_HIDDEN:
        fail(where + ".dealt", "the two dealt missions must differ")
    m = e["mission"]
    if m is None:
        gal.mission = TEG_NONE
    elif m == "?":
        if not hidden_ok or s.over:
            fail(where + ".mission", "the kept mission must be shown here")
        gal.mission = TEG_HIDDEN
    else:
        gal.mission = _read_mission(m, where + ".mission", s)
        if hidden_ok and not s.over:
            fail(where + ".mission", f"seat {observer} cannot see another seat's kept mission")
        if gal.dealt[0] != TEG_HIDDEN and gal.mission not in (gal.dealt[0], gal.dealt[1]):
            fail(where + ".mission", "the kept mission must be one of the two dealt")


cdef void _load_task(TegState* s, TegTask* t, dict d, str where) except *:
    name = TASK_NAME_LIST[read_name(d.get("decision"), where + ".decision", TASK_NAME_LIST)]
    kind = TASK_KINDS[name]
    t.kind = kind
    g = _read_galaxy(d.get("galaxy"), where + ".galaxy", s.n_gal, s.solo)
    rogue_kinds = (K_ROGUE_TURN, K_ROGUE_DIE, K_FOLLOW)
    if (s.solo and g == ROGUE) != (kind in (K_ROGUE_TURN, K_ROGUE_DIE)) and \
            not (kind == K_FOLLOW and s.solo):
        fail(where + ".galaxy", f"a {name} decision does not belong to this galaxy")
    if kind == K_ROGUE_TAKE and not s.solo:
        fail(where, "rogue_takes exists only in solo")
    t.seat = g
    base = ("decision", "galaxy")
    if kind in (K_MISSION, K_TURN):
        read_object(d, where, base)
    elif kind == K_REROLL:
        read_object(d, where, base + ("picked", "from_face", "zalax"))
        picked = _read_face_counts(d["picked"], where + ".picked", 7)
        for f in range(TEG_FACES):
            if picked[f] > s.pool[f]:
                fail(where + ".picked", "more dice picked than there are inactive dice")
            t.a[f] = picked[f]
        t.a[6] = _read_face(d["from_face"], where + ".from_face")
        t.a[7] = read_bool(d["zalax"], where + ".zalax")
    elif kind == K_CONVERT:
        read_object(d, where, base + ("stage", "gyore", "spent", "die"))
        gyore = read_bool(d["gyore"], where + ".gyore")
        stage = read_int(d["stage"], where + ".stage", 2 if gyore else 0, 3)
        spent = read_list(d["spent"], where + ".spent", 0, 2)
        if len(spent) != (0 if gyore else min(stage, 2)):
            fail(where + ".spent", "does not match the stage")
        t.a[0], t.a[4] = stage, gyore
        t.a[1] = t.a[2] = TEG_NONE if gyore else 0
        for i, f in enumerate(spent):
            t.a[1 + i] = _read_face(f, f"{where}.spent[{i}]")
        if len(spent) == 2 and t.a[2] < t.a[1]:
            fail(where + ".spent", "faces in non-decreasing order")
        if (stage == 3) != (d["die"] is not None):
            fail(where + ".die", "given exactly at stage 3")
        if stage == 3:
            t.a[3] = _read_face(d["die"], where + ".die")
        need = [0] * TEG_FACES
        for i in (1, 2, 3):
            if t.a[i] < TEG_FACES and (i < 3 or stage == 3) and (i < 3 and stage > i - 1 or i == 3):
                need[t.a[i]] += 1
        if any(need[f] > s.pool[f] for f in range(TEG_FACES)):
            fail(where, "the converter's dice are not among the inactive dice")
    elif kind == K_FOLLOW:
        read_object(d, where, base + ("face", "next", "cost"))
        t.a[0] = _read_face(d["face"], where + ".face")
        t.a[1] = read_int(d["next"], where + ".next", 1, 2 if s.solo else _n_seats(s))
        t.a[2] = read_int(d["cost"], where + ".cost", 0, 2)
    elif kind == K_DIE:
        read_object(d, where, base + ("face", "excluded_ship", "second_move"))
        t.a[0] = _read_face(d["face"], where + ".face")
        ex = d["excluded_ship"]
        t.a[1] = TEG_NONE if ex is None else read_int(ex, where + ".excluded_ship", 0, TEG_SHIPS - 1)
        t.a[2] = read_bool(d["second_move"], where + ".second_move")
        if t.a[0] != FACE_MOVE and (t.a[1] != TEG_NONE or t.a[2]):
            fail(where, "excluded_ship and second_move belong to a move")
    elif kind == K_LAND:
        read_object(d, where, base + ("planet",))
        t.a[0] = _read_planet(d["planet"], where + ".planet", s)
        if s.where[t.a[0]] != W_ROW:
            fail(where + ".planet", "not in the row")
    elif kind == K_PLANET:
        read_object(d, where, base + ("planet", "stage", "data"))
        p = _read_planet(d["planet"], where + ".planet", s)
        t.a[0] = p
        if s.where[p] == W_BOX:
            fail(where + ".planet", "not in this game")
        pk = P_KIND[p]
        two_stage = (PK_PUSH_BACK, PK_DISCARD_DICE, PK_RECALL, PK_BACK_ADVANCE, PK_JUMP)
        max_stage = 2 if pk == PK_ALL_ADVANCE else (1 if pk in two_stage else 0)
        stage = read_int(d["stage"], where + ".stage", 1 if pk == PK_ALL_ADVANCE else 0, max_stage)
        t.a[1] = stage
        data = read_list(d["data"], where + ".data", 2, 2)
        hi = {PK_PUSH_BACK: TEG_GALAXIES * TEG_SHIPS - 1, PK_DISCARD_DICE: TEG_FACES - 1,
              PK_RECALL: TEG_SHIPS - 1, PK_BACK_ADVANCE: TEG_SHIPS - 1,
              PK_JUMP: TEG_SHIPS - 1}.get(pk, 0) if stage == 1 else 0
        t.a[2] = read_int(data[0], where + ".data[0]", 0, hi)
        t.a[3] = read_int(data[1], where + ".data[1]", 0, 5 if pk == PK_RECALL and stage == 1 else 0)
        if pk == PK_JUMP and stage == 1 and not _in_orbit(&s.gal[g], t.a[2]):
            fail(where + ".data[0]", "Gort's ship must be in orbit")
    elif kind == K_ROGUE_TURN:
        read_object(d, where, base + ("dice_left", "checked"))
        t.a[0] = read_int(d["dice_left"], where + ".dice_left", 0, 7)
        t.a[1] = read_bool(d["checked"], where + ".checked")
    elif kind == K_ROGUE_DIE:
        read_object(d, where, base + ("face", "rerolled"))
        t.a[0] = _read_face(d["face"], where + ".face")
        t.a[1] = read_bool(d["rerolled"], where + ".rerolled")
    elif kind == K_ROGUE_TAKE:
        read_object(d, where, base + ("left",))
        t.a[0] = read_int(d["left"], where + ".left", 1, 3 if s.btb.rogue_level else 2)
    elif kind in (K_HIRE, K_EXPLORE, K_XCARD):
        if not s.btb.on:
            fail(where + ".decision", f"{name} belongs to Beyond the Black")
        _load_btb_task(s, t, d, where)
    if kind == K_ROGUE_TAKE and g != 0:
        fail(where + ".galaxy", "the player decides what the Rogue takes")


cdef void _load(TegState* s, dict d, int observer) except *:
    keys = ("version", "round", "active", "over", "trigger", "row", "discarded", "galaxies", "dice",
            "follow_cost", "follow_bonus", "pending")
    if s.btb.on:
        keys = keys + ("beyond_the_black",)
    read_object(d, "state", keys, ("chance",) if observer < 0 else ())
    read_list(d["pending"], "state.pending", 0, TEG_STACK)
    if d["version"] != PAYLOAD_VERSION:
        fail("state.version", f"{show(d['version'])} is not {PAYLOAD_VERSION!r}")
    n_gal, solo = s.n_gal, s.solo
    s.round = read_int(d["round"], "state.round", 0, ROUND_CAP)
    s.active = _read_galaxy(d["active"], "state.active", n_gal, solo)
    s.over = read_bool(d["over"], "state.over")
    s.trigger = -1 if d["trigger"] is None else _read_galaxy(d["trigger"], "state.trigger", n_gal, solo)
    row = read_list(d["row"], "state.row", s.row_size, s.row_size)
    for i, name in enumerate(row):
        if name is None:
            s.row[i] = TEG_NONE
            continue
        p = _read_planet(name, f"state.row[{i}]", s)
        if s.where[p] != W_DECK:
            fail(f"state.row[{i}]", f"{name} appears twice")
        s.where[p] = W_ROW
        s.row[i] = p
    for i, name in enumerate(read_list(d["discarded"], "state.discarded", 0, TEG_PLANETS)):
        p = _read_planet(name, f"state.discarded[{i}]", s)
        if s.where[p] != W_DECK:
            fail(f"state.discarded[{i}]", f"{name} appears twice")
        s.where[p] = W_DISCARD
    if any(s.row[i] == TEG_NONE for i in range(s.row_size)) and \
            any(s.where[p] == W_DECK for p in range(N_PLANETS)):
        # colonies are loaded below; an empty slot needs an empty deck once they are
        pass
    dice = read_object(d["dice"], "state.dice", ("inactive", "activated", "rerolls", "converter_used"),
                       ("hiring",) if s.btb.on else ())
    pool = _read_face_counts(dice["inactive"], "state.dice.inactive", 7)
    bay = _read_face_counts(dice["activated"], "state.dice.activated", 7)
    hire_bay = _read_face_counts(dice.get("hiring", {}), "state.dice.hiring", 7)
    if sum(pool) + sum(bay) + sum(hire_bay) > 7:
        fail("state.dice", "more than 7 dice")
    for f in range(TEG_FACES):
        s.pool[f], s.bay[f], s.hire_bay[f] = pool[f], bay[f], hire_bay[f]
    s.rerolls = read_int(dice["rerolls"], "state.dice.rerolls", 0, 60)
    s.converter_used = read_bool(dice["converter_used"], "state.dice.converter_used")
    s.follow_cost = read_int(d["follow_cost"], "state.follow_cost", 1, 2)
    bonus = read_list(d["follow_bonus"], "state.follow_bonus", 0, 2)
    for i, r in enumerate(bonus):
        s.follow_bonus |= 1 << read_name(r, f"state.follow_bonus[{i}]", RESOURCE_NAMES)
    gals = read_list(d["galaxies"], "state.galaxies", n_gal, n_gal)
    if s.btb.on:
        _load_btb(s, d["beyond_the_black"], gals, observer)
    for g in range(n_gal):
        _load_galaxy(s, g, gals[g], f"state.galaxies[{g}]", observer)
    _check_loaded(s, d, observer)
    pending = read_list(d["pending"], "state.pending", 0, TEG_STACK)
    for i, task in enumerate(pending):
        if type(task) is not dict:
            fail(f"state.pending[{i}]", f"{show(task)} is not an object")
        _load_task(s, &s.stack[i], task, f"state.pending[{i}]")
        s.depth = i + 1
    _check_pending(s, d)
    if observer < 0:
        streams = ("dice", "deck", "explore", "pilots") if s.btb.on else ("dice", "deck")
        chance = read_object(d.get("chance"), "state.chance", streams)
        for key in streams:
            words = read_list(chance[key], "state.chance." + key, 4, 4)
            for i in range(4):
                read_int(words[i], f"state.chance.{key}[{i}]", 0, 2 ** 64 - 1)
            if not any(words):
                fail("state.chance." + key, "a random stream cannot be all zero")
        for i in range(4):
            s.rng_dice.s[i] = chance["dice"][i]
            s.rng_deck.s[i] = chance["deck"][i]
            if s.btb.on:
                s.rng_explore.s[i] = chance["explore"][i]
                s.rng_pilots.s[i] = chance["pilots"][i]
