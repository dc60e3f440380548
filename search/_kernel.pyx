# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled search loop: select, expand, playout and backup, without the GIL.

SO-ISMCTS (Cowling, Powley and Whitehouse 2012): one tree for the searching seat, keyed by action
sequences; every iteration starts from a fresh determinization of the root observation, so each
iteration sees one sample of the hidden information (and of future chance, which the game resolves
inside apply() from streams that determinize() reseeds). Children that are illegal in the current
determinization are skipped; UCB uses availability counts (how often a child was legal when its
parent was visited) instead of the parent's visit count. Rewards are per-seat vectors in [0, 1] and
every node keeps the sum for every seat (max^n): at each node the seat to move picks by its own mean.

PIMC (determinized UCT) reuses the same loop with `num_roots` fixed determinizations made once at the
start, one tree per determinization, taking iteration i from determinization i mod num_roots.

A Searcher keeps its tree between run() calls, so a budget can be spent in slices (for progress
reports) with exactly the same result as one call: the RNG lives in the struct.
"""
from libc.math cimport log, sqrt, INFINITY
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport int32_t, uint32_t, uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS
from orrery.core_ext.rng cimport Rng, rng_seed, rng_below
from orrery.core_ext.game cimport (GameOps, GameParams, Game, Observation, generic_playout, compute_returns,
                                   find_action, plan_names)

from orrery.search._atomics cimport orrery_wall_time, orrery_load_flag, orrery_store_flag
from orrery.search._learned cimport ValueNetwork, value_net_evaluate

cdef extern from *:
    """
    static inline void orrery_prefetch(const void* p) { __builtin_prefetch(p, 0, 3); }
    /* Cache-line aligned and padded, so buffers of searchers on different threads never share a line
       (false sharing halved two-thread throughput on small games). */
    static inline void* orrery_line_alloc(size_t size) {
        void* p = NULL;
        size_t rounded = (size + 127) & ~(size_t)63;
        return posix_memalign(&p, 64, rounded) == 0 ? p : NULL;
    }
    """
    void* orrery_line_alloc(size_t size) noexcept nogil
    void orrery_prefetch(const void* p) noexcept nogil


ALGORITHMS = {"ismcts": ALGO_ISMCTS, "pimc": ALGO_PIMC}
REWARDS = {"win": REWARD_WIN, "rank": REWARD_RANK, "score_share": REWARD_SCORE_SHARE}
STOP_REASONS = {STOP_BUDGET: "budget", STOP_DEADLINE: "deadline", STOP_CANCEL: "cancel"}
PV_MAX_LENGTH = 32
# Determinizations Searcher.reroot() checks: each must give the seat the observation it now has.
REROOT_CHECKS = 16


def wall_time():
    """The clock the kernel checks deadlines against (time.time() seconds)."""
    return orrery_wall_time()


cdef class CancelFlag:
    """A C int that a running search polls; setting it stops every searcher that was given it."""

    def set(self):
        orrery_store_flag(&self.value, 1)

    @property
    def is_set(self):
        return orrery_load_flag(&self.value) != 0


cdef double CHECK_INTERVAL_S = 20e-6   # target time between clock reads in run()
# log(n) for small n, computed with log() itself, so the table changes speed and never results.
cdef enum:
    LOG_TABLE_SIZE = 65536
cdef double LOG_TABLE[65536]
cdef int _log_i
LOG_TABLE[0] = -INFINITY
for _log_i in range(1, LOG_TABLE_SIZE):
    LOG_TABLE[_log_i] = log(<double>_log_i)
cdef long long MAX_TREE_ITERATIONS = 2_000_000_000   # per searcher; visits are int32


cdef inline int _num_players(const void* state) noexcept nogil:
    return (<const GameParams*>state).num_players


cdef void reward_vector(const GameOps* ops, const void* state, int form, double* out) noexcept nogil:
    """Each seat's reward in [0, 1] at a terminal state."""
    cdef int n = _num_players(state), p, winners = 0
    cdef int ranks[MAX_PLAYERS]
    cdef double scores[MAX_PLAYERS]
    cdef double low, total = 0.0
    if ops.returns != NULL and form != REWARD_SCORE_SHARE:
        # A game with its own outcome (solo goal, teams) defines what winning means.
        ops.returns(state, out)
    elif form == REWARD_WIN:
        ops.ranks(state, ranks)
        for p in range(n):
            winners += ranks[p] == 0
        for p in range(n):   # a shared first place shares the win
            out[p] = (1.0 / winners) if ranks[p] == 0 and winners > 0 else 0.0
    elif form == REWARD_SCORE_SHARE:
        # Each seat's add-one-smoothed share of the total score, with negative scores (net chips)
        # shifted up so the lowest is 0. The +1 keeps the size of a win or a loss visible: with net
        # chips (-1, +1) the loser gets 1/4, with (-2, +2) only 1/6. Non-negative scores (credits)
        # are not shifted.
        ops.scores(state, scores)
        low = 0.0
        for p in range(n):
            if scores[p] < low:
                low = scores[p]
        for p in range(n):
            total += scores[p] - low + 1.0
        for p in range(n):
            out[p] = (scores[p] - low + 1.0) / total
    else:
        compute_returns(ops, state, out)


