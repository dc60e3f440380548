# The feature hook of a learned evaluation (docs/learning.md): a game that has one exposes, from its
# module `<game package>.features`, a function of this type wrapped in a PyCapsule named
# "orrery.features_fn" (its hook()).
#
# It writes the features of `state` as `observer` sees it, seat-relative (block 0 is the observer's, block
# k the seat k places after it), into out[0 .. its count), and returns the count. It reads only what the
# observer can see, so a full state and the observer's observation give the same features (a test checks
# it), which is what lets the search score a determinized leaf with a network trained on observations.
# `ops` is the game's own table (a feature may be the hand-written evaluate()). No GIL, no allocation.
from orrery.core_ext.game cimport GameOps

ctypedef int (*features_fn)(const GameOps* ops, const void* state, int observer,
                            float* out) noexcept nogil

cdef enum:
    MAX_FEATURES = 4096   # the most features any game's layout has (a network's input bound)
