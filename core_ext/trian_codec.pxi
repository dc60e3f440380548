# Included by trian.pyx: the Python side of the Trian core (JSON payloads, action structs, render).
#
# The JSON payload names every struct field (arrays as lists); loading checks every value's range,
# rebuilds the board from the placed tiles and compares it with the loaded index, and checks the
# conservation of tiles, pieces, minerals and combat tokens, so an inconsistent payload is rejected.

cdef TrianState _PROBE


cdef size_t _off(const void* field) noexcept:
    return <size_t>(<const char*>field - <const char*>&_PROBE)


def _field_specs():
    # (name, offset, struct format char, count, stride)
    cdef size_t ps = sizeof(TrianPlaced), qs = sizeof(TrianPlayer)
    specs = [
        ("turn", _off(&_PROBE.turn), "i", 1, 0),
        ("mode", _off(&_PROBE.mode), "b", 1, 0),
        ("turn_player", _off(&_PROBE.turn_player), "b", 1, 0),
        ("first_player", _off(&_PROBE.first_player), "b", 1, 0),
        ("stack0_tile", _off(&_PROBE.stack_tile[0][0]), "B", TR_STACK, 1),
        ("stack1_tile", _off(&_PROBE.stack_tile[1][0]), "B", TR_STACK, 1),
        ("stack0_up", _off(&_PROBE.stack_up[0][0]), "B", TR_STACK, 1),
        ("stack1_up", _off(&_PROBE.stack_up[1][0]), "B", TR_STACK, 1),
        ("stack_len", _off(&_PROBE.stack_len[0]), "B", 2, 1),
        ("stack_top_face", _off(&_PROBE.stack_top_face[0]), "B", 2, 1),
        ("drawn_tile", _off(&_PROBE.drawn_tile), "B", 1, 0),
        ("drawn_up", _off(&_PROBE.drawn_up), "B", 1, 0),
        ("drawn_face", _off(&_PROBE.drawn_face), "B", 1, 0),
        ("drawn_stack", _off(&_PROBE.drawn_stack), "B", 1, 0),
        ("n_discarded", _off(&_PROBE.n_discarded), "B", 1, 0),
        ("discarded", _off(&_PROBE.discarded[0]), "B", TR_TILES, 1),
        ("n_placed", _off(&_PROBE.n_placed), "B", 1, 0),
    ]
    for name, ptr, fmt in (
        ("x", _off(&_PROBE.placed[0].x), "h"), ("y", _off(&_PROBE.placed[0].y), "h"),
        ("tile", _off(&_PROBE.placed[0].tile), "B"), ("side", _off(&_PROBE.placed[0].side), "B"),
        ("face", _off(&_PROBE.placed[0].face), "B"), ("up_face", _off(&_PROBE.placed[0].up_face), "B"),
        ("rot", _off(&_PROBE.placed[0].rot), "B"), ("placer", _off(&_PROBE.placed[0].placer), "b"),
        ("emissary", _off(&_PROBE.placed[0].emissary), "b"), ("station", _off(&_PROBE.placed[0].station), "B"),
        ("ship", _off(&_PROBE.placed[0].ship), "b"), ("ship_kind", _off(&_PROBE.placed[0].ship_kind), "B"),
        ("ship_new", _off(&_PROBE.placed[0].ship_new), "B"),
        ("rogue_used", _off(&_PROBE.placed[0].rogue_used), "B"),
        ("unit", _off(&_PROBE.placed[0].unit), "B"),
    ):
        specs.append(("placed_" + name, ptr, fmt, TR_TILES, ps))
    specs += [
        ("hkey", _off(&_PROBE.hkey[0]), "H", TR_HASH, 2),
        ("hval", _off(&_PROBE.hval[0]), "h", TR_HASH, 2),
        ("fx", _off(&_PROBE.fx[0]), "h", TR_FRONT, 2),
        ("fy", _off(&_PROBE.fy[0]), "h", TR_FRONT, 2),
        ("freq", _off(&_PROBE.freq[0]), "H", TR_FRONT, 2),
        ("n_front", _off(&_PROBE.n_front), "B", 1, 0),
        ("n_nebulas", _off(&_PROBE.n_nebulas), "B", 1, 0),
        ("uf_parent", _off(&_PROBE.uf_parent[0]), "h", TR_NODES, 2),
        ("uf_open", _off(&_PROBE.uf_open[0]), "h", TR_NODES, 2),
        ("neb_root", _off(&_PROBE.neb_root[0]), "h", TR_NEBULAS, 2),
        ("neb_minerals", _off(&_PROBE.neb_minerals[0][0]), "B", TR_NEBULAS * TR_COLORS, 1),
        ("neb_gained", _off(&_PROBE.neb_gained[0]), "B", TR_NEBULAS, 1),
        ("bag", _off(&_PROBE.bag[0]), "B", TR_COLORS, 1),
    ]
    for name, ptr, fmt, count in (
        ("credits", _off(&_PROBE.players[0].credits), "i", 1),
        ("minerals", _off(&_PROBE.players[0].minerals[0]), "B", 4),
        ("emissaries", _off(&_PROBE.players[0].emissaries), "B", 1),
        ("research", _off(&_PROBE.players[0].research), "B", 1),
        ("space", _off(&_PROBE.players[0].space), "B", 1),
        ("tok_count", _off(&_PROBE.players[0].tok_count), "B", 1),
        ("tok_plus", _off(&_PROBE.players[0].tok_plus), "b", 1),
        ("decl_count", _off(&_PROBE.players[0].decl_count), "B", 1),
        ("decl_plus", _off(&_PROBE.players[0].decl_plus), "b", 1),
        ("corvettes", _off(&_PROBE.players[0].corvettes), "B", 1),
        ("rogues", _off(&_PROBE.players[0].rogues), "B", 1),
        ("race", _off(&_PROBE.players[0].race), "B", 1),
        ("skills", _off(&_PROBE.players[0].skills), "I", 1),
    ):
        if count == 1:
            specs.append(("player_" + name, ptr, fmt, MAX_PLAYERS, qs))
        else:
            for c in range(count):
                specs.append((f"player_{name}_{COLOR_NAMES[c]}", ptr + c, fmt, MAX_PLAYERS, qs))
    for k in range(4):
        specs.append((f"player_tok_at_{k}", _off(&_PROBE.players[0].tok_at[k]), "B", MAX_PLAYERS, qs))
    specs += [
        ("new_tile", _off(&_PROBE.new_tile), "B", 1, 0),
        ("actions_left", _off(&_PROBE.actions_left), "B", 1, 0),
        ("actions_taken", _off(&_PROBE.actions_taken), "B", 1, 0),
        ("teleport_used", _off(&_PROBE.teleport_used), "B", 1, 0),
        ("ev_pending", _off(&_PROBE.ev_pending), "B", 1, 0),
        ("ev_return", _off(&_PROBE.ev_return), "B", 1, 0),
        ("ev_n", _off(&_PROBE.ev_n), "B", 1, 0),
        ("ev_pos", _off(&_PROBE.ev_pos), "B", 1, 0),
        ("ev_root", _off(&_PROBE.ev_root[0]), "h", TR_EVENTS, 2),
        ("ev_kind", _off(&_PROBE.ev_kind[0]), "B", TR_EVENTS, 1),
        ("ev_credits", _off(&_PROBE.ev_credits), "h", 1, 0),
        ("ev_closer", _off(&_PROBE.ev_closer), "b", 1, 0),
        ("b_order", _off(&_PROBE.b_order[0]), "b", MAX_PLAYERS, 1),
        ("b_n", _off(&_PROBE.b_n), "B", 1, 0),
        ("b_pos", _off(&_PROBE.b_pos), "B", 1, 0),
        ("b_bonus", _off(&_PROBE.b_bonus[0]), "B", MAX_PLAYERS, 1),
        ("b_dice", _off(&_PROBE.b_dice[0]), "B", MAX_PLAYERS, 1),
        ("b_rerolls", _off(&_PROBE.b_rerolls[0]), "B", MAX_PLAYERS, 1),
        ("b_stage", _off(&_PROBE.b_stage), "B", 1, 0),
        ("sb_on", _off(&_PROBE.sb_on), "B", 1, 0),
        ("sb_att", _off(&_PROBE.sb_att), "B", 1, 0),
        ("sb_def", _off(&_PROBE.sb_def), "B", 1, 0),
        ("evolved", _off(&_PROBE.evolved), "B", 1, 0),
        ("race_used", _off(&_PROBE.race_used), "B", 1, 0),
        ("mission_tile", _off(&_PROBE.mission_tile), "B", 1, 0),
        ("race_step", _off(&_PROBE.race_step), "B", 1, 0),
        ("race_seat", _off(&_PROBE.race_seat), "b", 1, 0),
        ("race_arg", _off(&_PROBE.race_arg), "B", 1, 0),
        ("race_count", _off(&_PROBE.race_count), "B", 1, 0),
        ("b_warcry", _off(&_PROBE.b_warcry), "B", 1, 0),
        ("rng_minerals", _off(&_PROBE.rng_minerals), "Q", 4, 8),
        ("rng_tokens", _off(&_PROBE.rng_tokens), "Q", 4, 8),
        ("rng_dice", _off(&_PROBE.rng_dice), "Q", 4, 8),
    ]
    return tuple(specs)


