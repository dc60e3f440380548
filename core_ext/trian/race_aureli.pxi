# Included by races.pxi: race 0, AURELI (invented name) (section VIII; docs/rules/trian.md, section 14).
#
# Starting skills (racial skills 0, 1): Supreme Priestess, Harness technology.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Precious Meditation,
# Divine help, Power drain (needs Harness technology).
#
# The race's actions are A_RACE + 0 * RACE_BLOCK + n (n < RACE_BLOCK). Its skills hook into the engine
# through the dispatch functions at the end of races.pxi (_race_ph1_actions, _race_ph3_actions,
# _race_step_actions, _race_apply, _race_after_gain, _race_after_ship_move, _race_ship_gone,
# _race_before_clash, _rogue_fights, _die_bonus, _wins_ties, _ship_immobile, _race_reach,
# _construct_credits, _race_check, _race_describe); set SKILL_DONE for every skill implemented here.

cdef enum:
    AU_PLACE = 0             # place the Supreme Priestess on the tile added this turn (the action)
    AU_GAIN = 1000           # + nebula record * 4 + colour: a mineral after moving the Priestess
    AU_FIX = 1300            # fix the Priestess as an emissary where it ended its move
    AU_STAY = 1301           # keep it a ship
    AU_EVADE = 1400          # + combination of 3 minerals (MSETS[1]): Divine help, evade the attack
    AU_ACCEPT = 1499         # do not evade (the Priestess loses the clash)
    AU_EVADE_TO = 1500       # + tile: where the evading Priestess goes
    AU_HARNESS = 1600        # + tile: put the Harness technology token on the enemy ship there
    AU_RELEASE = 1700        # + combination of 2 (3 with Power drain) minerals: free one's harnessed ship
    AU_USED_HARNESS = 8      # race_used bit
    PRIESTESS_GAIN = 2       # minerals after a move


cdef int _priestess_tile(const TrianState* s, int p, bint* as_ship) noexcept nogil:
    # the tile of p's Supreme Priestess, -1 when it is in the supply (one token: a ship or an emissary)
    cdef uint8_t tiles[TR_TILES]
    cdef int i, k
    for k in range(_ship_tiles(s, tiles)):
        i = tiles[k]
        if s.placed[i].ship_kind == SHIP_PRIESTESS and s.placed[i].ship_owner == p:
            as_ship[0] = True
            return i
    for k in range(_own_emissary_tiles(s, p, tiles)):
        i = tiles[k]
        if s.placed[i].unit == UNIT_PRIESTESS:
            as_ship[0] = False
            return i
    return -1


cdef int _radius12(const TrianState* s, int i, int* out) noexcept nogil:
    # the placed tiles sharing an edge or a corner with tile i (at most 12), and tile i itself
    cdef int x = s.placed[i].x, y = s.placed[i].y, n = 0, dx, dy, lo, hi, j, up = _orient(x, y) == 0
    for dy in range(-1, 2):
        # an up triangle touches 3 cells in the row above, 5 in its row (itself included), 5 below;
        # a down triangle the mirror image
        if dy == 0:
            lo = -2
            hi = 2
        elif (dy == -1 and up) or (dy == 1 and not up):
            lo = -1
            hi = 1
        else:
            lo = -2
            hi = 2
        for dx in range(lo, hi + 1):
            j = _placed_at(s, x + dx, y + dy)
            if j >= 0:
                out[n] = j
                n += 1
    return n


cdef bint _priestess_gain_ok(const TrianState* s, int i, int k) noexcept nogil:
    # closed-nebula record k has a part within the Priestess's radius of action (tile i) and minerals
    cdef int near[13]
    cdef int m = _radius12(s, i, near), q, j
    if _nebula_mineral_total(s, k) == 0:
        return False
    for q in range(m):
        j = near[q]
        if FACE_HAS_NEB[s.placed[j].face] and _cfind(s, _node(j, K_NEBULA)) == s.nebula_root[k]:
            return True
    return False


cdef bint _priestess_may_fix(const TrianState* s, int j, int p) noexcept nogil:
    # a planet or a nebula part (no extractor) where an emissary of p could stand (standard rules)
    cdef int f = s.placed[j].face
    return FACE_FEAT[f] != F_OUTPOST and _may_receive_emissary(s, j, p, -1)


cdef void _aureli_enter(TrianState* s, int step, int p, int arg, int count) noexcept nogil:
    s.mode = M_RACE
    s.race_step = <uint8_t>step
    s.race_seat = <int8_t>p
    s.race_arg = <uint8_t>arg
    s.race_count = <uint8_t>count


