# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The learned evaluation's inference: plain C loops over float32 weights loaded once (docs/learning.md).

value_net_evaluate() computes the seat to move's features (the game's hook), runs the network (ReLU
between layers, a sigmoid on each output) and maps its seat-relative outputs back to seats. Buffers live
on the stack, so searchers on many threads share one network. With `sparse_input` the first layer adds
the weight rows of the non-zero features only (as NNUE does); otherwise it is a plain dense layer.
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


cdef inline void _dense(const float* x, int n_in, const float* w, const float* b, int n_out,
                        float* y, bint skip_zeros) noexcept nogil:
    cdef int i, j
    cdef float xi
    cdef const float* row
    memcpy(y, b, sizeof(float) * n_out)
    for i in range(n_in):
        xi = x[i]
        if skip_zeros and xi == 0.0:
            continue
        row = w + <size_t>i * n_out
        for j in range(n_out):   # contiguous: the compiler vectorises it
            y[j] += xi * row[j]


cdef void _forward(const ValueNet* net, float* x, float* out) noexcept nogil:
    cdef float h[2][NET_MAX_WIDTH]
    cdef const float* src = x
    cdef float* dst
    cdef int layer, j, last = net.num_layers - 1
    for layer in range(net.num_layers):
        dst = out if layer == last else h[layer & 1]
        _dense(src, net.sizes[layer], net.weights[layer], net.biases[layer], net.sizes[layer + 1], dst,
               layer == 0 and net.sparse_input)
        if layer < last:
            for j in range(net.sizes[layer + 1]):
                if dst[j] < 0.0:
                    dst[j] = 0.0
        src = dst


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
            w = np.ascontiguousarray(model.weights[layer], dtype=np.float32)
            b = np.ascontiguousarray(model.biases[layer], dtype=np.float32)
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