FIELD_SPECS = _field_specs()
_RANGES = {"b": (-128, 127), "B": (0, 255), "h": (-32768, 32767), "H": (0, 65535),
           "i": (-2**31, 2**31 - 1), "I": (0, 2**32 - 1), "Q": (0, 2**64 - 1)}
MODE_NAMES = {M_PH1: "phase 1 (extraction)", M_DRAW: "phase 2 (draw)", M_PLACE: "phase 2 (place)",
              M_PH3: "phase 3 (exploration)", M_TAKEBACK: "events (take emissaries back)",
              M_DECLARE: "emissary battle (declare tokens)", M_REROLL: "emissary battle (rerolls)",
              M_END: "game over", M_SHIP_TARGET: "ship battle (the attacker picks a ship)",
              M_RACE: "racial skill (a decision)"}


# The codec walks FIELD_SPECS with typed C reads and writes: the generic struct.pack_into loop cost
# 1.25 ms per observation (4,252 values), most of a SuggestMove's Python time under load.
cdef dict _FMT_CODES = {"b": 0, "B": 1, "h": 2, "H": 3, "i": 4, "I": 5, "Q": 6}
cdef tuple _CODEC_SPECS = tuple((name, <Py_ssize_t>off, _FMT_CODES[fmt], count, stride, _RANGES[fmt])
                                for name, off, fmt, count, stride in FIELD_SPECS)


cdef object _read(const char* p, int code):
    if code == 0:
        return (<const int8_t*>p)[0]
    if code == 1:
        return (<const uint8_t*>p)[0]
    if code == 2:
        return (<const int16_t*>p)[0]
    if code == 3:
        return (<const uint16_t*>p)[0]
    if code == 4:
        return (<const int32_t*>p)[0]
    if code == 5:
        return (<const uint32_t*>p)[0]
    return (<const uint64_t*>p)[0]


