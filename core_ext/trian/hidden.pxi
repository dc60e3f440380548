# Included by engine.pyx: hidden information: what a seat observes, and determinization (docs/rules/trian.md,
# section 9).

cdef void trian_observe(const void* p, int player, void* outp) noexcept nogil:
    cdef TrianState* o = _st(outp)
    cdef int k, i
    memcpy(outp, p, sizeof(TrianState))
    for k in range(2):
        for i in range(o.stack_len[k]):
            o.stack_tile[k][i] = TR_UNKNOWN
            o.stack_side_up[k][i] = TR_UNKNOWN
    if o.drawn_tile != TR_UNKNOWN and o.turn_player != player:
        o.drawn_tile = TR_UNKNOWN
        o.drawn_side_up = TR_UNKNOWN
    for i in range(o.n_placed):
        if o.placed[i].placer != player:
            o.placed[i].tile = TR_UNKNOWN
            o.placed[i].side = TR_UNKNOWN
    for k in range(o.params.num_players):
        if k != player:
            o.players[k].tokens_plus = TR_HIDDEN
            if o.mode == M_DECLARE:
                o.players[k].declared_plus = TR_HIDDEN
    memset(&o.rng_minerals, 0, sizeof(Rng))
    memset(&o.rng_tokens, 0, sizeof(Rng))
    memset(&o.rng_dice, 0, sizeof(Rng))


cdef bint _tile_fits(int t, int f1, int f2) noexcept nogil:
    # f1: a face the tile is known to show; f2: a second face seen on it (or f1 / -1 if none)
    cdef int a = TILE_FACE[t][0], b = TILE_FACE[t][1]
    if f2 < 0 or f2 == f1:
        return a == f1 or b == f1
    return (a == f1 and b == f2) or (a == f2 and b == f1)


cdef bint _augment(int slot, const int* f1, const int* f2, const uint8_t* pool, int* tile_slot,
                   int* slot_tile, uint8_t* seen, int start) noexcept nogil:
    cdef int k, t
    for k in range(TR_TILES):
        t = (start + k) % TR_TILES
        if not pool[t] or seen[t] or not _tile_fits(t, f1[slot], f2[slot]):
            continue
        seen[t] = 1
        if tile_slot[t] < 0 or _augment(tile_slot[t], f1, f2, pool, tile_slot, slot_tile, seen,
                                        (start * 7 + 13) % TR_TILES):
            tile_slot[t] = slot
            slot_tile[slot] = t
            return True
    return False


cdef inline int _side_with(int t, int f, Rng* rng) noexcept nogil:
    if TILE_FACE[t][0] == f and TILE_FACE[t][1] == f:
        return <int>rng_below(rng, 2)
    return 0 if TILE_FACE[t][0] == f else 1


cdef enum:
    DET_QUICK_TRIES = 8        # rejection proposals before the counting sampler takes over
    DET_MAX_TRIES = 2000       # rejection proposals when the counting table would be too large
    DET_MAX_ENTRIES = 1 << 21  # counting sampler: the most table entries in all (16 MiB)
    DET_MAX_CLASSES = 276      # pairs of faces: TR_MAX_FACES * (TR_MAX_FACES - 1) / 2
    DET_MCMC_STEPS = 64        # Metropolis steps per face-up-only slot after the matching fallback
    # how the tiles were sampled (method to ask for: DET_AUTO or one of these)
    DET_AUTO = 0
    DET_BY_REJECTION = 1
    DET_BY_COUNTING = 2
    DET_BY_MATCHING = 3


ctypedef struct TileSlots:
    # the hidden tiles an observer has seen a face of (docs/rules/trian.md, section 9)
    int n
    int up[TR_TILES + 4]      # the face it showed up on the stack (never a special face)
    int shown[TR_TILES + 4]   # a placed tile flipped over: the face it shows now, else -1
    int ref[TR_TILES + 4]     # >= 0 placed index; -1 / -2 stack top 0 / 1; -3 a tile in another's hand
    int tile[TR_TILES + 4]    # the sampled tile


cdef void _collect_tile_slots(const TrianState* s, uint8_t* pool, TileSlots* sl) noexcept nogil:
    # pool: the tiles the observer has not identified; sl: every hidden tile with a face seen
    cdef int i, k, t
    sl.n = 0
    for t in range(TR_TILES):
        pool[t] = 1
    for i in range(s.n_placed):
        if s.placed[i].tile != TR_UNKNOWN:
            pool[s.placed[i].tile] = 0
        else:
            _add_slot(sl, s.placed[i].face_when_drawn, s.placed[i].face, i)
    for i in range(s.n_discarded):
        pool[s.discarded[i]] = 0
    if s.drawn_face != TR_UNKNOWN:
        if s.drawn_tile != TR_UNKNOWN:
            pool[s.drawn_tile] = 0
        else:
            _add_slot(sl, s.drawn_face, s.drawn_face, -3)
    for k in range(2):
        if s.stack_len[k] > 0 and s.stack_tile[k][s.stack_len[k] - 1] == TR_UNKNOWN:
            _add_slot(sl, s.stack_top_face[k], s.stack_top_face[k], -1 - k)


