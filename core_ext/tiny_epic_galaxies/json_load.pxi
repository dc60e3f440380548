# Included by engine.pyx: JSON payload -> struct, field by field (docs section 10).
#
# Loading range-checks every value (json_fields readers) before it indexes anything and rebuilds the
# struct; json_checks.pxi then rejects a state that is not consistent as a whole. Beyond the Black's
# fields: btb_json.pxi.


_PLANET_ID = {n: i for i, n in enumerate(PLANET_NAMES)}
_MISSION_ID = {n: i for i, n in enumerate(MISSION_NAMES)}


def _fail(path, msg):
    raise StateFormatError(f"field 'state.{path}': {msg}")


def _int(value, path, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        _fail(path, f"{value!r} is not an integer in {lo}..{hi}")
    return value


def _bool(value, path):
    if not isinstance(value, bool):
        _fail(path, f"{value!r} is not true/false")
    return value


def _obj(value, path, keys, optional=()):
    if not isinstance(value, dict):
        _fail(path, "expected an object")
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys and k not in optional]
    if missing or extra:
        _fail(path, f"missing {missing} / unknown {extra} keys")
    return value


def _list(value, path, lo, hi):
    if not isinstance(value, list) or not lo <= len(value) <= hi:
        _fail(path, f"expected a list of {lo}..{hi} items")
    return value


cdef int _planet(const TegState* s, value, str path) except -1:
    if not isinstance(value, str) or value not in _PLANET_ID:
        _fail(path, f"{value!r} is not a planet name")
    if s.where[_PLANET_ID[value]] == W_BOX:
        _fail(path, f"{value} is a Beyond the Black planet, not in this game")
    return _PLANET_ID[value]


cdef int _mission(const TegState* s, value, str path) except -1:
    if not isinstance(value, str) or value not in _MISSION_ID or _MISSION_ID[value] >= _mission_count(s):
        _fail(path, f"{value!r} is not a mission of this game")
    return _MISSION_ID[value]


def _face(value, path):
    if not isinstance(value, str) or value not in FACE_NAMES:
        _fail(path, f"{value!r} is not a die face ({', '.join(FACE_NAMES)})")
    return FACE_NAMES.index(value)


def _faces_counts(value, path, total_max):
    _obj(value, path, (), FACE_NAMES)
    out = [0] * TEG_FACES
    for name, count in value.items():
        out[FACE_NAMES.index(name)] = _int(count, f"{path}.{name}", 1, 7)
    if sum(out) > total_max:
        _fail(path, f"more than {total_max} dice")
    return out


def _galaxy_index(value, path, int n_gal, bint solo):
    if solo and value == "rogue":
        return ROGUE
    return _int(value, path, 0, n_gal - 1 if not solo else 0)