cdef int _write(char* p, int code, object v, tuple bounds, str name) except -1:
    # JSON gives exact ints; bools and floats are refused, and so is anything outside the C type.
    if type(v) is not int or not bounds[0] <= v <= bounds[1]:
        raise StateFormatError(f"field 'state.{name}': {v!r} is not an integer in [{bounds[0]}, {bounds[1]}]")
    if code == 0:
        (<int8_t*>p)[0] = <int8_t>v
    elif code == 1:
        (<uint8_t*>p)[0] = <uint8_t>v
    elif code == 2:
        (<int16_t*>p)[0] = <int16_t>v
    elif code == 3:
        (<uint16_t*>p)[0] = <uint16_t>v
    elif code == 4:
        (<int32_t*>p)[0] = <int32_t>v
    elif code == 5:
        (<uint32_t*>p)[0] = <uint32_t>v
    else:
        (<uint64_t*>p)[0] = <uint64_t>v
    return 0


cdef object _dump(const TrianState* s):
    cdef const char* base = <const char*>s
    cdef Py_ssize_t off, count, stride, k
    cdef int code
    out = {}
    for name, off, code, count, stride, _bounds in _CODEC_SPECS:
        if stride == 0:
            out[name] = _read(base + off, code)
        else:
            out[name] = [_read(base + off + k * stride, code) for k in range(count)]
    return out


cdef int _pack_into(dict payload, TrianState* out) except -1:
    """Fill `out` (zeroed, header set) from a payload dict, checking every key, length and range."""
    cdef char* base = <char*>out
    cdef Py_ssize_t off, count, stride, k
    cdef int code
    cdef list values
    if len(payload) != len(_CODEC_SPECS) or not all(spec[0] in payload for spec in _CODEC_SPECS):
        extra = set(payload) - {spec[0] for spec in _CODEC_SPECS}
        if extra:
            raise StateFormatError(f"field 'state': unknown keys {sorted(extra)}")
    for name, off, code, count, stride, bounds in _CODEC_SPECS:
        if name not in payload:
            raise StateFormatError(f"missing field 'state.{name}'")
        value = payload[name]
        if stride == 0:
            _write(base + off, code, value, bounds, name)
            continue
        if type(value) is not list or len(<list>value) != count:
            raise StateFormatError(f"field 'state.{name}': expected a list of {count} integers")
        values = <list>value
        for k in range(count):
            _write(base + off + k * stride, code, values[k], bounds, name)
    return 0


cdef object _note(set seen, bint full, int tile, bint may_hide, str where):
    if tile == TR_UNKNOWN:
        if full or not may_hide:
            return f"{where}: the tile must be known here"
        return None
    if tile >= TR_TILES or tile in seen:
        return f"{where}: tile {tile} is out of range or used twice"
    seen.add(tile)
    return None


