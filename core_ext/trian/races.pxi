# Included by engine.pyx: race evolution (variant "full", sections V.1.3 and VIII).
#
# Every seat plays one of 8 races. A race has 5 racial skills (index 0..4): skills 0 and 1 are its
# starting skills (active from the start, free); skills 2, 3, 4 are the racial sides of its 3 two-sided
# modules 0, 1, 2, whose other sides are the universal skills 0, 1, 2. `TrianPlayer.skills` holds the
# active skills: bit k for racial skill k, bit 8 + u for universal skill u; a module is placed when
# either of its bits is set, and never both (a token is never flipped). docs/rules/trian.md, section 14.
#
# This file holds the race table, the unlock action, the universal skills and the dispatch from the
# engine's hook points to each race's file (race_<name>.pxi). A race's file implements its skills;
# a hook that a race does not use keeps the engine's default.

cdef enum:
    N_RACES = 8
    RACE_SKILLS = 5
    U_NEBULAS = 0            # universal: gain more from nebulas (+1 credit per tile on closing)
    U_SET = 1                # universal: a set of minerals (4 colours) for 16 credits
    U_SYSTEMS = 2            # universal: gain more from systems (+1 credit per tile on closing)
    U_BIT = 8                # skills bit of universal skill u: U_BIT + u
    PRICE_UNIVERSAL = 5
    PRICE_RACIAL = 10
    SET_CREDITS = 16
    # race indices (RACE_NAMES)
    R_AURELI = 0
    R_KORRAX = 1
    R_VANTH = 2
    R_QELLIA = 3
    R_MAEPHOS = 4
    R_ORVIN = 5
    R_SYLPHEX = 6
    R_XEMH = 7
    # actions
    A_UNLOCK = 40000         # + module * 2 + side (0 the universal side, 1 the racial side)
    A_MINERAL_SET = 40010    # discard one mineral of each colour for 16 credits
    A_RACE = 50000           # + race * 20000 + the race's own action number (< 20000)
    RACE_BLOCK = 20000
    STREAM_RACES = 5         # the random stream of the race draw at setup
    # racial sub-steps (race_step, mode M_RACE)
    STEP_GATHER = 1          # VANTH: pick the extra minerals of Minerals gatherer
    STEP_MINION = 2          # KORRAX: send a Slave-minion with the emissary just placed (or none)
    STEP_PR_GAIN = 3         # AURELI: the minerals after moving the Supreme Priestess
    STEP_PR_FIX = 4          # AURELI: fix the Priestess as an emissary, or keep it a ship
    STEP_DIVINE = 5          # AURELI: Divine help, evade the attack (pay 3 minerals) or not
    STEP_DIVINE_TO = 6       # AURELI: where the evading Priestess goes
    STEP_ADAPT = 10          # ORVIN: Adaptation Abilities, a mineral for each unit in an exmitter's radius
    # TrianPlaced.unit
    UNIT_PRIESTESS = 2       # the Supreme Priestess fixed as an emissary (AURELI)

