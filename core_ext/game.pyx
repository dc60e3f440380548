# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Python wrappers over the compiled game interface (see game.pxd for the C contract).

State and Observation own a malloc'ed copy of the game's C struct. Every method that can fail on user
input checks first and mutates second, so a rejected call leaves the object unchanged.
"""
import json

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS
from orrery.core_ext.rng cimport Rng, rng_seed, rng_below
from orrery.core_ext.json_fields cimport show, fail, read_int

from orrery.core_ext._errors import IllegalActionError, StateFormatError

# The public JSON formats are versioned per game: "orrery.<game>.state/<version>" and
# "orrery.<game>.observation/<version>" (Game.state_format, Game.observation_format). These are the
# retired formats shared by every game before that; stored states in them can be upgraded once
# (Game.upgrade_state_json), never read directly.
RETIRED_FORMATS = {"state": "orrery.state/1", "observation": "orrery.observation/1"}

# The viewer of State.public_observation() and State.move_label(): a spectator, who sees only what every seat
# sees. Every core's observe() takes it as the player and hides every seat's private information.
PUBLIC_VIEWER = -1


cdef int generic_playout(const GameOps* ops, void* state, Rng* rng, int max_moves,
                         action_t* scratch, bint use_policy) noexcept nogil:
    cdef int moves = 0, n
    cdef action_t action
    while moves < max_moves and not ops.is_terminal(state):
        if use_policy and ops.policy_action != NULL:
            action = ops.policy_action(state, rng, scratch)
        else:
            n = ops.legal_actions(state, scratch)
            if n <= 0:
                return -1  # a non-terminal state without moves is an engine bug; stop safely
            action = scratch[rng_below(rng, <unsigned int>n)]
        if ops.apply(state, action) != 0:
            return -1
        moves += 1
    return moves


cdef tuple plan_names(const GameOps* ops):
    if ops.plan_names == NULL or ops.plan_evaluate == NULL:
        return ()
    cdef bytes names = ops.plan_names
    return tuple(name for name in names.decode().split(",") if name)


cdef void compute_returns(const GameOps* ops, const void* state, double* out) noexcept nogil:
    # A terminal state's outcome per seat in [0, 1]: the game's own, else from ranks.
    if ops.returns != NULL:
        ops.returns(state, out)
    else:
        rank_returns(ops, state, out)


cdef void rank_returns(const GameOps* ops, const void* state, double* out) noexcept nogil:
    # Rank-based return in [0, 1]: the share of opponents beaten, ties counting half.
    cdef int ranks[MAX_PLAYERS]
    cdef int p, q
    cdef int n = _num_players(ops, state)
    ops.ranks(state, ranks)
    for p in range(n):
        out[p] = 0.0
        for q in range(n):
            if q == p:
                continue
            if ranks[q] > ranks[p]:
                out[p] += 1.0
            elif ranks[q] == ranks[p]:
                out[p] += 0.5
        out[p] = out[p] / (n - 1) if n > 1 else 1.0


cdef inline int _num_players(const GameOps* ops, const void* state) noexcept nogil:
    # Convention: every game struct starts with a GameParams header.
    return (<const GameParams*>state).num_players


cdef State new_state(Game game):
    cdef State s = State.__new__(State)
    s.game = game
    s.observer = -1
    s.ptr = malloc(game.ops.state_size)
    if s.ptr == NULL:
        raise MemoryError()
    memset(s.ptr, 0, game.ops.state_size)
    return s


cdef Observation new_observation(Game game, int player):
    cdef Observation o = Observation.__new__(Observation)
    o.game = game
    o.observer = player
    o.ptr = malloc(game.ops.state_size)
    if o.ptr == NULL:
        raise MemoryError()
    memset(o.ptr, 0, game.ops.state_size)
    return o


def _restore_state(str name, int players, str variant, bytes raw):
    from orrery.core_ext._registry import load_game
    cdef Game game = load_game(name, players=players, variant=variant)
    cdef State s = new_state(game)
    _copy_in(game, s.ptr, raw)
    return s


def _restore_observation(str name, int players, str variant, int player, bytes raw):
    from orrery.core_ext._registry import load_game
    cdef Game game = load_game(name, players=players, variant=variant)
    cdef Observation o = new_observation(game, player)
    _copy_in(game, o.ptr, raw)
    return o


cdef _copy_in(Game game, void* dst, bytes raw):
    if len(raw) != game.ops.state_size:
        raise StateFormatError(f"raw state has {len(raw)} bytes, expected {game.ops.state_size}")
    memcpy(dst, <const char*>raw, game.ops.state_size)


cdef class Game:
    """A game with fixed players and variant. Subclasses (one per core) set `ops` and the codecs."""

    @property
    def max_legal_actions(self):
        """The most legal actions any state can have (the size of a legal-action buffer)."""
        return self.ops.max_legal_actions

    @property
    def num_distinct_actions(self):
        """The action-id range of this variant: every legal id in any of its states lies in [0, this).
        GameOps.num_distinct_actions bounds every variant; a variant with fewer ids says so in its
        engine's VARIANT_ACTION_RANGE."""
        from orrery.core_ext._action_kinds import variant_action_range
        end = variant_action_range(self.name, self.variant)
        return self.ops.num_distinct_actions if end is None else min(end, self.ops.num_distinct_actions)

    @property
    def max_game_length(self):
        """An upper bound on the actions in one game (seats' actions only: no chance nodes)."""
        return self.ops.max_game_length

    @property
    def plans(self):
        """The names of the game's plans, the biases a search can be given toward one way of scoring
        (SearchConfig.plan, docs/search.md "Plans"); () for a game without plans."""
        return plan_names(self.ops)

    def seat_teams(self):
        """The team of each seat (a tuple of team indexes); without teams every seat is its own team.
        Teammates share their team's outcome (returns) and rank."""
        return tuple(range(self.num_players))

    def new_initial_state(self, seed):
        """A new game dealt from `seed` (an int in [0, 2**64)): the same seed gives the same deal."""
        cdef uint64_t c_seed = _checked_seed(seed)
        cdef State s = new_state(self)
        if self.ops.init(s.ptr, &self.params, c_seed) != 0:
            raise ValueError(f"{self.name}: cannot set up {self.num_players} players, "
                             f"variant {self.variant!r}")
        return s

    @property
    def state_format(self):
        """The format string of this game's full states, e.g. "orrery.trian.state/3"."""
        return self._format("state")

    @property
    def observation_format(self):
        return self._format("observation")

    def _format(self, str kind):
        return f"orrery.{self.name}.{kind}/{self._format_version()}"

    def _header(self, str kind):
        header = {"format": self._format(kind), "game": self.name, "variant": self.variant,
                  "players": self.num_players}
        revision = self._catalogue_revision()
        if revision is not None:
            header["catalogue"] = revision
        return header

    def _check_header(self, dict data, str kind):
        self._check_format(data.get("format"), kind)
        for key, want in self._header(kind).items():
            if key == "catalogue":
                self._check_catalogue(data.get(key, None))
            elif data.get(key) != want:
                raise StateFormatError(f"field {key!r}: expected {want!r}, got {show(data.get(key))}")
        if "catalogue" in data and self._catalogue_revision() is None:
            raise StateFormatError(f"field 'catalogue': {self.name} has no catalogue")

    def _check_catalogue(self, revision):
        """A stored game is tied to the card revision it was dealt with (docs/api.md, "catalogue"): a
        game of another revision is refused, as its cards are not this server's. A game stored before
        revisions were recorded has none and is read with today's cards."""
        want = self._catalogue_revision()
        if revision is None or revision == want:
            return
        shown = repr(revision) if isinstance(revision, str) and len(revision) <= 100 else show(revision)
        raise StateFormatError(f"field 'catalogue': this game was dealt with catalogue {shown}; "
                               f"this server has {want!r}, so its cards differ")

    def _check_format(self, fmt, str kind):
        """Refuse any format but this game's current one of `kind`, saying which one this server reads."""
        want = self._format(kind)
        if fmt == want:
            return
        if fmt is None:
            raise StateFormatError(f"missing field 'format'; this server reads {want}")
        if fmt == self._format(_OTHER_KIND[kind]):
            raise StateFormatError(f"format {fmt!r} is the other kind of JSON; this call reads {want}")
        if fmt in RETIRED_FORMATS.values() or self._older_format(fmt):
            raise StateFormatError(f"format {show(fmt)} is no longer supported; this server reads {want}")
        raise StateFormatError(f"format {show(fmt)} is not supported; this server reads {want}")

    def _older_format(self, fmt):
        """An earlier version of one of this game's formats."""
        if not isinstance(fmt, str) or not fmt.startswith(f"orrery.{self.name}."):
            return False
        kind, _, version = fmt[len(f"orrery.{self.name}."):].partition("/")
        return kind in _OTHER_KIND and version.isdecimal() and int(version) < self._format_version()

    def state_from_json(self, text):
        data = _parse_json(text)
        self._check_header(data, "state")
        cdef State s = new_state(self)
        s.game._load_payload(s, _field(data, "state", dict))
        return s

    def upgrade_state_json(self, text):
        """Stored full-state JSON in the current format or a retired one, as JSON in the current format.

        A retired payload is translated by the game (each game knows its old payload), then loaded like
        any input, so an upgraded state passes every check of the current loader. Anything that cannot be
        upgraded raises StateFormatError; for hosted matches stored by an older server.
        """
        data = _parse_json(text)
        fmt = data.get("format")
        retired = fmt == RETIRED_FORMATS["state"]
        if not retired and not (self._older_format(fmt) and fmt.startswith(f"orrery.{self.name}.state/")):
            return self.state_from_json(text).to_json()
        for key, want in (("game", self.name), ("variant", self.variant), ("players", self.num_players)):
            if data.get(key) != want:
                raise StateFormatError(f"field {key!r}: expected {want!r}, got {show(data.get(key))}")
        upgraded = self._header("state")
        payload = _field(data, "state", dict)
        if retired:
            upgraded["state"] = self._payload_from_v1(payload)
        else:
            upgraded["state"] = self._payload_from_older(int(fmt.rpartition("/")[2]), payload)
        return self.state_from_json(json.dumps(upgraded)).to_json()

    def observation_from_json(self, text):
        return self.observation_from_dict(_parse_json(text))

    def observation_from_dict(self, dict data):
        """observation_from_json for JSON already parsed (the service validates the header first)."""
        self._check_header(data, "observation")
        player = _field(data, "observer", int)
        if not 0 <= player < self.num_players:
            raise StateFormatError(f"field 'observer': {player} is not a seat of a "
                                   f"{self.num_players}-player game")
        cdef Observation o = new_observation(self, player)
        o.game._load_payload(o, _field(data, "state", dict))
        _check_is_a_view(o)
        return o

    # ---- per-game hooks, overridden by each core ----
    def _catalogue_revision(self):
        """"<catalogue format>@<revision>" of the game's card catalogue (core_ext/<game>/catalogue.json),
        recorded in every state and observation; None for a game without one."""
        return None

    def _format_version(self):
        """The version of this game's JSON formats: raise it whenever the payload changes."""
        return 1

    def _payload_from_v1(self, dict payload):
        """The current payload from a payload of the retired "orrery.state/1" (raise StateFormatError).
        By default the same: a game whose payload did not change when formats became per game (the
        loader checks it as any input); a game whose payload changed translates it here."""
        return payload

    def _payload_from_older(self, int version, dict payload):
        """The current payload from one of this game's own earlier state formats (orrery.<game>.state/
        `version`); by default none can be upgraded (raise StateFormatError)."""
        raise StateFormatError(f"format orrery.{self.name}.state/{version} is no longer supported; "
                               f"this server reads {self._format('state')}")

    def _dump_payload(self, Position pos):
        """The struct as a JSON-able dict (pos.observer is -1 for a full state)."""
        raise NotImplementedError

    def _load_payload(self, Position pos, dict payload):
        """Fill pos.ptr from a dict, validating everything (json_fields readers); raise StateFormatError."""
        raise NotImplementedError

    def _action_struct(self, Position pos, int action):
        """{'id': action, 'kind': str, 'label': str, ...fields} for a legal action."""
        raise NotImplementedError

    def _action_from_struct(self, Position pos, dict action):
        """The id of the legal action a struct names: by 'id' (every other field given must match that
        action's struct), or by 'kind' and fields (the first legal action whose struct has them all).
        'label' is never compared: it is for people. An id that is not legal is returned as it is, and
        the caller refuses it as illegal."""
        legal = pos.legal_actions()
        if "id" in action:
            a = action["id"]
            if type(a) is not int:
                raise StateFormatError(f"field 'id': {show(a)} is not an integer")
            if a in legal:
                want = self._action_struct(pos, a)
                for key, value in action.items():
                    if key != "label" and want.get(key) != value:
                        raise StateFormatError(f"field '{key}': {show(value)} does not match action {a}")
            return a
        if "kind" not in action:
            raise StateFormatError("an action needs 'id' or 'kind'")
        for a in legal:
            want = self._action_struct(pos, a)
            if all(key == "label" or want.get(key) == value for key, value in action.items()):
                return a
        raise StateFormatError(f"no legal action matches {show(action)}")

    def _move_label(self, Position view, int mover, int action):
        """The label of `action`, played by seat `mover`, as the viewer of `view` sees it: `view` is that
        viewer's observation of the position before the move (another seat's, or the public one). Only
        what `view` shows may appear in it. By default the action's kind from its id alone; a game whose
        labels are worth more overrides this (docs/adding-a-game.md)."""
        kind = self._describe_illegal(action)
        return kind or f"action {action}"

    def _describe_illegal(self, int action):
        """A short label for an in-range id that is not legal in the state at hand (what kind of action
        the id names, without state-dependent details); "" when the game has none. By default the
        game's block in its engine's ACTION_BLOCKS (core_ext/_action_kinds.py)."""
        from orrery.core_ext._action_kinds import id_kind
        return id_kind(self.name, action)

    def _render(self, Position pos):
        """A text picture of the position, from p's viewer."""
        raise NotImplementedError

    def _score_breakdown(self, Position pos):
        """Where each seat's score comes from, as pos's viewer may see it: a list of {"seat": int (-1 for
        a player that is no seat, e.g. the solo Rogue), "name": str ("" for a seat), "parts": [{"label":
        str, "points": int, "detail": str}], "total": int}. For every seat the parts sum to its total,
        which is State.scores()'s value for it; nothing a viewer cannot see is counted or named. Built
        next to the game's own scoring, from the same functions. [] when the game has none yet."""
        return []

    def __repr__(self):
        return f"Game({self.name!r}, players={self.num_players}, variant={self.variant!r})"

    def __reduce__(self):
        from orrery.core_ext._registry import load_game
        return (_load_game_kw, (self.name, self.num_players, self.variant))