cdef str _check_state(const TrianState* s, int observer):
    # observer -1: a full state. Returns an error message, or None when consistent.
    cdef TrianState rebuilt
    cdef int n = s.params.num_players, i, k, t, v, o, fi, p, c
    cdef int roots[TR_EVENTS]
    cdef int kinds[TR_EVENTS]
    full = observer < 0
    if not M_PH1 <= s.mode <= M_RACE:
        return f"mode {s.mode} is not a phase"
    if not (0 <= s.turn_player < n and 0 <= s.first_player < n) or s.turn < 1:
        return "turn, turn_player or first_player out of range"
    if s.n_placed > TR_TILES or s.n_discarded > TR_TILES or s.stack_len[0] > TR_STACK or s.stack_len[1] > TR_STACK:
        return "tile counts out of range"
    in_hand = s.drawn_face != TR_UNKNOWN
    if (s.mode == M_PLACE) != in_hand:
        return "a tile is in hand exactly in phase 2 (place)"
    total = s.n_placed + s.n_discarded + s.stack_len[0] + s.stack_len[1] + (1 if in_hand else 0)
    if total != TR_TILES:
        return f"{total} tiles accounted for, expected {TR_TILES}"
    seen = set()

    for k in range(2):
        for i in range(TR_STACK):
            t = s.stack_tile[k][i]
            if i >= s.stack_len[k]:
                if t or s.stack_up[k][i]:
                    return f"stack {k}: entries past the top must be 0"
                continue
            err = _note(seen, full, t, True, f"stack {k}[{i}]")
            if err:
                return err
            if t != TR_UNKNOWN:
                if s.stack_up[k][i] > 1 or FACE_SPECIAL[TILE_FACE[t][s.stack_up[k][i]]]:
                    return f"stack {k}[{i}]: bad side up (a special side is never face up in a stack)"
        top = TR_UNKNOWN
        if s.stack_len[k]:
            t = s.stack_tile[k][s.stack_len[k] - 1]
            top = TILE_FACE[t][s.stack_up[k][s.stack_len[k] - 1]] if t != TR_UNKNOWN else s.stack_top_face[k]
        if s.stack_top_face[k] != top or (top != TR_UNKNOWN and (top >= N_FACES or FACE_SPECIAL[top])):
            return f"stack_top_face[{k}] does not match the stack"
    for i in range(s.n_discarded, TR_TILES):
        if s.discarded[i]:
            return "discarded: entries past n_discarded must be 0"
    for i in range(s.n_discarded):
        err = _note(seen, full, s.discarded[i], False, f"discarded[{i}]")
        if err:
            return err
    if in_hand:
        err = _note(seen, full, s.drawn_tile, s.turn_player != observer, "drawn_tile")
        if err:
            return err
        if s.drawn_stack > 1 or s.drawn_face >= N_FACES:
            return "drawn tile fields out of range"
        if s.drawn_tile != TR_UNKNOWN and (s.drawn_up > 1 or TILE_FACE[s.drawn_tile][s.drawn_up] != s.drawn_face):
            return "drawn_face does not match the drawn tile"
    elif s.drawn_tile != TR_UNKNOWN or s.drawn_up != TR_UNKNOWN or s.drawn_stack != TR_UNKNOWN:
        return "no tile is in hand: drawn fields must be 255"
    # rebuild the board from the placed list and compare the index
    memset(&rebuilt, 0, sizeof(TrianState))
    _board_reset(&rebuilt)
    for i in range(s.n_placed):
        if s.placed[i].face >= N_FACES or s.placed[i].rot > 2 or not 0 <= s.placed[i].placer < n:
            return f"placed[{i}]: face, rotation or placer out of range"
        err = _note(seen, full, s.placed[i].tile, s.placed[i].placer != observer, f"placed[{i}]")
        if err:
            return err
        t = s.placed[i].tile
        if t != TR_UNKNOWN and (s.placed[i].side > 1 or TILE_FACE[t][s.placed[i].side] != s.placed[i].face
                                or not _tile_fits(t, s.placed[i].up_face, s.placed[i].face)):
            return f"placed[{i}]: faces do not match tile {t}"
        if t == TR_UNKNOWN and s.placed[i].side != TR_UNKNOWN:
            return f"placed[{i}]: side must be unknown with the tile"
        v = _lookup(&rebuilt, s.placed[i].x, s.placed[i].y)
        if v < FRONT_BASE:
            return f"placed[{i}]: ({s.placed[i].x}, {s.placed[i].y}) does not touch the galaxy or is taken"
        fi = v - FRONT_BASE
        o = _orient(s.placed[i].x, s.placed[i].y)
        if not _fits(rebuilt.freq[fi], OCODE[s.placed[i].face][o][s.placed[i].rot]):
            return f"placed[{i}]: its borders do not match its neighbours"
        _board_place(&rebuilt, fi, s.placed[i].face, s.placed[i].rot, roots, kinds)
        rebuilt.placed[i] = s.placed[i]
    for i in range(s.n_placed, TR_TILES):
        if (<const char*>&s.placed[i])[:sizeof(TrianPlaced)] != bytes(sizeof(TrianPlaced)):
            return f"placed[{i}]: entries past n_placed must be 0"
    if (memcmp_region(s, &rebuilt, _off(&_PROBE.n_placed), _off(&_PROBE.n_nebulas)) or
            memcmp_region(s, &rebuilt, _off(&_PROBE.uf_parent[0]), _off(&_PROBE.neb_root[0]))):
        return "the board index does not match the placed tiles"
    # pieces
    for p in range(MAX_PLAYERS):
        if p >= n:
            if (<const char*>&s.players[p])[:sizeof(TrianPlayer)] != bytes(sizeof(TrianPlayer)):
                return f"player {p}: a seat past the player count must be 0"
            continue
        em = st1 = st2 = 0
        for i in range(s.n_placed):
            if s.placed[i].emissary == p:
                em += s.placed[i].unit == 0       # racial tokens acting as emissaries are not counted
                st1 += s.placed[i].station >= 1
                st2 += s.placed[i].station >= 2
        corv = sum(s.placed[i].ship_kind == SHIP_CORVETTE and s.placed[i].ship == p for i in range(s.n_placed))
        rog = sum(s.placed[i].ship_kind == SHIP_ROGUE and s.placed[i].ship == p for i in range(s.n_placed))
        want = SETUP_SHIPS if s.params.variant >= V_SHIPS else (0, 0)
        if corv + s.players[p].corvettes != want[0] or rog + s.players[p].rogues != want[1]:
            return f"player {p}: ships do not add up"
        if em + s.players[p].emissaries != PIECES[n][0] or st1 + s.players[p].research != PIECES[n][1] \
                or st2 + s.players[p].space != PIECES[n][2]:
            return f"player {p}: emissaries or stations do not add up"
        if s.players[p].credits < 0:
            return f"player {p}: negative credits"
        for name, cnt, plus in (("tokens", s.players[p].tok_count, s.players[p].tok_plus),
                                ("declared tokens", s.players[p].decl_count, s.players[p].decl_plus)):
            if plus == TR_HIDDEN and not full and p != observer:
                continue
            if not 0 <= plus <= cnt:
                return f"player {p}: {name} types out of range"
    for i in range(s.n_placed):
        if s.placed[i].emissary < -1 or s.placed[i].emissary >= n or s.placed[i].station > 2:
            return f"placed[{i}]: unit fields out of range"
        if s.placed[i].emissary >= 0 and not _emissary_may_stand(s.placed[i].face):
            return f"placed[{i}]: an emissary cannot stand on this face"
        if s.placed[i].station and s.placed[i].emissary < 0:
            return f"placed[{i}]: a station needs its emissary"
        if s.placed[i].ship_kind > SHIP_PRIESTESS or s.placed[i].ship_new > 1 or s.placed[i].rogue_used > 1:
            return f"placed[{i}]: ship fields out of range"
        if s.placed[i].ship_kind == 0:
            if s.placed[i].ship != -1 or s.placed[i].ship_new or s.placed[i].rogue_used:
                return f"placed[{i}]: without a ship, ship must be -1 and its flags 0"
        elif not 0 <= s.placed[i].ship < n or not _has_space(s.placed[i].face):
            return f"placed[{i}]: a ship needs an owner and outer space"
    held = sum(s.players[p].tok_count + s.players[p].decl_count for p in range(n))
    if held > TOKENS_PLUS + TOKENS_REROLL:
        return "more combat tokens held than exist"
    if full:
        plus_held = sum(s.players[p].tok_plus + s.players[p].decl_plus for p in range(n))
        if plus_held > TOKENS_PLUS or held - plus_held > TOKENS_REROLL:
            return "more combat tokens of one type held than exist"
    if s.n_nebulas > TR_NEBULAS:
        return "too many nebula records"
    for c in range(TR_COLORS):
        amount = s.bag[c] + sum(s.players[p].minerals[c] for p in range(n)) + \
            sum(s.neb_minerals[k][c] for k in range(TR_NEBULAS))
        if amount != MINERALS_PER_COLOR:
            return f"{COLOR_NAMES[c]} minerals add up to {amount}, expected {MINERALS_PER_COLOR}"
    for k in range(s.n_nebulas):
        r = s.neb_root[k]
        if not 0 <= r < 5 * s.n_placed or r % 5 != K_NEBULA or s.uf_parent[r] != r or s.uf_open[r] != 0:
            return f"neb_root[{k}] is not a closed nebula"
    if s.ev_n > TR_EVENTS or s.ev_pos > s.ev_n or s.b_n > n:
        return "event or battle counters out of range"
    if s.mode in (M_DECLARE, M_REROLL) and not (s.b_pos < s.b_n and 0 <= s.b_order[s.b_pos] < n):
        return "no seat to act in the battle"
    if s.sb_on > 1 or (s.sb_on and not (s.sb_att < s.n_placed and s.sb_def < s.n_placed
                                        and s.placed[s.sb_att].ship_kind)):
        return "ship battle fields out of range"
    if (s.mode == M_SHIP_TARGET) != (s.sb_on and s.mode not in (M_DECLARE, M_REROLL, M_RACE)) or \
            (s.sb_on and s.mode not in (M_SHIP_TARGET, M_DECLARE, M_REROLL, M_RACE)):
        return "a ship battle needs its mode"
    if not s.sb_on and (s.sb_att or s.sb_def):
        return "ship battle fields must be 0 without a battle"
    if s.mode in (M_TAKEBACK, M_DECLARE, M_REROLL) and s.ev_pos >= s.ev_n and not s.sb_on:
        return "no area being resolved"
    if s.new_tile != TR_UNKNOWN and s.new_tile >= s.n_placed:
        return "new_tile out of range"
    err = _check_races(s)
    if err:
        return err
    if not full:
        # an observation hides exactly what observe() hides, no more and no less known
        trian_observe(s, observer, &rebuilt)
        if memcmp_region(s, &rebuilt, 0, sizeof(TrianState)):
            return f"seat {observer} cannot see some of these values (tiles, token types or streams)"
    return None


