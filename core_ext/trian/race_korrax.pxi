# Included by races.pxi: race 1, KORRAX (invented name) (section VIII; docs/rules/trian.md, section 14).
#
# Starting skills (racial skills 0, 1): Slave-Minion, Hive Defender.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Living structures,
# Regeneration, Slave-Minion (additional).
#
# The race's actions are A_RACE + 1 * RACE_BLOCK + n (n < RACE_BLOCK). Its skills hook into the engine
# through the dispatch functions at the end of races.pxi (_race_ph1_actions, _race_ph3_actions,
# _race_step_actions, _race_apply, _race_after_gain, _race_after_ship_move, _race_ship_gone,
# _race_before_clash, _rogue_fights, _die_bonus, _wins_ties, _ship_immobile, _race_reach,
# _construct_credits, _race_check, _race_describe); set SKILL_DONE for every skill implemented here.

cdef enum:
    KO_MINION = 0            # + tile: send a Slave-minion there (1 yellow mineral)
    KO_NO_MINION = 99        # send none with this emissary
    KO_LIVING = 100          # + tile: Living structures, a space station at once on the Slave-minion there
    KO_USED_MINION = 4       # race_used bit
    UNIT_MINION = 1          # TrianPlaced.unit of a Slave-minion


cdef int _korrax_minions_free(const TrianState* s, int p) noexcept nogil:
    # Slave-minion tokens in p's supply: 1, 2 with Slave-Minion (additional), less those on the board
    cdef int i, n = _has(s, p, R_KORRAX, 0) + _has(s, p, R_KORRAX, 4)
    for i in range(s.n_placed):
        if s.placed[i].emissary == p and s.placed[i].unit == UNIT_MINION:
            n -= 1
    return n


cdef bint _korrax_minion_target(const TrianState* s, int j, int me, int mission) noexcept nogil:
    # an empty planet or nebula part (no extractor, no trade outpost) next to the emissary sent on a
    # mission this turn, or anywhere in its nebula or planetary system; standard emissary rules
    cdef int f = s.placed[j].face, d, root
    if j == mission or FACE_FEAT[f] == F_OUTPOST or not _may_receive_emissary(s, j, me, -1):
        return False
    for d in range(3):
        if _nb_placed(s, mission, d) == j:
            return True
    root = _area_root_of(s, mission)
    return root >= 0 and _area_root_of(s, j) == root


cdef void _korrax_after_mission(TrianState* s, int me, int m) noexcept nogil:
    # Slave-Minion: right after an own emissary's expedition or teleport, once per turn, the player may
    # send a Slave-minion with it for 1 yellow mineral (a sub-step, so it comes before phase 3 ends)
    cdef int i
    if not _has(s, me, R_KORRAX, 0) or s.race_used & KO_USED_MINION or s.players[me].minerals[3] == 0 or \
            _korrax_minions_free(s, me) <= 0:
        return
    for i in range(s.n_placed):
        if _korrax_minion_target(s, i, me, m):
            s.mode = M_RACE
            s.race_step = STEP_MINION
            s.race_seat = <int8_t>me
            s.race_arg = <uint8_t>m
            return


cdef int _korrax_step_actions(const TrianState* s, action_t* out) noexcept nogil:
    cdef int i, n = 0, me = s.race_seat, base = A_RACE + R_KORRAX * RACE_BLOCK
    for i in range(s.n_placed):
        if _korrax_minion_target(s, i, me, s.race_arg):
            out[n] = base + KO_MINION + i
            n += 1
    out[n] = base + KO_NO_MINION
    n += 1
    return n


cdef int _korrax_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    cdef int i, k, base = A_RACE + R_KORRAX * RACE_BLOCK
    cdef uint8_t own_tiles[TR_TILES]
    # Living structures: the construction action, a space station at once on a Slave-minion
    if _has(s, me, R_KORRAX, 2) and s.players[me].research_stations > 0 and s.players[me].space_stations > 0:
        for k in range(_own_emissary_tiles(s, me, own_tiles)):
            i = own_tiles[k]
            if s.placed[i].unit == UNIT_MINION and s.placed[i].station == 0 and _may_construct(s, i, me):
                out[n] = base + KO_LIVING + i
                n += 1
    return n


cdef int _korrax_apply(TrianState* s, int me, int local) noexcept nogil:
    cdef int j, owner
    if local >= KO_LIVING:
        _spend_action(s)
        _construct(s, me, local - KO_LIVING, 2)
        _action_done(s)
        return 0
    _race_step_clear(s)
    s.mode = M_PH3
    if local != KO_NO_MINION:
        j = local - KO_MINION
        owner = _closed_area_owner(s, j)
        s.players[me].minerals[3] -= 1
        s.bag[3] += 1
        s.race_used |= KO_USED_MINION
        _put_emissary(s, j, me)
        s.placed[j].unit = UNIT_MINION
        if owner == -1 and not _blocked(s, j):
            _control_token(s, me)    # took control of an uncontrolled closed area (VI.3, XI)
    _action_done(s)
    return 0


cdef bint _korrax_rogue_fights(const TrianState* s, int i) noexcept nogil:
    # Hive Defender: the player's Rogues fight Corvettes with dice instead of losing at once
    return _has(s, s.placed[i].ship_owner, R_KORRAX, 1)


cdef int _korrax_wins_ties(const TrianState* s, int p, int q) noexcept nogil:
    # Regeneration: the player's units win every tie
    if _has(s, p, R_KORRAX, 3):
        return p
    if q >= 0 and _has(s, q, R_KORRAX, 3):
        return q
    return -1


cdef object _korrax_describe(const TrianState* s, int me, int a, int local):
    if local >= KO_LIVING:
        i = local - KO_LIVING
        return dict(_cell(s, i), id=a, kind="living_structures",
                    label=f"Living structures: a space station at once on the Slave-minion at "
                          f"({s.placed[i].x}, {s.placed[i].y})")
    if local == KO_NO_MINION:
        return {"id": a, "kind": "slave_minion_none", "label": "Slave-Minion: send none"}
    i = local - KO_MINION
    return dict(_cell(s, i), id=a, kind="slave_minion",
                label=f"Slave-Minion: send it to ({s.placed[i].x}, {s.placed[i].y}) for 1 yellow mineral")
