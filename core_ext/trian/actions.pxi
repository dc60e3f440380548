# Included by engine.pyx: action ids, encoded and decoded in one place (the table in docs/rules/trian.md,
# section 10). Racial actions (A_RACE and above) are decoded by races.pxi.

cdef inline bint _in_block(action_t a, int base, int count) noexcept nogil:
    return base <= a < base + count


cdef inline int _colour_action(int base, int index, int colour) noexcept nogil:
    # exchange (colour pair index), gain (nebula record), rogue mining (Rogue's tile): index * 4 + colour
    return base + index * 4 + colour


cdef inline void _decode_colour_action(action_t a, int base, int* index, int* colour) noexcept nogil:
    index[0] = (a - base) // 4
    colour[0] = (a - base) % 4


cdef inline int _tile_pair_action(int base, int first, int second) noexcept nogil:
    # teleport (source side, target tile), ship move and ship teleport (from tile, to tile)
    return base + first * TR_TILES + second


cdef inline void _decode_tile_pair(action_t a, int base, int* first, int* second) noexcept nogil:
    first[0] = (a - base) // TR_TILES
    second[0] = (a - base) % TR_TILES


cdef inline int _place_action(int frontier, int side, int rotation) noexcept nogil:
    return A_PLACE + frontier * 6 + side * 3 + rotation


cdef inline void _decode_place(action_t a, int* frontier, int* side, int* rotation) noexcept nogil:
    cdef int k = a - A_PLACE
    frontier[0] = k // 6
    side[0] = (k % 6) // 3
    rotation[0] = k % 3


cdef inline int _declare_action(int plus, int rerolls) noexcept nogil:
    return A_DECLARE + plus * 4 + rerolls


cdef inline void _decode_declare(action_t a, int* plus, int* rerolls) noexcept nogil:
    plus[0] = (a - A_DECLARE) // 4
    rerolls[0] = (a - A_DECLARE) % 4


cdef void _sort_tail(action_t* out, int n) noexcept nogil:
    # insertion sort (phase 3 lists are short and nearly sorted), from the first entry out of order
    _sort_from(out, 1, n)


cdef void _sort_from(action_t* out, int first, int n) noexcept nogil:
    # _sort_tail for a list whose first `first` entries are known to be in order (not checked again)
    cdef int i, j
    cdef action_t v
    if first < 1:
        first = 1
    while first < n and out[first - 1] <= out[first]:
        first += 1
    for i in range(first, n):
        v = out[i]
        j = i - 1
        while j >= 0 and out[j] > v:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v
