# Included by engine.pyx: the Python side (JSON payload, action structs, render, registry).
#
# The payload is facts only (docs section 10): planets and missions by name, ships by planet, dice as
# counts per face, the pending decisions by kind with named fields. Loading range-checks every value
# before it indexes anything, rebuilds the struct, and rejects a state whose pending decisions are not
# consistent (the loaded state must already be settled: no automatic step may be left to run).

PAYLOAD_VERSION = "tiny_epic_galaxies/1"
TASK_NAMES = {K_MISSION: "keep_mission", K_TURN: "turn", K_REROLL: "reroll", K_CONVERT: "convert",
              K_FOLLOW: "follow", K_DIE: "resolve_die", K_LAND: "landed", K_PLANET: "planet_action",
              K_ROGUE_TURN: "rogue_turn", K_ROGUE_DIE: "rogue_die", K_ROGUE_TAKE: "rogue_takes",
              K_HIRE: "hire", K_EXPLORE: "explore", K_XCARD: "exploration_advance"}
TASK_KINDS = {v: k for k, v in TASK_NAMES.items()}
_PLANET_ID = {n: i for i, n in enumerate(PLANET_NAMES)}
_MISSION_ID = {n: i for i, n in enumerate(MISSION_NAMES)}
FACE_TITLES = ("Move a Ship", "Acquire Energy", "Acquire Culture", "Advance Diplomacy", "Advance Economy",
               "Utilize a Colony")


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


cdef object _counts_dict(const uint8_t* counts):
    return {FACE_NAMES[f]: counts[f] for f in range(TEG_FACES) if counts[f]}


cdef dict _dice_json(const TegState* s):
    dice = {"inactive": _counts_dict(s.pool), "activated": _counts_dict(s.bay), "rerolls": s.rerolls,
            "converter_used": bool(s.converter_used)}
    if s.btb.on:
        dice["hiring"] = _counts_dict(s.hire_bay)   # dice activated to hire pilots: no action of their own
    return dice


cdef object _galaxy_name(const TegState* s, int g):
    return "rogue" if s.solo and g == ROGUE else g


def _mission_json(int m):
    return None if m == TEG_NONE else ("?" if m == TEG_HIDDEN else MISSION_NAMES[m])


cdef object _ship_json(const TegGalaxy* gal, int k):
    at = gal.ship_at[k]
    if at == TEG_LOCKED:
        return "locked"
    if at == TEG_HOME:
        return "home"
    if at == TEG_EXPLORE:
        return "unexplored"
    if at == TEG_DANGER:
        return {"danger": CARD_NAMES[gal.track_card[k]], "track": gal.ship_space[k]}
    if gal.ship_orbit[k]:
        return {"planet": PLANET_NAMES[at], "track": gal.ship_space[k]}
    return {"planet": PLANET_NAMES[at], "surface": True}


cdef object _task_json(const TegState* s, const TegTask* t):
    kind = t.kind
    d = {"decision": TASK_NAMES[kind], "galaxy": _galaxy_name(s, t.seat)}
    a = [t.a[i] for i in range(TEG_TASK_ARGS)]
    if kind == K_REROLL:
        d.update(picked={FACE_NAMES[f]: a[f] for f in range(TEG_FACES) if a[f]}, from_face=FACE_NAMES[a[6]],
                 zalax=bool(a[7]))
    elif kind == K_CONVERT:
        d.update(stage=a[0], gyore=bool(a[4]),
                 spent=[FACE_NAMES[a[i]] for i in (1, 2) if a[0] > i - 1 and not a[4]],
                 die=FACE_NAMES[a[3]] if a[0] == 3 else None)
    elif kind == K_FOLLOW:
        d.update(face=FACE_NAMES[a[0]], next=a[1], cost=a[2])
    elif kind == K_DIE:
        d.update(face=FACE_NAMES[a[0]], excluded_ship=None if a[1] == TEG_NONE else a[1],
                 second_move=bool(a[2]))
    elif kind == K_LAND:
        d.update(planet=PLANET_NAMES[a[0]])
    elif kind == K_PLANET:
        d.update(planet=PLANET_NAMES[a[0]], stage=a[1], data=[a[2], a[3]])
    elif kind == K_ROGUE_TURN:
        d.update(dice_left=a[0], checked=bool(a[1]))
    elif kind == K_ROGUE_DIE:
        d.update(face=FACE_NAMES[a[0]], rerolled=bool(a[1]))
    elif kind == K_ROGUE_TAKE:
        d.update(left=a[0])
    elif kind in (K_HIRE, K_EXPLORE, K_XCARD):
        _btb_task_json(t, d)
    return d