RACE_NAMES = ("AURELI", "KORRAX", "VANTH", "QELLIA", "MAEPHOS", "ORVIN", "SYLPHEX", "XEMH")
UNIVERSAL_NAMES = ("Gain more from nebulas", "A set of minerals", "Gain more from systems")
# per race: the 2 starting skills, then the racial sides of modules 0, 1, 2 (section VIII's groups)
SKILL_NAMES = (
    ("Supreme Priestess", "Harness technology", "Precious Meditation", "Divine help", "Power drain"),
    ("Slave-Minion", "Hive Defender", "Living structures", "Regeneration", "Slave-Minion (additional)"),
    ("Risky Business", "Minerals gatherer", "Ion Drive", "Lucky", "Connoisseur of minerals"),
    ("Crystalline particle transporter", "Priceless technology", "Ice cell", "Quantum harmonic oscillator",
     "Holographic trick"),
    ("Harvester", "Subspace tunnel technology", "Harvest technology", "Harvest module",
     "Subspace tunnel generator"),
    ("Exmitter", "Manipulation", "Adaptation Abilities", "An Extra Exmitter", "Mental manipulation"),
    ("Decoy", "Space modulator technology", "Manoeuvring thrusters", "Shockwave", "Space Modulator"),
    ("Gauss Cannon", "Warcry", "Afterburner", "Absorbing shield", "Long range system"),
)
# the skill a skill upgrades (it can be unlocked only once that one is active), -1 none
SKILL_PREREQ = (
    (-1, -1, 0, 0, 1),
    (-1, -1, 0, -1, 0),
    (-1, -1, -1, 0, 1),
    (-1, -1, 0, 0, -1),
    (-1, -1, -1, 2, 1),
    (-1, -1, -1, 0, 1),
    (-1, -1, 0, 0, 1),
    (-1, -1, -1, -1, 0),
)
# Which skills the engine implements. A race is dealt only when both its starting skills are, and a
# racial side is offered only when its skill is (a skill that would do nothing is never available).
SKILL_DONE = (
    (1, 1, 1, 1, 1),     # AURELI
    (1, 1, 1, 1, 1),     # KORRAX
    (1, 1, 1, 1, 1),     # VANTH
    (1, 1, 1, 1, 1),     # QELLIA
    (1, 1, 1, 1, 1),     # MAEPHOS
    (1, 1, 1, 1, 1),     # ORVIN
    (1, 1, 1, 1, 1),     # SYLPHEX
    (1, 1, 1, 1, 1),     # XEMH
)

cdef int8_t C_PREREQ[N_RACES][RACE_SKILLS]
cdef uint8_t C_DONE[N_RACES][RACE_SKILLS]
cdef uint8_t C_DEALT[N_RACES]       # races the setup may deal
cdef int N_DEALT = 0
for _r in range(N_RACES):
    for _k in range(RACE_SKILLS):
        C_PREREQ[_r][_k] = SKILL_PREREQ[_r][_k]
        C_DONE[_r][_k] = SKILL_DONE[_r][_k]
    if SKILL_DONE[_r][0] and SKILL_DONE[_r][1]:
        C_DEALT[N_DEALT] = _r
        N_DEALT += 1
DEALT_RACES = tuple(C_DEALT[_k] for _k in range(N_DEALT))

# multisets of minerals a player may pay (colours chosen): MSET[size index][combination] = count per
# colour; size index 0: 2 minerals (10 combinations), 1: 3 (20), 2: 5 (56)
MSET_SIZES = (2, 3, 5)
cdef uint8_t MSET[3][56][4]
cdef int MSET_N[3]


def _multisets(size):
    out = []
    for a in range(size + 1):
        for b in range(size + 1 - a):
            for c in range(size + 1 - a - b):
                out.append((a, b, c, size - a - b - c))
    return out


MSETS = tuple(tuple(_multisets(_n)) for _n in MSET_SIZES)
for _i, _lst in enumerate(MSETS):
    MSET_N[_i] = len(_lst)
    for _j, _m in enumerate(_lst):
        for _c in range(4):
            MSET[_i][_j][_c] = _m[_c]


cdef inline bint _may_pay(const TrianPlayer* pl, int size_index, int combo) noexcept nogil:
    cdef int c
    for c in range(TR_COLORS):
        if pl.minerals[c] < MSET[size_index][combo][c]:
            return False
    return True


cdef inline void _pay_minerals(TrianState* s, int p, int size_index, int combo, int to) noexcept nogil:
    # p gives the minerals of one combination to seat `to`, or back to the bag when to < 0
    cdef int c, m
    for c in range(TR_COLORS):
        m = MSET[size_index][combo][c]
        s.players[p].minerals[c] -= m
        if to >= 0:
            s.players[to].minerals[c] += m
        else:
            s.bag[c] += m


# ---------------------------------------------------------------- skills

cdef inline bint _has(const TrianState* s, int p, int race, int k) noexcept nogil:
    return s.players[p].race == race and (s.players[p].skills >> k) & 1


cdef inline bint _has_u(const TrianState* s, int p, int u) noexcept nogil:
    return (s.players[p].skills >> (U_BIT + u)) & 1


cdef inline bint _module_placed(const TrianPlayer* pl, int m) noexcept nogil:
    return ((pl.skills >> (U_BIT + m)) & 1) or ((pl.skills >> (2 + m)) & 1)


