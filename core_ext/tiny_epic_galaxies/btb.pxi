# Included by engine.pyx: Beyond the Black (rulebook:
# ../shared/rules/tiny_epic_galaxies_beyond_the_black.md; docs/rules/tiny_epic_galaxies.md section 13).
# Hiring pilots and their abilities, exploring and the danger tracks, dwarf planets, and the harder
# Rogue galaxies. Its points and badges are in scoring.pxi, what stays hidden of the cards taken in
# hidden.pxi, its part of the evaluation in heuristics.pxi, its JSON in btb_json.pxi.
# Everything here is inert in the base game (s.btb.on == 0).

cdef enum:
    VARIANT_BASE = 0
    VARIANT_BTB = 1
    VARIANT_ROGUE_1 = 2     # beyond_the_black_rogue_1 .. _5: solo against a harder Rogue galaxy
    N_VARIANTS = 7
    # pilot abilities (catalogue "ability")
    AB_ACQUIRE_BONUS = 0
    AB_HOME_YIELD = 1
    AB_LAND_GAIN = 2
    AB_ORBIT_START = 3
    AB_ADVANCE_GAIN = 4
    AB_SHIELDED = 5
    AB_COLONIZE_GAIN = 6
    AB_EXPLORE_GAIN = 7
    AB_DANGER_RUNNER = 8
    # where a pilot is
    PW_DECK = 0
    PW_ROW = 1
    PW_HIRED = 2            # + galaxy (the active pilot of a ship, or a replaced one)
    # where an exploration card is (observations: CW_DECK also stands for "unknown")
    CW_DECK = 0
    CW_ROW = 1
    CW_REVEALED = 2         # just revealed, the explorer deciding (K_EXPLORE stage 1)
    CW_TAKEN = 3            # + galaxy, face down
    # what a danger track asks for each advance
    COST_ENERGY = 0
    COST_CULTURE = 1
    COST_MOVE = 2
    # harder Rogue colony actions (catalogue "rogue_galaxies")
    RA_PLAYER_LOSES = 0
    RA_ROGUE_TAKES = 1
    RA_PUSH_BACK = 2
    RA_TAKE_CHOICE = 3
    RA_ADVANCE = 4
    RA_EXPLORES = 5
    RA_LOSES_BOTH = 6
    ROGUE_GALAXIES = 5

ABILITY_KINDS = ("acquire_bonus", "home_yield", "land_gain", "orbit_start", "advance_gain", "shielded",
                 "colonize_gain", "explore_gain", "danger_runner")
ROGUE_ACTION_KINDS = ("player_loses", "rogue_takes", "push_back_player_ship", "rogue_takes_player_choice",
                      "rogue_advances", "rogue_explores", "player_loses_both")
TRACK_COSTS = ("energy", "culture", "move")

cdef uint8_t PIL_KIND[TEG_PILOT_ROOM]
cdef int8_t PIL_A[TEG_PILOT_ROOM]          # resource / track / steps (by ability)
cdef int8_t PIL_B[TEG_PILOT_ROOM]          # resource / amount / culture (by ability)
cdef uint8_t PIL_TRAINED[TEG_PILOT_ROOM]   # bit t: trained for advanced ship kind t
cdef uint8_t PIL_BADGES[TEG_PILOT_ROOM][TEG_BADGES]
cdef uint8_t HANGAR_FACES[TEG_ADV]         # bit f: the hangar spot accepts 2 dice of face f
cdef uint8_t X_DANGER[TEG_CARD_ROOM]
cdef uint8_t X_BADGE[TEG_CARD_ROOM]
cdef int8_t X_ENERGY[TEG_CARD_ROOM]
cdef int8_t X_CULTURE[TEG_CARD_ROOM]
cdef uint8_t X_DWARF[TEG_CARD_ROOM]
cdef uint8_t X_ADVANCE[TEG_CARD_ROOM]
cdef uint8_t X_TRACK[TEG_CARD_ROOM]
cdef uint8_t X_COST[TEG_CARD_ROOM]
cdef uint8_t X_HOME[TEG_CARD_ROOM]
cdef uint8_t PILOT_ROW_SIZE[6]
cdef int8_t RG_START[ROGUE_GALAXIES][3]    # energy, culture, empire level
cdef uint8_t RG_BONUS[ROGUE_GALAXIES]
cdef uint8_t RG_ACT[ROGUE_GALAXIES][6]
cdef int8_t RG_A[ROGUE_GALAXIES][6]        # resource
cdef int8_t RG_B[ROGUE_GALAXIES][6]        # amount / steps
cdef int HIRE_TRAINED = 2
cdef int HIRE_ANY = 3
cdef double EXPLORE_WORTH = 0.0            # evaluate()'s worth of an explore not yet taken (13.8)


