# Included by engine.pyx: struct -> JSON payload (docs section 10).
#
# The payload is facts only: planets and missions by name, ships by planet, dice as counts per face,
# the pending decisions by kind with named fields. Beyond the Black's fields: btb_json.pxi.


PAYLOAD_VERSION = "tiny_epic_galaxies/1"
TASK_NAMES = {K_MISSION: "keep_mission", K_TURN: "turn", K_REROLL: "reroll", K_CONVERT: "convert",
              K_FOLLOW: "follow", K_DIE: "resolve_die", K_LAND: "landed", K_PLANET: "planet_action",
              K_ROGUE_TURN: "rogue_turn", K_ROGUE_DIE: "rogue_die", K_ROGUE_TAKE: "rogue_takes",
              K_HIRE: "hire", K_EXPLORE: "explore", K_XCARD: "exploration_advance"}
TASK_KINDS = {v: k for k, v in TASK_NAMES.items()}


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