cdef void _races_setup(TrianState* s, uint64_t seed) noexcept nogil:
    # a seeded draw of distinct races for the seats in seat order (public); starting skills active
    cdef Rng rng
    cdef int n = s.params.num_players, i, j, t, k
    cdef uint8_t pool[N_RACES]
    for i in range(n):
        s.players[i].race = TR_UNKNOWN
        for k in range(4):
            s.players[i].special_tile[k] = TR_UNKNOWN
    if s.params.variant < V_FULL:
        return
    rng_seed2(&rng, seed, STREAM_RACES)
    for i in range(N_DEALT):
        pool[i] = C_DEALT[i]
    for i in range(N_DEALT - 1, 0, -1):
        j = <int>rng_below(&rng, <uint32_t>(i + 1))
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = <uint8_t>t
    for i in range(n if n < N_DEALT else N_DEALT):     # seats past the playable races get none
        s.players[i].race = pool[i]
        s.players[i].skills = 3          # the two starting skills


cdef int _evolution_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # phase 1: unlock one skill per turn (section V.1.3); trade a set of minerals (universal skill)
    cdef const TrianPlayer* pl = &s.players[me]
    cdef int m, k, r = pl.race
    if s.params.variant < V_FULL:
        return n
    if not s.evolved:
        for m in range(3):
            if _module_placed(pl, m):
                continue
            if pl.credits >= PRICE_UNIVERSAL:
                out[n] = A_UNLOCK + m * 2
                n += 1
            if r < N_RACES and pl.credits >= PRICE_RACIAL and C_DONE[r][2 + m]:
                k = C_PREREQ[r][2 + m]
                if k < 0 or (pl.skills >> k) & 1:
                    out[n] = A_UNLOCK + m * 2 + 1
                    n += 1
    if _has_u(s, me, U_SET) and pl.minerals[0] and pl.minerals[1] and pl.minerals[2] and pl.minerals[3]:
        out[n] = A_MINERAL_SET
        n += 1
    return n


cdef int _evolution_apply(TrianState* s, int me, action_t a) noexcept nogil:
    cdef TrianPlayer* pl = &s.players[me]
    cdef int m, side, c
    if A_UNLOCK <= a < A_UNLOCK + 6:
        m = (a - A_UNLOCK) // 2
        side = (a - A_UNLOCK) % 2
        if side == 0:
            pl.credits -= PRICE_UNIVERSAL
            pl.skills |= <uint32_t>1 << (U_BIT + m)
        else:
            pl.credits -= PRICE_RACIAL
            pl.skills |= <uint32_t>1 << (2 + m)
        s.evolved = 1
        return 0
    if a == A_MINERAL_SET:
        for c in range(TR_COLORS):
            pl.minerals[c] -= 1
            s.bag[c] += 1
        pl.credits += SET_CREDITS
        return 0
    return -1


cdef void _closing_bonus(TrianState* s, int kind, int tiles, int controller) noexcept nogil:
    # universal skills "gain more from nebulas / systems": the closer gains +1 credit per tile when it
    # closes a nebula (system) that it controls or that nobody controls (section VIII)
    cdef int p = s.turn_player
    if controller != p and controller != -1:
        return
    if (kind == AREA_NEBULA and _has_u(s, p, U_NEBULAS)) or (kind == AREA_SYSTEM and _has_u(s, p, U_SYSTEMS)):
        s.players[p].credits += tiles


cdef void _control_token(TrianState* s, int p) noexcept nogil:
    # taking control of a closed nebula or system: 1 random combat token (section VI.3), one more
    # with Holographic trick (QELLIA)
    _draw_token(s, p)
    if _has(s, p, R_QELLIA, 4):
        _draw_token(s, p)


cdef inline void _spend_action(TrianState* s) noexcept nogil:
    # a racial action that is the phase 3 action (or one of the trade outpost's extra actions)
    s.actions_left -= 1
    s.actions_taken += 1


cdef inline void _action_done(TrianState* s) noexcept nogil:
    if s.actions_left == 0:
        _finish_ph3(s)


cdef inline void _race_step_clear(TrianState* s) noexcept nogil:
    s.race_step = 0
    s.race_seat = 0
    s.race_arg = 0
    s.race_count = 0