def _card_worth(dict c):
    # A card in evaluate()'s units once taken: resources 0.3 each, dwarf points, a badge 0.35, an
    # advance about a resource, danger-track spaces -0.4 each, a ship sent home about a resource lost.
    return 0.3 * (c["energy"] + c["culture"] + c["advance_ship"] - c["ship_home"]) + c["dwarf_planet_vp"] \
        + 0.35 - 0.4 * c["track_length"]


def _load_btb_catalogue(dict btb):
    ships = btb["advanced_ships"]
    badges = btb["badges"]
    if len(btb["pilots"]) != TEG_PILOTS or len(btb["exploration_cards"]) != TEG_CARDS or \
            len(ships) != TEG_ADV or len(badges) != TEG_BADGES:
        raise RuntimeError("tiny_epic_galaxies.json: beyond_the_black needs 30 pilots, 30 cards, 4 ships")
    for t, name in enumerate(ships):
        HANGAR_FACES[t] = 0
        for f in btb["hangar"][name]:
            HANGAR_FACES[t] |= 1 << FACE_NAMES.index(f)
    for i, p in enumerate(btb["pilots"]):
        kind = ABILITY_KINDS.index(p["ability"])
        prm = p["params"]
        a = b = 0
        if kind in (AB_ACQUIRE_BONUS, AB_HOME_YIELD):
            a = _res_code(prm["resource"])
        elif kind in (AB_LAND_GAIN, AB_EXPLORE_GAIN):
            a, b = _res_code(prm["resource"]), prm["amount"]
        elif kind == AB_ORBIT_START:
            a = prm["space"]
        elif kind == AB_ADVANCE_GAIN:
            a, b = _track_code(prm["track"]), _res_code(prm["resource"])
        elif kind == AB_COLONIZE_GAIN:
            a, b = prm["energy"], prm["culture"]
        elif kind == AB_DANGER_RUNNER:
            a = prm["steps"]
        if p["vp"] != 1:
            raise RuntimeError(f"tiny_epic_galaxies.json: pilot {p['name']} is worth 1 VP")
        PIL_KIND[i], PIL_A[i], PIL_B[i] = kind, a, b
        PIL_TRAINED[i] = sum(1 << ships.index(s) for s in p["trained"])
        for j in range(TEG_BADGES):
            PIL_BADGES[i][j] = p["badges"].count(badges[j])
    for i, c in enumerate(btb["exploration_cards"]):
        X_DANGER[i] = c["kind"] == "danger"
        X_BADGE[i] = badges.index(c["badge"])
        X_ENERGY[i], X_CULTURE[i] = c["energy"], c["culture"]
        X_DWARF[i] = c["dwarf_planet_vp"]
        X_ADVANCE[i] = c["advance_ship"]
        X_TRACK[i] = c["track_length"]
        X_COST[i] = TRACK_COSTS.index(c["track_cost"]) if c["track_length"] else 0
        X_HOME[i] = c["ship_home"]
        if X_DWARF[i] > 3 or (X_DANGER[i] and X_DWARF[i]) or (X_TRACK[i] and not X_DANGER[i]):
            raise RuntimeError(f"tiny_epic_galaxies.json: card {c['name']} is inconsistent")
    dwarfs = {c["dwarf_planet_vp"] for c in btb["exploration_cards"] if c["dwarf_planet_vp"]}
    if len(dwarfs) > 1:
        # "Dwarf Planets (. each)" (End game and scoring, In-game points): one value for all (docs 13.16)
        raise RuntimeError(f"tiny_epic_galaxies.json: dwarf planets must share one value, "
                           f"not {sorted(dwarfs)}")
    global EXPLORE_WORTH
    EXPLORE_WORTH = sum(_card_worth(c) for c in btb["exploration_cards"]) / TEG_CARDS
    for k, v in btb["pilot_row_size"].items():
        PILOT_ROW_SIZE[int(k)] = v
    for i, r in enumerate(btb["rogue_galaxies"]):
        if r["level"] != i + 1 or len(r["colony_actions_by_level"]) != 6:
            raise RuntimeError("tiny_epic_galaxies.json: rogue galaxies in rising order, 6 actions each")
        RG_START[i][0], RG_START[i][1] = r["start"]["energy"], r["start"]["culture"]
        RG_START[i][2] = r["start"]["empire_level"]
        RG_BONUS[i] = r["bonus_dice"]
        for lv, act in enumerate(r["colony_actions_by_level"]):
            RG_ACT[i][lv] = ROGUE_ACTION_KINDS.index(act["action"])
            RG_A[i][lv] = _res_code(act["resource"]) if "resource" in act else 0
            RG_B[i][lv] = act.get("amount", act.get("steps", 0))


