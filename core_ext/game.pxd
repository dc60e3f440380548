# The one interface every compiled game core implements (contract v2).
#
# The rules of the contract, which every core follows and tests/conformance.py checks:
# - The state header: every state struct starts with a GameParams, which generic code (returns, the
#   search kernel) reads by casting the state pointer.
# - A game state is a plain fixed-size C struct (no pointers), so clone is memcpy and every operation
#   below runs without the GIL. Equal states have equal bytes (structs are zeroed before use).
# - Seats: 1 to MAX_PLAYERS (5). A live state always has a seat to move, 0..num_players-1.
# - Chance: resolved inside apply() from random streams stored in the state itself, one stream per hidden
#   source (dice, bag draws, deck and stack order), so a state plus an action is deterministic and
#   duplicate deals replay identically. There are no chance nodes: the search samples chance through
#   determinize(), which reseeds the streams of every source the observer cannot predict. A rule-driven
#   automaton (Tiny Epic Galaxies' solo Rogue) is not a seat either: apply() plays it.
# - Observation: the same struct type with everything the observing seat cannot see replaced by the
#   game's "unknown" markers; determinize() turns it back into a full state by resampling exactly those
#   unknowns, including the order of the observer's own draw pile, which its owner does not know
#   either. Legal actions never depend on what the seat to move cannot see.
# - Outcome: returns() gives every seat a value in [0, 1] at a terminal state. The default (returns =
#   NULL) comes from ranks: the share of opponents the seat finishes ahead of, ties counting half. A solo
#   game returns a value from its own goal, and a team game gives every member the team's outcome; each
#   game documents its returns in docs/rules/<game>.md.
from libc.stdint cimport uint64_t
from orrery.core_ext.types cimport action_t
from orrery.core_ext.rng cimport Rng

ctypedef struct GameParams:
    int num_players
    int variant            # per-game variant id (see the game's registry entry)
    unsigned int options   # per-game option bits

ctypedef int (*init_fn)(void* state, const GameParams* params, uint64_t seed) noexcept nogil
ctypedef int (*current_player_fn)(const void* state) noexcept nogil
ctypedef int (*legal_actions_fn)(const void* state, action_t* out) noexcept nogil
ctypedef int (*apply_fn)(void* state, action_t action) noexcept nogil
ctypedef bint (*is_terminal_fn)(const void* state) noexcept nogil
ctypedef void (*scores_fn)(const void* state, double* out) noexcept nogil
ctypedef void (*ranks_fn)(const void* state, int* out) noexcept nogil
ctypedef void (*observe_fn)(const void* state, int player, void* out) noexcept nogil
ctypedef void (*determinize_fn)(void* observation, int observer, Rng* rng) noexcept nogil
ctypedef int (*playout_fn)(void* state, Rng* rng, int max_moves) noexcept nogil
ctypedef void (*evaluate_fn)(const void* state, double* out) noexcept nogil
ctypedef action_t (*policy_fn)(const void* state, Rng* rng, action_t* scratch) noexcept nogil
ctypedef void (*returns_fn)(const void* state, double* out) noexcept nogil
ctypedef void (*plan_evaluate_fn)(const void* state, int seat, int plan, double weight,
                                  int all_seats_plan, double all_seats_weight, double* out) noexcept nogil

ctypedef struct GameOps:
    const char* name
    size_t state_size
    int max_legal_actions      # upper bound of legal_actions() in any state; size of `out` buffers
    int max_game_length        # upper bound of actions in one game (playout safety cap)
    init_fn init               # 0 on success, -1 on bad params
    current_player_fn current_player   # 0..n-1, or TERMINAL_PLAYER
    legal_actions_fn legal_actions     # count written to out (sorted ascending, no duplicates)
    apply_fn apply             # precondition: action is legal (the Python layer checks); 0 on success
    is_terminal_fn is_terminal
    scores_fn scores           # raw game score per seat (e.g. credits)
    ranks_fn ranks             # 0 = first place; tied seats share a rank; tie-breakers applied
    observe_fn observe         # writes the observation of `player` into out (same struct type)
    determinize_fn determinize  # in place: observation -> full state consistent with it
    playout_fn playout         # NULL: generic uniform-random playout; returns the number of moves
    evaluate_fn evaluate       # heuristic value per seat in [0, 1] (greedy bot, truncated playouts)
    policy_fn policy_action    # NULL: uniform random; else a heuristic default policy
    returns_fn returns         # NULL: rank returns; else the game's own outcome per seat in [0, 1]
    int num_distinct_actions   # the action-id range: every legal id in any variant is in [0, this)
    # Plans (docs/search.md "Plans"): a search's bias toward one way of scoring. Both NULL in a game
    # without plans. plan_names: the names, comma-separated; plan ids are 1-based positions in it.
    # plan_evaluate: evaluate() with `weight` times the plan's term (in the game's value units, as
    # documented in docs/rules/<game>.md) added to `seat`'s value only; every other seat's value and
    # a finished game's returns are evaluate()'s. all_seats_plan (0: none) adds all_seats_weight times
    # that plan's term to EVERY seat's value before they are compared (SearchConfig.all_seats_plan): the
    # search then values that way of scoring for its opponents too, not as a bias of its own.
    const char* plan_names
    plan_evaluate_fn plan_evaluate

# Generic helpers shared by every game (implemented in game.pyx).
cdef int generic_playout(const GameOps* ops, void* state, Rng* rng, int max_moves,
                         action_t* scratch, bint use_policy) noexcept nogil
cdef void compute_returns(const GameOps* ops, const void* state, double* out) noexcept nogil
cdef void rank_returns(const GameOps* ops, const void* state, double* out) noexcept nogil
cdef tuple plan_names(const GameOps* ops)   # the game's plan names in id order (id = index + 1)


cdef inline int find_action(const action_t* actions, int n, action_t action) noexcept nogil:
    # legal_actions() output is sorted: binary search. Inline, so cores and the search kernel call it
    # without a cross-module function pointer.
    cdef int lo = 0, hi = n - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if actions[mid] == action:
            return mid
        if actions[mid] < action:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef class Game:
    cdef const GameOps* ops
    cdef GameParams params
    cdef readonly str name
    cdef readonly str variant
    cdef readonly int num_players
    cdef object __weakref__

cdef class Position:
    # A State or an Observation: one game struct this object owns (malloc'ed, freed with it), and whose
    # view it is. Every per-game hook (JSON, action structs, render) takes a Position.
    cdef readonly Game game
    cdef void* ptr
    # the observing seat; -1 for a full state (what a referee sees) and for a spectator's public view
    cdef readonly int observer

cdef class State(Position):
    pass

cdef class Observation(Position):
    pass

cdef State new_state(Game game)
cdef Observation new_observation(Game game, int player)