cdef inline int _race_of_action(action_t a) noexcept nogil:
    return (a - A_RACE) // RACE_BLOCK


cdef inline int _local(action_t a) noexcept nogil:
    return (a - A_RACE) % RACE_BLOCK


# ---------------------------------------------------------------- hook points
#
# Each hook dispatches to the race concerned; a race that does not use a hook keeps the default.

cdef int _race_ph1_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # extra phase 1 actions of me's race
    cdef int r = s.players[me].race
    if r == R_QELLIA:
        return _qellia_ph1_actions(s, me, out, n)
    if r == R_MAEPHOS:
        return _maephos_ph1_actions(s, me, out, n)
    return n


cdef int _race_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # extra phase 3 actions of me's race (free ones and ones that cost the phase 3 action), and
    # freeing me's ship from an AURELI's Harness (any race)
    cdef int r = s.players[me].race
    if r == R_QELLIA:
        n = _qellia_ph3_actions(s, me, out, n)
    elif r == R_VANTH:
        n = _vanth_ph3_actions(s, me, out, n)
    elif r == R_KORRAX:
        n = _korrax_ph3_actions(s, me, out, n)
    elif r == R_AURELI:
        n = _aureli_ph3_actions(s, me, out, n)
    elif r == R_MAEPHOS:
        n = _maephos_ph3_actions(s, me, out, n)
    elif r == R_ORVIN:
        n = _orvin_ph3_actions(s, me, out, n)
    elif r == R_SYLPHEX:
        n = _sylphex_ph3_actions(s, me, out, n)
    elif r == R_XEMH:
        n = _xemh_ph3_actions(s, me, out, n)
    return _release_actions(s, me, out, n)


cdef int _race_declare_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # mode M_DECLARE: extra racial decisions of the seat declaring, before the dice are rolled
    if s.players[me].race == R_XEMH:
        return _xemh_declare_actions(s, me, out, n)
    return n


cdef int _race_step_actions(const TrianState* s, action_t* out) noexcept nogil:
    # mode M_RACE: the decisions of the pending racial sub-step
    if s.race_step == STEP_GATHER:
        return _vanth_step_actions(s, out)
    if s.race_step == STEP_MINION:
        return _korrax_step_actions(s, out)
    if STEP_PR_GAIN <= s.race_step <= STEP_DIVINE_TO:
        return _aureli_step_actions(s, out)
    if s.race_step == STEP_ADAPT:
        return _orvin_step_actions(s, out)
    return 0


cdef void _race_turn_start(TrianState* s) noexcept nogil:
    # the turn player's phase 1 is about to begin; a racial sub-step may come first
    if s.players[s.turn_player].race == R_ORVIN:
        _orvin_turn_start(s)


cdef bint _exmitter_immune(const TrianState* s, int p) noexcept nogil:
    # exmitters do not affect seat p's ships and emissaries (ORVIN's Adaptation Abilities)
    return p >= 0 and _has(s, p, R_ORVIN, 2)


cdef int _race_apply(TrianState* s, int me, action_t a) noexcept nogil:
    # a racial action (A_RACE block) in any mode; -1 when it is none. Only legal actions get here
    # (Game.apply checks), so the block's race is me's race.
    cdef int r
    if a < A_RACE:
        return -1
    r = _race_of_action(a)
    if r == R_QELLIA:
        return _qellia_apply(s, me, _local(a))
    if r == R_VANTH:
        return _vanth_apply(s, me, _local(a))
    if r == R_KORRAX:
        return _korrax_apply(s, me, _local(a))
    if r == R_AURELI:
        return _aureli_apply(s, me, _local(a))
    if r == R_MAEPHOS:
        return _maephos_apply(s, me, _local(a))
    if r == R_ORVIN:
        return _orvin_apply(s, me, _local(a))
    if r == R_SYLPHEX:
        return _sylphex_apply(s, me, _local(a))
    if r == R_XEMH:
        return _xemh_apply(s, me, _local(a))
    return -1


cdef void _race_after_mission(TrianState* s, int me, int tile) noexcept nogil:
    # me's emissary just arrived on `tile` by expedition or teleport (phase 3); a sub-step may follow
    if s.players[me].race == R_KORRAX:
        _korrax_after_mission(s, me, tile)