_load_btb_catalogue(CATALOGUE["beyond_the_black"])


# ---------------------------------------------------------------- set-up

cdef inline int _mission_count(const TegState* s) noexcept nogil:
    # The expansion shuffles its 8 missions into the deck (Game setup 2).
    return N_ALL_MISSIONS if s.btb.on else TEG_MISSIONS


cdef void _btb_setup_flags(TegState* s) noexcept nogil:
    # Before anything is drawn: which planets are in the game, which Rogue galaxy.
    cdef int p, v = s.params.variant
    s.btb.on = v >= VARIANT_BTB
    s.btb.rogue_level = <uint8_t>(v - VARIANT_ROGUE_1 + 1) if v >= VARIANT_ROGUE_1 else 0
    for p in range(N_BASE_PLANETS, TEG_PLANET_ROOM):
        s.where[p] = W_BOX if not s.btb.on or p >= N_PLANETS else W_DECK
    for p in range(TEG_GALAXIES):
        memset(s.gal[p].adv, TEG_NONE, TEG_SHIPS)
        memset(s.gal[p].pilot, TEG_NONE, TEG_ADV)
        memset(s.gal[p].track_card, TEG_NONE, TEG_SHIPS)


cdef void _btb_setup(TegState* s, uint64_t seed) noexcept nogil:
    # Pilot row of players + 2 (6 for five), the exploration deck and its empty face-up row (Game setup).
    cdef int i
    rng_seed2(&s.rng_explore, seed, 4)
    rng_seed2(&s.rng_pilots, seed, 5)
    s.btb.pilot_row_size = PILOT_ROW_SIZE[_n_seats(s)]
    memset(s.btb.pilot_row, TEG_NONE, TEG_PILOT_ROW)
    memset(s.btb.xrow, TEG_NONE, TEG_XROW)
    for i in range(TEG_PILOTS, TEG_PILOT_ROOM):
        s.btb.pilot_where[i] = PW_ROW   # never drawn: outside the 30
    for i in range(TEG_CARDS, TEG_CARD_ROOM):
        s.btb.card_where[i] = CW_ROW
    for i in range(s.btb.pilot_row_size):
        s.btb.pilot_row[i] = <uint8_t>_draw_pilot(s)