cdef dict _dump(const TegState* s, bint with_chance):
    cdef const TegGalaxy* gal
    cdef int g
    gals = []
    for g in range(s.n_gal):
        gal = &s.gal[g]
        entry = {
            "energy": gal.energy, "culture": gal.culture, "empire": gal.empire,
            "colonies": [PLANET_NAMES[p] for p in range(N_PLANETS) if s.where[p] == W_COLONY + g],
            "ships": [_ship_json(gal, k) for k in range(TEG_SHIPS)],
            "once_used": [PLANET_NAMES[p] for p in range(N_PLANETS) if (gal.once_used >> p) & 1],
        }
        if not (s.solo and g == ROGUE):
            entry["dealt"] = [_mission_json(gal.dealt[0]), _mission_json(gal.dealt[1])]
            entry["mission"] = _mission_json(gal.mission)
        if s.btb.on:
            _btb_galaxy_json(s, g, entry)
        gals.append(entry)
    d = {
        "version": PAYLOAD_VERSION,
        "round": s.round,
        "active": _galaxy_name(s, s.active),
        "over": bool(s.over),
        "trigger": None if s.trigger < 0 else _galaxy_name(s, s.trigger),
        "row": [None if s.row[i] == TEG_NONE else PLANET_NAMES[s.row[i]] for i in range(s.row_size)],
        "discarded": [PLANET_NAMES[p] for p in range(N_PLANETS) if s.where[p] == W_DISCARD],
        "galaxies": gals,
        "dice": _dice_json(s),
        "follow_cost": s.follow_cost,
        "follow_bonus": [RESOURCE_NAMES[r] for r in range(2) if (s.follow_bonus >> r) & 1],
        "pending": [_task_json(s, &s.stack[i]) for i in range(s.depth)],
    }
    if s.btb.on:
        d["beyond_the_black"] = _btb_json(s)
    if with_chance:
        d["chance"] = {"dice": [s.rng_dice.s[i] for i in range(4)],
                       "deck": [s.rng_deck.s[i] for i in range(4)]}
        if s.btb.on:
            d["chance"]["explore"] = [s.rng_explore.s[i] for i in range(4)]
            d["chance"]["pilots"] = [s.rng_pilots.s[i] for i in range(4)]
    return d


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


def _pending_mission_floor(dict d):
    # Seats still choosing their mission are the bottom-most "keep_mission" tasks: seats >= the first.
    seats = [t.get("galaxy") for t in d["pending"]
             if isinstance(t, dict) and t.get("decision") == "keep_mission"]
    return min(seats) if seats and all(isinstance(x, int) and not isinstance(x, bool) for x in seats) else 99


cdef void _check_pending(TegState* s, dict d) except *:
    # The grammar of the stack: the bottom is the turn (or the mission choices, or the Rogue's turn).
    cdef int i
    kinds = [s.stack[i].kind for i in range(s.depth)]
    if s.over:
        if kinds:
            _fail("pending", "a finished game has no pending decisions")
        if s.trigger < 0 and s.round < ROUND_CAP:
            _fail("over", "the game ended without its end being triggered")
        return
    if not kinds:
        _fail("pending", "a game in progress has a pending decision")
    if s.round == 0:
        seats = [s.stack[i].seat for i in range(s.depth)]
        if any(k != K_MISSION for k in kinds) or seats != sorted(seats, reverse=True) or \
                seats != list(range(_n_seats(s) - 1, _n_seats(s) - 1 - len(seats), -1)):
            _fail("pending", "before round 1 only the mission choices, the last seat at the bottom")
        if s.active != 0:
            _fail("active", "seat 0 starts")
        return
    if K_MISSION in kinds:
        _fail("pending", "missions are chosen before round 1")
    bottom = kinds[0]
    rogue_turn = s.solo and s.active == ROGUE
    if bottom != (K_ROGUE_TURN if rogue_turn else K_TURN) or s.stack[0].seat != s.active:
        _fail("pending[0]", "the bottom decision is the active galaxy's turn")
    if kinds.count(K_TURN) + kinds.count(K_ROGUE_TURN) != 1:
        _fail("pending", "exactly one turn")
    for i in range(1, s.depth):
        k = kinds[i]
        if k in (K_REROLL, K_CONVERT) and s.stack[i].seat != s.active:
            _fail(f"pending[{i}]", "only the active player rerolls or converts")
        if k in (K_REROLL, K_CONVERT) and i != s.depth - 1:
            _fail(f"pending[{i}]", "a die selection is always the top decision")
        if k == K_HIRE and (s.stack[i].seat != s.active or i != s.depth - 1):
            _fail(f"pending[{i}]", "only the active player hires, and hiring is the top decision")
        if k == K_ROGUE_DIE and (i != s.depth - 1 or not rogue_turn):
            _fail(f"pending[{i}]", "a Rogue die is the top decision of the Rogue's turn")
    if not rogue_turn and any(s.gal[s.active].ship_at[k] == TEG_NONE for k in range(TEG_SHIPS)):
        _fail("galaxies", "inconsistent ships")
    # The loaded state must be settled: an automatic step left on top would change it.
    cdef TegState copy
    memcpy(&copy, s, sizeof(TegState))
    _settle(&copy)
    if memcmp(&copy, s, sizeof(TegState)) != 0:
        _fail("pending", "the top decision is not one a player can take now (an automatic step is due)")


