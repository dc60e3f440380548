# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The learned evaluation's inference: plain C loops over float32 weights loaded once (docs/learning.md).

value_net_evaluate() computes the seat to move's features (the game's hook), runs the network (ReLU
between layers, a sigmoid on each output) and maps its seat-relative outputs back to seats. Buffers live
on the stack, so searchers on many threads share one network. With `sparse_input` the first layer adds
the weight rows of the non-zero features only (as NNUE does): a branch-free pass lists their indices,
then the layer accumulates those rows, 32 columns at a time in registers; otherwise it adds every row.
Later layers skip the hidden units the ReLU left at zero the same way. Weight rows are padded with zeros
to a multiple of 8 columns, so the loops have no remainder.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.math cimport exp, log
from libc.string cimport memcpy

import importlib
import time
from functools import cache
from pathlib import Path

import numpy as np

from orrery.core_ext.types cimport MAX_PLAYERS
from orrery.core_ext.game cimport Game, Position
from orrery.core_ext.features cimport features_fn, MAX_FEATURES
from orrery.search._atomics cimport orrery_wall_time

from orrery.core_ext import game_info
from orrery.search._model import ModelFormatError, check_model_matches, decode_model

MODELS_DIR = Path(__file__).resolve().parent / "models"
CAPSULE_NAME = b"orrery.features_fn"
cdef const char* CAPSULE_C_NAME = "orrery.features_fn"


cdef extern from *:
    """
    #include <string.h>
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif

    /* Four float lanes (the GCC and Clang vector extension: SSE on x86-64, NEON on arm64). Written out
       because GCC 12, given the same accumulator loop written in Cython, unrolled the input loop and summed
       through memory a float at a time (0.75 us an evaluation at Tiny Epic Galaxies, against 0.40 so). A
       lane's arithmetic is the scalar arithmetic, so the sums are bit for bit those of the plain loops. */
    typedef float orrery_f4 __attribute__((vector_size(16)));
    typedef int orrery_i4 __attribute__((vector_size(16)));

    static inline orrery_f4 orrery_f4_load(const float* p) { orrery_f4 v; memcpy(&v, p, 16); return v; }
    static inline void orrery_f4_store(float* p, orrery_f4 v, int relu) {
        if (relu) v = (orrery_f4)((orrery_i4)v & (v > 0.0f));   /* max(v, 0), +0 for -0 */
        memcpy(p, &v, 16);
    }

    /* The indices of x's non-zero entries, ascending, into idx[0 .. n); their count. (A group of four
       writes four slots from the count, which is at most the group's first index: never past n.)
       Branch-free: a test per input mispredicts about as often as inputs are non-zero (a quarter of
       them in a typical position), which cost more than the rows it skipped. */
    static inline int orrery_nonzero(const float* x, int n, int* idx) {
        int count = 0, i = 0;
    #if defined(__SSE2__)
        /* per mask of four lanes: their offsets, packed into a group's four slots, and how many */
        static const int offsets[16][4] = {
            {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0},
            {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0},
            {1, 2, 3, 0}, {0, 1, 2, 3}};
        static const unsigned char bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
        const __m128 zero = _mm_setzero_ps();
        for (; i + 4 <= n; i += 4) {
            int mask = _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x + i), zero));
            __m128i at = _mm_add_epi32(_mm_set1_epi32(i), _mm_loadu_si128((const __m128i*)offsets[mask]));
            _mm_storeu_si128((__m128i*)(idx + count), at);
            count += bits[mask];
        }
    #endif
        for (; i < n; i++) {
            idx[count] = i;
            count += x[i] != 0.0f;
        }
        return count;
    }

    /* y[0..32) = b[0..32) + the sum over the listed inputs of x[i] * w[i][0..32), in the list's order;
       rows are `stride` floats apart. */
    static inline void orrery_block32(const float* x, const int* idx, int count, const float* w,
                                      size_t stride, const float* b, float* y, int relu) {
        orrery_f4 a0 = orrery_f4_load(b), a1 = orrery_f4_load(b + 4), a2 = orrery_f4_load(b + 8),
                  a3 = orrery_f4_load(b + 12), a4 = orrery_f4_load(b + 16), a5 = orrery_f4_load(b + 20),
                  a6 = orrery_f4_load(b + 24), a7 = orrery_f4_load(b + 28);
        for (int k = 0; k < count; k++) {
            const float xi = x[idx[k]];
            const orrery_f4 s = {xi, xi, xi, xi};
            const float* row = w + (size_t)idx[k] * stride;
            a0 += s * orrery_f4_load(row);
            a1 += s * orrery_f4_load(row + 4);
            a2 += s * orrery_f4_load(row + 8);
            a3 += s * orrery_f4_load(row + 12);
            a4 += s * orrery_f4_load(row + 16);
            a5 += s * orrery_f4_load(row + 20);
            a6 += s * orrery_f4_load(row + 24);
            a7 += s * orrery_f4_load(row + 28);
        }
        orrery_f4_store(y, a0, relu); orrery_f4_store(y + 4, a1, relu);
        orrery_f4_store(y + 8, a2, relu); orrery_f4_store(y + 12, a3, relu);
        orrery_f4_store(y + 16, a4, relu); orrery_f4_store(y + 20, a5, relu);
        orrery_f4_store(y + 24, a6, relu); orrery_f4_store(y + 28, a7, relu);
    }

    static inline void orrery_block8(const float* x, const int* idx, int count, const float* w,
                                     size_t stride, const float* b, float* y, int relu) {
        orrery_f4 a0 = orrery_f4_load(b), a1 = orrery_f4_load(b + 4);
        for (int k = 0; k < count; k++) {
            const float xi = x[idx[k]];
            const orrery_f4 s = {xi, xi, xi, xi};
            const float* row = w + (size_t)idx[k] * stride;
            a0 += s * orrery_f4_load(row);
            a1 += s * orrery_f4_load(row + 4);
        }
        orrery_f4_store(y, a0, relu); orrery_f4_store(y + 4, a1, relu);
    }

    /* A layer over its listed inputs: y[0..stride) = b + sum of x[i] * w[i], ReLU if asked. Each column
       is summed in ascending input order from its bias, as the dense product is; a skipped input is an
       exact zero, so the sparse and the dense layer agree bit for bit. stride: a multiple of 8. */
    static inline void orrery_layer(const float* x, const int* idx, int count, const float* w, int stride,
                                    const float* b, float* y, int relu) {
        int c = 0;
        for (; c + 32 <= stride; c += 32)
            orrery_block32(x, idx, count, w + c, (size_t)stride, b + c, y + c, relu);
        for (; c < stride; c += 8)
            orrery_block8(x, idx, count, w + c, (size_t)stride, b + c, y + c, relu);
    }
    """
    int orrery_nonzero(const float* x, int n, int* idx) noexcept nogil
    void orrery_layer(const float* x, const int* idx, int count, const float* w, int stride,
                      const float* b, float* y, bint relu) noexcept nogil