cdef int _draw_pilot(TegState* s) noexcept nogil:
    # The pilot deck is the set of pilots still in it, drawn uniformly (like the planet deck).
    cdef int p, count = 0, pick
    for p in range(TEG_PILOTS):
        count += s.btb.pilot_where[p] == PW_DECK
    if count == 0:
        return TEG_NONE
    pick = <int>rng_below(&s.rng_pilots, <unsigned int>count)
    for p in range(TEG_PILOTS):
        if s.btb.pilot_where[p] == PW_DECK:
            if pick == 0:
                s.btb.pilot_where[p] = PW_ROW
                return p
            pick -= 1
    return TEG_NONE


# ---------------------------------------------------------------- pilots on ships

cdef inline int _ship_pilot(const TegState* s, int g, int k) noexcept nogil:
    cdef int t = s.gal[g].adv[k]
    return TEG_NONE if t >= TEG_ADV else s.gal[g].pilot[t]


cdef inline int _ability(const TegState* s, int g, int k) noexcept nogil:
    # The ability of the pilot flying ship k (only for that ship: Pilot's ability), or -1.
    cdef int p = _ship_pilot(s, g, k)
    return -1 if p == TEG_NONE else PIL_KIND[p]


cdef inline bint _shielded(const TegState* s, int g, int k) noexcept nogil:
    return s.btb.on and _ability(s, g, k) == AB_SHIELDED


cdef int _ship_yield(const TegState* s, int g, int k, int res) noexcept nogil:
    # What ship k yields on an Acquire of res: the base rule, planets that acquire both, culture in
    # Unexplored Space, nothing on a danger track, then its pilot.
    cdef int at = s.gal[g].ship_at[k], n = 0, ab = _ability(s, g, k), p = _ship_pilot(s, g, k)
    if at < TEG_PLANET_ROOM:
        n = P_RES[at] == res or P_RES[at] == RES_BOTH
    elif at == TEG_HOME:
        n = res == RES_ENERGY
        if ab == AB_HOME_YIELD and PIL_A[p] == res:
            n += 1
    elif at == TEG_EXPLORE:
        n = res == RES_CULTURE
    if n > 0 and ab == AB_ACQUIRE_BONUS and PIL_A[p] == res:
        n += 1
    return n


cdef void _pilot_on_advance(TegState* s, int g, int k, int track) noexcept nogil:
    cdef int p = _ship_pilot(s, g, k)
    if p != TEG_NONE and PIL_KIND[p] == AB_ADVANCE_GAIN and PIL_A[p] == track:
        _gain(&s.gal[g], PIL_B[p], 1)


cdef void _pilot_on_colonize(TegState* s, int g, int k) noexcept nogil:
    cdef int p = _ship_pilot(s, g, k)
    if p != TEG_NONE and PIL_KIND[p] == AB_COLONIZE_GAIN:
        _gain(&s.gal[g], RES_ENERGY, PIL_A[p])
        _gain(&s.gal[g], RES_CULTURE, PIL_B[p])


cdef void _pilot_on_arrival(TegState* s, int g, int k) noexcept nogil:
    # Landing gains (land_gain) and the orbit start space (orbit_start), after a move to a planet.
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int p = _ship_pilot(s, g, k)
    if p == TEG_NONE:
        return
    if PIL_KIND[p] == AB_LAND_GAIN and not gal.ship_orbit[k]:
        _gain(gal, PIL_A[p], PIL_B[p])
    elif PIL_KIND[p] == AB_ORBIT_START and gal.ship_orbit[k]:
        gal.ship_space[k] = <uint8_t>_min(PIL_A[p], P_N[gal.ship_at[k]])


cdef inline bint _normal_ship(const TegGalaxy* gal, int k) noexcept nogil:
    return gal.ship_at[k] != TEG_LOCKED and gal.ship_at[k] != TEG_NONE and gal.adv[k] == TEG_NONE