cdef void _race_after_gain(TrianState* s, int me, int nebula, int color) noexcept nogil:
    # me just gained a mineral of `color` from closed-nebula record `nebula` (phase 1)
    if color == 2 and _has(s, me, R_VANTH, 1):
        _vanth_after_gain(s, me, nebula)


cdef bint _race_after_ship_move(TrianState* s, int j, bint teleported) noexcept nogil:
    # a ship just moved (or was teleported, or came by expedition) onto tile j; True when a racial
    # sub-step now waits, which then lands the ship itself (_ship_landed: battle or end of phase 3), or
    # when a racial token destroyed the ship (then phase 3 ends here if no action is left)
    cdef int p
    for p in range(s.params.num_players):
        if s.players[p].race == R_SYLPHEX:
            _sylphex_ship_near(s, p, j)
        elif s.players[p].race == R_XEMH:
            _xemh_ship_near(s, p, j)
    if s.placed[j].ship_kind == 0:
        if s.mode == M_PH3 and s.actions_left == 0:
            _finish_ph3(s)
        return True
    if not teleported and s.placed[j].ship_kind == SHIP_PRIESTESS:
        return _aureli_after_move(s, j)
    return False


cdef void _race_ship_gone(TrianState* s, int i) noexcept nogil:
    # the ship on tile i leaves the board (back to its owner's supply)
    _aureli_ship_gone(s, i)


cdef bint _race_before_clash(TrianState* s, int a, int t) noexcept nogil:
    # the ship on tile a is about to clash with the ship on tile t; True when a sub-step now waits
    return _aureli_before_clash(s, a, t)


cdef bint _rogue_fights(const TrianState* s, int i) noexcept nogil:
    # the Rogue on tile i rolls against a Corvette instead of losing at once
    return _korrax_rogue_fights(s, i)


cdef int _die_bonus(const TrianState* s, int p, int ship_tile) noexcept nogil:
    # added to p's die in a clash (ship_tile: p's ship in a ship clash, -1 in an emissary battle)
    cdef int r = s.players[p].race
    if r == R_MAEPHOS:
        return _maephos_die_bonus(s, p, ship_tile)
    if r == R_XEMH:
        return _xemh_die_bonus(s, p, ship_tile)
    return 0


cdef int _wins_ties(const TrianState* s, int p, int q) noexcept nogil:
    # the seat among p and q (q = -1: p alone is asked) whose skill wins every tie, or -1
    return _korrax_wins_ties(s, p, q)


cdef bint _ship_immobile(const TrianState* s, int i) noexcept nogil:
    # the ship on tile i may neither move nor be teleported (an AURELI's Harness technology holds it)
    return s.params.variant >= V_FULL and _harness_owner(s, i) >= 0


cdef void _race_reach(const TrianState* s, int i, uint64_t* reach, ReachCache* cache) noexcept nogil:
    # add to the tile set `reach` the tiles the ship on tile i may move to (section V.3.5 and the owner's
    # racial skills)
    cdef int p = s.placed[i].ship_owner
    if _has(s, p, R_VANTH, 2):
        _reach_ion(s, i, -1, SHIP_MOVES, i, reach)
    elif s.players[p].race == R_MAEPHOS:
        _maephos_reach(s, i, reach)
    elif s.players[p].race == R_XEMH:
        _xemh_reach(s, i, reach)
    else:
        _reach_cached(s, i, -1, SHIP_MOVES, i, reach, cache)


cdef bint _race_exmitter_field(const TrianState* s, int i) noexcept nogil:
    # tile i is in the radius of a racial exmitter token (ORVIN's Exmitter)
    cdef int p
    for p in range(s.params.num_players):
        if s.players[p].race == R_ORVIN and _orvin_exmits(s, p, i):
            return True
    return False


cdef void _race_exmitter_map(const TrianState* s, int8_t* field) noexcept nogil:
    # mark the radius of every racial exmitter token (ORVIN's Exmitter): _race_exmitter_field for all tiles
    cdef int p, k, t
    for p in range(s.params.num_players):
        if s.players[p].race != R_ORVIN:
            continue
        for k in range(2):
            t = s.players[p].special_tile[k]
            if t != TR_UNKNOWN:
                _mark_radius(s, t, field)


