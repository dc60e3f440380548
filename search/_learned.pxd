# A learned evaluation in plain C (docs/learning.md): a small dense network over a game's features
# (core_ext/features.pxd), called by the search kernel at a truncated playout's leaf without the GIL.
from orrery.core_ext.game cimport GameOps
from orrery.core_ext.features cimport features_fn

cdef enum:
    NET_MAX_LAYERS = 4
    NET_MAX_WIDTH = 1024   # hidden widths and outputs (search/_model.py MAX_WIDTH)
    NET_LANES = 8          # weight rows are padded with zeros to a multiple of this many columns

ctypedef struct ValueNet:
    const GameOps* ops
    features_fn features
    int num_players
    int num_layers
    int sizes[NET_MAX_LAYERS + 1]             # inputs, hidden widths, outputs (seat-relative values)
    int strides[NET_MAX_LAYERS]               # a layer's row length: its outputs rounded up to NET_LANES
    const float* weights[NET_MAX_LAYERS]      # [in][stride]: row i holds input i's weights, then zeros
    const float* biases[NET_MAX_LAYERS]       # [stride]: the biases, then zeros
    bint sparse_input                         # the first layer adds only the rows of non-zero inputs
    bint residual                             # outputs correct the logit of the game's evaluate()

# Every seat's value in [0, 1] (absolute seats) of a live state, seen by its seat to move.
cdef void value_net_evaluate(const ValueNet* net, const void* state, double* out) noexcept nogil

cdef class ValueNetwork:
    cdef ValueNet net
    cdef object _arrays          # the float32 arrays `net` points into
    cdef object _game            # keeps the Game (and so `net.ops`) alive
    cdef object _hook            # the feature capsule
    cdef readonly object model   # the search._model.Model it was built from