cdef void _load_galaxy(TegState* s, int g, object e, str path, int observer) except *:
    cdef TegGalaxy* gal = &s.gal[g]
    rogue = s.solo and g == ROGUE
    keys = ("energy", "culture", "empire", "colonies", "ships", "once_used")
    if s.btb.on:
        keys = keys + (("exploration_cards",) if rogue else BTB_GALAXY_KEYS)
    _obj(e, path, keys if rogue else keys + ("dealt", "mission"), ("hidden_cards",) if s.btb.on else ())
    gal.energy = _int(e["energy"], path + ".energy", 0, CAP)
    gal.culture = _int(e["culture"], path + ".culture", 0, CAP)
    gal.empire = _int(e["empire"], path + ".empire", 1, MAX_LEVEL)
    for i, name in enumerate(_list(e["colonies"], path + ".colonies", 0, TEG_PLANETS)):
        p = _planet(s, name, f"{path}.colonies[{i}]")
        if s.where[p] != W_DECK:
            _fail(f"{path}.colonies[{i}]", f"{name} is already in the row, discarded or colonized")
        s.where[p] = W_COLONY + g
    for i, name in enumerate(_list(e["once_used"], path + ".once_used", 0, TEG_PLANETS)):
        p = _planet(s, name, f"{path}.once_used[{i}]")
        if not P_ONCE[p]:
            _fail(f"{path}.once_used[{i}]", f"{name} has no once-per-turn action")
        gal.once_used |= (<uint64_t>1) << p
    ships = _list(e["ships"], path + ".ships", TEG_SHIPS, TEG_SHIPS)
    for k, ship in enumerate(ships):
        sp = f"{path}.ships[{k}]"
        unlocked = rogue or k < LEVEL_SHIPS[gal.empire]
        if ship == "locked" or ship == "home":
            if (ship == "locked") == unlocked:
                _fail(sp, f"ship {k} is {'unlocked' if unlocked else 'locked'} at empire level {gal.empire}")
            gal.ship_at[k] = TEG_LOCKED if ship == "locked" else TEG_HOME
            continue
        if not unlocked:
            _fail(sp, f"ship {k} is locked at empire level {gal.empire}")
        if s.btb.on and not rogue and _load_btb_ship(s, g, k, ship, sp):
            continue
        if not isinstance(ship, dict) or "planet" not in ship:
            _fail(sp, "expected \"home\", \"locked\" or {\"planet\": ..., \"track\" | \"surface\": ...}")
        p = _planet(s, ship["planet"], sp + ".planet")
        if s.where[p] != W_ROW:
            _fail(sp, f"{ship['planet']} is not in the row")
        if "track" in ship:
            _obj(ship, sp, ("planet", "track"))
            gal.ship_orbit[k] = 1
            gal.ship_space[k] = _int(ship["track"], sp + ".track", 0, P_N[p])
        else:
            _obj(ship, sp, ("planet", "surface"))
            if ship["surface"] is not True:
                _fail(sp + ".surface", "must be true")
        if rogue and not gal.ship_orbit[k]:
            _fail(sp, "Rogue ships only orbit")
        for j in range(k):
            if gal.ship_at[j] == p and gal.ship_orbit[j] == gal.ship_orbit[k]:
                place = "track" if gal.ship_orbit[k] else "surface"
                _fail(sp, f"two ships of one galaxy on the same {place}")
        gal.ship_at[k] = p
    if rogue:
        gal.dealt[0] = gal.dealt[1] = gal.mission = TEG_NONE
        return
    hidden_ok = observer >= 0 and g != observer
    dealt = _list(e["dealt"], path + ".dealt", 2, 2)
    for i in range(2):
        if dealt[i] == "?":
            if not hidden_ok:
                _fail(f"{path}.dealt[{i}]", "this mission must be known here")
            gal.dealt[i] = TEG_HIDDEN
        else:
            if hidden_ok:
                _fail(f"{path}.dealt[{i}]", f"seat {observer} cannot see another seat's dealt missions")
            gal.dealt[i] = _mission(s, dealt[i], f"{path}.dealt[{i}]")
    if gal.dealt[0] == gal.dealt[1] and gal.dealt[0] != TEG_HIDDEN:
        _fail(path + ".dealt", "the two dealt missions must differ")
    m = e["mission"]
    if m is None:
        gal.mission = TEG_NONE
    elif m == "?":
        if not hidden_ok or s.over:
            _fail(path + ".mission", "the kept mission must be shown here")
        gal.mission = TEG_HIDDEN
    else:
        gal.mission = _mission(s, m, path + ".mission")
        if hidden_ok and not s.over:
            _fail(path + ".mission", f"seat {observer} cannot see another seat's kept mission")
        if gal.dealt[0] != TEG_HIDDEN and gal.mission not in (gal.dealt[0], gal.dealt[1]):
            _fail(path + ".mission", "the kept mission must be one of the two dealt")