_OTHER_KIND = {"state": "observation", "observation": "state"}


def _load_game_kw(name, players, variant):
    from orrery.core_ext._registry import load_game
    return load_game(name, players=players, variant=variant)


cdef _check_is_a_view(Observation o):
    # An observation must be what observe() gives its seat of some full state: a view that shows what
    # that seat cannot see (another seat's hand filled in, or a view relabelled with another observer)
    # or hides what it can see is not one. Observing one full state consistent with it must give it back.
    if o.determinize(0).observation(o.observer) != o:
        raise StateFormatError(
            f"field 'state': not a view seat {o.observer} can have of any position (it shows what that "
            "seat cannot see, or hides what it can)"
        )


cdef uint64_t _checked_seed(seed) except? 0:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return <uint64_t>seed


def _parse_json(text):
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateFormatError(f"not UTF-8: {exc}") from None
    if not isinstance(text, str):
        raise StateFormatError(f"expected JSON text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise StateFormatError(f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise StateFormatError("the top level must be a JSON object")
    return data


def _field(dict data, str key, kind):
    # a top-level field of a document: present, and a dict (object) or an int
    if key not in data:
        raise StateFormatError(f"missing field '{key}'")
    if kind is int:
        return read_int(data[key], key, -(1 << 63), (1 << 63) - 1)
    if type(data[key]) is not dict:
        fail(key, f"{show(data[key])} is not an object")
    return data[key]  # its own keys are checked by the game's loader


cdef list _legal_list(const GameOps* ops, const void* ptr):
    cdef action_t* buf = <action_t*>malloc(sizeof(action_t) * ops.max_legal_actions)
    if buf == NULL:
        raise MemoryError()
    cdef int n, i
    try:
        with nogil:
            n = ops.legal_actions(ptr, buf)
        return [buf[i] for i in range(n)]
    finally:
        free(buf)


def _describe(Position p, action, list legal):
    cdef Game game = p.game
    if isinstance(action, bool) or not isinstance(action, int):
        raise TypeError(f"action must be an int id, got {type(action).__name__}")
    end = game.num_distinct_actions
    if not 0 <= action < end:
        raise ValueError(f"action {action} is outside {game.name} ({game.variant})'s ids [0, {end})")
    if action in legal:
        return game._action_struct(p, action)["label"]
    label = game._describe_illegal(action)
    return f"{label} (not legal here)" if label else f"action {action} (not legal here)"


cdef class Position:
    """What State and Observation share: the game, the struct they own, and the JSON, action-struct and
    render hooks of the game, called with this object."""

    def __dealloc__(self):
        if self.ptr != NULL:
            free(self.ptr)
            self.ptr = NULL

    def raw_bytes(self):
        return (<char*>self.ptr)[:self.game.ops.state_size]

    @property
    def current_player(self):
        return self.game.ops.current_player(self.ptr)

    def is_terminal(self):
        return bool(self.game.ops.is_terminal(self.ptr))

    def _refuse_illegal(self, action):
        raise IllegalActionError(f"action {action!r} is not legal here")

    def action_to_struct(self, int action):
        if action not in self.legal_actions():
            self._refuse_illegal(action)
        return self.game._action_struct(self, action)

    def action_from_struct(self, dict action):
        a = self.game._action_from_struct(self, action)
        if a not in self.legal_actions():
            self._refuse_illegal(action)
        return a

    def action_label(self, int action):
        return self.action_to_struct(action)["label"]

    def describe_action(self, action):
        """A label for any id in [0, game.num_distinct_actions), legal here or not (docs/api.md); from
        an observation when it is not the observer's turn, every id is not legal."""
        return _describe(self, action, self.legal_actions())

    def to_json(self):
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def render(self):
        return self.game._render(self)

    def score_breakdown(self):
        """Where each seat's score comes from, from this position's viewer (Game._score_breakdown)."""
        return self.game._score_breakdown(self)

    def __str__(self):
        return self.render()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        c = self.clone()
        memo[id(self)] = c
        return c

    def __eq__(self, other):
        return type(other) is type(self) and (<Position>other).game.name == self.game.name and \
            (<Position>other).observer == self.observer and other.raw_bytes() == self.raw_bytes()

    def __hash__(self):
        return hash((self.game.name, self.observer, self.raw_bytes()))


cdef class State(Position):
    """A full game state: what a referee sees. Never hand it to a player; use observation()."""

    def __reduce__(self):
        return (_restore_state, (self.game.name, self.game.num_players, self.game.variant, self.raw_bytes()))

    def legal_actions(self):
        if self.game.ops.is_terminal(self.ptr):
            return []
        return _legal_list(self.game.ops, self.ptr)

    def is_legal(self, action):
        if isinstance(action, bool) or not isinstance(action, int):
            return False
        return action in self.legal_actions()

    def apply(self, action):
        """Apply a legal action id. An illegal id raises IllegalActionError and changes nothing."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action must be an int id, got {type(action).__name__}")
        if self.game.ops.is_terminal(self.ptr):
            raise IllegalActionError("the game is over")
        if action not in self.legal_actions():
            raise IllegalActionError(f"action {action} is not legal here")
        cdef action_t a = action
        cdef int rc
        with nogil:
            rc = self.game.ops.apply(self.ptr, a)
        if rc != 0:
            raise RuntimeError(f"{self.game.name}: engine rejected legal action {action}")

    def scores(self):
        cdef double out[MAX_PLAYERS]
        self.game.ops.scores(self.ptr, out)
        return [out[i] for i in range(self.game.num_players)]

    def ranks(self):
        cdef int out[MAX_PLAYERS]
        self.game.ops.ranks(self.ptr, out)
        return [out[i] for i in range(self.game.num_players)]

    def returns(self):
        """Per seat, in [0, 1]: the game's outcome (by default the share of opponents this seat finishes
        ahead of, ties half; solo and team games define their own, see the game's rules doc)."""
        cdef double out[MAX_PLAYERS]
        compute_returns(self.game.ops, self.ptr, out)
        return [out[i] for i in range(self.game.num_players)]

    def utilities(self):
        """returns() in OpenSpiel's utility convention (docs/api.md, "Utilities"): with two or more seats
        2 * return - 1 per seat, so a win is 1, a loss -1, a tie 0 and the values sum to 0 (rank and team
        returns always sum to num_players / 2); a solo game's utility is its return itself."""
        values = self.returns()
        if self.game.num_players == 1:
            return values
        return [2.0 * v - 1.0 for v in values]

    def evaluate(self):
        """The game's heuristic value per seat in [0, 1] (exact returns once terminal)."""
        cdef double out[MAX_PLAYERS]
        if self.game.ops.is_terminal(self.ptr):
            compute_returns(self.game.ops, self.ptr, out)
        else:
            self.game.ops.evaluate(self.ptr, out)
        return [out[i] for i in range(self.game.num_players)]

    def clone(self):
        cdef State c = new_state(self.game)
        memcpy(c.ptr, self.ptr, self.game.ops.state_size)
        return c

    def observation(self, int player):
        if not 0 <= player < self.game.num_players:
            raise ValueError(f"player {player} is not a seat of a {self.game.num_players}-player game")
        cdef Observation o = new_observation(self.game, player)
        with nogil:
            self.game.ops.observe(self.ptr, player, o.ptr)
        return o

    def public_observation(self):
        """What a spectator sees: every seat's private information hidden (observer PUBLIC_VIEWER)."""
        cdef int viewer = PUBLIC_VIEWER
        cdef Observation o = new_observation(self.game, viewer)
        with nogil:
            self.game.ops.observe(self.ptr, viewer, o.ptr)
        return o

    def move_label(self, int action, int viewer):
        """The label of `action` (legal here, for the seat to move) as `viewer` sees it: a seat, or
        PUBLIC_VIEWER for spectators. The seat to move gets its full label (action_label); any other
        viewer a label built from its own view of this position (observation(viewer) or
        public_observation()), so it names nothing that viewer cannot see."""
        if action not in self.legal_actions():
            self._refuse_illegal(action)
        mover = self.current_player
        if viewer == mover:
            return self.action_label(action)
        if viewer == PUBLIC_VIEWER:
            view = self.public_observation()
        else:
            view = self.observation(viewer)
        return str(self.game._move_label(view, mover, action))

    def determinize(self, int observer, seed):
        """A new full state that `observer` cannot tell apart from this one (this state is untouched)."""
        return self.observation(observer).determinize(seed)

    def playout(self, seed, bint use_policy=False):
        """Play to the end in place with the default policy; returns the number of moves made."""
        cdef Rng rng
        rng_seed(&rng, _checked_seed(seed))
        cdef const GameOps* ops = self.game.ops
        cdef action_t* buf = <action_t*>malloc(sizeof(action_t) * ops.max_legal_actions)
        cdef int moves
        if buf == NULL:
            raise MemoryError()
        try:
            with nogil:
                if ops.playout != NULL and not use_policy:
                    moves = ops.playout(self.ptr, &rng, ops.max_game_length)
                else:
                    moves = generic_playout(ops, self.ptr, &rng, ops.max_game_length, buf, use_policy)
        finally:
            free(buf)
        if moves < 0:
            raise RuntimeError(f"{self.game.name}: playout reached a state without legal actions")
        return moves

    def to_dict(self):
        d = self.game._header("state")
        d["state"] = self.game._dump_payload(self)
        return d


cdef class Observation(Position):
    """What one seat knows: public information plus that seat's private information."""

    @property
    def player(self):
        """The observing seat."""
        return self.observer

    def _refuse_illegal(self, action):
        raise IllegalActionError(f"action {action!r} is not legal for seat {self.observer} here")

    def __reduce__(self):
        return (_restore_observation, (self.game.name, self.game.num_players, self.game.variant,
                                       self.observer, self.raw_bytes()))

    def determinize(self, seed):
        """A full state consistent with this observation, the unknowns resampled from `seed`."""
        if self.observer == PUBLIC_VIEWER:
            raise ValueError("a spectator's view has no seat to determinize for")
        cdef Rng rng
        rng_seed(&rng, _checked_seed(seed))
        cdef State s = new_state(self.game)
        memcpy(s.ptr, self.ptr, self.game.ops.state_size)
        with nogil:
            self.game.ops.determinize(s.ptr, self.observer, &rng)
        return s

    def legal_actions(self):
        """The observer's legal actions when it is the observer's turn, else []."""
        if self.is_terminal() or self.current_player != self.observer:
            return []
        return self.determinize(0).legal_actions()

    def info_key(self):
        """A compact exact key of what this seat knows: equal keys exactly when the observations are
        equal (same game, variant, players, seat and observation struct; docs/api.md)."""
        cdef Game g = self.game
        head = f"{g.name}/{g.variant}/{g.num_players}/{self.observer}:".encode()
        return head + self.raw_bytes()

    def tensor(self):
        """orrery.core_ext.observation_tensor(self): this seat's view as a float32 vector of the game's
        fixed shape (layout: the game's rules doc, "Observation tensor")."""
        from orrery.core_ext._tensor import observation_tensor
        return observation_tensor(self)

    def clone(self):
        cdef Observation c = new_observation(self.game, self.observer)
        memcpy(c.ptr, self.ptr, self.game.ops.state_size)
        return c

    def to_dict(self):
        d = self.game._header("observation")
        d["observer"] = self.observer
        d["state"] = self.game._dump_payload(self)
        return d
