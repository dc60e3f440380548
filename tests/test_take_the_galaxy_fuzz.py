"""Take The Galaxy loader fuzz: mutated states and observations are refused cleanly or play on.

Every mutated input is either rejected with StateFormatError, or yields a state whose own JSON loads
again and which plays to the end (observations: after determinize). An accepted input re-serialises to
itself (zero entries of the name -> count objects aside, which the format may omit): the loader
recomputes nothing it then writes differently (issue 26, docs/rules/take_the_galaxy.md section 9).
"""

import json
import random

import hypothesis
from fuzz_json import fuzz_settings
from hypothesis import strategies as st

from orrery.core_ext import StateFormatError, load_game

NAMES = [
    "Settlement",
    "Metropolis",
    "Scout",
    "Kepler-7",
    "Haven",
    "Space Pirates",
    "Dyson Remnant",
    "nonsense",
]
VALUES = st.one_of(
    st.integers(-3, 300),
    st.booleans(),
    st.none(),
    st.sampled_from(NAMES),
    st.builds(list),
    st.builds(dict),
    st.text(max_size=3),
    st.just(2**64),
    st.just(-(2**63)),
)


def _positions(players, variant):
    g = load_game("take_the_galaxy", players=players, variant=variant)
    out = []
    for seed in range(3):
        rng = random.Random(seed)
        s = g.new_initial_state(seed=seed)
        for _ in range(rng.randrange(0, 150)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        out.append(s)
    return g, out


GAMES = {key: _positions(*key) for key in ((2, "standard"), (4, "team"), (1, "random"))}


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _mutate(doc, data):
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc["state"]) if p]
        path = data.draw(st.sampled_from(paths))
        node = doc["state"]
        for key in path[:-1]:
            node = node[key]
        action = data.draw(st.sampled_from(["set", "delete", "append"]))
        last = path[-1]
        if action == "set":
            node[last] = data.draw(VALUES)
        elif action == "delete":
            del node[last]
        elif isinstance(node[last], list):
            node[last].append(data.draw(VALUES))
    return doc


def _without_zeros(node):
    # pool, bounty and hand leave zero entries out
    if isinstance(node, dict):
        return {
            k: {n: c for n, c in v.items() if c != 0}
            if k in COUNTED and isinstance(v, dict)
            else _without_zeros(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_without_zeros(v) for v in node]
    return node


COUNTED = ("pool", "bounty", "hand")


def _same_json(doc, loaded):
    assert _without_zeros(loaded.to_dict()) == _without_zeros(doc)


def _plays_on(g, state):
    again = g.state_from_json(state.to_json())
    assert again == state
    again.playout(seed=1)
    assert again.is_terminal()


@fuzz_settings(150)
@hypothesis.given(st.sampled_from(sorted(GAMES)), st.integers(0, 2), st.data())
def test_mutated_states(key, index, data):
    g, states = GAMES[key]
    doc = _mutate(json.loads(states[index].to_json()), data)
    try:
        state = g.state_from_json(json.dumps(doc))
    except StateFormatError:
        return
    _same_json(doc, state)
    _plays_on(g, state)


@fuzz_settings(150)
@hypothesis.given(st.sampled_from(sorted(GAMES)), st.integers(0, 2), st.data())
def test_mutated_observations(key, index, data):
    g, states = GAMES[key]
    seat = data.draw(st.integers(0, g.num_players - 1))
    doc = _mutate(states[index].observation(seat).to_dict(), data)
    try:
        obs = g.observation_from_dict(doc)
    except StateFormatError:
        return
    _same_json(doc, obs)
    state = obs.determinize(seed=3)
    _plays_on(g, state)