cdef inline void _add_slot(TileSlots* sl, int up, int shown, int ref) noexcept nogil:
    sl.up[sl.n] = up
    sl.shown[sl.n] = shown if shown != up else -1
    sl.ref[sl.n] = ref
    sl.tile[sl.n] = -1
    sl.n += 1


cdef inline bint _shows_flipped(int t, int up, int shown) noexcept nogil:
    # tile t has `up` on one side and `shown` on the other
    return (TILE_FACE[t][0] == up and TILE_FACE[t][1] == shown) or \
        (TILE_FACE[t][1] == up and TILE_FACE[t][0] == shown)


cdef double _binomial(int n, int k) noexcept nogil:
    cdef double r = 1.0
    cdef int i
    if k < 0 or k > n:
        return 0.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


cdef bint _pick_flipped_tiles(TileSlots* sl, uint8_t* pool, Rng* rng) noexcept nogil:
    # A flipped placed tile shows both its faces, so it is one of the unseen tiles with that pair, and
    # every such tile is equally likely: draw them uniformly without replacement. Any draw removes the
    # same number of tiles of each face pair, so the face-up slots below see the same odds after it.
    cdef int i, t, n_fit, pick
    for i in range(sl.n):
        if sl.shown[i] < 0:
            continue
        n_fit = 0
        for t in range(TR_TILES):
            if pool[t] and _shows_flipped(t, sl.up[i], sl.shown[i]):
                n_fit += 1
        if n_fit == 0:
            return False
        pick = <int>rng_below(rng, <uint32_t>n_fit)
        for t in range(TR_TILES):
            if pool[t] and _shows_flipped(t, sl.up[i], sl.shown[i]):
                if pick == 0:
                    sl.tile[i] = t
                    pool[t] = 0
                    break
                pick -= 1
    return True


ctypedef struct FaceUpGroup:
    # the slots seen only by one face up, and the unseen tiles that show that face
    int face
    int n_slots
    int n_full                # tiles certain to lie with this face up: the other side is it or special
    int n_half                # tiles whose other side is a different regular face (1/2)
    int slots[TR_TILES + 4]
    int full[TR_TILES]
    int half[TR_TILES]


cdef int _face_up_groups(const TileSlots* sl, const uint8_t* pool, FaceUpGroup* groups) noexcept nogil:
    cdef uint8_t group_of[TR_MAX_FACES]
    cdef int n_groups = 0, i, u, t, other
    cdef FaceUpGroup* g
    memset(group_of, 255, sizeof(group_of))
    for i in range(sl.n):
        if sl.shown[i] >= 0:
            continue
        u = sl.up[i]
        if group_of[u] == 255:
            group_of[u] = <uint8_t>n_groups
            g = &groups[n_groups]
            n_groups += 1
            g.face = u
            g.n_slots = 0
            g.n_full = 0
            g.n_half = 0
            for t in range(TR_TILES):
                if not pool[t] or (TILE_FACE[t][0] != u and TILE_FACE[t][1] != u):
                    continue
                other = TILE_FACE[t][1] if TILE_FACE[t][0] == u else TILE_FACE[t][0]
                if other == u or FACE_SPECIAL[other]:
                    g.full[g.n_full] = t
                    g.n_full += 1
                else:
                    g.half[g.n_half] = t
                    g.n_half += 1
        g = &groups[group_of[u]]
        g.slots[g.n_slots] = i
        g.n_slots += 1
    return n_groups


cdef bint _propose_face_up_tiles(TileSlots* sl, FaceUpGroup* groups, int n_groups, Rng* rng,
                                 int tries) noexcept nogil:
    # The exact posterior of the slots seen only by their face up: the stacks were a uniform shuffle
    # with a random regular side up, so an assignment of distinct tiles has weight
    # prod P(its face up | tile): 1 for a tile whose other side is the same face or special, 1/2
    # otherwise. Each face's slots are proposed independently from that face's own weighted law
    # (how many weight-1 tiles ~ C(full, j) C(half, a - j) 2^j, then uniform tiles, in random slot
    # order); a proposal that uses a tile twice is rejected, which leaves exactly the target law.
    cdef int chosen[TR_TILES + 4]
    cdef uint8_t used[TR_TILES]
    cdef int attempt, gi, a, j, m
    cdef FaceUpGroup* g
    cdef bint ok
    for attempt in range(tries):
        memset(used, 0, sizeof(used))
        ok = True
        for gi in range(n_groups):
            g = &groups[gi]
            a = g.n_slots
            j = _draw_full_count(rng, a, g.n_full, g.n_half)
            _draw_distinct(rng, g.full, g.n_full, j, chosen)
            _draw_distinct(rng, g.half, g.n_half, a - j, chosen + j)
            _shuffle_ints(rng, chosen, a)
            for m in range(a):
                if used[chosen[m]]:
                    ok = False
                    break
                used[chosen[m]] = 1
                sl.tile[g.slots[m]] = chosen[m]
            if not ok:
                break
        if ok:
            return True
    return False


