# The compiled search kernel: SO-ISMCTS and determinized UCT (PIMC) over core_ext's GameOps.
#
# Everything the hot loop touches is plain C (node and edge arenas grown by doubling, fixed-size state
# buffers, an in-struct RNG), so an iteration runs without the GIL and without Python objects.
from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t
from orrery.core_ext.types cimport action_t, MAX_PLAYERS
from orrery.core_ext.game cimport GameOps
from orrery.core_ext.rng cimport Rng
from orrery.search._learned cimport ValueNet

cdef enum:
    ALGO_ISMCTS = 0
    ALGO_PIMC = 1
    REWARD_WIN = 0
    REWARD_RANK = 1
    REWARD_SCORE_SHARE = 2
    # why the last run() returned
    STOP_BUDGET = 0      # the iteration limit or the slice's end time was reached
    STOP_DEADLINE = 1    # the absolute deadline came within two mean iteration times
    STOP_CANCEL = 2      # the cancel flag was set
    NO_NODE = -1

# A node's children are the edges of one contiguous block in the edge arena, so choosing a child
# scans memory in order; with one linked node per child, cache misses on the scattered children took
# three quarters of the selection time in large trees.
ctypedef struct Edge:
    double reward[MAX_PLAYERS]   # sum over visits of each seat's reward in [0, 1]
    int32_t visits
    int32_t avail                # times this action was legal when the parent was visited
    action_t action              # the action this edge takes from the parent
    int32_t child                # the node it leads to

ctypedef struct Node:
    int64_t edges                # where this node's block of child edges starts in the arena
    int32_t n_edges              # children, in the order they were added
    int32_t edge_cap             # size of the block
    int32_t parent
    int32_t parent_edge          # this node's edge in the parent's block (-1 at a root)
    action_t action              # the action that leads here from the parent
    int16_t mover                # the seat that chose `action`
    int16_t depth                # root = 0

cdef class CancelFlag:
    cdef int value               # polled by the loop with an atomic load

cdef class Searcher:
    # The pads keep the fields the loop writes (rng, counters) off the cache lines of neighbouring
    # objects, which may belong to searchers on other threads.
    cdef char _pad_front[64]
    cdef const GameOps* ops
    cdef object game             # keeps the Game (and so `ops`) alive
    cdef int num_players
    cdef int observer
    cdef int algorithm
    cdef int reward_form
    cdef bint use_policy
    cdef int max_playout_depth   # -1: no playout (score the leaf with evaluate())
    cdef bint horizon_from_root  # the playout cap counts from the root, not from the tree's leaf
    cdef double exploration
    cdef int plan                # 0: none; else the game's plan id (GameOps.plan_names), for `observer`
    cdef double plan_weight      # the plan term's multiplier (docs/search.md "Plans")
    cdef int all_seats_plan      # 0: none; else a plan id whose term every seat's evaluation adds
    cdef double all_seats_plan_weight   # its multiplier
    cdef int max_nodes
    cdef int num_roots           # 1 for ISMCTS, the number of determinizations for PIMC
    cdef void* root_obs          # the observation every iteration starts from
    cdef void* dets              # PIMC: num_roots fixed determinizations
    cdef void* work              # the iteration's state
    cdef action_t* legal
    cdef action_t* scratch
    cdef char* marks
    cdef int32_t* path
    cdef int path_cap
    cdef Node* nodes
    cdef int num_nodes
    cdef int node_cap
    cdef Edge* edge_arena
    cdef int32_t* action_pos     # action id -> index in self.legal (valid where the stamp matches)
    cdef uint32_t* action_stamp
    cdef int action_table_size   # -1: no table (out of memory), binary search instead
    cdef uint32_t action_gen
    cdef int legal_count
    cdef int64_t edges_used
    cdef int64_t edge_arena_cap
    cdef Rng rng
    cdef long long iterations    # this search's iterations (since the tree was made or re-rooted)
    cdef long long carried_visits  # visits the root had when reroot() made it, else 0
    cdef int max_depth
    cdef double busy_seconds     # time spent inside run(), for the mean iteration time
    cdef long long playout_errors
    cdef const ValueNet* learned  # evaluation "learned": the network scoring truncated playouts, else NULL
    cdef object learned_ref      # keeps that network alive
    cdef char _pad_back[64]

    cdef int _new_node(self, int parent, action_t action, int mover) noexcept nogil
    cdef int _reserve_edge(self, int parent) noexcept nogil
    cdef Edge* _edge_to(self, int node) noexcept nogil
    cdef void _index_legal(self, int n) noexcept nogil
    cdef int _legal_index(self, action_t action) noexcept nogil
    cdef void _iterate(self) noexcept nogil
    cdef int _run_loop(self, long long max_iterations, double until, double deadline,
                       int* flag) noexcept nogil
    cdef void _reward(self, double* out, int tree_moves) noexcept nogil
    cdef tuple _pv(self, int node)
    cdef int _keep_subtree(self, int keep)