cdef bint memcmp_region(const TrianState* a, const TrianState* b, size_t start, size_t stop):
    return (<const char*>a)[start:stop] != (<const char*>b)[start:stop]


def _face_label(int f):
    return FACE_NAMES[f] if f < N_FACES else "?"


cdef class TrianGame(Game):

    def __cinit__(self, int players, str variant):
        self.ops = &TRIAN_OPS
        self.params.num_players = players
        if variant not in VARIANT_IDS:
            raise ValueError(f"unknown Trian variant {variant!r}")
        self.params.variant = VARIANT_IDS[variant]
        self.params.options = 0
        self.name = "trian"
        self.variant = variant
        self.num_players = players

    def _dump_payload(self, State s, Observation o):
        return _dump(_cst(s.ptr if s is not None else o.ptr))

    def _load_payload(self, State s, Observation o, dict payload):
        cdef TrianState tmp
        memset(&tmp, 0, sizeof(TrianState))
        tmp.params.num_players = self.num_players
        tmp.params.variant = self.params.variant
        _pack_into(payload, &tmp)
        err = _check_state(&tmp, -1 if s is not None else o.player)
        if err is not None:
            raise StateFormatError(f"inconsistent Trian state: {err}")
        memcpy(s.ptr if s is not None else o.ptr, &tmp, sizeof(TrianState))

    def _action_struct(self, State s, Observation o, int action):
        return _describe(_cst(s.ptr if s is not None else o.ptr), action)

    def _action_from_struct(self, State s, Observation o, dict action):
        cdef const TrianState* st = _cst(s.ptr if s is not None else o.ptr)
        legal = s.legal_actions() if s is not None else o.legal_actions()
        if "id" in action:
            a = action["id"]
            if isinstance(a, bool) or not isinstance(a, int):
                raise StateFormatError("field 'id' must be an integer")
            if a in legal:
                want = _describe(st, a)
                for key, value in action.items():
                    if key != "label" and want.get(key) != value:
                        raise StateFormatError(f"field {key!r}: {value!r} does not match action {a}")
            return a
        if "kind" not in action:
            raise StateFormatError("an action needs 'id' or 'kind'")
        for a in legal:
            want = _describe(st, a)
            if all(key == "label" or want.get(key) == value for key, value in action.items()):
                return a
        raise StateFormatError(f"no legal action matches {action!r}")

    def _render(self, State s, Observation o):
        return _render(_cst(s.ptr if s is not None else o.ptr), None if o is None else o.player)


cdef dict _cell(const TrianState* s, int i):
    return {"x": s.placed[i].x, "y": s.placed[i].y}