cdef int _pick_face_up_tiles(TileSlots* sl, const uint8_t* pool, Rng* rng, int method) noexcept nogil:
    # every face-up-only slot's tile from the exact posterior: a few rejection proposals (cheap when
    # faces share few tiles), then the counting sampler, or long rejection where its table would be
    # too large. Each stage is exact on its own and independent of why the earlier one stopped, so
    # the mixture is exact. Returns the DET_BY_* stage that succeeded, or -1 (no exact draw found).
    cdef FaceUpGroup groups[TR_MAX_FACES]
    cdef int n_groups = _face_up_groups(sl, pool, groups), gi
    for gi in range(n_groups):
        if groups[gi].n_slots > groups[gi].n_full + groups[gi].n_half:
            return -1
    if method == DET_BY_REJECTION:
        return DET_BY_REJECTION if _propose_face_up_tiles(sl, groups, n_groups, rng, DET_MAX_TRIES) else -1
    if method == DET_AUTO and _propose_face_up_tiles(sl, groups, n_groups, rng, DET_QUICK_TRIES):
        return DET_BY_REJECTION
    gi = _count_face_up_tiles(sl, pool, groups, n_groups, rng)
    if gi != 0 or method == DET_BY_COUNTING:
        return DET_BY_COUNTING if gi > 0 else -1
    if _propose_face_up_tiles(sl, groups, n_groups, rng, DET_MAX_TRIES):
        return DET_BY_REJECTION
    return -1


ctypedef struct SharedTiles:
    # the unseen tiles whose two faces are both faces of face-up-only slots (group g1 < g2): each may
    # fill a slot of either, with weight 1/2 either way
    int g1
    int g2
    int n
    int to_g1                 # sampled: how many of them fill slots of g1, and of g2
    int to_g2


cdef int _shared_classes(FaceUpGroup* groups, int n_groups, SharedTiles* cls,
                         int* n_private_half) noexcept nogil:
    # the classes of shared tiles; n_private_half[g]: the leading entries of groups[g].half whose
    # other face is no group's (they are reordered so: private first)
    cdef int group_of[TR_MAX_FACES]
    cdef int class_of[TR_MAX_FACES][TR_MAX_FACES]
    cdef int n_cls = 0, gi, h, k, t, other, tmp
    cdef FaceUpGroup* g
    for k in range(TR_MAX_FACES):
        group_of[k] = -1
    for gi in range(n_groups):
        group_of[groups[gi].face] = gi
    memset(class_of, 255, sizeof(class_of))
    for gi in range(n_groups):
        g = &groups[gi]
        n_private_half[gi] = 0
        for k in range(g.n_half):
            t = g.half[k]
            other = TILE_FACE[t][1] if TILE_FACE[t][0] == g.face else TILE_FACE[t][0]
            h = group_of[other]
            if h < 0:
                tmp = g.half[n_private_half[gi]]       # private: move it to the front
                g.half[n_private_half[gi]] = t
                g.half[k] = tmp
                n_private_half[gi] += 1
            elif gi < h:
                if class_of[gi][h] < 0:
                    class_of[gi][h] = n_cls
                    cls[n_cls].g1 = gi
                    cls[n_cls].g2 = h
                    cls[n_cls].n = 0
                    n_cls += 1
                cls[class_of[gi][h]].n += 1
    return n_cls


cdef double _private_ways(const FaceUpGroup* g, int n_private_half, int k) noexcept nogil:
    # weighted ways (weight 2 per full tile, 1 per half tile) to fill k slots of g with its own tiles
    cdef double total = 0.0, power = 1.0
    cdef int j
    if k < 0:
        return 0.0
    for j in range(k + 1):
        total += _binomial(g.n_full, j) * _binomial(n_private_half, k - j) * power
        power *= 2.0
    return total


cdef int _count_face_up_tiles(TileSlots* sl, const uint8_t* pool, FaceUpGroup* groups, int n_groups,
                              Rng* rng) noexcept nogil:
    # Exact sampling by counting (docs/rules/trian.md, section 9): how many shared tiles of each class
    # go to each of its two faces is drawn backwards through the weighted numbers of completions,
    # computed face by face (CountPlan); then the tiles within each class and each face's own tiles
    # are uniform / weighted as in _propose_face_up_tiles. Returns 1, or 0 when the tables would
    # exceed DET_MAX_ENTRIES (or memory), -1 when no assignment exists.
    cdef SharedTiles cls[DET_MAX_CLASSES]
    cdef int n_private_half[TR_MAX_FACES]
    cdef CountPlan* plan
    cdef int n_cls = _shared_classes(groups, n_groups, cls, n_private_half), result
    plan = <CountPlan*>malloc(sizeof(CountPlan))
    if plan == NULL:
        return 0
    result = _plan_counts(plan, groups, n_groups, n_private_half, cls, n_cls)
    if result > 0:
        result = _count_and_draw_splits(plan, groups, n_groups, cls, rng)
    free(plan)
    if result > 0:
        _fill_face_up_slots(sl, pool, groups, n_groups, n_private_half, cls, n_cls, rng)
    return result