cdef int _plan_id(Game game, str plan, str evaluation, double plan_weight, str field="plan") except -1:
    """The game's id of `plan` (1-based), 0 for none; ValueError naming the field (`field`, or its
    weight `field`_weight) for a plan the game does not have, or one asked of the learned evaluation
    (which has no plan term)."""
    if not plan:
        return 0
    names = plan_names(game.ops)
    if plan not in names:
        have = f"its plans: {', '.join(names)}" if names else "it has no plans"
        raise ValueError(f"{field} {plan!r} is not a plan of {game.name} ({have})")
    if evaluation != "handwritten":
        raise ValueError(f"{field} needs evaluation 'handwritten': the plan's term is added to evaluate()")
    if not plan_weight > 0.0 or plan_weight > 1e6:
        raise ValueError(f"{field}_weight must be a number in (0, 1e6], got {plan_weight!r}")
    return names.index(plan) + 1


cdef class Searcher:
    """One worker's search of one observation: a persistent tree, spent in run() slices."""

    def __cinit__(self):
        self.nodes = NULL
        self.edge_arena = NULL
        self.action_pos = NULL
        self.action_stamp = NULL
        self.action_table_size = 0
        self.action_gen = 0
        self.legal_count = 0
        self.root_obs = NULL
        self.dets = NULL
        self.work = NULL
        self.legal = NULL
        self.scratch = NULL
        self.marks = NULL
        self.path = NULL
        self.learned = NULL

    def __init__(self, Observation observation not None, *, str algorithm="ismcts", double exploration=0.7,
                 str playout="random", int max_playout_depth=0, str reward="rank",
                 int determinizations=1, int max_nodes=2_000_000, seed=0, str horizon="leaf",
                 str evaluation="handwritten", str plan="", double plan_weight=1.0,
                 str all_seats_plan="", double all_seats_plan_weight=1.0):
        cdef Game game = observation.game
        cdef const GameOps* ops = game.ops
        cdef int i, _i
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {algorithm!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {sorted(REWARDS)}, got {reward!r}")
        if horizon not in ("leaf", "root"):
            raise ValueError(f"horizon must be 'leaf' or 'root', got {horizon!r}")
        if playout not in ("random", "heuristic", "none"):
            raise ValueError(f"playout must be 'random', 'heuristic' or 'none', got {playout!r}")
        if evaluation not in ("handwritten", "learned"):
            raise ValueError(f"evaluation must be 'handwritten' or 'learned', got {evaluation!r}")
        if exploration < 0.0 or max_playout_depth < 0 or determinizations < 1 or max_nodes < 1:
            raise ValueError("exploration, max_playout_depth >= 0; determinizations, max_nodes >= 1")
        self.plan = _plan_id(game, plan, evaluation, plan_weight)
        self.plan_weight = plan_weight
        self.all_seats_plan = _plan_id(game, all_seats_plan, evaluation, all_seats_plan_weight,
                                       "all_seats_plan")
        self.all_seats_plan_weight = all_seats_plan_weight
        if ops.is_terminal(observation.ptr):
            raise ValueError("the game is over: there is nothing to search")
        if ops.current_player(observation.ptr) != observation.observer:
            raise ValueError(f"it is seat {ops.current_player(observation.ptr)}'s turn, "
                             f"not the observer's (seat {observation.observer})")
        self.ops = ops
        self.game = game
        self.num_players = game.num_players
        self.observer = observation.observer
        self.algorithm = ALGORITHMS[algorithm]
        self.reward_form = REWARDS[reward]
        self.use_policy = playout == "heuristic"
        # "none": no playout at all, the leaf is scored by evaluate() at once (depth -1 in _reward).
        self.max_playout_depth = -1 if playout == "none" else max_playout_depth
        self.horizon_from_root = horizon == "root"
        self.exploration = exploration
        self.max_nodes = max_nodes
        self.num_roots = determinizations if self.algorithm == ALGO_PIMC else 1
        if evaluation == "learned":   # the shipped model of this game, variant and player count
            from orrery.search._learned import shipped_network
            self.learned_ref = shipped_network(game)
            self.learned = &(<ValueNetwork>self.learned_ref).net
        rng_seed(&self.rng, <uint64_t>seed)
        self.root_obs = orrery_line_alloc(ops.state_size)
        self.work = orrery_line_alloc(ops.state_size)
        self.legal = <action_t*>orrery_line_alloc(sizeof(action_t) * ops.max_legal_actions)
        self.scratch = <action_t*>orrery_line_alloc(sizeof(action_t) * ops.max_legal_actions)
        self.marks = <char*>orrery_line_alloc(ops.max_legal_actions)
        self.path_cap = ops.max_game_length + 2
        self.path = <int32_t*>orrery_line_alloc(sizeof(int32_t) * self.path_cap)
        self.node_cap = 1024 if self.num_roots < 1024 else self.num_roots * 2
        self.nodes = <Node*>orrery_line_alloc(sizeof(Node) * self.node_cap)
        self.edge_arena_cap = 4096
        self.edges_used = 0
        self.edge_arena = <Edge*>orrery_line_alloc(sizeof(Edge) * self.edge_arena_cap)
        if (self.root_obs == NULL or self.work == NULL or self.legal == NULL or self.scratch == NULL
                or self.marks == NULL or self.path == NULL or self.nodes == NULL or self.edge_arena == NULL):
            raise MemoryError()
        memcpy(self.root_obs, observation.ptr, ops.state_size)
        self.num_nodes = 0
        for _i in range(self.num_roots):
            self._new_node(NO_NODE, -1, -1)
        if self.algorithm == ALGO_PIMC:
            self.dets = orrery_line_alloc(ops.state_size * self.num_roots)
            if self.dets == NULL:
                raise MemoryError()
            for i in range(self.num_roots):
                memcpy(<char*>self.dets + i * ops.state_size, self.root_obs, ops.state_size)
                ops.determinize(<char*>self.dets + i * ops.state_size, self.observer, &self.rng)

    def __dealloc__(self):
        free(self.nodes)
        free(self.edge_arena)
        free(self.action_pos)
        free(self.action_stamp)
        free(self.root_obs)
        free(self.dets)
        free(self.work)
        free(self.legal)
        free(self.scratch)
        free(self.marks)
        free(self.path)

    cdef int _reserve_edge(self, int parent) noexcept nogil:
        """Make room for one more edge in the parent's block (moving the block to the end of the arena,
        twice as large, when it is full). 0 on success, -1 when out of memory."""
        cdef Node* p = &self.nodes[parent]
        cdef int64_t cap, arena_cap
        cdef Edge* grown
        if p.n_edges < p.edge_cap:
            return 0
        cap = 4 if p.edge_cap == 0 else 2 * p.edge_cap
        if p.edges + p.edge_cap == self.edges_used and p.edge_cap > 0:
            cap = cap - p.edge_cap   # the block is the arena's last: grow it in place
        if self.edges_used + cap > self.edge_arena_cap:
            arena_cap = 2 * self.edge_arena_cap
            while arena_cap < self.edges_used + cap:
                arena_cap *= 2
            grown = <Edge*>orrery_line_alloc(sizeof(Edge) * arena_cap)
            if grown == NULL:
                return -1
            memcpy(grown, self.edge_arena, sizeof(Edge) * self.edges_used)
            free(self.edge_arena)
            self.edge_arena = grown
            self.edge_arena_cap = arena_cap
        if p.edge_cap > 0 and p.edges + p.edge_cap == self.edges_used:
            p.edge_cap += <int32_t>cap
        else:
            memcpy(&self.edge_arena[self.edges_used], &self.edge_arena[p.edges], sizeof(Edge) * p.n_edges)
            p.edges = self.edges_used
            p.edge_cap = <int32_t>cap
        self.edges_used = p.edges + p.edge_cap
        return 0

    cdef void _index_legal(self, int n) noexcept nogil:
        """Index self.legal[:n] by action id for _legal_index (a table lookup per child, where a
        binary search per child cost a fifth of the selection time). Stamps spare a clear per level."""
        cdef int i, size
        cdef int32_t* pos
        cdef uint32_t* stamp
        if n > 0 and self.action_table_size >= 0 and self.legal[n - 1] >= self.action_table_size:
            size = 2 * (self.legal[n - 1] + 1)   # legal is sorted: the last is the largest
            pos = <int32_t*>malloc(sizeof(int32_t) * size)
            stamp = <uint32_t*>calloc(size, sizeof(uint32_t))
            if pos == NULL or stamp == NULL:
                free(pos)
                free(stamp)
                self.action_table_size = -1   # out of memory: binary search from now on
            else:
                free(self.action_pos)
                free(self.action_stamp)
                self.action_pos = pos
                self.action_stamp = stamp
                self.action_table_size = size
                self.action_gen = 0
        self.legal_count = n
        if self.action_table_size < 0:
            return
        self.action_gen += 1
        if self.action_gen == 0:   # wrapped: old stamps could match again
            memset(self.action_stamp, 0, sizeof(uint32_t) * self.action_table_size)
            self.action_gen = 1
        for i in range(n):
            self.action_pos[self.legal[i]] = i
            self.action_stamp[self.legal[i]] = self.action_gen

    cdef int _legal_index(self, action_t action) noexcept nogil:
        """Where `action` is in the legal actions last indexed, or -1."""
        if self.action_table_size < 0:
            return find_action(self.legal, self.legal_count, action)
        if 0 <= action < self.action_table_size and self.action_stamp[action] == self.action_gen:
            return self.action_pos[action]
        return -1

    cdef Edge* _edge_to(self, int node) noexcept nogil:
        """The edge (statistics) of the action leading to a non-root node."""
        cdef Node* n = &self.nodes[node]
        return &self.edge_arena[self.nodes[n.parent].edges + n.parent_edge]

    cdef int _new_node(self, int parent, action_t action, int mover) noexcept nogil:
        cdef Node* grown
        cdef Edge* edge
        cdef int cap, idx
        if self.num_nodes >= self.node_cap:
            cap = self.node_cap * 2
            grown = <Node*>orrery_line_alloc(sizeof(Node) * cap)
            if grown == NULL:
                return NO_NODE   # out of memory: the caller plays out without a new node
            memcpy(grown, self.nodes, sizeof(Node) * self.num_nodes)
            free(self.nodes)
            self.nodes = grown
            self.node_cap = cap
        if parent != NO_NODE and self._reserve_edge(parent) != 0:
            return NO_NODE
        idx = self.num_nodes
        self.num_nodes += 1
        cdef Node* node = &self.nodes[idx]
        memset(node, 0, sizeof(Node))
        node.parent = parent
        node.parent_edge = -1
        node.action = action
        node.mover = <short>mover
        node.depth = 0 if parent == NO_NODE else self.nodes[parent].depth + 1
        if parent != NO_NODE:
            node.parent_edge = self.nodes[parent].n_edges
            edge = &self.edge_arena[self.nodes[parent].edges + node.parent_edge]
            memset(edge, 0, sizeof(Edge))
            edge.action = action
            edge.child = idx
            self.nodes[parent].n_edges += 1
            if node.depth > self.max_depth:
                self.max_depth = node.depth
        return idx

    cdef void _reward(self, double* out, int tree_moves) noexcept nogil:
        """Play out self.work from where the tree left it (after `tree_moves` moves from the root) and
        write every seat's reward. max_playout_depth -1 (playout "none") scores the leaf itself."""
        cdef const GameOps* ops = self.ops
        cdef int moves = 0, p, depth = self.max_playout_depth
        if depth > 0 and self.horizon_from_root:
            # The cap counts the whole iteration from the searched position, so every leaf is
            # evaluated at the same point of the game however deep the tree reached.
            depth -= tree_moves
            if depth <= 0:
                depth = -1   # at or past the horizon: evaluate now (0 would mean "to the end")
        if depth > 0:
            moves = generic_playout(ops, self.work, &self.rng, depth, self.scratch, self.use_policy)
        elif depth < 0:
            moves = 0
        elif ops.playout != NULL and not self.use_policy:
            moves = ops.playout(self.work, &self.rng, ops.max_game_length)
        else:
            moves = generic_playout(ops, self.work, &self.rng, ops.max_game_length, self.scratch,
                                    self.use_policy)
        if moves < 0:
            self.playout_errors += 1
        if ops.is_terminal(self.work):
            reward_vector(ops, self.work, self.reward_form, out)
        else:   # truncated (or a broken playout): the game's own evaluation, already in [0, 1]
            if self.learned != NULL:
                value_net_evaluate(self.learned, self.work, out)
            elif self.plan != 0 or self.all_seats_plan != 0:   # the plans' terms (docs/search.md "Plans")
                ops.plan_evaluate(self.work, self.observer, self.plan, self.plan_weight,
                                  self.all_seats_plan, self.all_seats_plan_weight, out)
            else:
                ops.evaluate(self.work, out)
            for p in range(self.num_players):
                out[p] = 0.0 if out[p] < 0.0 else (1.0 if out[p] > 1.0 else out[p])

    cdef void _iterate(self) noexcept nogil:
        cdef const GameOps* ops = self.ops
        cdef Edge* edges
        cdef Edge* edge
        cdef int root, node, child, best, n, i, e, idx, mover, untried, plen = 0, p, pick
        cdef action_t best_action = 0
        cdef int tree_moves = 0   # moves applied on the way down
        cdef double value, best_value, log_avail
        cdef double reward[MAX_PLAYERS]
        cdef bint stop_descent = False
        if self.algorithm == ALGO_PIMC:
            root = <int>(self.iterations % self.num_roots)
            memcpy(self.work, <char*>self.dets + root * ops.state_size, ops.state_size)
        else:
            root = 0
            memcpy(self.work, self.root_obs, ops.state_size)
            ops.determinize(self.work, self.observer, &self.rng)
        node = root
        self.path[plen] = node
        plen += 1
        while not stop_descent and not ops.is_terminal(self.work) and plen < self.path_cap:
            n = ops.legal_actions(self.work, self.legal)
            if n <= 0:
                break
            # A live state always has a seat to move: chance is resolved inside apply() (game.pxd).
            mover = ops.current_player(self.work)
            memset(self.marks, 0, n)
            self._index_legal(n)
            untried = n
            best = NO_NODE
            best_value = -INFINITY
            edges = self.edge_arena + self.nodes[node].edges
            for e in range(self.nodes[node].n_edges - 1, -1, -1):   # newest first
                edge = &edges[e]
                idx = self._legal_index(edge.action)
                if idx >= 0:
                    self.marks[idx] = 1
                    untried -= 1
                    edge.avail += 1
                    if edge.visits == 0:
                        value = INFINITY
                    else:
                        log_avail = (LOG_TABLE[edge.avail] if edge.avail < LOG_TABLE_SIZE
                                     else log(<double>edge.avail))
                        value = (edge.reward[mover] / edge.visits
                                 + self.exploration * sqrt(log_avail / edge.visits))
                    if value > best_value:
                        best_value = value
                        best = edge.child
                        best_action = edge.action   # read here: the child node is a cache miss away
                        orrery_prefetch(&self.nodes[best])   # the descent goes on from the best
            if untried > 0:
                # Expand one untried action, chosen uniformly, then play out from it.
                pick = <int>rng_below(&self.rng, <unsigned int>untried)
                for i in range(n):
                    if not self.marks[i]:
                        if pick == 0:
                            break
                        pick -= 1
                if self.num_nodes < self.max_nodes:
                    child = self._new_node(node, self.legal[i], mover)
                    if child != NO_NODE:
                        self._edge_to(child).avail = 1
                        self.path[plen] = child
                        plen += 1
                ops.apply(self.work, self.legal[i])
                tree_moves += 1
                stop_descent = True
            else:
                node = best
                # The next level scans this node's edge block from its newest edge down: fetch the
                # block's end while apply() and legal_actions() run.
                e = self.nodes[node].n_edges - 1
                if e >= 0:
                    orrery_prefetch(&self.edge_arena[self.nodes[node].edges + e])
                    orrery_prefetch(<char*>&self.edge_arena[self.nodes[node].edges + e] - 64)
                ops.apply(self.work, best_action)
                tree_moves += 1
                self.path[plen] = node
                plen += 1
        self._reward(reward, tree_moves)
        for i in range(1, plen):   # path[0] is the root, which has no edge
            edge = self._edge_to(self.path[i])
            edge.visits += 1
            for p in range(self.num_players):
                edge.reward[p] += reward[p]
        self.iterations += 1

    def run(self, long long max_iterations=-1, double until=0.0, double deadline=0.0,
            CancelFlag cancel=None):
        """Search until max_iterations more iterations (-1: no limit), the wall time `until`
        (0: none; stop at it), the absolute `deadline` (0: none; stop when the time left is under
        two mean iteration times) or the cancel flag. At least one limit must be given.
        Returns the stop reason: "budget", "deadline" or "cancel"."""
        cdef int reason
        cdef int* flag = NULL
        if max_iterations < 0 and until <= 0.0 and deadline <= 0.0 and cancel is None:
            raise ValueError("run() needs an iteration limit, an end time or a deadline")
        if cancel is not None:
            flag = &cancel.value
        with nogil:
            reason = self._run_loop(max_iterations, until, deadline, flag)
        return STOP_REASONS[reason]

    cdef int _run_loop(self, long long max_iterations, double until, double deadline,
                       int* flag) noexcept nogil:
        """run() without the GIL (also driven by search._timeshare's workers); returns a STOP_*."""
        cdef long long done = 0, next_check = 0, stride = 1
        cdef int reason = STOP_BUDGET
        cdef double start, now, mean
        cdef bint timed = until > 0.0 or deadline > 0.0
        start = orrery_wall_time()
        while True:
            if flag != NULL and orrery_load_flag(flag):
                reason = STOP_CANCEL
                break
            if max_iterations >= 0 and done >= max_iterations:
                break
            if self.iterations + self.carried_visits >= MAX_TREE_ITERATIONS:   # counters are 32-bit
                break
            if timed and done >= next_check:
                # Read the clock about every CHECK_INTERVAL_S, not every iteration: a clock
                # read costs as much as a small game's whole playout.
                now = orrery_wall_time()
                mean = 0.0
                if self.iterations > 0:   # over this searcher's life, so later slices know it
                    mean = (self.busy_seconds + (now - start)) / self.iterations
                stride = 1
                if mean > 0.0 and CHECK_INTERVAL_S / mean > 1.0:
                    stride = <long long>(CHECK_INTERVAL_S / mean)
                    if stride > 4096:
                        stride = 4096
                next_check = done + stride
                if until > 0.0 and now >= until:
                    break
                # The architecture's rule: stop when the time left is under two mean
                # iterations (plus the iterations until the next clock read).
                if deadline > 0.0 and deadline - now < (2.0 + stride) * mean or (
                        deadline > 0.0 and now >= deadline):
                    reason = STOP_DEADLINE
                    break
            self._iterate()
            done += 1
        self.busy_seconds += orrery_wall_time() - start
        return reason

    def reroot(self, actions, Observation observation not None, seed=0, int checks=REROOT_CHECKS):
        """Make the node reached from the root by `actions` (the moves played since this tree's
        search, the searching seat's own) the new root for `observation`, the seat's observation now,
        keeping that subtree's statistics; the rest of the tree is freed. Returns the visits of the
        edge into the new root (what the tree knew of it), or -1 with the tree unchanged when it
        cannot be reused.

        It is reused only when nothing hidden or random happened in between from the seat's point of
        view: `checks` determinizations of the old root observation, with `actions` applied, must
        each give the seat exactly `observation` (a card drawn, a die rolled or a hidden change would
        give a different observation in some of them). Only then are the subtree's iterations samples
        of the new observation's determinizations. ISMCTS only (PIMC's trees hang from fixed
        determinizations of the old observation)."""
        cdef const GameOps* ops = self.ops
        cdef list path = [int(a) for a in actions]
        cdef int node = 0, e, _k, found, n
        cdef int32_t visits = 0
        cdef Edge* edge
        cdef Rng check_rng
        cdef bint same = True
        # the same game core (the header in the compared bytes pins players and variant)
        if (self.algorithm != ALGO_ISMCTS or not path or (<Game>observation.game).ops != ops
                or observation.observer != self.observer or ops.is_terminal(observation.ptr)
                or ops.current_player(observation.ptr) != self.observer or checks < 1):
            return -1
        for a in path:   # the node the moves lead to, if the tree has it
            found = NO_NODE
            for e in range(self.nodes[node].n_edges):
                edge = &self.edge_arena[self.nodes[node].edges + e]
                if edge.action == a:
                    found = edge.child
                    visits = edge.visits
                    break
            if found == NO_NODE:
                return -1
            node = found
        if visits <= 0:
            return -1
        cdef void* seen = orrery_line_alloc(ops.state_size)
        if seen == NULL:
            raise MemoryError()
        rng_seed(&check_rng, <uint64_t>seed ^ <uint64_t>0x9E3779B97F4A7C15)
        try:
            for _k in range(checks):
                memcpy(self.work, self.root_obs, ops.state_size)
                ops.determinize(self.work, self.observer, &check_rng)
                for a in path:
                    n = ops.legal_actions(self.work, self.scratch)
                    if ops.is_terminal(self.work) or find_action(self.scratch, n, <action_t>a) < 0:
                        same = False
                        break
                    if ops.apply(self.work, <action_t>a) != 0:
                        same = False
                        break
                if not same:
                    break
                memset(seen, 0, ops.state_size)
                ops.observe(self.work, self.observer, seen)
                if memcmp(seen, observation.ptr, ops.state_size) != 0:
                    same = False
                    break
        finally:
            free(seen)
        if not same:
            return -1
        if self._keep_subtree(node) != 0:
            raise MemoryError()
        memcpy(self.root_obs, observation.ptr, ops.state_size)
        rng_seed(&self.rng, <uint64_t>seed)
        self.carried_visits = visits
        self.iterations = 0   # this search's own iterations: what the turn clock charges
        self.busy_seconds = 0.0
        self.playout_errors = 0
        return visits

    cdef int _keep_subtree(self, int keep):
        """Rebuild the arenas with `keep`'s subtree alone, `keep` becoming node 0 (the root), in
        breadth-first order; edge blocks are packed tight. 0 on success, -1 when out of memory."""
        cdef Node* nodes = <Node*>orrery_line_alloc(sizeof(Node) * self.node_cap)
        cdef Edge* arena = <Edge*>orrery_line_alloc(sizeof(Edge) * self.edge_arena_cap)
        cdef int32_t* old_of = <int32_t*>malloc(sizeof(int32_t) * self.num_nodes)
        cdef int head = 0, count = 1, e, old, child, depth0 = self.nodes[keep].depth, deepest = 0
        cdef int64_t used = 0
        cdef Node* n
        cdef Edge* edge
        if nodes == NULL or arena == NULL or old_of == NULL:
            free(nodes)
            free(arena)
            free(old_of)
            return -1
        nodes[0] = self.nodes[keep]
        nodes[0].parent = NO_NODE
        nodes[0].parent_edge = -1
        nodes[0].action = -1
        nodes[0].mover = -1
        old_of[0] = keep
        while head < count:
            old = old_of[head]
            n = &nodes[head]
            n.depth = <short>(self.nodes[old].depth - depth0)
            if n.depth > deepest:
                deepest = n.depth
            n.edges = used
            n.edge_cap = n.n_edges
            memcpy(&arena[used], &self.edge_arena[self.nodes[old].edges], sizeof(Edge) * n.n_edges)
            for e in range(n.n_edges):
                edge = &arena[used + e]
                child = edge.child
                nodes[count] = self.nodes[child]
                nodes[count].parent = head
                nodes[count].parent_edge = e
                old_of[count] = child
                edge.child = count
                count += 1
            used += n.n_edges
            head += 1
        free(old_of)
        free(self.nodes)
        free(self.edge_arena)
        self.nodes = nodes
        self.edge_arena = arena
        self.num_nodes = count
        self.edges_used = used
        self.max_depth = deepest
        return 0

    def root_stats(self):
        """Per root action (merged over PIMC's roots): (action, visits, reward sum for the searching
        seat, availability, principal variation from that action)."""
        cdef dict merged = {}
        cdef int r, e
        cdef list entry
        cdef Edge* edge
        for r in range(self.num_roots):
            for e in range(self.nodes[r].n_edges - 1, -1, -1):
                edge = &self.edge_arena[self.nodes[r].edges + e]
                a = edge.action
                entry = merged.get(a)
                if entry is None:
                    entry = [a, 0, 0.0, 0, (), -1]
                    merged[a] = entry
                entry[1] += edge.visits
                entry[2] += edge.reward[self.observer]
                entry[3] += edge.avail
                if edge.visits > entry[5]:   # PV from the root that visited it most
                    entry[5] = edge.visits
                    entry[4] = self._pv(edge.child)
        return [tuple(item[:5]) for item in sorted(merged.values())]

    cdef tuple _pv(self, int node):
        cdef list pv = []
        cdef int e, best, best_visits
        cdef Edge* edge
        while node != NO_NODE and len(pv) < PV_MAX_LENGTH:
            pv.append(self.nodes[node].action)
            best = NO_NODE
            best_visits = 0
            for e in range(self.nodes[node].n_edges - 1, -1, -1):
                edge = &self.edge_arena[self.nodes[node].edges + e]
                if edge.visits > best_visits or (
                        edge.visits == best_visits and best != NO_NODE
                        and edge.action < self.nodes[best].action):
                    best_visits = edge.visits
                    best = edge.child
            node = best
        return tuple(pv)

    @property
    def iterations(self):
        return self.iterations

    @property
    def tree_size(self):
        return self.num_nodes

    @property
    def max_depth(self):
        return self.max_depth

    @property
    def carried_visits(self):
        """The visits of the edge into the root when reroot() made it (0 for a tree grown from scratch)."""
        return self.carried_visits

    @property
    def busy_seconds(self):
        return self.busy_seconds

    @property
    def playout_errors(self):
        return self.playout_errors


def greedy_action(Observation observation not None, int samples=16, seed=0, str reward="rank"):
    """One-ply greedy choice: each legal action is applied to `samples` determinizations and scored
    by the game's evaluation (the reward once terminal); the best mean for the observer wins, ties
    to the lower action id. Used by the greedy bot."""
    cdef Game game = observation.game
    cdef const GameOps* ops = game.ops
    cdef int form = REWARDS[reward]
    cdef int observer = observation.observer, n, i, _s, best = 0
    cdef double total, best_total = -INFINITY
    cdef double value[MAX_PLAYERS]
    cdef Rng rng
    if ops.is_terminal(observation.ptr) or ops.current_player(observation.ptr) != observer:
        raise ValueError("greedy_action needs the observer to be the seat to move")
    if samples < 1:
        raise ValueError("samples must be >= 1")
    rng_seed(&rng, <uint64_t>seed)
    cdef char* base = <char*>malloc(ops.state_size * 2)
    cdef action_t* legal = <action_t*>malloc(sizeof(action_t) * ops.max_legal_actions)
    cdef action_t* scratch = <action_t*>malloc(sizeof(action_t) * ops.max_legal_actions)
    if base == NULL or legal == NULL or scratch == NULL:
        free(base)
        free(legal)
        free(scratch)
        raise MemoryError()
    cdef void* det = base
    cdef void* work = base + ops.state_size
    try:
        with nogil:
            memcpy(det, observation.ptr, ops.state_size)
            ops.determinize(det, observer, &rng)
            n = ops.legal_actions(det, legal)
            for i in range(n):
                total = 0.0
                for _s in range(samples):
                    memcpy(work, observation.ptr, ops.state_size)
                    ops.determinize(work, observer, &rng)
                    # the observer's options are the same in every determinization; check anyway
                    if find_action(scratch, ops.legal_actions(work, scratch), legal[i]) < 0:
                        continue
                    if ops.apply(work, legal[i]) != 0:
                        continue
                    if ops.is_terminal(work):
                        reward_vector(ops, work, form, value)
                    else:
                        ops.evaluate(work, value)
                    total += value[observer]
                if total > best_total:
                    best_total = total
                    best = i
        return legal[best]
    finally:
        free(base)
        free(legal)
        free(scratch)


def raw_playouts(Observation observation not None, double seconds, seed=0, str playout="random",
                 int max_playout_depth=0, str reward="rank"):
    """Determinize-and-play-out from the observation for `seconds`, with no tree: the baseline that
    the search's iterations per second are measured against. Returns (playouts, elapsed seconds)."""
    cdef Searcher s = Searcher(observation, playout=playout, max_playout_depth=max_playout_depth,
                               reward=reward, seed=seed)
    cdef double start, end, now
    cdef long long count = 0
    cdef double reward_out[MAX_PLAYERS]
    with nogil:
        start = orrery_wall_time()
        end = start + seconds
        now = start
        while now < end:
            memcpy(s.work, s.root_obs, s.ops.state_size)
            s.ops.determinize(s.work, s.observer, &s.rng)
            s._reward(reward_out, 0)
            count += 1
            now = orrery_wall_time()
    return count, now - start