cdef void _load_task(TegState* s, TegTask* t, dict d, str path) except *:
    name = d.get("decision")
    if not isinstance(name, str) or name not in TASK_KINDS:
        _fail(path + ".decision", f"{name!r} is not one of {', '.join(TASK_KINDS)}")
    kind = TASK_KINDS[name]
    t.kind = kind
    g = _galaxy_index(d.get("galaxy"), path + ".galaxy", s.n_gal, s.solo)
    rogue_kinds = (K_ROGUE_TURN, K_ROGUE_DIE, K_FOLLOW)
    if (s.solo and g == ROGUE) != (kind in (K_ROGUE_TURN, K_ROGUE_DIE)) and \
            not (kind == K_FOLLOW and s.solo):
        _fail(path + ".galaxy", f"a {name} decision does not belong to this galaxy")
    if kind == K_ROGUE_TAKE and not s.solo:
        _fail(path, "rogue_takes exists only in solo")
    t.seat = g
    base = ("decision", "galaxy")
    if kind in (K_MISSION, K_TURN):
        _obj(d, path, base)
    elif kind == K_REROLL:
        _obj(d, path, base + ("picked", "from_face", "zalax"))
        picked = _faces_counts(d["picked"], path + ".picked", 7)
        for f in range(TEG_FACES):
            if picked[f] > s.pool[f]:
                _fail(path + ".picked", "more dice picked than there are inactive dice")
            t.a[f] = picked[f]
        t.a[6] = _face(d["from_face"], path + ".from_face")
        t.a[7] = _bool(d["zalax"], path + ".zalax")
    elif kind == K_CONVERT:
        _obj(d, path, base + ("stage", "gyore", "spent", "die"))
        gyore = _bool(d["gyore"], path + ".gyore")
        stage = _int(d["stage"], path + ".stage", 2 if gyore else 0, 3)
        spent = _list(d["spent"], path + ".spent", 0, 2)
        if len(spent) != (0 if gyore else min(stage, 2)):
            _fail(path + ".spent", "does not match the stage")
        t.a[0], t.a[4] = stage, gyore
        t.a[1] = t.a[2] = TEG_NONE if gyore else 0
        for i, f in enumerate(spent):
            t.a[1 + i] = _face(f, f"{path}.spent[{i}]")
        if len(spent) == 2 and t.a[2] < t.a[1]:
            _fail(path + ".spent", "faces in non-decreasing order")
        if (stage == 3) != (d["die"] is not None):
            _fail(path + ".die", "given exactly at stage 3")
        if stage == 3:
            t.a[3] = _face(d["die"], path + ".die")
        need = [0] * TEG_FACES
        for i in (1, 2, 3):
            if t.a[i] < TEG_FACES and (i < 3 or stage == 3) and (i < 3 and stage > i - 1 or i == 3):
                need[t.a[i]] += 1
        if any(need[f] > s.pool[f] for f in range(TEG_FACES)):
            _fail(path, "the converter's dice are not among the inactive dice")
    elif kind == K_FOLLOW:
        _obj(d, path, base + ("face", "next", "cost"))
        t.a[0] = _face(d["face"], path + ".face")
        t.a[1] = _int(d["next"], path + ".next", 1, 2 if s.solo else _n_seats(s))
        t.a[2] = _int(d["cost"], path + ".cost", 0, 2)
    elif kind == K_DIE:
        _obj(d, path, base + ("face", "excluded_ship", "second_move"))
        t.a[0] = _face(d["face"], path + ".face")
        ex = d["excluded_ship"]
        t.a[1] = TEG_NONE if ex is None else _int(ex, path + ".excluded_ship", 0, TEG_SHIPS - 1)
        t.a[2] = _bool(d["second_move"], path + ".second_move")
        if t.a[0] != FACE_MOVE and (t.a[1] != TEG_NONE or t.a[2]):
            _fail(path, "excluded_ship and second_move belong to a move")
    elif kind == K_LAND:
        _obj(d, path, base + ("planet",))
        t.a[0] = _planet(s, d["planet"], path + ".planet")
        if s.where[t.a[0]] != W_ROW:
            _fail(path + ".planet", "not in the row")
    elif kind == K_PLANET:
        _obj(d, path, base + ("planet", "stage", "data"))
        p = _planet(s, d["planet"], path + ".planet")
        t.a[0] = p
        if s.where[p] == W_BOX:
            _fail(path + ".planet", "not in this game")
        pk = P_KIND[p]
        two_stage = (PK_PUSH_BACK, PK_DISCARD_DICE, PK_RECALL, PK_BACK_ADVANCE, PK_JUMP)
        max_stage = 2 if pk == PK_ALL_ADVANCE else (1 if pk in two_stage else 0)
        stage = _int(d["stage"], path + ".stage", 1 if pk == PK_ALL_ADVANCE else 0, max_stage)
        t.a[1] = stage
        data = _list(d["data"], path + ".data", 2, 2)
        hi = {PK_PUSH_BACK: TEG_GALAXIES * TEG_SHIPS - 1, PK_DISCARD_DICE: TEG_FACES - 1,
              PK_RECALL: TEG_SHIPS - 1, PK_BACK_ADVANCE: TEG_SHIPS - 1,
              PK_JUMP: TEG_SHIPS - 1}.get(pk, 0) if stage == 1 else 0
        t.a[2] = _int(data[0], path + ".data[0]", 0, hi)
        t.a[3] = _int(data[1], path + ".data[1]", 0, 5 if pk == PK_RECALL and stage == 1 else 0)
        if pk == PK_JUMP and stage == 1 and not _in_orbit(&s.gal[g], t.a[2]):
            _fail(path + ".data[0]", "Gort's ship must be in orbit")
    elif kind == K_ROGUE_TURN:
        _obj(d, path, base + ("dice_left", "checked"))
        t.a[0] = _int(d["dice_left"], path + ".dice_left", 0, 7)
        t.a[1] = _bool(d["checked"], path + ".checked")
    elif kind == K_ROGUE_DIE:
        _obj(d, path, base + ("face", "rerolled"))
        t.a[0] = _face(d["face"], path + ".face")
        t.a[1] = _bool(d["rerolled"], path + ".rerolled")
    elif kind == K_ROGUE_TAKE:
        _obj(d, path, base + ("left",))
        t.a[0] = _int(d["left"], path + ".left", 1, 3 if s.btb.rogue_level else 2)
    elif kind in (K_HIRE, K_EXPLORE, K_XCARD):
        if not s.btb.on:
            _fail(path + ".decision", f"{name} belongs to Beyond the Black")
        _load_btb_task(s, t, d, path)
    if kind == K_ROGUE_TAKE and g != 0:
        _fail(path + ".galaxy", "the player decides what the Rogue takes")