cdef void _forward(const ValueNet* net, const float* x, float* out) noexcept nogil:
    """The network's outputs (before the sigmoid) of features x into out[0 .. outputs)."""
    cdef float h[2][NET_MAX_WIDTH]
    cdef int idx[MAX_FEATURES]
    cdef const float* src = x
    cdef int layer, j, count, last = net.num_layers - 1
    for layer in range(net.num_layers):
        if layer == 0 and not net.sparse_input:
            count = net.sizes[0]
            for j in range(count):
                idx[j] = j
        else:   # the first layer's active features, or the hidden units the ReLU left on
            count = orrery_nonzero(src, net.sizes[layer], idx)
        orrery_layer(src, idx, count, net.weights[layer], net.strides[layer], net.biases[layer],
                     h[layer & 1], layer < last)
        src = h[layer & 1]
    memcpy(out, src, sizeof(float) * net.sizes[net.num_layers])


cdef void value_net_evaluate(const ValueNet* net, const void* state, double* out) noexcept nogil:
    cdef float x[MAX_FEATURES]
    cdef float y[MAX_PLAYERS]
    cdef double base[MAX_PLAYERS]
    cdef double logit, v
    cdef int n = net.num_players, observer = net.ops.current_player(state), k, seat
    if observer < 0 or observer >= n or net.features(net.ops, state, observer, x) != net.sizes[0]:
        net.ops.evaluate(state, out)   # no seat to move (cannot happen at a live leaf): the fallback
        return
    _forward(net, x, y)
    if net.residual:
        net.ops.evaluate(state, base)
    for k in range(n):
        seat = (observer + k) % n
        logit = y[k]
        if net.residual:   # a correction to evaluate(): add its logit, clipped as in training
            v = 0.001 if base[seat] < 0.001 else (0.999 if base[seat] > 0.999 else base[seat])
            logit += log(v / (1.0 - v))
        out[seat] = 1.0 / (1.0 + exp(-logit))


def feature_hook(str game):
    """The game's feature module (core_ext/<game>/features.pyx); ValueError if it has none."""
    package = game_info(game).module.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.features")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.features":
            raise
        raise ValueError(f"{game}: no features for a learned evaluation are defined for this game") from None