# ---------------------------------------------------------------- action structs and labels

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
    elif A_KEEP <= a <= A_KEEP + 1:
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
    elif A_AMOUNT <= a < A_AMOUNT + 8:
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


# ---------------------------------------------------------------- render

cdef str _render_state(const TegState* s):
    cdef const TegGalaxy* gal
    cdef int g, k, i, p
    lines = [f"Tiny Epic Galaxies, round {s.round}" + (" (over)" if s.over else "") +
             (f", end triggered by {_galaxy_name(s, s.trigger)}" if s.trigger >= 0 else "")]
    for i in range(s.row_size):
        p = s.row[i]
        if p == TEG_NONE:
            lines.append(f"  row {i}: (empty)")
            continue
        here = []
        for g in range(s.n_gal):
            for k in range(TEG_SHIPS):
                if s.gal[g].ship_at[k] == p:
                    who = "R" if s.solo and g == ROGUE else str(g)
                    spot = f"t{s.gal[g].ship_space[k]}" if s.gal[g].ship_orbit[k] else "land"
                    here.append(f"{who}:{spot}")
        res = ("energy", "culture", "energy+culture")[P_RES[p]]
        lines.append(f"  row {i}: {PLANET_NAMES[p]} ({res}, {FACE_NAMES[P_TRACK[p]]} "
                     f"track 1..{P_N[p]}, {P_VP[p]} VP) ships {' '.join(here) or '-'}")
    for g in range(s.n_gal):
        gal = &s.gal[g]
        name = "Rogue" if s.solo and g == ROGUE else f"seat {g}"
        marker = "*" if not s.over and teg_current_player(s) == g and not (s.solo and g == ROGUE) else " "
        cols = ", ".join(PLANET_NAMES[p] for p in range(N_PLANETS) if s.where[p] == W_COLONY + g) or "-"
        mission = "" if s.solo and g == ROGUE else f", mission {_mission_json(gal.mission)}"
        lines.append(f"{marker} {name}: {_points(s, g)} VP, energy {gal.energy}, culture {gal.culture}, "
                     f"empire {gal.empire}{mission}; colonies {cols}")
        lines.append("      ships: " + "; ".join(_ship_where(s, g, k) for k in range(TEG_SHIPS)))
        if s.btb.on:
            lines.extend(_render_btb_galaxy(s, g))
    if s.btb.on:
        lines[1:1] = _render_btb_table(s)
    if s.depth:
        lines.append(f"dice: inactive {_counts_dict(s.pool) or '-'}, activated {_counts_dict(s.bay) or '-'}"
                     + (f", hiring {_counts_dict(s.hire_bay)}" if _counts_dict(s.hire_bay) else ""))
        lines.append("pending: " + " > ".join(TASK_NAMES[s.stack[i].kind] for i in range(s.depth)))
    return "\n".join(lines)


# ---------------------------------------------------------------- the Game class

VARIANTS = ("base", "beyond_the_black") + tuple(f"beyond_the_black_rogue_{i}" for i in range(1, 6))