cdef inline bint _interchangeable_home(const TegGalaxy* gal, int k) noexcept nogil:
    # Normal ships on the mat are interchangeable (offer only the lowest-numbered); advanced ones are not.
    return gal.ship_at[k] == TEG_HOME and gal.adv[k] == TEG_NONE


# ---------------------------------------------------------------- hiring (Hiring pilots)

cdef inline bint _trained_spot(int p, int t, int f) noexcept nogil:
    return (PIL_TRAINED[p] >> t) & 1 and (HANGAR_FACES[t] >> f) & 1


cdef inline int _hire_cost(int p, int t, int f) noexcept nogil:
    # 2 dice of a symbol the ship's spot asks for when the pilot is trained for it; else 3 matching.
    return HIRE_TRAINED if _trained_spot(p, t, f) else HIRE_ANY


cdef bint _has_normal_ship(const TegGalaxy* gal) noexcept nogil:
    cdef int k
    for k in range(TEG_SHIPS):
        if _normal_ship(gal, k):
            return True
    return False


cdef bint _hire_face_ok(const TegState* s, int p, int t, int f) noexcept nogil:
    return s.pool[f] >= _hire_cost(p, t, f)


cdef bint _hire_ship_ok(const TegState* s, int g, int p, int t) noexcept nogil:
    # A pilot needs a normal ship to replace unless the advanced ship already flies (Additional rules).
    cdef int f
    if s.gal[g].pilot[t] == TEG_NONE and not _has_normal_ship(&s.gal[g]):
        return False
    for f in range(TEG_FACES):
        if _hire_face_ok(s, p, t, f):
            return True
    return False


cdef bint _hire_slot_ok(const TegState* s, int g, int slot) noexcept nogil:
    cdef int p = s.btb.pilot_row[slot], t
    if p == TEG_NONE:
        return False
    for t in range(TEG_ADV):
        if _hire_ship_ok(s, g, p, t):
            return True
    return False


cdef int _turn_btb_options(const TegState* s, int g, action_t* out) noexcept nogil:
    # The active player's extra turn options: hire a pilot, pay to advance on a danger track.
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int n = 0, i, k, c
    if not s.btb.on:
        return 0
    for i in range(s.btb.pilot_row_size):
        if _hire_slot_ok(s, g, i):
            out[n] = A_PILOT + i
            n += 1
    for k in range(TEG_SHIPS):
        if gal.ship_at[k] != TEG_DANGER:
            continue
        c = gal.track_card[k]
        if (X_COST[c] == COST_ENERGY and gal.energy >= 1) or (X_COST[c] == COST_CULTURE and gal.culture >= 1):
            out[n] = A_DANGER_PAY + k
            n += 1
    return n


cdef void _apply_turn_btb(TegState* s, int g, action_t a) noexcept nogil:
    cdef int k, c
    if a < A_HANGAR:
        _push(s, K_HIRE, g).a[1] = <uint8_t>(a - A_PILOT)
        return
    k = a - A_DANGER_PAY
    c = s.gal[g].track_card[k]
    _gain(&s.gal[g], RES_ENERGY if X_COST[c] == COST_ENERGY else RES_CULTURE, -1)
    _danger_step(s, g, k)


cdef int _hire_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[t.seat]
    cdef int n = 0, i, p = s.btb.pilot_row[t.a[1]]
    cdef bint home_seen = False
    if t.a[0] == 0:
        for i in range(TEG_ADV):
            if _hire_ship_ok(s, t.seat, p, i):
                out[n] = A_HANGAR + i
                n += 1
    elif t.a[0] == 1:
        for i in range(TEG_FACES):
            if _hire_face_ok(s, p, t.a[2], i):
                out[n] = A_FACE + i
                n += 1
    else:
        for i in range(TEG_SHIPS):
            if not _normal_ship(gal, i):
                continue
            if _interchangeable_home(gal, i):
                if home_seen:
                    continue
                home_seen = True
            out[n] = A_SHIP + i
            n += 1
    return n