cdef void _load(TegState* s, dict d, int observer) except *:
    keys = ("version", "round", "active", "over", "trigger", "row", "discarded", "galaxies", "dice",
            "follow_cost", "follow_bonus", "pending")
    if s.btb.on:
        keys = keys + ("beyond_the_black",)
    _obj(d, "", keys, ("chance",) if observer < 0 else ())
    _list(d["pending"], "pending", 0, TEG_STACK)
    if d["version"] != PAYLOAD_VERSION:
        _fail("version", f"expected {PAYLOAD_VERSION!r}")
    n_gal, solo = s.n_gal, s.solo
    s.round = _int(d["round"], "round", 0, ROUND_CAP)
    s.active = _galaxy_index(d["active"], "active", n_gal, solo)
    s.over = _bool(d["over"], "over")
    s.trigger = -1 if d["trigger"] is None else _galaxy_index(d["trigger"], "trigger", n_gal, solo)
    row = _list(d["row"], "row", s.row_size, s.row_size)
    for i, name in enumerate(row):
        if name is None:
            s.row[i] = TEG_NONE
            continue
        p = _planet(s, name, f"row[{i}]")
        if s.where[p] != W_DECK:
            _fail(f"row[{i}]", f"{name} appears twice")
        s.where[p] = W_ROW
        s.row[i] = p
    for i, name in enumerate(_list(d["discarded"], "discarded", 0, TEG_PLANETS)):
        p = _planet(s, name, f"discarded[{i}]")
        if s.where[p] != W_DECK:
            _fail(f"discarded[{i}]", f"{name} appears twice")
        s.where[p] = W_DISCARD
    if any(s.row[i] == TEG_NONE for i in range(s.row_size)) and \
            any(s.where[p] == W_DECK for p in range(N_PLANETS)):
        # colonies are loaded below; an empty slot needs an empty deck once they are
        pass
    dice = _obj(d["dice"], "dice", ("inactive", "activated", "rerolls", "converter_used"),
                ("hiring",) if s.btb.on else ())
    pool = _faces_counts(dice["inactive"], "dice.inactive", 7)
    bay = _faces_counts(dice["activated"], "dice.activated", 7)
    hire_bay = _faces_counts(dice.get("hiring", {}), "dice.hiring", 7)
    if sum(pool) + sum(bay) + sum(hire_bay) > 7:
        _fail("dice", "more than 7 dice")
    for f in range(TEG_FACES):
        s.pool[f], s.bay[f], s.hire_bay[f] = pool[f], bay[f], hire_bay[f]
    s.rerolls = _int(dice["rerolls"], "dice.rerolls", 0, 60)
    s.converter_used = _bool(dice["converter_used"], "dice.converter_used")
    s.follow_cost = _int(d["follow_cost"], "follow_cost", 1, 2)
    bonus = _list(d["follow_bonus"], "follow_bonus", 0, 2)
    for i, r in enumerate(bonus):
        if not isinstance(r, str) or r not in RESOURCE_NAMES:
            _fail(f"follow_bonus[{i}]", f"{r!r} is not energy or culture")
        s.follow_bonus |= 1 << RESOURCE_NAMES.index(r)
    gals = _list(d["galaxies"], "galaxies", n_gal, n_gal)
    if s.btb.on:
        _load_btb(s, d["beyond_the_black"], gals, observer)
    for g in range(n_gal):
        _load_galaxy(s, g, gals[g], f"galaxies[{g}]", observer)
    if s.btb.on:
        _check_btb(s)
    if any(s.row[i] == TEG_NONE for i in range(s.row_size)) and \
            any(s.where[p] == W_DECK for p in range(N_PLANETS)):
        _fail("row", "an empty row slot while the deck still has planets")
    if observer >= 0 and s.gal[observer].dealt[0] == TEG_HIDDEN:
        _fail(f"galaxies[{observer}].dealt", "the observer sees its own missions")
    seen = [m for g in range(_n_seats(s)) for m in (s.gal[g].dealt[0], s.gal[g].dealt[1])
            if m < TEG_MISSION_ROOM]
    if len(seen) != len(set(seen)):
        _fail("galaxies", "a mission is dealt twice")
    for g in range(_n_seats(s)):
        known = s.gal[g].dealt[0] < TEG_MISSION_ROOM or s.gal[g].dealt[0] == TEG_HIDDEN
        if not known:
            _fail(f"galaxies[{g}].dealt", "every seat is dealt 2 missions")
        if (s.gal[g].mission == TEG_NONE) != (s.round == 0 and g >= _pending_mission_floor(d)):
            _fail(f"galaxies[{g}].mission", "kept missions must match the pending mission choices")
    for g in range(n_gal):
        rogue_top = solo and g == ROGUE and s.gal[g].empire == MAX_LEVEL
        if s.trigger < 0 and (_points(s, g) >= POINTS_TO_END or rogue_top):
            _fail("trigger", f"galaxy {g} has reached the end condition, so the end must be triggered")
    pending = _list(d["pending"], "pending", 0, TEG_STACK)
    for i, task in enumerate(pending):
        if not isinstance(task, dict):
            _fail(f"pending[{i}]", "expected an object")
        _load_task(s, &s.stack[i], task, f"pending[{i}]")
        s.depth = i + 1
    _check_pending(s, d)
    if observer < 0:
        streams = ("dice", "deck", "explore", "pilots") if s.btb.on else ("dice", "deck")
        chance = _obj(d.get("chance"), "chance", streams)
        for key in streams:
            words = _list(chance[key], "chance." + key, 4, 4)
            for i in range(4):
                _int(words[i], f"chance.{key}[{i}]", 0, 2 ** 64 - 1)
            if not any(words):
                _fail("chance." + key, "a random stream cannot be all zero")
        for i in range(4):
            s.rng_dice.s[i] = chance["dice"][i]
            s.rng_deck.s[i] = chance["deck"][i]
            if s.btb.on:
                s.rng_explore.s[i] = chance["explore"][i]
                s.rng_pilots.s[i] = chance["pilots"][i]
