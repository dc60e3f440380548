# Included by engine.pyx: the mineral bag and the combat-token bag (sections II and VI.3), drawn from their
# own streams.

cdef inline int _nebula_mineral_total(const TrianState* s, int k) noexcept nogil:
    # minerals left on closed-nebula record k
    cdef const uint8_t* m = s.nebula_minerals[k]
    return m[0] + m[1] + m[2] + m[3]


cdef inline int _mineral_total(const TrianPlayer* p) noexcept nogil:
    return p.minerals[0] + p.minerals[1] + p.minerals[2] + p.minerals[3]


cdef int _tokens_in_bag(const TrianState* s, int* plus) noexcept nogil:
    # requires the full state (token types known)
    cdef int p, held_plus = 0, held = 0
    for p in range(s.params.num_players):
        held += s.players[p].tokens_held + s.players[p].declared_tokens
        held_plus += s.players[p].tokens_plus + s.players[p].declared_plus
    plus[0] = TOKENS_PLUS - held_plus
    return TOKENS_PLUS + TOKENS_REROLL - held


cdef int _tokens_in_bag_count(const TrianState* s) noexcept nogil:
    cdef int p, held = 0
    for p in range(s.params.num_players):
        held += s.players[p].tokens_held + s.players[p].declared_tokens
    return TOKENS_PLUS + TOKENS_REROLL - held


cdef void _draw_token(TrianState* s, int p) noexcept nogil:
    cdef int plus, n = _tokens_in_bag(s, &plus)
    if n <= 0:
        return
    s.players[p].tokens_held += 1
    if <int>rng_below(&s.rng_tokens, <uint32_t>n) < plus:
        s.players[p].tokens_plus += 1


cdef int _draw_mineral(TrianState* s) noexcept nogil:
    # a random mineral from the bag (its colour), or -1 when the bag is empty
    cdef int n = s.bag[0] + s.bag[1] + s.bag[2] + s.bag[3], r, c
    if n <= 0:
        return -1
    r = <int>rng_below(&s.rng_minerals, <uint32_t>n)
    for c in range(TR_COLORS):
        if r < s.bag[c]:
            s.bag[c] -= 1
            return c
        r -= s.bag[c]
    return -1