cdef void _apply_hire(TegState* s, TegTask* t, action_t a) noexcept nogil:
    if t.a[0] == 0:
        t.a[2] = <uint8_t>(a - A_HANGAR)
        t.a[0] = 1
    elif t.a[0] == 1:
        t.a[3] = <uint8_t>(a - A_FACE)
        if s.gal[t.seat].pilot[t.a[2]] == TEG_NONE:
            t.a[0] = 2
        else:
            _finish_hire(s, t, TEG_NONE)
    else:
        _finish_hire(s, t, a - A_SHIP)


cdef void _finish_hire(TegState* s, TegTask* t, int k) noexcept nogil:
    # The dice go to the bay without their actions; the pilot takes (or is placed over) the ship's
    # card; a replacement fills the row; others may follow the last die only (Hiring pilots).
    cdef int g = t.seat, slot = t.a[1], kind = t.a[2], f = t.a[3], p = s.btb.pilot_row[slot]
    cdef int cost = _hire_cost(p, kind, f)
    cdef TegTask* fo
    _pop(s)
    s.pool[f] -= cost
    # Kept apart from the action dice: Piedes repeats "a die already activated this turn" and a hiring
    # die had no action to repeat (docs section 13.2).
    s.hire_bay[f] += cost
    s.btb.pilot_where[p] = <uint8_t>(PW_HIRED + g)
    s.gal[g].pilot[kind] = <uint8_t>p
    if k != TEG_NONE:
        s.gal[g].adv[k] = <uint8_t>kind
    s.btb.pilot_row[slot] = <uint8_t>_draw_pilot(s)
    fo = _push(s, K_FOLLOW, g)
    fo.a[0] = <uint8_t>f
    fo.a[1] = 1
    fo.a[2] = s.follow_cost
    _check_trigger(s, g)


# ---------------------------------------------------------------- exploring (Exploration)

cdef int _deck_left(const TegState* s) noexcept nogil:
    # Cards in the exploration deck; in an observation the unknown cards less the hidden face-down ones.
    cdef int i, n = 0
    for i in range(TEG_CARDS):
        n += s.btb.card_where[i] == CW_DECK
    for i in range(TEG_GALAXIES):
        n -= _hidden_total(s, i, 0)
    return n


cdef inline int _xrow_count(const TegState* s) noexcept nogil:
    cdef int i, n = 0
    for i in range(TEG_XROW):
        n += s.btb.xrow[i] != TEG_NONE
    return n


cdef inline bint _can_explore(const TegState* s) noexcept nogil:
    return _xrow_count(s) > 0 or _deck_left(s) > 0


cdef inline bint _may_leave(const TegState* s) noexcept nogil:
    # A revealed discovery may be left face up only while the row has room and another can be revealed.
    return _xrow_count(s) < TEG_XROW and _deck_left(s) > 0


cdef bint _explore_move_ok(const TegState* s, int g, int k) noexcept nogil:
    cdef int at = s.gal[g].ship_at[k]
    return s.btb.on and at != TEG_LOCKED and at != TEG_NONE and at != TEG_EXPLORE and at != TEG_DANGER \
        and _can_explore(s)


cdef int _move_btb_options(const TegState* s, int g, int excluded, action_t* out) noexcept nogil:
    # Move a Ship extras: into Unexplored Space (and explore), or a ship action on a danger track.
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int n = 0, k
    cdef bint home_seen = False
    if not s.btb.on:
        return 0
    for k in range(TEG_SHIPS):
        if k == excluded or not _explore_move_ok(s, g, k):
            continue
        if _interchangeable_home(gal, k):
            if home_seen:
                continue
            home_seen = True
        out[n] = A_EXPLORE + k
        n += 1
    for k in range(TEG_SHIPS):
        if k != excluded and gal.ship_at[k] == TEG_DANGER and X_COST[gal.track_card[k]] == COST_MOVE:
            out[n] = A_DANGER_MOVE + k
            n += 1
    return n