cdef dict _describe(const TrianState* s, int a):
    cdef int k, c, fi, side, rot, d, j, src
    me = trian_current_player(s)
    if a == A_END_PH1:
        return {"id": a, "kind": "end_phase1", "label": "end phase 1"}
    if A_BUY_MINERAL <= a < A_BUY_MINERAL + 4:
        c = a - A_BUY_MINERAL
        return {"id": a, "kind": "buy_mineral", "color": COLOR_NAMES[c],
                "label": f"buy a {COLOR_NAMES[c]} mineral ({PRICE_MINERAL - _discount(s, me)} credits)"}
    if a == A_BUY_TOKEN:
        return {"id": a, "kind": "buy_token",
                "label": f"buy a combat token ({PRICE_TOKEN - _discount(s, me)} credits)"}
    if A_EXCHANGE <= a < A_EXCHANGE + 40:
        k = (a - A_EXCHANGE) // 4
        c = (a - A_EXCHANGE) % 4
        give = [COLOR_NAMES[PAIR_A[k]], COLOR_NAMES[PAIR_B[k]]]
        return {"id": a, "kind": "exchange", "give": give, "take": COLOR_NAMES[c],
                "label": f"exchange {give[0]} + {give[1]} for {COLOR_NAMES[c]}"}
    if A_GAIN <= a < A_GAIN + TR_NEBULAS * 4:
        k = (a - A_GAIN) // 4
        c = (a - A_GAIN) % 4
        return {"id": a, "kind": "gain_mineral", "nebula": k, "color": COLOR_NAMES[c],
                "label": f"gain a {COLOR_NAMES[c]} mineral from nebula #{k}"}
    if A_DRAW <= a <= A_DRAW + 1:
        k = a - A_DRAW
        return {"id": a, "kind": "draw", "stack": k,
                "label": f"draw from stack {k} ({_face_label(s.stack_top_face[k])} face up)"}
    if a == A_DISCARD:
        return {"id": a, "kind": "discard", "label": "set aside the tile (it fits nowhere)"}
    if A_PLACE <= a < A_PLACE + TR_FRONT * 6:
        fi = (a - A_PLACE) // 6
        side = ((a - A_PLACE) % 6) // 3
        rot = (a - A_PLACE) % 3
        f = TILE_FACE[s.drawn_tile][side] if s.drawn_tile != TR_UNKNOWN else TR_UNKNOWN
        return {"id": a, "kind": "place", "x": s.fx[fi], "y": s.fy[fi], "side": side, "rotation": rot,
                "face": _face_label(f),
                "label": f"place side {side} ({_face_label(f)}) at ({s.fx[fi]}, {s.fy[fi]}) rotation {rot}"}
    if a == A_PASS:
        return {"id": a, "kind": "pass", "label": "end phase 3"}
    if a == A_EVENTS_FIRST:
        return {"id": a, "kind": "events_first", "label": "resolve events before the phase 3 action"}
    if a == A_RESEARCH:
        return {"id": a, "kind": "research", "label": "research (draw a random mineral)"}
    if a == A_EXPEDITION:
        i = s.new_tile
        return dict(_cell(s, i), id=a, kind="expedition",
                    label=f"expedition: emissary to ({s.placed[i].x}, {s.placed[i].y}) "
                          f"{_face_label(s.placed[i].face)}")
    if A_CONSTRUCT <= a < A_CONSTRUCT + TR_TILES:
        i = a - A_CONSTRUCT
        what = "research station" if s.placed[i].station == 0 else "space station"
        return dict(_cell(s, i), id=a, kind="construct", station=what.split()[0],
                    label=f"construct a {what} at ({s.placed[i].x}, {s.placed[i].y})")
    if A_TELEPORT <= a < A_TELEPORT + 3 * TR_TILES:
        d = (a - A_TELEPORT) // TR_TILES
        j = (a - A_TELEPORT) % TR_TILES
        src = _nb_placed(s, s.new_tile, d) if s.new_tile != TR_UNKNOWN else -1
        fx, fy = (s.placed[src].x, s.placed[src].y) if src >= 0 else (None, None)
        return {"id": a, "kind": "teleport", "from": {"x": fx, "y": fy}, "to": _cell(s, j),
                "label": f"teleport the emissary at ({fx}, {fy}) to ({s.placed[j].x}, {s.placed[j].y})"}
    if A_TAKEBACK <= a < A_TAKEBACK + 10:
        return {"id": a, "kind": "take_back", "count": a - A_TAKEBACK,
                "label": f"take {a - A_TAKEBACK} emissaries back from the closed area"}
    if A_DECLARE <= a < A_DECLARE + 16:
        k = (a - A_DECLARE) // 4
        c = (a - A_DECLARE) % 4
        return {"id": a, "kind": "declare", "plus": k, "rerolls": c,
                "label": f"declare {k} +1 and {c} reroll tokens"}
    if a == A_REROLL:
        return {"id": a, "kind": "reroll", "label": f"reroll the die (showing {s.b_dice[me]})"}
    if a == A_STAND:
        return {"id": a, "kind": "stand", "label": f"keep the die at {s.b_dice[me]}"}
    if A_SHIP_EXPED <= a <= A_SHIP_EXPED + 1:
        i = s.new_tile
        kind = SHIP_NAMES[a - A_SHIP_EXPED + 1]
        return dict(_cell(s, i), id=a, kind="ship_expedition", ship=kind,
                    label=f"expedition: {kind} to ({s.placed[i].x}, {s.placed[i].y})")
    if A_SHIP_TARGET <= a < A_SHIP_TARGET + TR_TILES:
        j = a - A_SHIP_TARGET
        return dict(_cell(s, j), id=a, kind="ship_target", seat=s.placed[j].ship,
                    label=f"clash with seat {s.placed[j].ship}'s {SHIP_NAMES[s.placed[j].ship_kind]} "
                          f"at ({s.placed[j].x}, {s.placed[j].y})")
    if A_ROGUE <= a < A_ROGUE + TR_TILES * 4:
        i = (a - A_ROGUE) // 4
        c = (a - A_ROGUE) % 4
        return dict(_cell(s, i), id=a, kind="rogue_mine", color=COLOR_NAMES[c],
                    label=f"mine a {COLOR_NAMES[c]} mineral with the Rogue at ({s.placed[i].x}, {s.placed[i].y})")
    if A_UNLOCK <= a < A_UNLOCK + 6:
        k = (a - A_UNLOCK) // 2
        side = (a - A_UNLOCK) % 2
        r = s.players[me].race if me >= 0 else TR_UNKNOWN
        skill = UNIVERSAL_NAMES[k] if side == 0 else (SKILL_NAMES[r][2 + k] if r < N_RACES else "?")
        cost = PRICE_UNIVERSAL if side == 0 else PRICE_RACIAL
        return {"id": a, "kind": "unlock", "module": k, "side": ("universal", "racial")[side], "skill": skill,
                "label": f"unlock {skill} (module {k}, {('universal', 'racial')[side]} side, {cost} credits)"}
    if a == A_MINERAL_SET:
        return {"id": a, "kind": "mineral_set",
                "label": f"discard a set of 4 minerals (one of each colour) for {SET_CREDITS} credits"}
    if a >= A_RACE:
        described = _race_describe(s, me, a)
        if described is not None:
            return described
    if A_SHIP_MOVE <= a < A_SHIP_TELE + TR_TILES * TR_TILES:
        tele = a >= A_SHIP_TELE
        k = a - (A_SHIP_TELE if tele else A_SHIP_MOVE)
        i = k // TR_TILES
        j = k % TR_TILES
        verb = "teleport" if tele else "move"
        return {"id": a, "kind": "ship_teleport" if tele else "ship_move", "from": _cell(s, i), "to": _cell(s, j),
                "label": f"{verb} the {SHIP_NAMES[s.placed[i].ship_kind]} at ({s.placed[i].x}, {s.placed[i].y}) "
                         f"to ({s.placed[j].x}, {s.placed[j].y})"}
    return {"id": a, "kind": "unknown", "label": f"action {a}"}