cdef void _race_exmitter_hits(TrianState* s, int j) noexcept nogil:
    # an exmitter (tile or token) was just placed with tile j in its radius: racial tokens it removes
    cdef int p
    for p in range(s.params.num_players):
        if s.players[p].race == R_XEMH:
            _xemh_exmitted(s, p, j)


cdef int _construct_credits(const TrianState* s, int i, bint system, int tiles_and_emissaries) noexcept nogil:
    # credits for building on the emissary on tile i (section V.3.3: x 4 in a system, x 1 in a nebula)
    return _aureli_construct_credits(s, i, system, tiles_and_emissaries)


# ---------------------------------------------------------------- Python side: checks, labels

cdef object _check_races(const TrianState* s):
    # the race fields of a loaded state: an error message, or None
    cdef int n = s.params.num_players, p, k, m, r, i
    cdef uint32_t sk
    full = s.params.variant >= V_FULL
    seen = set()
    for p in range(n):
        r = s.players[p].race
        sk = s.players[p].skills
        for k in range(4):
            t = s.players[p].special_tile[k]
            if t != TR_UNKNOWN and (not full or t >= s.n_placed):
                return f"player {p}: special token {k} is not on a placed tile"
        if not full:
            if r != TR_UNKNOWN or sk:
                return f"player {p}: races and skills exist only in the full variant"
            continue
        if sk & ~(<uint32_t>0x1F | (<uint32_t>7 << U_BIT)):
            return f"player {p}: unknown skill bits"
        if r == TR_UNKNOWN:
            if sk & 0x1F:
                return f"player {p}: racial skills without a race"
            continue
        if r >= N_RACES or r in seen or not (C_DONE[r][0] and C_DONE[r][1]):
            return f"player {p}: race {r} is out of range, taken twice or not playable"
        seen.add(r)
        if sk & 3 != 3:
            return f"player {p}: the two starting skills must be active"
        for m in range(3):
            if (sk >> (2 + m)) & 1:
                if (sk >> (U_BIT + m)) & 1:
                    return f"player {p}: module {m} shows both sides"
                if not C_DONE[r][2 + m]:
                    return f"player {p}: {SKILL_NAMES[r][2 + m]} is not available"
                k = C_PREREQ[r][2 + m]
                if k >= 0 and not (sk >> k) & 1:
                    return f"player {p}: {SKILL_NAMES[r][2 + m]} needs {SKILL_NAMES[r][k]}"
    for i in range(s.n_placed):
        if s.placed[i].unit > 2 or (s.placed[i].unit and s.placed[i].emissary < 0):
            return f"placed[{i}]: a racial unit needs its owner"
    for i in range(s.n_placed, TR_TILES):
        if s.placed[i].unit:
            return f"placed[{i}]: entries past n_placed must be 0"
    if s.battle_warcry >> n or (s.battle_warcry and s.mode not in (M_DECLARE, M_REROLL, M_RACE)):
        return "a Warcry is marked outside a clash or for a seat that does not play"
    if s.evolved > 1 or (s.mission_tile != TR_UNKNOWN and s.mission_tile >= s.n_placed):
        return "turn fields of race evolution out of range"
    if (s.mode == M_RACE) != (s.race_step != 0):
        return "a racial sub-step needs its mode"
    if s.mode == M_RACE and not 0 <= s.race_seat < n:
        return "no seat to decide the racial sub-step"
    if s.mode != M_RACE and (s.race_seat or s.race_arg or s.race_count):
        return "racial sub-step fields must be 0 without one"
    if s.mode == M_RACE:
        err = _check_step(s)
        if err:
            return err
    for p in range(n):
        err = _race_check(s, p)
        if err:
            return err
    return None


