# Included by engine.pyx: how the game is scored. Points toward 21 (colonies, the empire level; with
# Beyond the Black pilots and dwarf planets), the secret missions (base and Beyond the Black), Beyond
# the Black's badges, final scores, ranks with tie-breaks and returns (End of game, Secret missions;
# docs sections 4, 5, 7 and 13).


# ---------------------------------------------------------------- points toward 21

cdef int _colony_points(const TegState* s, int g) noexcept nogil:
    cdef int p, n = 0
    for p in range(N_PLANETS):
        if s.where[p] == W_COLONY + g:
            n += P_VP[p]
    return n


cdef inline int _points(const TegState* s, int g) noexcept nogil:
    # Points that count toward 21: colonies plus the current empire level's VP (Empire track); with
    # Beyond the Black also pilots and dwarf planets (End game and scoring). The same parts, named, are
    # _score_breakdown's (what a player is shown).
    cdef int n = _colony_points(s, g) + LEVEL_VP[s.gal[g].empire]
    if s.btb.on:
        n += _btb_points(s, g)
    return n


# ---------------------------------------------------------------- Beyond the Black: points, badges

cdef int _hidden_total(const TegState* s, int g, int dwarf_only) noexcept nogil:
    cdef int c, n = 0
    for c in range(TEG_CARD_CLASSES):
        if not dwarf_only or c % 4 > 0:
            n += s.btb.hidden[g][c]
    return n


cdef int _dwarf_points(const TegState* s, int g) noexcept nogil:
    # The dwarf planets' points of the cards taken, face up or (their class is public) face down.
    cdef int i, n = 0
    for i in range(TEG_CARDS):
        if s.btb.card_where[i] == CW_TAKEN + g:
            n += X_DWARF[i]
    for i in range(TEG_CARD_CLASSES):
        n += s.btb.hidden[g][i] * (i % 4)
    return n


cdef int _btb_points(const TegState* s, int g) noexcept nogil:
    # 1 per pilot hired (replaced ones too) and the dwarf planets' points (In-game points).
    return _pilots_hired(s, g) + _dwarf_points(s, g)

cdef int _badges(const TegState* s, int g, int b) noexcept nogil:
    cdef int i, n = 0
    for i in range(TEG_PILOTS):
        if s.btb.pilot_where[i] == PW_HIRED + g:
            n += PIL_BADGES[i][b]
    for i in range(TEG_CARDS):
        n += s.btb.card_where[i] == CW_TAKEN + g and X_BADGE[i] == b
    for i in range(4):
        n += s.btb.hidden[g][b * 4 + i]
    return n