ctypedef struct CountPlan:
    # Variable elimination over the faces: the steps are "split class e" (op >= 0) and "close face g"
    # (op = -1 - g: the rest of its slots take its own tiles, weighted by private[g][.]). Before step k
    # the table holds, for every number of shared tiles taken by each OPEN face (opened by a split,
    # not yet closed), the weighted ways so far; stride[k][g] is that face's digit weight (0: not open).
    int n_groups
    int n_ops
    int op[DET_MAX_CLASSES + TR_MAX_FACES]
    long long size[DET_MAX_CLASSES + TR_MAX_FACES + 1]
    long long offset[DET_MAX_CLASSES + TR_MAX_FACES + 2]
    int stride[DET_MAX_CLASSES + TR_MAX_FACES + 1][TR_MAX_FACES]
    int radix[TR_MAX_FACES]
    double private[TR_MAX_FACES][TR_TILES + 5]


cdef int _plan_counts(CountPlan* plan, const FaceUpGroup* groups, int n_groups, const int* n_private_half,
                      const SharedTiles* cls, int n_cls) noexcept nogil:
    # the order of the steps (_order_eliminations) and each table's layout; 0 when they would be too large
    cdef int k, g, h, e
    plan.n_groups = n_groups
    for g in range(n_groups):
        plan.radix[g] = groups[g].n_slots + 1
        for k in range(groups[g].n_slots + 1):
            plan.private[g][k] = _private_ways(&groups[g], n_private_half[g], groups[g].n_slots - k)
    plan.n_ops = _order_eliminations(plan, cls, n_cls)
    memset(plan.stride[0], 0, sizeof(plan.stride[0]))
    plan.size[0] = 1
    plan.offset[0] = 0
    for k in range(plan.n_ops):
        memcpy(plan.stride[k + 1], plan.stride[k], sizeof(plan.stride[0]))
        plan.size[k + 1] = plan.size[k]
        if plan.op[k] >= 0:
            e = plan.op[k]
            _open_face(plan, k + 1, cls[e].g1)
            _open_face(plan, k + 1, cls[e].g2)
        else:
            g = -1 - plan.op[k]
            if plan.stride[k + 1][g] != 0:
                for h in range(n_groups):
                    if plan.stride[k + 1][h] > plan.stride[k + 1][g]:
                        plan.stride[k + 1][h] //= plan.radix[g]
                plan.size[k + 1] //= plan.radix[g]
                plan.stride[k + 1][g] = 0
        plan.offset[k + 1] = plan.offset[k] + plan.size[k]
        if plan.size[k + 1] > DET_MAX_ENTRIES or plan.offset[k + 1] > DET_MAX_ENTRIES:
            return 0
    plan.offset[plan.n_ops + 1] = plan.offset[plan.n_ops] + plan.size[plan.n_ops]
    return 1


cdef inline void _open_face(CountPlan* plan, int k, int g) noexcept nogil:
    # a face opened by a split: its digit goes on top, so the indexes of the states so far stay
    if plan.stride[k][g] == 0 and plan.size[k] <= DET_MAX_ENTRIES:
        plan.stride[k][g] = <int>plan.size[k]
        plan.size[k] *= plan.radix[g]


cdef int _order_eliminations(CountPlan* plan, const SharedTiles* cls, int n_cls) noexcept nogil:
    # Greedy: close next the face whose step needs the smallest table (its open neighbours and itself),
    # first splitting its classes with faces not yet closed; close any face all of whose classes are split.
    cdef int class_of[TR_MAX_FACES * TR_MAX_FACES]
    cdef uint8_t is_open[TR_MAX_FACES]
    cdef uint8_t closed[TR_MAX_FACES]
    cdef int n = plan.n_groups, n_ops = 0, n_closed = 0, v, w, best
    cdef double size, best_size
    memset(class_of, 255, sizeof(class_of))
    memset(is_open, 0, sizeof(is_open))
    memset(closed, 0, sizeof(closed))
    for w in range(n_cls):
        class_of[cls[w].g1 * TR_MAX_FACES + cls[w].g2] = w
        class_of[cls[w].g2 * TR_MAX_FACES + cls[w].g1] = w
    while n_closed < n:
        best = -1
        best_size = 0.0
        for v in range(n):
            if closed[v]:
                continue
            size = plan.radix[v]
            for w in range(n):
                if w != v and not closed[w] and (is_open[w] or class_of[v * TR_MAX_FACES + w] >= 0):
                    size *= plan.radix[w]
            if best < 0 or size < best_size:
                best = v
                best_size = size
        for w in range(n):
            if not closed[w] and class_of[best * TR_MAX_FACES + w] >= 0:
                plan.op[n_ops] = class_of[best * TR_MAX_FACES + w]
                n_ops += 1
                is_open[w] = 1
        n_ops = _close_face(plan, best, is_open, closed, n_ops)
        n_closed += 1
        for w in range(n):
            if is_open[w] and not _has_open_class(w, closed, class_of, n):
                n_ops = _close_face(plan, w, is_open, closed, n_ops)
                n_closed += 1
    return n_ops


