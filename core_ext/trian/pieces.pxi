# Included by engine.pyx: where the pieces stand. Every write of a tile's emissary owner or ship goes
# through _put_emissary or _put_ship, which keep the derived tile sets of the state (one bit per placed
# tile): the rules that look for one seat's emissaries, for ships or for extractors visit those few tiles
# instead of every placed tile. Loading a state replays these writes, so the sets are rebuilt on load.

cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil


cdef inline void _tiles_add(uint64_t* tiles, int i) noexcept nogil:
    tiles[i >> 6] |= (<uint64_t>1) << (i & 63)


cdef inline void _tiles_remove(uint64_t* tiles, int i) noexcept nogil:
    tiles[i >> 6] &= ~((<uint64_t>1) << (i & 63))


cdef inline bint _tiles_has(const uint64_t* tiles, int i) noexcept nogil:
    return (tiles[i >> 6] >> (i & 63)) & 1


cdef inline int _tiles_list(uint64_t low, uint64_t high, uint8_t* out) noexcept nogil:
    # the placed tiles in a set (words 0 and 1), in ascending order; returns how many
    cdef int n = 0
    while low != 0:
        out[n] = <uint8_t>__builtin_ctzll(low)
        n += 1
        low &= low - 1
    while high != 0:
        out[n] = <uint8_t>(64 + __builtin_ctzll(high))
        n += 1
        high &= high - 1
    return n


cdef inline int _own_emissary_tiles(const TrianState* s, int p, uint8_t* out) noexcept nogil:
    # the tiles holding seat p's emissaries, in ascending order
    return _tiles_list(s.emissary_tiles[p][0], s.emissary_tiles[p][1], out)


cdef int _emissary_tiles(const TrianState* s, uint8_t* out) noexcept nogil:
    # the tiles holding any seat's emissary, in ascending order
    cdef uint64_t low = 0, high = 0
    cdef int p
    for p in range(s.params.num_players):
        low |= s.emissary_tiles[p][0]
        high |= s.emissary_tiles[p][1]
    return _tiles_list(low, high, out)


cdef inline int _ship_tiles(const TrianState* s, uint8_t* out) noexcept nogil:
    # the tiles holding a ship, in ascending order
    return _tiles_list(s.ship_tiles[0], s.ship_tiles[1], out)


cdef inline void _put_emissary(TrianState* s, int i, int owner) noexcept nogil:
    # the emissary (or racial unit) on placed tile i now belongs to `owner`; -1: none stands there
    cdef int before = s.placed[i].emissary
    if before >= 0:
        _tiles_remove(s.emissary_tiles[before], i)
    s.placed[i].emissary = <int8_t>owner
    if owner >= 0:
        _tiles_add(s.emissary_tiles[owner], i)


cdef inline void _put_ship(TrianState* s, int i, int owner, int kind) noexcept nogil:
    # a ship of `kind` owned by `owner` now stands on placed tile i; kind 0 (owner -1): none does
    s.placed[i].ship_owner = <int8_t>owner
    s.placed[i].ship_kind = <uint8_t>kind
    if kind != 0:
        _tiles_add(s.ship_tiles, i)
    else:
        _tiles_remove(s.ship_tiles, i)


cdef void _pieces_reset(TrianState* s) noexcept nogil:
    # an empty galaxy: no tile holds anything
    memset(s.emissary_tiles, 0, sizeof(s.emissary_tiles))
    memset(s.ship_tiles, 0, sizeof(s.ship_tiles))
    memset(s.extractor_tiles, 0, sizeof(s.extractor_tiles))