cdef bint _aureli_after_move(TrianState* s, int j) noexcept nogil:
    # after moving the Priestess (not a teleport): 2 minerals from a closed nebula in its radius, then
    # the choice to fix it as an emissary; its ship battle (if any) comes after both
    cdef int k, p = s.placed[j].ship_owner
    for k in range(s.n_nebulas):
        if _priestess_gain_ok(s, j, k):
            _aureli_enter(s, STEP_PR_GAIN, p, j, PRIESTESS_GAIN)
            return True
    return _aureli_offer_fix(s, j)


cdef bint _aureli_offer_fix(TrianState* s, int j) noexcept nogil:
    cdef int p = s.placed[j].ship_owner
    if _priestess_may_fix(s, j, p):
        _aureli_enter(s, STEP_PR_FIX, p, j, 0)
        return True
    return False


cdef void _aureli_land(TrianState* s, int j) noexcept nogil:
    # the sub-steps after a move are over: the Priestess lands as a ship (battle or end of phase 3)
    _race_step_clear(s)
    s.mode = M_PH3
    _ship_landed(s, j)


cdef bint _divine_target(const TrianState* s, int j, int p, int start) noexcept nogil:
    # a tile where the evading Priestess may stand and no battle takes place
    return j != start and _ship_may_stand(s, j) and not _enemy_ship_adjacent(s, j, p)


cdef int _divine_nearest(const TrianState* s, int start, int p, uint8_t* mark) noexcept nogil:
    # breadth-first over edge neighbours from the Priestess's tile; marks the nearest fitting tiles
    cdef int queue[TR_TILES]
    cdef int dist[TR_TILES]
    cdef int head = 0, tail = 0, i, d, j, best = -1, found = 0
    for i in range(s.n_placed):
        dist[i] = -1
        mark[i] = 0
    dist[start] = 0
    queue[tail] = start
    tail += 1
    while head < tail:
        i = queue[head]
        head += 1
        if best >= 0 and dist[i] > best:
            break
        if _divine_target(s, i, p, start):
            best = dist[i]
            mark[i] = 1
            found += 1
        for d in range(3):
            j = _nb_placed(s, i, d)
            if j >= 0 and dist[j] < 0:
                dist[j] = dist[i] + 1
                queue[tail] = j
                tail += 1
    return found


cdef bint _aureli_before_clash(TrianState* s, int a, int t) noexcept nogil:
    # Divine help: the Priestess under attack (the defender) may evade for 3 chosen minerals
    cdef uint8_t mark[TR_TILES]
    cdef int p = s.placed[t].ship_owner
    if s.placed[t].ship_kind != SHIP_PRIESTESS or not _has(s, p, R_AURELI, 3) or \
            _mineral_total(&s.players[p]) < 3 or _divine_nearest(s, t, p, mark) == 0:
        return False
    _aureli_enter(s, STEP_DIVINE, p, t, 0)
    return True


cdef int _aureli_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    cdef bint as_ship
    cdef uint8_t ships[TR_TILES]
    cdef int i, k, base = A_RACE + R_AURELI * RACE_BLOCK
    # Supreme Priestess: the turn's expedition, onto the tile added this turn, never next to a ship
    if _has(s, me, R_AURELI, 0) and s.actions_taken == 0 and _priestess_tile(s, me, &as_ship) < 0 and \
            _ship_expedition_ok(s):
        out[n] = base + AU_PLACE
        n += 1
    # Harness technology: free, once per turn, onto (or over to) a tile with an enemy ship
    if _has(s, me, R_AURELI, 1) and not s.race_used & AU_USED_HARNESS:
        for k in range(_ship_tiles(s, ships)):
            i = ships[k]
            if s.placed[i].ship_owner != me and s.players[me].special_tile[0] != i:
                out[n] = base + AU_HARNESS + i
                n += 1
    return n


cdef int _harness_owner(const TrianState* s, int i) noexcept nogil:
    # the seat whose Harness technology token holds the ship on tile i, or -1
    cdef int p
    for p in range(s.params.num_players):
        if s.players[p].race == R_AURELI and s.players[p].special_tile[0] == i and \
                s.placed[i].ship_kind != 0 \
                and s.placed[i].ship_owner != p:
            return p
    return -1


cdef inline int _release_size(const TrianState* s, int owner) noexcept nogil:
    return 1 if _has(s, owner, R_AURELI, 4) else 0      # MSET size index: 3 minerals with Power drain