SHIP_NAMES = ("none", "Corvette", "Rogue", "Supreme Priestess")

FACE_SHORT = {"space": "..", "nebula-cap": "n1", "nebula-bend": "n2", "nebula-core": "n3",
              "extractor-cap": "x1", "extractor-bend": "x2", "extractor-core": "x3",
              "planet-end": "p1", "planet-link": "p2", "planet-hub": "p3", "starlight-path": "--",
              "gas-cap": "g1", "gas-bend": "g2", "gas-core": "g3", "nebula-gas": "ng",
              "nebula-band": "nb", "gas-band": "gb", "trade-outpost": "$$", "teleport": "TT",
              "exmitter": "EX"}


cdef str _render(const TrianState* s, observer):
    cdef const TrianPlayer* pl
    n = s.params.num_players
    lines = []
    who = trian_current_player(s)
    lines.append(f"turn {s.turn}, seat {s.turn_player} to play, {MODE_NAMES.get(s.mode, s.mode)}"
                 + (f"; seat {who} decides" if who != s.turn_player and who >= 0 else ""))
    for k in range(2):
        lines.append(f"stack {k}: {s.stack_len[k]} tiles, top face: "
                     f"{_face_label(s.stack_top_face[k]) if s.stack_len[k] else '-'}")
    if s.drawn_face != TR_UNKNOWN:
        t = s.drawn_tile
        other = f", other side {_face_label(TILE_FACE[t][1 - s.drawn_up])}" if t != TR_UNKNOWN else ""
        lines.append(f"in hand: {_face_label(s.drawn_face)} (from stack {s.drawn_stack}){other}")
    for p in range(n):
        pl = &s.players[p]
        minerals = " ".join(f"{COLOR_NAMES[c]}:{pl.minerals[c]}" for c in range(4))
        tokens = f"{pl.tok_count}" + (f" ({pl.tok_plus} +1)" if pl.tok_plus >= 0 else "")
        lines.append(f"seat {p}: {pl.credits} credits, minerals {minerals}, tokens {tokens}, "
                     f"supply {pl.emissaries} emissaries / {pl.research} research / {pl.space} space"
                     f", score {pl.credits + 3 * _mineral_total(pl)}")
        if s.params.variant >= V_FULL:
            lines.append(f"seat {p}: " + _skills_line(pl))
            placed_tokens = _tokens_line(s, p)
            if placed_tokens:
                lines.append(f"seat {p}: special tokens on the board: " + placed_tokens)
    ships = s.params.variant >= V_SHIPS
    if ships:
        for p in range(n):
            lines.append(f"seat {p}: ships in supply {s.players[p].corvettes} Corvettes / "
                         f"{s.players[p].rogues} Rogues")
    for k in range(s.n_nebulas):
        m = " ".join(f"{COLOR_NAMES[c]}:{s.neb_minerals[k][c]}" for c in range(4))
        lines.append(f"nebula #{k}: minerals {m}")
    if s.mode in (M_DECLARE, M_REROLL):
        seats = [s.b_order[k] for k in range(s.b_n)]
        lines.append("battle: " + ", ".join(
            f"seat {p} bonus +{s.b_bonus[p]} die {s.b_dice[p] or '-'} declared {s.players[p].decl_count}"
            for p in seats))
    if s.n_placed:
        xs = [s.placed[i].x for i in range(s.n_placed)]
        ys = [s.placed[i].y for i in range(s.n_placed)]
        lines.append("galaxy: ^/v up/down triangle, face code, emissary's seat, r/s research/space station"
                     + (", C/R Corvette/Rogue and its seat" if ships else ""))
        lines.append("  codes: .. space, n1-n3 nebula, x1-x3 extractor, p1-p3 planet, -- starlight path,")
        lines.append("  g1-g3 gas cloud, ng nebula+gas, nb/gb nebula/gas band, $$ outpost, TT teleport, EX exmitter")
        for y in range(min(ys), max(ys) + 1):
            row = []
            for x in range(min(xs), max(xs) + 1):
                i = _placed_at(s, x, y)
                if i < 0:
                    row.append("       " if ships else "     ")
                    continue
                code = FACE_SHORT.get(FACE_NAMES[s.placed[i].face], "??")
                em = str(s.placed[i].emissary) if s.placed[i].emissary >= 0 else " "
                st = " rs"[s.placed[i].station]
                sh = (" CR"[s.placed[i].ship_kind] + str(s.placed[i].ship)) if s.placed[i].ship_kind else "  "
                row.append(("^" if _orient(x, y) == 0 else "v") + code + em + st + (sh if ships else ""))
            lines.append(f"{y:4d} " + "".join(row).rstrip())
    if s.mode == M_END:
        cdef_scores = [s.players[p].credits + 3 * _mineral_total(&s.players[p]) for p in range(n)]
        lines.append("final scores: " + ", ".join(f"seat {p}: {cdef_scores[p]}" for p in range(n)))
    return "\n".join(lines)