cdef void _badge_counts(const TegState* s, int* counts) noexcept nogil:
    # Every galaxy's badges, counts[g * TEG_BADGES + b] = _badges(s, g, b), in one pass over the
    # pilots and the cards (the majorities compare every galaxy's counts).
    cdef int i, g, b
    memset(counts, 0, sizeof(int) * TEG_GALAXIES * TEG_BADGES)
    for i in range(TEG_PILOTS):
        g = s.btb.pilot_where[i] - PW_HIRED
        if 0 <= g < TEG_GALAXIES:
            for b in range(TEG_BADGES):
                counts[g * TEG_BADGES + b] += PIL_BADGES[i][b]
    for i in range(TEG_CARDS):
        g = s.btb.card_where[i] - CW_TAKEN
        if 0 <= g < TEG_GALAXIES:
            counts[g * TEG_BADGES + X_BADGE[i]] += 1
    for g in range(TEG_GALAXIES):
        for i in range(TEG_CARD_CLASSES):
            counts[g * TEG_BADGES + i // 4] += s.btb.hidden[g][i]


cdef int _badge_bonus(const TegState* s, int g) noexcept nogil:
    cdef int counts[TEG_GALAXIES * TEG_BADGES]
    _badge_counts(s, counts)
    return _bonus_of(counts, s.n_gal, g)


cdef int _badge_bonus_for(const TegState* s, int g, int b) noexcept nogil:
    cdef int counts[TEG_GALAXIES * TEG_BADGES]
    _badge_counts(s, counts)
    return _bonus_for(counts, s.n_gal, g, b)


cdef int _bonus_of(const int* counts, int n_gal, int g) noexcept nogil:
    # All of galaxy g's badge bonus points from _badge_counts().
    cdef int b, total = 0
    for b in range(TEG_BADGES):
        total += _bonus_for(counts, n_gal, g, b)
    return total


cdef int _bonus_for(const int* counts, int n_gal, int g, int b) noexcept nogil:
    # Bonus points for badge b: 2 for the single most, 1 each when tied for most (no second then), 1
    # for second (all tied seconds); in a 2-galaxy game only the most scores. A galaxy needs at least
    # one badge of the symbol to earn anything (docs section 13.4). counts: _badge_counts().
    cdef int h, v, higher = 0, equal = 0, mine = counts[g * TEG_BADGES + b]
    if mine == 0:
        return 0
    for h in range(n_gal):
        if h != g:
            v = counts[h * TEG_BADGES + b]
            higher += v > mine
            equal += v == mine
    if higher == 0:
        return 2 if equal == 0 else 1
    if n_gal > 2 and _second_place(counts, n_gal, b, mine):
        return 1
    return 0


cdef bint _second_place(const int* counts, int n_gal, int b, int mine) noexcept nogil:
    # mine is below the top: second when exactly one galaxy has the top total and nobody sits between.
    cdef int h, v, top = 0, at_top = 0
    for h in range(n_gal):
        v = counts[h * TEG_BADGES + b]
        if v > top:
            top = v
            at_top = 1
        elif v == top:
            at_top += 1
    if at_top != 1:
        return False
    for h in range(n_gal):
        v = counts[h * TEG_BADGES + b]
        if mine < v < top:
            return False
    return True


cdef int _pilots_hired(const TegState* s, int g) noexcept nogil:
    cdef int i, n = 0
    for i in range(TEG_PILOTS):
        n += s.btb.pilot_where[i] == PW_HIRED + g
    return n


cdef int _active_pilots(const TegGalaxy* gal) noexcept nogil:
    cdef int t, n = 0
    for t in range(TEG_ADV):
        n += gal.pilot[t] != TEG_NONE
    return n


cdef int _cards_taken(const TegState* s, int g, int dwarf_only) noexcept nogil:
    cdef int i, n = _hidden_total(s, g, dwarf_only)
    for i in range(TEG_CARDS):
        if s.btb.card_where[i] == CW_TAKEN + g and (not dwarf_only or X_DWARF[i] > 0):
            n += 1
    return n


# ---------------------------------------------------------------- secret missions, final score, ranks

cdef enum:
    M_CHARGER = 0
    M_SEEKER = 1
    M_CONQUEROR = 2
    M_HERMIT = 3
    M_NOBLE = 4
    M_TRADER = 5
    M_EQUALIZER = 6
    M_ELDER = 7
    M_HOARDER = 8
    M_INDUSTRIALIST = 9
    M_ORBITER = 10
    M_EXPLORER = 11
    # Beyond the Black
    M_COMMANDER = 12
    M_CARTOGRAPHER = 13
    M_ASTRONOMER = 14
    M_COLLECTOR = 15
    M_FLEET_ADMIRAL = 16
    M_PATHFINDER = 17
    M_BALANCER = 18
    M_MENTOR = 19


cdef int _track_colonies(const TegState* s, int g, int track) noexcept nogil:
    cdef int p, n = 0
    for p in range(N_PLANETS):
        n += s.where[p] == W_COLONY + g and P_TRACK[p] == track
    return n


cdef int _measure(const TegState* s, int g, int mission) noexcept nogil:
    # The quantity a comparative mission compares; "fewest" is negated so that "most" applies.
    if mission == M_CHARGER:
        return s.gal[g].energy
    if mission == M_SEEKER:
        return s.gal[g].culture
    if mission == M_CONQUEROR:
        return _colonies(s, g)
    if mission == M_HERMIT:
        return -_colonies(s, g)
    if mission == M_NOBLE:
        return _track_colonies(s, g, FACE_DIP)
    if mission == M_COMMANDER:
        return _pilots_hired(s, g)
    if mission == M_CARTOGRAPHER:
        return _cards_taken(s, g, 0)
    if mission == M_ASTRONOMER:
        return _cards_taken(s, g, 1)       # dwarf planets, never planets (Bonus points)
    return _track_colonies(s, g, FACE_ECO)


cdef int _resource_colonies(const TegState* s, int g, int res) noexcept nogil:
    cdef int p, n = 0
    for p in range(N_PLANETS):
        n += s.where[p] == W_COLONY + g and (P_RES[p] == res or P_RES[p] == RES_BOTH)
    return n


cdef int _btb_mission_points(const TegState* s, int g, int m) noexcept nogil:
    # The expansion's non-comparative missions (docs section 13.12).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int b, k
    cdef bint ok = False
    if m == M_COLLECTOR:
        ok = True
        for b in range(TEG_BADGES):
            ok = ok and _badges(s, g, b) > 0
    elif m == M_FLEET_ADMIRAL:
        ok = _active_pilots(gal) >= 3
    elif m == M_PATHFINDER:
        for k in range(TEG_SHIPS):
            ok = ok or gal.ship_at[k] == TEG_EXPLORE
    elif m == M_BALANCER:
        ok = _colonies(s, g) >= 2 and \
            _resource_colonies(s, g, RES_ENERGY) == _resource_colonies(s, g, RES_CULTURE)
    elif m == M_MENTOR:
        ok = _pilots_hired(s, g) > _active_pilots(gal)
    return MISSION_VP[m] if ok else 0


cdef int _mission_points(const TegState* s, int g) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int m = gal.mission, h, mine, best_other = -1000, k
    cdef bint all_home = True, none_home = True
    if m >= N_ALL_MISSIONS:
        return 0
    if m <= M_TRADER or M_COMMANDER <= m <= M_ASTRONOMER:
        # strictly most: full value; tied for most: the tied value (Secret missions)
        mine = _measure(s, g, m)
        for h in range(s.n_gal):
            if h != g:
                best_other = _max(best_other, _measure(s, h, m))
        if mine > best_other:
            return MISSION_VP[m]
        return MISSION_TIED[m] if mine == best_other else 0
    if m >= M_COMMANDER:
        return _btb_mission_points(s, g, m)
    if m == M_EQUALIZER:
        return MISSION_VP[m] if _track_colonies(s, g, FACE_DIP) == _track_colonies(s, g, FACE_ECO) else 0
    if m == M_ELDER:
        return MISSION_VP[m] if s.trigger == g else 0
    if m == M_HOARDER:
        return MISSION_VP[m] if gal.energy >= 3 and gal.culture >= 3 else 0
    if m == M_INDUSTRIALIST:
        return MISSION_VP[m] if gal.empire >= MAX_LEVEL else 0
    for k in range(TEG_SHIPS):
        if gal.ship_at[k] == TEG_LOCKED or gal.ship_at[k] == TEG_NONE:
            continue
        if gal.ship_at[k] == TEG_HOME:
            none_home = False
        else:
            all_home = False
    if m == M_ORBITER:
        return MISSION_VP[m] if all_home else 0
    return MISSION_VP[m] if none_home else 0


cdef int _final_score(const TegState* s, int g) noexcept nogil:
    # Missions are revealed and scored at the end (End of game); before, points only.
    if not s.over:
        return _points(s, g)
    return _points(s, g) + _mission_points(s, g) + (_badge_bonus(s, g) if s.btb.on else 0)


cdef dict _score_breakdown(const TegState* s, int g):
    # _final_score's parts with their names and what makes them up, from this position's viewer: an
    # observation hides another seat's kept mission until the end (it is then scored and shown) and
    # another seat's face-down cards but their classes (docs sections 4, 5, 13.4 and 13.5).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int p, b, i, n
    colonies = [f"{PLANET_NAMES[p]} {P_VP[p]}" for p in range(N_PLANETS) if s.where[p] == W_COLONY + g]
    parts = [_part(f"colonies ({len(colonies)})", _colony_points(s, g), ", ".join(colonies)),
             _part(f"empire level {gal.empire}", LEVEL_VP[gal.empire], "")]
    if s.btb.on:
        pilots = [PILOT_NAMES[i] for i in range(TEG_PILOTS) if s.btb.pilot_where[i] == PW_HIRED + g]
        parts.append(_part(f"pilots hired ({len(pilots)})", _pilots_hired(s, g), ", ".join(pilots)))
        dwarfs = [f"{CARD_NAMES[i]} {X_DWARF[i]}" for i in range(TEG_CARDS)
                  if s.btb.card_where[i] == CW_TAKEN + g and X_DWARF[i] > 0]
        n = 0
        for i in range(TEG_CARD_CLASSES):
            n += s.btb.hidden[g][i] * (i % 4 > 0)
        if n:
            dwarfs.append(f"{n} face down")
        parts.append(_part("dwarf planets", _dwarf_points(s, g), ", ".join(dwarfs)))
    if gal.mission < N_ALL_MISSIONS:
        if s.over:
            parts.append(_part(f"secret mission {MISSION_NAMES[gal.mission]}", _mission_points(s, g), ""))
        else:
            parts.append(_part(f"secret mission {MISSION_NAMES[gal.mission]} (scored at the end)", 0, ""))
    elif gal.mission == TEG_HIDDEN:
        parts.append(_part("secret mission (shown at the end)", 0, ""))
    if s.btb.on and s.over:
        badges = []
        for b in range(TEG_BADGES):
            n = _badges(s, g, b)
            if n:
                badges.append(f"{BADGE_NAMES[b]} {n}: {_badge_bonus_for(s, g, b)}")
        parts.append(_part("badge majorities", _badge_bonus(s, g), "; ".join(badges)))
    rogue = _is_rogue(s, g)
    return {"seat": -1 if rogue else g, "name": "the Rogue" if rogue else "", "parts": parts,
            "total": _final_score(s, g)}


def _part(str label, int points, str detail):
    return {"label": label, "points": points, "detail": detail}


cdef int _compare(const TegState* s, int a, int b) noexcept nogil:
    # > 0 when galaxy a finishes ahead of b: score, then colonies, then empire level, then energy +
    # culture (End of game); 0 is a shared place.
    cdef int d = _final_score(s, a) - _final_score(s, b)
    if d != 0:
        return d
    d = _colonies(s, a) - _colonies(s, b)
    if d != 0:
        return d
    d = s.gal[a].empire - s.gal[b].empire
    if d != 0:
        return d
    return (s.gal[a].energy + s.gal[a].culture) - (s.gal[b].energy + s.gal[b].culture)


cdef double _solo_result(const TegState* s) noexcept nogil:
    # The player's result against the Rogue: 1 win, 0 loss, 0.5 a full tie (Solo; docs section 7).
    cdef int c
    if s.gal[ROGUE].empire >= MAX_LEVEL:
        return 0.0
    c = _compare(s, 0, ROGUE)
    return 1.0 if c > 0 else (0.0 if c < 0 else 0.5)


cdef void teg_scores(const void* p, double* out) noexcept nogil:
    cdef const TegState* s = _cst(p)
    cdef int g
    for g in range(_n_seats(s)):
        out[g] = _final_score(s, g)


cdef void teg_ranks(const void* p, int* out) noexcept nogil:
    cdef const TegState* s = _cst(p)
    cdef int g, h
    if s.solo:
        out[0] = 0 if _solo_result(s) >= 0.5 else 1
        return
    for g in range(_n_seats(s)):
        out[g] = 0
        for h in range(_n_seats(s)):
            if h != g and _compare(s, h, g) > 0:
                out[g] += 1


cdef void teg_returns(const void* p, double* out) noexcept nogil:
    # Solo: the chance of beating the Rogue; otherwise the share of opponents beaten, ties half.
    cdef const TegState* s = _cst(p)
    cdef int g, h, n = _n_seats(s), c
    if s.solo:
        out[0] = _solo_result(s)
        return
    for g in range(n):
        out[g] = 0.0
        for h in range(n):
            if h != g:
                c = _compare(s, g, h)
                out[g] += 1.0 if c > 0 else (0.5 if c == 0 else 0.0)
        out[g] /= n - 1