cdef class TinyEpicGalaxiesGame(Game):

    def __cinit__(self, int players, str variant):
        self.ops = &TEG_OPS
        self.params.num_players = players
        self.params.variant = VARIANTS.index(variant)
        self.params.options = 0
        self.name = "tiny_epic_galaxies"
        self.variant = variant
        self.num_players = players

    def _dump_payload(self, Position pos):
        return _dump(_cst(pos.ptr), pos.observer < 0)

    def _load_payload(self, Position pos, dict payload):
        cdef TegState tmp
        cdef int g, k
        teg_init(&tmp, &self.params, 0)
        memset(tmp.where, 0, sizeof(tmp.where))
        memset(tmp.stack, 0, sizeof(tmp.stack))
        tmp.depth = 0
        for g in range(tmp.n_gal):
            memset(&tmp.gal[g], 0, sizeof(TegGalaxy))
        for g in range(TEG_GALAXIES):
            tmp.gal[g].dealt[0] = tmp.gal[g].dealt[1] = tmp.gal[g].mission = TEG_NONE
            for k in range(TEG_SHIPS):
                tmp.gal[g].ship_at[k] = TEG_NONE
        memset(&tmp.rng_dice, 0, sizeof(Rng))
        memset(&tmp.rng_deck, 0, sizeof(Rng))
        memset(&tmp.rng_explore, 0, sizeof(Rng))
        memset(&tmp.rng_pilots, 0, sizeof(Rng))
        _btb_setup_flags(&tmp)
        if tmp.btb.on:
            _btb_clear(&tmp)
        _load(&tmp, payload, pos.observer)
        memcpy(pos.ptr, &tmp, sizeof(TegState))

    def _action_struct(self, Position pos, int action):
        return _describe(_cst(pos.ptr), action)

    def _render(self, Position pos):
        return _render_state(_cst(pos.ptr))


def make_game(int players, str variant):
    return TinyEpicGalaxiesGame(players, variant)


# ---------------------------------------------------------------- test helpers

def _debug_set_dice(State st, list faces):
    """Replace the active player's inactive dice (tests build positions with them)."""
    cdef TegState* s = _st(st.ptr)
    memset(s.pool, 0, sizeof(s.pool))
    for f in faces:
        s.pool[FACE_NAMES.index(f)] += 1


def _debug_seed_dice(State st, uint64_t seed):
    rng_seed(&_st(st.ptr).rng_dice, seed)


from orrery.core_ext._registry import GameInfo, register  # noqa: E402

register(
    GameInfo(
        name="tiny_epic_galaxies",
        title=(
            "Tiny Epic Galaxies (base game and Beyond the Black, 1 to 5 players; solo against the Rogue "
            "galaxy or the five harder Rogue galaxies)"
        ),
        module=__name__,
        variants=VARIANTS,
        player_counts=(1, 2, 3, 4, 5),
        action_description=(
            "0-5 activate a die (move, energy, culture, diplomacy, economy, colony); 6 end turn; 7 reroll "
            "(then 10-15 pick a die of each face to reroll, 9 roll); 8 converter (10-15 two spent dice, the "
            "die to set, its new face); 9 done/decline; 16 follow; 17 use the landed planet; 18 force the "
            "Rogue to reroll; 20-21 keep mission; 24/25 upgrade paying energy/culture; 26/27 the Rogue takes "
            "energy/culture; 30+k amount; 40+g a player; 48+slot a row planet; 56+k own ship; 60+g*4+k an "
            "enemy ship; 80+p a colony (planet id); 128+ship*13+dest move (dest 0 galaxy, 1+2*slot surface, "
            "2+2*slot orbit). Beyond the Black: 180+k explore with ship k; 184+slot hire a pilot, 190+t the "
            "advanced ship (Aurora, Intrepid, Ambition, Nexus), 10-15 the dice, 56+k the ship it replaces; "
            "194+k pay for / 198+k ship action on a danger track; 202+i take face-up card i, 205 reveal, 206 "
            "take the revealed discovery, 207 leave it; 208+p-40 a Beyond the Black colony. See "
            "docs/rules/tiny_epic_galaxies.md."
        ),
        default_search="ismcts-teg@1",  # search/_config.py: measured at 200 ms (docs, section 12)
        outcome="solo",
        hidden_information=(
            "the other seats' dealt and kept secret missions (kept ones are shown at the end), the planet "
            "deck's order and future dice; Beyond the Black: the pilot and exploration decks' order and "
            "which exploration cards each other seat keeps face down (their count, badges and dwarf planet "
            "points are public)"
        ),
        variant_player_counts=tuple((f"beyond_the_black_rogue_{i}", (1,)) for i in range(1, 6)),
        rules_doc="docs/rules/tiny_epic_galaxies.md",
    )
)