cdef inline int _close_face(CountPlan* plan, int g, uint8_t* is_open, uint8_t* closed,
                            int n_ops) noexcept nogil:
    plan.op[n_ops] = -1 - g
    is_open[g] = 0
    closed[g] = 1
    return n_ops + 1


cdef inline bint _has_open_class(int g, const uint8_t* closed, const int* class_of, int n) noexcept nogil:
    cdef int w
    for w in range(n):
        if w != g and not closed[w] and class_of[g * TR_MAX_FACES + w] >= 0:
            return True
    return False


cdef int _count_and_draw_splits(const CountPlan* plan, const FaceUpGroup* groups, int n_groups,
                                SharedTiles* cls, Rng* rng) noexcept nogil:
    # forwards: every table; backwards from the single final entry: each step's choice in proportion to
    # the ways before it times the ways of that choice. Returns 1, 0 (no memory) or -1 (no assignment).
    cdef double* table = <double*>malloc(plan.offset[plan.n_ops + 1] * sizeof(double))
    cdef int taken[TR_MAX_FACES]
    cdef int k
    if table == NULL:
        return 0
    memset(table, 0, plan.offset[plan.n_ops + 1] * sizeof(double))
    table[0] = 1.0
    for k in range(plan.n_ops):
        if plan.op[k] >= 0:
            _count_split(plan, k, &cls[plan.op[k]], table)
        else:
            _count_close(plan, k, -1 - plan.op[k], table)
    if table[plan.offset[plan.n_ops]] <= 0.0:
        free(table)
        return -1
    memset(taken, 0, sizeof(taken))
    for k in range(plan.n_ops - 1, -1, -1):
        if plan.op[k] >= 0:
            _draw_split(plan, k, &cls[plan.op[k]], table + plan.offset[k], taken, rng)
        else:
            _draw_close(plan, k, -1 - plan.op[k], table + plan.offset[k], taken, rng)
    free(table)
    return 1