cdef void _apply_move_btb(TegState* s, int g, action_t a, int then_second) noexcept nogil:
    cdef int k
    cdef TegTask* t
    if a >= A_DANGER_MOVE:
        k = a - A_DANGER_MOVE
        if then_second:
            _push_die(s, g, FACE_MOVE, k, 0)
        _danger_step(s, g, k)
        return
    k = a - A_EXPLORE
    s.gal[g].ship_at[k] = TEG_EXPLORE
    s.gal[g].ship_orbit[k] = 0
    s.gal[g].ship_space[k] = 0
    if then_second:
        _push_die(s, g, FACE_MOVE, k, 0)
    if _ability(s, g, k) == AB_EXPLORE_GAIN:
        _gain(&s.gal[g], PIL_A[_ship_pilot(s, g, k)], PIL_B[_ship_pilot(s, g, k)])
    t = _push(s, K_EXPLORE, g)
    t.a[0] = <uint8_t>k


cdef void _danger_step(TegState* s, int g, int k) noexcept nogil:
    # One advance (two for a danger runner); the finished track returns the ship to the exploration
    # mat without a new explore (Additional rules for exploring).
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int steps = PIL_A[_ship_pilot(s, g, k)] if _ability(s, g, k) == AB_DANGER_RUNNER else 1
    gal.ship_space[k] += steps
    if gal.ship_space[k] >= X_TRACK[gal.track_card[k]]:
        gal.ship_at[k] = TEG_EXPLORE
        gal.ship_space[k] = 0
        gal.track_card[k] = TEG_NONE


cdef int _explore_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef int n = 0, i
    if t.a[1] == 1:
        out[0] = A_XTAKE
        out[1] = A_XLEAVE
        return 2
    for i in range(TEG_XROW):
        if s.btb.xrow[i] != TEG_NONE:
            out[n] = A_XROW + i
            n += 1
    if _deck_left(s) > 0:
        out[n] = A_XDRAW
        n += 1
    return n


cdef int _draw_card(TegState* s, int g) noexcept nogil:
    # The deck is a set drawn uniformly; its last card triggers the end of the game (End game).
    cdef int c, count = 0, pick
    for c in range(TEG_CARDS):
        count += s.btb.card_where[c] == CW_DECK
    if count == 0:
        return TEG_NONE
    pick = <int>rng_below(&s.rng_explore, <unsigned int>count)
    for c in range(TEG_CARDS):
        if s.btb.card_where[c] == CW_DECK:
            if pick == 0:
                s.btb.card_where[c] = CW_REVEALED
                if count == 1 and s.trigger < 0:
                    s.trigger = <int8_t>g
                return c
            pick -= 1
    return TEG_NONE


cdef void _reveal(TegState* s, TegTask* t) noexcept nogil:
    # A danger must be taken; so must a discovery when the row is full or nothing is left to reveal.
    cdef int c = _draw_card(s, t.seat)
    if c == TEG_NONE:
        _pop(s)
        return
    if X_DANGER[c] or not _may_leave(s):
        _take_card(s, t.seat, t.a[0], c)
        return
    t.a[1] = 1
    t.a[2] = <uint8_t>c