cdef int _release_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # the owner of a harnessed ship frees it in its phase 3 by paying the harness's owner
    # (the first of me's harnessed ships in tile order: found from the harness tokens, not the tiles)
    cdef int i = TR_TILES, p, t, k, z
    for p in range(s.params.num_players):
        t = s.players[p].special_tile[0]
        if s.players[p].race == R_AURELI and t != TR_UNKNOWN and t < i and p != me and \
                s.placed[t].ship_owner == me and s.placed[t].ship_kind != 0:
            i = t
    if i == TR_TILES:
        return n
    z = _release_size(s, _harness_owner(s, i))
    for k in range(MSET_N[z]):
        if _may_pay(&s.players[me], z, k):
            out[n] = A_RACE + R_AURELI * RACE_BLOCK + AU_RELEASE + k
            n += 1
    return n          # one harness token, so at most one harnessed ship per player


cdef int _aureli_step_actions(const TrianState* s, action_t* out) noexcept nogil:
    cdef uint8_t mark[TR_TILES]
    cdef int n = 0, k, c, j = s.race_arg, p = s.race_seat, base = A_RACE + R_AURELI * RACE_BLOCK
    if s.race_step == STEP_PR_GAIN:
        # the first pick chooses the nebula (race_arg: the Priestess's tile); the second takes from the
        # same one (race_arg: its record)
        for k in range(s.n_nebulas):
            if (s.race_count == PRIESTESS_GAIN and _priestess_gain_ok(s, j, k)) or \
                    (s.race_count < PRIESTESS_GAIN and k == j):
                for c in range(TR_COLORS):
                    if s.nebula_minerals[k][c] > 0:
                        out[n] = base + AU_GAIN + k * 4 + c
                        n += 1
    elif s.race_step == STEP_PR_FIX:
        out[n] = base + AU_FIX
        n += 1
        out[n] = base + AU_STAY
        n += 1
    elif s.race_step == STEP_DIVINE:
        for k in range(MSET_N[1]):
            if _may_pay(&s.players[p], 1, k):
                out[n] = base + AU_EVADE + k
                n += 1
        out[n] = base + AU_ACCEPT
        n += 1
    elif s.race_step == STEP_DIVINE_TO:
        _divine_nearest(s, j, p, mark)
        for k in range(s.n_placed):
            if mark[k]:
                out[n] = base + AU_EVADE_TO + k
                n += 1
    return n


cdef int _aureli_apply(TrianState* s, int me, int local) noexcept nogil:
    cdef bint as_ship
    cdef int k, c, j, t, owner, z, pt
    cdef uint8_t mark[TR_TILES]
    if local == AU_PLACE:
        _spend_action(s)
        _ship_arrive(s, s.new_tile, me, SHIP_PRIESTESS)
        if _race_after_ship_move(s, s.new_tile, True):
            return 0                 # a racial token destroyed it (phase 3 went on or ended there)
        _action_done(s)
        return 0
    if AU_GAIN <= local < AU_FIX:
        k = (local - AU_GAIN) // 4
        c = (local - AU_GAIN) % 4
        s.nebula_minerals[k][c] -= 1
        s.players[me].minerals[c] += 1
        s.race_count -= 1
        s.race_arg = <uint8_t>k
        pt = _priestess_tile(s, me, &as_ship)
        if s.race_count > 0 and _nebula_mineral_total(s, k) > 0:
            return 0
        _race_step_clear(s)
        s.mode = M_PH3
        if not _aureli_offer_fix(s, pt):
            _ship_landed(s, pt)
        return 0
    if local == AU_FIX or local == AU_STAY:
        j = s.race_arg
        if local == AU_STAY:
            _aureli_land(s, j)
            return 0
        owner = _closed_area_owner(s, j)
        _put_ship(s, j, -1, 0)
        s.placed[j].ship_arrived = 0
        _put_emissary(s, j, me)
        s.placed[j].unit = UNIT_PRIESTESS
        _race_step_clear(s)
        s.mode = M_PH3
        if owner == -1:
            _control_token(s, me)    # took control of an uncontrolled closed area (VI.3)
        _action_done(s)
        return 0
    if AU_EVADE <= local <= AU_ACCEPT:
        t = s.race_arg
        _race_step_clear(s)
        s.mode = M_SHIP_TARGET
        if local == AU_ACCEPT:
            _ship_clash_result(s, s.ship_battle_attacker, t)       # the Priestess loses to any ship
            _ship_battle_next(s)
            return 0
        _pay_minerals(s, me, 1, local - AU_EVADE, -1)
        _aureli_enter(s, STEP_DIVINE_TO, me, t, 0)
        return 0
    if AU_EVADE_TO <= local < AU_HARNESS:
        t = s.race_arg
        j = local - AU_EVADE_TO
        _race_step_clear(s)
        s.mode = M_SHIP_TARGET
        _put_ship(s, t, -1, 0)
        s.placed[t].ship_arrived = 0
        _race_ship_gone(s, t)
        _ship_arrive(s, j, me, SHIP_PRIESTESS)
        _race_after_ship_move(s, j, True)            # racial tokens near its new tile (no gain: no move)
        _ship_battle_next(s)                         # the attacker goes on if enemies are left
        return 0
    if AU_HARNESS <= local < AU_RELEASE:
        s.players[me].special_tile[0] = <uint8_t>(local - AU_HARNESS)
        s.race_used |= AU_USED_HARNESS
        return 0
    # release: me pays the harness's owner and its ship is free again
    for j in range(s.n_placed):
        if s.placed[j].ship_owner == me and _harness_owner(s, j) >= 0:
            owner = _harness_owner(s, j)
            z = _release_size(s, owner)
            _pay_minerals(s, me, z, local - AU_RELEASE, owner)
            s.players[owner].special_tile[0] = TR_UNKNOWN
            return 0
    return -1