cdef void _count_split(const CountPlan* plan, int k, const SharedTiles* c, double* table) noexcept nogil:
    # a state's index is unchanged when a face opens (its digit goes on top, at 0)
    cdef const double* here = table + plan.offset[k]
    cdef double* there = table + plan.offset[k + 1]
    cdef int r1 = plan.radix[c.g1], r2 = plan.radix[c.g2]
    cdef long long st, step1 = plan.stride[k + 1][c.g1], step2 = plan.stride[k + 1][c.g2]
    cdef int s1, s2, x, y
    cdef double v
    for st in range(plan.size[k]):
        v = here[st]
        if v == 0.0:
            continue
        s1 = <int>((st // step1) % r1) if plan.stride[k][c.g1] else 0
        s2 = <int>((st // step2) % r2) if plan.stride[k][c.g2] else 0
        for x in range(min(c.n, r1 - 1 - s1) + 1):
            for y in range(min(c.n - x, r2 - 1 - s2) + 1):
                there[st + x * step1 + y * step2] += v * _split_ways(c.n, x, y)


cdef void _count_close(const CountPlan* plan, int k, int g, double* table) noexcept nogil:
    # face g's digit is summed out, each value weighted by the ways to fill its other slots with its own
    cdef const double* here = table + plan.offset[k]
    cdef double* there = table + plan.offset[k + 1]
    cdef long long st, step = plan.stride[k][g]
    cdef int r = plan.radix[g], s
    if step == 0:                   # a face without shared tiles: one factor for all states
        for st in range(plan.size[k]):
            there[st] = here[st] * plan.private[g][0]
        return
    for st in range(plan.size[k]):
        if here[st] != 0.0:
            s = <int>((st // step) % r)
            there[st % step + (st // (step * r)) * step] += here[st] * plan.private[g][s]


cdef inline long long _index(const CountPlan* plan, int k, const int* taken) noexcept nogil:
    cdef long long i = 0
    cdef int g
    for g in range(plan.n_groups):
        i += <long long>taken[g] * plan.stride[k][g]
    return i


cdef void _draw_close(const CountPlan* plan, int k, int g, const double* before, int* taken,
                      Rng* rng) noexcept nogil:
    # how many shared tiles face g took in all
    cdef double total = 0.0, r
    cdef long long base
    cdef int s, last = 0, top = plan.radix[g] - 1 if plan.stride[k][g] else 0
    taken[g] = 0
    base = _index(plan, k, taken)
    for s in range(top + 1):
        total += before[base + s * plan.stride[k][g]] * plan.private[g][s]
    r = rng_uniform(rng) * total
    for s in range(top + 1):
        if before[base + s * plan.stride[k][g]] * plan.private[g][s] > 0.0:
            last = s                # the last possible count, should rounding leave r >= 0
            r -= before[base + s * plan.stride[k][g]] * plan.private[g][s]
            if r < 0.0:
                break
    taken[g] = last


cdef void _draw_split(const CountPlan* plan, int k, SharedTiles* c, const double* before, int* taken,
                      Rng* rng) noexcept nogil:
    # (x to g1, y to g2) in proportion to the ways before it times the ways to pick them; a face that
    # opened at this step had taken nothing before it
    cdef double total = 0.0, r = 0.0, w
    cdef long long base = _index(plan, k, taken), step1 = plan.stride[k][c.g1], step2 = plan.stride[k][c.g2]
    cdef int x, y, rounds
    c.to_g1 = 0
    c.to_g2 = 0
    for rounds in range(2):         # first the total, then the draw
        if rounds == 1:
            r = rng_uniform(rng) * total
        for x in range(min(c.n, taken[c.g1]) + 1):
            if step1 == 0 and x != taken[c.g1]:
                continue
            for y in range(min(c.n - x, taken[c.g2]) + 1):
                if step2 == 0 and y != taken[c.g2]:
                    continue
                w = before[base - x * step1 - y * step2] * _split_ways(c.n, x, y)
                if w <= 0.0:
                    continue
                if rounds == 0:
                    total += w
                    continue
                c.to_g1 = x         # the last possible split, should rounding leave r >= 0
                c.to_g2 = y
                r -= w
                if r < 0.0:
                    break
            if rounds == 1 and r < 0.0:
                break
    taken[c.g1] -= c.to_g1
    taken[c.g2] -= c.to_g2


cdef inline double _split_ways(int n, int x, int y) noexcept nogil:
    # ways to give x of n tiles to one face and y others to the other
    return _binomial(n, x) * _binomial(n - x, y)


cdef void _fill_face_up_slots(TileSlots* sl, const uint8_t* pool, FaceUpGroup* groups, int n_groups,
                              const int* n_private_half, const SharedTiles* cls, int n_cls,
                              Rng* rng) noexcept nogil:
    # the tiles themselves: uniform within each class, each face's own by _draw_full_count
    cdef int chosen[TR_MAX_FACES][TR_TILES + 4]
    cdef int n_chosen[TR_MAX_FACES]
    cdef int members[TR_TILES]
    cdef int picked[TR_TILES]
    cdef int e, gi, t, n, k, j, f1, f2
    memset(n_chosen, 0, sizeof(n_chosen))
    for e in range(n_cls):
        f1 = groups[cls[e].g1].face
        f2 = groups[cls[e].g2].face
        n = 0
        for t in range(TR_TILES):
            if pool[t] and ((TILE_FACE[t][0] == f1 and TILE_FACE[t][1] == f2)
                            or (TILE_FACE[t][0] == f2 and TILE_FACE[t][1] == f1)):
                members[n] = t
                n += 1
        _draw_distinct(rng, members, n, cls[e].to_g1 + cls[e].to_g2, picked)
        for k in range(cls[e].to_g1 + cls[e].to_g2):
            gi = cls[e].g1 if k < cls[e].to_g1 else cls[e].g2
            chosen[gi][n_chosen[gi]] = picked[k]
            n_chosen[gi] += 1
    for gi in range(n_groups):
        k = groups[gi].n_slots - n_chosen[gi]
        j = _draw_full_count(rng, k, groups[gi].n_full, n_private_half[gi])
        _draw_distinct(rng, groups[gi].full, groups[gi].n_full, j, &chosen[gi][n_chosen[gi]])
        _draw_distinct(rng, groups[gi].half, n_private_half[gi], k - j, &chosen[gi][n_chosen[gi] + j])
        _shuffle_ints(rng, chosen[gi], groups[gi].n_slots)
        for k in range(groups[gi].n_slots):
            sl.tile[groups[gi].slots[k]] = chosen[gi][k]


cdef int _draw_full_count(Rng* rng, int a, int n_full, int n_half) noexcept nogil:
    # j weight-1 tiles among a: P(j) ~ C(n_full, j) C(n_half, a - j) 2^j
    cdef double weight[TR_TILES + 5]
    cdef double total = 0.0, power = 1.0, r
    cdef int j
    for j in range(a + 1):
        weight[j] = _binomial(n_full, j) * _binomial(n_half, a - j) * power
        total += weight[j]
        power *= 2.0
    r = rng_uniform(rng) * total
    for j in range(a + 1):
        r -= weight[j]
        if r < 0.0 and weight[j] > 0.0:
            return j
    for j in range(a, -1, -1):          # rounding at the very end: the last possible count
        if weight[j] > 0.0:
            return j
    return 0


cdef void _draw_distinct(Rng* rng, int* items, int n, int k, int* out) noexcept nogil:
    # k distinct items, uniformly (a partial Fisher-Yates shuffle of items in place)
    cdef int i, j, tmp
    for i in range(k):
        j = i + <int>rng_below(rng, <uint32_t>(n - i))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
        out[i] = items[i]


cdef void _shuffle_ints(Rng* rng, int* items, int n) noexcept nogil:
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


cdef void _match_tile_slots(TileSlots* sl, const uint8_t* pool, Rng* rng) noexcept nogil:
    # Fallback when exact sampling gives up: a randomized maximum matching (Kuhn's augmenting paths)
    # of slots to fitting tiles; some consistent assignment, not the exact posterior. A slot left at -1
    # means the observation admits no assignment at all.
    cdef uint8_t seen[TR_TILES]
    cdef int tile_slot[TR_TILES]
    cdef int f1[TR_TILES + 4]
    cdef int f2[TR_TILES + 4]
    cdef int order[TR_TILES + 4]
    cdef int i, t
    for t in range(TR_TILES):
        tile_slot[t] = -1
    for i in range(sl.n):
        order[i] = i
        sl.tile[i] = -1
        f1[i] = sl.shown[i] if sl.shown[i] >= 0 else sl.up[i]
        f2[i] = sl.up[i]
    _shuffle_ints(rng, order, sl.n)
    for i in range(sl.n):
        memset(seen, 0, sizeof(seen))
        _augment(order[i], f1, f2, pool, tile_slot, sl.tile, seen, <int>rng_below(rng, TR_TILES))


cdef int _sample_tile_slots(TileSlots* sl, uint8_t* pool, Rng* rng, int method) noexcept nogil:
    # every slot's tile, from the exact posterior when it can; removes them from the pool.
    # Returns how (DET_BY_*): the matching (then Metropolis steps) only where no exact draw was found.
    cdef uint8_t pool_before[TR_TILES]
    cdef int how = -1, i
    memcpy(pool_before, pool, sizeof(pool_before))
    if method != DET_BY_MATCHING and _pick_flipped_tiles(sl, pool, rng):
        how = _pick_face_up_tiles(sl, pool, rng, method)
    if how < 0:
        how = DET_BY_MATCHING
        memcpy(pool, pool_before, sizeof(pool_before))
        _match_tile_slots(sl, pool, rng)
        _metropolis_face_up_tiles(sl, pool, rng, DET_MCMC_STEPS * sl.n)
    for i in range(sl.n):
        if sl.tile[i] >= 0:
            pool[sl.tile[i]] = 0
    return how


cdef inline int _up_weight(int t, int up) noexcept nogil:
    # 2 x P(face `up` lies up | tile t), for a tile that has that face
    cdef int other = TILE_FACE[t][1] if TILE_FACE[t][0] == up else TILE_FACE[t][0]
    return 2 if other == up or FACE_SPECIAL[other] else 1


cdef void _metropolis_face_up_tiles(TileSlots* sl, const uint8_t* pool, Rng* rng, int steps) noexcept nogil:
    # After the matching (a consistent assignment from no known law), Metropolis steps towards the
    # exact posterior: a random face-up-only slot proposes a random unseen tile with its face; a free
    # tile replaces its own, a tile in another slot swaps when both fit, accepted with the weight ratio.
    # The proposal is symmetric, so the exact posterior is the chain's stationary law; a finite run is
    # close to it, not exactly it.
    cdef int slot_of[TR_TILES]
    cdef int cand[TR_TILES]
    cdef int step, i, j, t, cur, n_cand, num, den
    for t in range(TR_TILES):
        slot_of[t] = -1
    for i in range(sl.n):
        if sl.tile[i] < 0:
            return              # an inconsistent observation: nothing to improve
        slot_of[sl.tile[i]] = i
    for step in range(steps):
        i = <int>rng_below(rng, <uint32_t>sl.n)
        if sl.shown[i] >= 0:
            continue
        n_cand = 0
        for t in range(TR_TILES):
            if pool[t] and (TILE_FACE[t][0] == sl.up[i] or TILE_FACE[t][1] == sl.up[i]):
                cand[n_cand] = t
                n_cand += 1
        t = cand[rng_below(rng, <uint32_t>n_cand)]
        cur = sl.tile[i]
        j = slot_of[t]
        if t == cur or (j >= 0 and (sl.shown[j] >= 0 or (TILE_FACE[cur][0] != sl.up[j]
                                                         and TILE_FACE[cur][1] != sl.up[j]))):
            continue
        num = _up_weight(t, sl.up[i]) * (_up_weight(cur, sl.up[j]) if j >= 0 else 1)
        den = _up_weight(cur, sl.up[i]) * (_up_weight(t, sl.up[j]) if j >= 0 else 1)
        if num < den and rng_below(rng, <uint32_t>den) >= <uint32_t>num:
            continue
        sl.tile[i] = t
        slot_of[t] = i
        slot_of[cur] = j
        if j >= 0:
            sl.tile[j] = cur


cdef void _write_tile_slots(TrianState* s, const TileSlots* sl, Rng* rng) noexcept nogil:
    cdef int i, t, k
    for i in range(sl.n):
        t = sl.tile[i]
        if t < 0:
            continue            # only on an inconsistent observation; leave the slot unknown
        if sl.ref[i] >= 0:
            s.placed[sl.ref[i]].tile = <uint8_t>t
            s.placed[sl.ref[i]].side = <uint8_t>_side_with(
                t, sl.shown[i] if sl.shown[i] >= 0 else sl.up[i], rng)
        elif sl.ref[i] == -3:
            s.drawn_tile = <uint8_t>t
            s.drawn_side_up = <uint8_t>_side_with(t, sl.up[i], rng)
        else:
            k = -1 - sl.ref[i]
            s.stack_tile[k][s.stack_len[k] - 1] = <uint8_t>t
            s.stack_side_up[k][s.stack_len[k] - 1] = <uint8_t>_side_with(t, sl.up[i], rng)


cdef void _shuffle_into_stacks(TrianState* s, const uint8_t* pool, Rng* rng) noexcept nogil:
    # the tiles nobody has seen a face of, uniformly into the hidden stack places, each with a
    # regular side up (a random one when both are regular), as at setup (section III)
    cdef uint8_t rest[TR_TILES]
    cdef int n_rest = 0, t, i, j, k, pos = 0
    for t in range(TR_TILES):
        if pool[t]:
            rest[n_rest] = <uint8_t>t
            n_rest += 1
    for i in range(n_rest - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        t = rest[i]
        rest[i] = rest[j]
        rest[j] = <uint8_t>t
    for k in range(2):
        for i in range(s.stack_len[k]):
            if s.stack_tile[k][i] != TR_UNKNOWN or pos >= n_rest:
                continue
            t = rest[pos]
            pos += 1
            s.stack_tile[k][i] = <uint8_t>t
            if FACE_SPECIAL[TILE_FACE[t][0]]:
                s.stack_side_up[k][i] = 1
            elif FACE_SPECIAL[TILE_FACE[t][1]]:
                s.stack_side_up[k][i] = 0
            else:
                s.stack_side_up[k][i] = <uint8_t>rng_below(rng, 2)


cdef int _determinize_tiles(TrianState* s, Rng* rng, int method) noexcept nogil:
    # the hidden tiles and sides (section 9 of docs/rules/trian.md); returns how (DET_BY_*)
    cdef uint8_t pool[TR_TILES]
    cdef TileSlots sl
    cdef int how
    _collect_tile_slots(s, pool, &sl)
    how = _sample_tile_slots(&sl, pool, rng, method)
    _write_tile_slots(s, &sl, rng)
    _shuffle_into_stacks(s, pool, rng)
    return how


cdef void trian_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    # Fill every TR_UNKNOWN / TR_HIDDEN field from the exact posterior given the observation: tiles
    # (_determinize_tiles), token types by drawing without replacement from the unseen tokens, fresh
    # streams (the mineral bag's contents are public).
    cdef TrianState* s = _st(p)
    _determinize_tiles(s, rng, DET_AUTO)
    _determinize_rest(s, rng)


cdef void _determinize_rest(TrianState* s, Rng* rng) noexcept nogil:
    # token types and fresh streams
    cdef int n = s.params.num_players, h_total, h_plus, q
    # combat token types: the unseen tokens are the others' holdings, hidden declarations and the bag
    h_plus = TOKENS_PLUS
    h_total = TOKENS_PLUS + TOKENS_REROLL
    for q in range(n):
        if s.players[q].tokens_plus != TR_HIDDEN:
            h_plus -= s.players[q].tokens_plus
            h_total -= s.players[q].tokens_held
        if s.players[q].declared_plus != TR_HIDDEN:
            h_plus -= s.players[q].declared_plus
            h_total -= s.players[q].declared_tokens
    for q in range(n):
        if s.players[q].tokens_plus == TR_HIDDEN:
            s.players[q].tokens_plus = <int8_t>_draw_plus(rng, s.players[q].tokens_held, &h_plus, &h_total)
        if s.players[q].declared_plus == TR_HIDDEN:
            s.players[q].declared_plus = <int8_t>_draw_plus(rng, s.players[q].declared_tokens, &h_plus,
                                                            &h_total)
    rng_seed(&s.rng_minerals, rng_next(rng))
    rng_seed(&s.rng_tokens, rng_next(rng))
    rng_seed(&s.rng_dice, rng_next(rng))


cdef int _draw_plus(Rng* rng, int count, int* h_plus, int* h_total) noexcept nogil:
    cdef int _k, plus = 0
    for _k in range(count):
        if h_total[0] > 0 and <int>rng_below(rng, <uint32_t>h_total[0]) < h_plus[0]:
            plus += 1
            h_plus[0] -= 1
        h_total[0] -= 1
    return plus