cdef void _apply_explore(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int i, c
    if A_XROW <= a < A_XROW + TEG_XROW:
        i = a - A_XROW
        c = s.btb.xrow[i]
        for i in range(i, TEG_XROW - 1):
            s.btb.xrow[i] = s.btb.xrow[i + 1]    # the row stays left-aligned
        s.btb.xrow[TEG_XROW - 1] = TEG_NONE
        _take_card(s, t.seat, t.a[0], c)
    elif a == A_XDRAW:
        _reveal(s, t)
    elif a == A_XTAKE:
        _take_card(s, t.seat, t.a[0], t.a[2])
    else:
        c = t.a[2]
        s.btb.card_where[c] = CW_ROW
        s.btb.xrow[_xrow_count(s)] = <uint8_t>c
        t.a[1] = 0
        t.a[2] = 0
        _reveal(s, t)


cdef void _take_card(TegState* s, int g, int k, int c) noexcept nogil:
    # Resolve the card, then keep it face down (After exploration). The exploring task is done.
    cdef TegGalaxy* gal = &s.gal[g]
    _pop(s)
    s.btb.card_where[c] = <uint8_t>(CW_TAKEN + g)
    _gain(gal, RES_ENERGY, X_ENERGY[c])
    _gain(gal, RES_CULTURE, X_CULTURE[c])
    if X_HOME[c] and gal.ship_at[k] == TEG_EXPLORE:
        gal.ship_at[k] = TEG_HOME
    elif X_TRACK[c] and gal.ship_at[k] == TEG_EXPLORE:
        gal.ship_at[k] = TEG_DANGER
        gal.ship_space[k] = 0
        gal.track_card[k] = <uint8_t>c
    if X_ADVANCE[c]:
        _push(s, K_XCARD, g).a[0] = <uint8_t>c
    if X_DWARF[c]:
        _check_trigger(s, g)


# ---------------------------------------------------------------- the harder Rogue galaxies

cdef void _harder_rogue_setup(TegState* s) noexcept nogil:
    cdef int i = s.btb.rogue_level - 1
    cdef TegGalaxy* r = &s.gal[ROGUE]
    r.energy = RG_START[i][0]
    r.culture = RG_START[i][1]
    r.empire = RG_START[i][2]


cdef inline int _rogue_bonus_dice(const TegState* s) noexcept nogil:
    return RG_BONUS[s.btb.rogue_level - 1] if s.btb.rogue_level else 3


cdef void _rogue_explore(TegState* s) noexcept nogil:
    # The Rogue takes the top exploration card face up: its badge and dwarf points count, nothing else.
    cdef int c = _draw_card(s, ROGUE)
    if c == TEG_NONE:
        return
    s.btb.card_where[c] = <uint8_t>(CW_TAKEN + ROGUE)
    if X_DWARF[c]:
        _check_trigger(s, ROGUE)


cdef void _harder_rogue_action(TegState* s) noexcept nogil:
    # The colony action of the harder Rogue galaxy by its empire level (catalogue rogue_galaxies).
    cdef int i = s.btb.rogue_level - 1, lv = s.gal[ROGUE].empire - 1, kind, a, b, k, n
    cdef TegGalaxy* me = &s.gal[0]
    kind = RG_ACT[i][lv]
    a = RG_A[i][lv]
    b = RG_B[i][lv]
    if kind == RA_PLAYER_LOSES:
        _gain(me, a, -b)
    elif kind == RA_LOSES_BOTH:
        _gain(me, RES_ENERGY, -b)
        _gain(me, RES_CULTURE, -b)
    elif kind == RA_ROGUE_TAKES:
        n = _min(b, _held(me, a))
        _gain(me, a, -n)
        _gain(&s.gal[ROGUE], a, n)
    elif kind == RA_PUSH_BACK:
        k = _most_advanced(s, 0, 1)
        if k >= 0:
            _push_back(s, 0, k, b)
    elif kind == RA_TAKE_CHOICE:
        _push(s, K_ROGUE_TAKE, 0).a[0] = <uint8_t>b
    elif kind == RA_ADVANCE:
        k = _most_advanced(s, ROGUE, 0)
        if k >= 0:
            _advance(s, ROGUE, k, b)
    elif kind == RA_EXPLORES:
        _rogue_explore(s)
        if b > 0:  # "it explores, then its most advanced ship advances b" (the harder mats' level 2)
            k = _most_advanced(s, ROGUE, 0)
            if k >= 0:
                _advance(s, ROGUE, k, b)