cdef class ValueNetwork:
    """A decoded model bound to a game: what Searcher(evaluation="learned") runs."""

    def __init__(self, model, Game game not None):
        features = feature_hook(game.name)
        check_model_matches(model, game=game.name, variant=game.variant, players=game.num_players,
                            layout_version=features.LAYOUT_VERSION,
                            num_features=features.num_features(game.num_players),
                            catalogue=game._catalogue_revision())
        hook = features.hook()
        if not PyCapsule_IsValid(hook, CAPSULE_C_NAME):
            raise TypeError(f"{game.name}: the feature hook is not a {CAPSULE_NAME.decode()} capsule")
        self.model = model
        self._game = game
        self._hook = hook
        self._arrays = []
        self.net.ops = game.ops
        self.net.features = <features_fn>PyCapsule_GetPointer(hook, CAPSULE_C_NAME)
        self.net.num_players = game.num_players
        self.net.num_layers = len(model.weights)
        self.net.sparse_input = model.sparse_input
        self.net.residual = model.residual
        cdef const float[:, ::1] w
        cdef const float[::1] b
        cdef int layer
        for layer, size in enumerate(model.sizes):
            self.net.sizes[layer] = size
        for layer in range(self.net.num_layers):
            w, b = _padded(model.weights[layer], model.biases[layer])
            self.net.strides[layer] = w.shape[1]
            self._arrays += [w, b]
            self.net.weights[layer] = &w[0, 0]
            self.net.biases[layer] = &b[0]

    @property
    def sparse_input(self):
        return bool(self.net.sparse_input)

    @sparse_input.setter
    def sparse_input(self, bint value):
        """Benchmarks only: the same network with the other first-layer loop (same values)."""
        self.net.sparse_input = value

    def forward(self, features):
        """The network's outputs before the sigmoid (seat-relative, float32) of one feature vector, through
        the kernel's own layers: tests compare them with a dense reference on inputs of their choosing."""
        cdef const float[::1] x = np.ascontiguousarray(features, dtype=np.float32)
        if x.shape[0] != self.net.sizes[0]:
            raise ValueError(f"expected {self.net.sizes[0]} features, got {x.shape[0]}")
        out = np.zeros(self.net.sizes[self.net.num_layers], dtype=np.float32)
        cdef float[::1] y = out
        with nogil:
            _forward(&self.net, &x[0], &y[0])
        return out

    def evaluate(self, Position position not None):
        """Every seat's value of a live State (or of an observation seen by its seat to move)."""
        cdef double out[MAX_PLAYERS]
        if position.game.ops != self.net.ops or position.game.num_players != self.net.num_players:
            raise ValueError("the position is of another game or player count than the network")
        if position.game.ops.is_terminal(position.ptr):
            raise ValueError("the game is over: use its returns")
        with nogil:
            value_net_evaluate(&self.net, position.ptr, out)
        return [out[k] for k in range(self.net.num_players)]

    def micros_per_eval(self, list positions not None, int repeats=200, bint learned=True):
        """(wall, thread CPU) mean microseconds per evaluation over the positions (States), each scored
        `repeats` times: this network's, or with learned=False the game's hand-written evaluate(). The
        CPU time is what one evaluation costs on a machine that other work also uses."""
        cdef Position p
        cdef int _r, i, count = len(positions)
        cdef double start, elapsed, sink = 0.0
        cdef double out[MAX_PLAYERS]
        cdef void** ptrs
        if count == 0 or repeats < 1:
            raise ValueError("need positions and repeats >= 1")
        for p in positions:
            if p.game.ops != self.net.ops or p.game.num_players != self.net.num_players:
                raise ValueError("a position is of another game or player count than the network")
        arr = np.zeros(count, dtype=np.uintp)
        cdef size_t[::1] addr = arr
        for i, p in enumerate(positions):
            addr[i] = <size_t>p.ptr
        ptrs = <void**>&addr[0]
        cpu_start = time.thread_time()
        with nogil:
            start = orrery_wall_time()
            for _r in range(repeats):
                for i in range(count):
                    if learned:
                        value_net_evaluate(&self.net, ptrs[i], out)
                    else:
                        self.net.ops.evaluate(ptrs[i], out)
                    sink += out[0]
            elapsed = orrery_wall_time() - start
        cpu = time.thread_time() - cpu_start
        if sink != sink:   # NaN: never for finite weights; keeps the loop from being optimised away
            raise ArithmeticError("an evaluation gave NaN")
        return 1e6 * elapsed / (repeats * count), 1e6 * cpu / (repeats * count)


def _padded(weights, biases):
    """A layer's float32 weights [in][stride] and biases [stride], the columns padded with zeros to a
    multiple of NET_LANES, so that the kernel's loops run over whole blocks."""
    n_in, n_out = weights.shape
    stride = -(-n_out // NET_LANES) * NET_LANES
    w = np.zeros((n_in, stride), dtype=np.float32)
    b = np.zeros(stride, dtype=np.float32)
    w[:, :n_out] = weights
    b[:n_out] = biases
    return w, b


def model_path(str game, str variant, int players):
    """Where the shipped model of a game, variant and player count lies (it may not exist)."""
    return MODELS_DIR / f"{game}-{variant}-{players}p.orrnet"


@cache
def _shipped_model(str game, str variant, int players):
    path = model_path(game, variant, players)
    if not path.is_file():
        raise ValueError(f"{game} ({variant}, {players} players) has no learned evaluation model "
                         f"(looked for {path.name}; docs/learning.md says how to train one)")
    try:
        return decode_model(path.read_bytes())
    except ModelFormatError as exc:
        raise ModelFormatError(f"{path.name}: {exc}") from None


def shipped_network(Game game not None):
    """The shipped model for the game's variant and player count, bound to it (decoded once)."""
    return ValueNetwork(_shipped_model(game.name, game.variant, game.num_players), game)


def has_model(str game, str variant, int players):
    return model_path(game, variant, players).is_file()
