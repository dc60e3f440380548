# xoshiro256** with splitmix64 seeding: small, fast, and its whole state is 32 bytes, so it can live
# inside a game state struct (one stream per hidden source) and be copied with memcpy.
# Functions are inline so that every core and the search kernel share one implementation without
# cross-module calls. The state is always passed by pointer.
from libc.stdint cimport uint32_t, uint64_t

ctypedef struct Rng:
    uint64_t s[4]

cdef inline uint64_t _splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    cdef int i
    for i in range(4):
        rng.s[i] = _splitmix64(&x)

cdef inline void rng_seed2(Rng* rng, uint64_t seed, uint64_t stream) noexcept nogil:
    # An independent stream per (seed, stream id): used to key each hidden source by the deal seed.
    rng_seed(rng, seed ^ (stream * <uint64_t>0xD1B54A32D192ED03ULL + <uint64_t>0x632BE59BD9B4E019ULL))

cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t result = _rotl(rng.s[1] * 5, 7) * 9
    cdef uint64_t t = rng.s[1] << 17
    rng.s[2] ^= rng.s[0]
    rng.s[3] ^= rng.s[1]
    rng.s[1] ^= rng.s[2]
    rng.s[0] ^= rng.s[3]
    rng.s[2] ^= t
    rng.s[3] = _rotl(rng.s[3], 45)
    return result

cdef inline uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil:
    # Lemire's multiply-shift; the tiny bias (< n / 2**32) is irrelevant for games and search.
    return <uint32_t>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)

cdef inline double rng_uniform(Rng* rng) noexcept nogil:
    # [0, 1) with 53 random bits
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)

cdef inline int rng_die(Rng* rng, int sides) noexcept nogil:
    return 1 + <int>rng_below(rng, <uint32_t>sides)