cdef void _aureli_ship_gone(TrianState* s, int i) noexcept nogil:
    # a harnessed ship that leaves the board frees the Harness technology token
    cdef int p
    for p in range(s.params.num_players):
        if s.players[p].race == R_AURELI and s.players[p].special_tile[0] == i:
            s.players[p].special_tile[0] = TR_UNKNOWN


cdef int _aureli_construct_credits(const TrianState* s, int i, bint system, int x) noexcept nogil:
    # Precious Meditation: building on the Supreme Priestess pays x 6 in a system, x 3 in a nebula
    if s.placed[i].unit == UNIT_PRIESTESS and _has(s, s.placed[i].emissary, R_AURELI, 2):
        return x * (6 if system else 3)
    return x * (4 if system else 1)


cdef object _aureli_describe(const TrianState* s, int me, int a, int local):
    if local == AU_PLACE:
        i = s.new_tile
        return dict(_cell(s, i), id=a, kind="priestess_place",
                    label=f"Supreme Priestess: place it on ({s.placed[i].x}, {s.placed[i].y})")
    if AU_GAIN <= local < AU_FIX:
        k = (local - AU_GAIN) // 4
        color = COLOR_NAMES[(local - AU_GAIN) % 4]
        return {"id": a, "kind": "priestess_gain", "nebula": k, "color": color,
                "label": f"Supreme Priestess: take a {color} mineral from nebula #{k}"}
    if local == AU_FIX:
        return {"id": a, "kind": "priestess_fix", "label": "Supreme Priestess: fix it here as an emissary"}
    if local == AU_STAY:
        return {"id": a, "kind": "priestess_stay", "label": "Supreme Priestess: keep it a ship"}
    if AU_EVADE <= local < AU_ACCEPT:
        combo = MSETS[1][local - AU_EVADE]
        pay = {COLOR_NAMES[c]: combo[c] for c in range(4) if combo[c]}
        text = ", ".join(f"{v} {k}" for k, v in pay.items())
        return {"id": a, "kind": "divine_help", "pay": pay,
                "label": f"Divine help: evade the attack for {text}"}
    if local == AU_ACCEPT:
        return {"id": a, "kind": "divine_help_none", "label": "Divine help: do not evade"}
    if AU_EVADE_TO <= local < AU_HARNESS:
        j = local - AU_EVADE_TO
        return dict(_cell(s, j), id=a, kind="divine_help_to",
                    label=f"Divine help: the Priestess goes to ({s.placed[j].x}, {s.placed[j].y})")
    if AU_HARNESS <= local < AU_RELEASE:
        j = local - AU_HARNESS
        return dict(_cell(s, j), id=a, kind="harness",
                    label=f"Harness technology: immobilize the ship at ({s.placed[j].x}, {s.placed[j].y})")
    z = 0
    for j in range(s.n_placed):
        if s.placed[j].ship_owner == me and _harness_owner(s, j) >= 0:
            z = _release_size(s, _harness_owner(s, j))
    combo = MSETS[z][local - AU_RELEASE]
    pay = {COLOR_NAMES[c]: combo[c] for c in range(4) if combo[c]}
    text = ", ".join(f"{v} {k}" for k, v in pay.items())
    return {"id": a, "kind": "harness_release", "pay": pay,
            "label": f"free the harnessed ship for {text}"}