cdef object _check_step(const TrianState* s):
    # the pending racial sub-step fits its race, its data and the board, and offers a decision
    cdef int p = s.race_seat, k = s.race_arg
    cdef bint divine = s.race_step == STEP_DIVINE or s.race_step == STEP_DIVINE_TO
    if not divine and p != s.turn_player:
        return "only the seat whose turn it is decides this racial step"
    if s.race_step == STEP_GATHER:
        if not _has(s, p, R_VANTH, 1) or k >= s.n_nebulas or not 1 <= s.race_count <= 2 or \
                sum(s.nebula_minerals[k][c] for c in range(TR_COLORS)) == 0:
            return "Minerals gatherer step out of range"
        return None
    if s.race_step == STEP_MINION:
        if not _has(s, p, R_KORRAX, 0) or k >= s.n_placed or s.placed[k].emissary != p or s.race_count or \
                s.mode != M_RACE or _korrax_minions_free(s, p) <= 0 or s.players[p].minerals[3] == 0:
            return "Slave-Minion step out of range"
        return None
    if STEP_PR_GAIN <= s.race_step <= STEP_DIVINE_TO:
        if not _has(s, p, R_AURELI, 0) or not s.ship_battle_on == divine:
            return "Supreme Priestess step out of range"
        if s.race_step == STEP_PR_GAIN:
            return _check_priestess_gain(s, p, k)
        if s.race_count or not _priestess_ship_at(s, p, k):
            return "Supreme Priestess step: the Priestess is not there"
        return _check_priestess_choice(s, p, k)
    if s.race_step == STEP_ADAPT:
        if not _has(s, p, R_ORVIN, 2) or p != s.turn_player or s.race_count > 1 or \
                _adapt_next(s, p, k * 2 + s.race_count - 1) != k * 2 + s.race_count:
            return "Adaptation Abilities step out of range"
        return None
    return f"unknown racial sub-step {s.race_step}"


cdef bint _priestess_ship_at(const TrianState* s, int p, int k) noexcept:
    return k < s.n_placed and s.placed[k].ship_kind == SHIP_PRIESTESS and s.placed[k].ship_owner == p


cdef object _check_priestess_gain(const TrianState* s, int p, int k):
    # before the first pick `k` is the Priestess's tile and a nebula in its radius has minerals; after
    # it, `k` is the nebula picked from, which still has minerals, and the Priestess is a ship
    cdef bint as_ship = False
    cdef int j
    if s.race_count == PRIESTESS_GAIN:
        if not _priestess_ship_at(s, p, k):
            return "Supreme Priestess step: the Priestess is not there"
        for j in range(s.n_nebulas):
            if _priestess_gain_ok(s, k, j):
                return None
        return "Supreme Priestess step: no nebula with minerals in its radius"
    if s.race_count != 1 or k >= s.n_nebulas or _priestess_tile(s, p, &as_ship) < 0 or not as_ship:
        return "Supreme Priestess step out of range"
    if _nebula_mineral_total(s, k) == 0:
        return "Supreme Priestess step: that nebula has no mineral left"
    return None


cdef object _check_priestess_choice(const TrianState* s, int p, int k):
    # fixing needs a place an emissary may take; Divine help defends the Priestess (the clash's
    # defender) and needs somewhere to evade to
    cdef uint8_t mark[TR_TILES]
    if s.race_step == STEP_PR_FIX:
        if not _priestess_may_fix(s, k, p):
            return "Supreme Priestess step: it cannot be fixed there"
        return None
    if k != s.ship_battle_target or s.placed[s.ship_battle_attacker].ship_owner == p:
        return "Divine help step: the Priestess must be the ship attacked"
    if s.race_step == STEP_DIVINE and _mineral_total(&s.players[p]) < 3:
        return "Divine help step: evading costs 3 minerals"
    if _divine_nearest(s, k, p, mark) == 0:
        return "Divine help step: no tile to evade to"
    return None


cdef object _skills_line(const TrianPlayer* pl):
    r = pl.race
    if r >= N_RACES:
        names = [UNIVERSAL_NAMES[u] for u in range(3) if (pl.skills >> (U_BIT + u)) & 1]
        return "no race; skills: " + (", ".join(names) or "none")
    names = [SKILL_NAMES[r][k] for k in range(RACE_SKILLS) if (pl.skills >> k) & 1]
    names += [UNIVERSAL_NAMES[u] for u in range(3) if (pl.skills >> (U_BIT + u)) & 1]
    return f"race {RACE_NAMES[r]}; skills: " + ", ".join(names)