def make_game(int players, str variant):
    return TrianGame(players, variant)


# ---------------------------------------------------------------- test hooks (scenario tests only)

def _debug_stack_top(State st, int stack, list tiles):
    """Move `tiles` ([(tile id, side up), ...], the last on top) to the top of one stack.

    The other stack tiles keep their order and side; stack sizes stay as they are. Only for building
    scenario positions from a fresh deal: the tiles must still be in the stacks.
    """
    cdef TrianState* s = _st(st.ptr)
    pool = []
    for k in range(2):
        pool += [(s.stack_tile[k][i], s.stack_up[k][i]) for i in range(s.stack_len[k])]
    wanted = [t for t, _ in tiles]
    if len(set(wanted)) != len(wanted) or any(t not in [p[0] for p in pool] for t in wanted):
        raise ValueError("every tile must be in a stack, once")
    if len(tiles) > s.stack_len[stack]:
        raise ValueError("more tiles than the stack holds")
    rest = [p for p in pool if p[0] not in wanted]
    lengths = [s.stack_len[0], s.stack_len[1]]
    top_start = lengths[stack] - len(tiles)
    it = iter(rest)
    for k in range(2):
        for i in range(lengths[k]):
            if k == stack and i >= top_start:
                t, up = tiles[i - top_start]
            else:
                t, up = next(it)
            s.stack_tile[k][i] = t
            s.stack_up[k][i] = up
    _refresh_tops(s)


def _debug_dice(uint64_t seed, int count):
    """The first `count` dice a dice stream seeded with `seed` rolls."""
    cdef Rng rng
    rng_seed(&rng, seed)
    return [rng_die(&rng, 6) for _ in range(count)]


def _debug_seed_dice(State st, uint64_t seed):
    rng_seed(&_st(st.ptr).rng_dice, seed)


def tiles_with_face(str name):
    """Catalogue ids of the tiles that have a face of this name, with the side it is on."""
    f = FACE_NAMES.index(name)
    return [(t, side) for t in range(TR_TILES) for side in range(2) if TILE_FACE[t][side] == f]


register(
    GameInfo(
        name="trian",
        title=(
            "Galaxy of Trian: New Order (beginner variant; ships variant with Corvettes and Rogues; "
            "full game with ships and race evolution)"
        ),
        module=__name__,
        variants=("beginner", "ships", "full"),
        player_counts=(2, 3, 4),
        action_description=(
            "Phase 1: 0 end phase 1; 1-4 buy a mineral (red, blue, green, yellow); 5 buy a combat token; "
            "6 + pair*4 + colour exchange two minerals (pairs of colours a<=b in order) for one; "
            "46 + nebula*4 + colour gain a mineral from a closed nebula. Phase 2: 240/241 draw from "
            "stack 0/1; 1024 + frontier*6 + side*3 + rotation place the tile; 242 set aside a tile that "
            "fits nowhere. Phase 3: 243 end; 244 resolve events first; 245 research; 246 expedition; "
            "248 + tile construct; 332 + side*84 + tile teleport. Events: 584 + n take n emissaries "
            "back; 600 + plus*4 + rerolls declare combat tokens; 616 reroll; 617 keep the die. "
            "Ships variant: 618/619 Corvette/Rogue expedition; 620 + tile clash with the ship there; "
            "10000 + tile*4 + colour Rogue mining; 20000 + from*84 + to move a ship; 30000 + from*84 + to "
            "teleport a ship. Full variant: 40000 + module*2 + side unlock a skill (side 0 universal, 1 "
            "racial); 40010 trade a set of 4 minerals; 50000 + race*20000 + n racial actions (see "
            "docs/rules/trian.md). action_to_struct gives coordinates and a label for every id."
        ),
        # Tuned on 2-player Trian (docs/search.md): every leaf scored 48 moves after the searched position.
        default_search="ismcts@3",
        outcome="ranks",
        hidden_information=(
            "the order and undersides of both tile stacks, the tile in another seat's hand and the hidden "
            "side of tiles others placed, the types of other seats' combat tokens, future bag draws, "
            "token draws and dice"
        ),
        rules_doc="docs/rules/trian.md",
    )
)