# what each special token slot holds, per race (render only; slots of other races say "token k")
TOKEN_NAMES = {
    R_AURELI: ("Harness technology",),
    R_MAEPHOS: ("Wormhole", "Wormhole"),
    R_ORVIN: ("Exmitter", "Exmitter"),
    R_SYLPHEX: ("Decoy", "Space Modulator", "Space Modulator"),
    R_XEMH: ("Gauss Cannon",),
}


cdef object _tokens_line(const TrianState* s, int p):
    # "Decoy at (2, 0), Space Modulator at (0, 0)": seat p's special tokens on the board, or ""
    names = TOKEN_NAMES.get(s.players[p].race, ())
    out = []
    for k in range(4):
        i = s.players[p].special_tile[k]
        if i != TR_UNKNOWN and i < s.n_placed:
            name = names[k] if k < len(names) else f"token {k}"
            out.append(f"{name} at ({s.placed[i].x}, {s.placed[i].y})")
    return ", ".join(out)


cdef object _race_check(const TrianState* s, int p):
    # seat p's racial units and special tokens on the board are ones its skills give; None when so
    cdef int i, minions = 0, priestess = 0
    r = s.players[p].race
    err = None
    if r == R_MAEPHOS:
        err = _maephos_check(s, p)
    elif r == R_ORVIN:
        err = _orvin_check(s, p)
    elif r == R_SYLPHEX:
        err = _sylphex_check(s, p)
    elif r == R_XEMH:
        err = _xemh_check(s, p)
    if err:
        return err
    for i in range(s.n_placed):
        if s.placed[i].emissary == p and s.placed[i].unit == UNIT_MINION:
            minions += 1
        if (s.placed[i].emissary == p and s.placed[i].unit == UNIT_PRIESTESS) or \
                (s.placed[i].ship_kind == SHIP_PRIESTESS and s.placed[i].ship_owner == p):
            priestess += 1
    if minions > _has(s, p, R_KORRAX, 0) + _has(s, p, R_KORRAX, 4):
        return f"player {p}: more Slave-minions on the board than its skills give"
    if priestess > _has(s, p, R_AURELI, 0):
        return f"player {p}: a Supreme Priestess without the skill"
    for i in range(4):
        if s.players[p].special_tile[i] != TR_UNKNOWN and not _tok_allowed(s, p, i):
            return f"player {p}: seat {p}'s skills give no special token {i}"
    return None


cdef bint _tok_allowed(const TrianState* s, int p, int k):
    # special token slot k of seat p may be on the board (MAEPHOS, ORVIN, SYLPHEX and XEMH check their
    # tokens in their own checks, run first)
    cdef int r = s.players[p].race, i = s.players[p].special_tile[k]
    if k == 0 and _has(s, p, R_AURELI, 1):
        return s.placed[i].ship_kind != 0 and s.placed[i].ship_owner != p      # the Harness on an enemy ship
    return r == R_MAEPHOS or r == R_ORVIN or r == R_SYLPHEX or r == R_XEMH


cdef object _race_describe(const TrianState* s, int me, int a):
    # {'id', 'kind', 'label', ...} for a racial action id, or None
    r = _race_of_action(a)
    if r == R_QELLIA:
        return _qellia_describe(s, me, a, _local(a))
    if r == R_VANTH:
        return _vanth_describe(s, me, a, _local(a))
    if r == R_KORRAX:
        return _korrax_describe(s, me, a, _local(a))
    if r == R_AURELI:
        return _aureli_describe(s, me, a, _local(a))
    if r == R_MAEPHOS:
        return _maephos_describe(s, me, _local(a), a)
    if r == R_ORVIN:
        return _orvin_describe(s, me, _local(a), a)
    if r == R_SYLPHEX:
        return _sylphex_describe(s, me, _local(a), a)
    if r == R_XEMH:
        return _xemh_describe(s, me, _local(a), a)
    return None


# ---------------------------------------------------------------- the races (one file each)

include "race_aureli.pxi"
include "race_korrax.pxi"
include "race_vanth.pxi"
include "race_qellia.pxi"
include "race_maephos.pxi"
include "race_orvin.pxi"
include "race_sylphex.pxi"
include "race_xemh.pxi"
