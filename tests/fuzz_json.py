"""The JSON-loader fuzzing shared by tests/test_fuzz_<game>.py (issue 12, part 3; docs/fuzzing.md).

Seeds are states from seeded random games; hypothesis mutates their JSON (and their observations'),
then `check_state_input` / `check_observation_input` feed the result to the loader. Every input must be
either refused with StateFormatError or load into a position whose own JSON loads again (equal) and
which plays to the end, every position on the way loading again too. Anything else (another exception,
a crash, a sanitizer report under tests/asan/run.sh) is a bug.

ORRERY_FUZZ_EXAMPLES sets the number of examples per test (default: a bounded run for the suite);
ORRERY_FUZZ_DUMP names a file that receives each mutated document before it is tried;
ORRERY_FUZZ_MODULES_UNDER makes sure the compiled modules come from that folder (the sanitized build).
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from orrery.core_ext import StateFormatError
from orrery.search import Budget, get_config, search_observation

EXAMPLES = int(os.environ.get("ORRERY_FUZZ_EXAMPLES", "0")) or None


def _check_modules_under(folder: str) -> None:
    """tests/asan/run.sh sets ORRERY_FUZZ_MODULES_UNDER: the fuzzing must run the sanitized build."""
    import orrery.core_ext.kuhn.engine
    import orrery.core_ext.trian.engine
    import orrery.search._kernel

    for module in (orrery.core_ext.kuhn.engine, orrery.core_ext.trian.engine, orrery.search._kernel):
        assert str(module.__file__).startswith(folder), f"{module.__name__} comes from {module.__file__}"


if os.environ.get("ORRERY_FUZZ_MODULES_UNDER"):
    _check_modules_under(os.environ["ORRERY_FUZZ_MODULES_UNDER"])

# Values a mutation may write: edges of every range the formats use (tile ids 0..83, stacks of 42,
# 48 nebulas, uint8/int16/int32/uint64 limits, seats), then other JSON types.
EDGE_INTEGERS = (-(2**63), -129, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 22, 30, 31, 41, 42, 43)
EDGE_INTEGERS += (47, 48, 49, 83, 84, 85, 99, 100, 127, 128, 254, 255, 256, 32767, 32768, 65535, 65536)
EDGE_INTEGERS += (2**31 - 1, 2**31, 2**32, 2**63, 2**64 - 1, 2**64, 10**30)
MUTATIONS = ("replace", "replace", "nudge", "delete", "duplicate", "transplant", "transplant", "add_key")


def fuzz_settings(default_examples: int) -> Any:
    """Deterministic and bounded: the same inputs on every run, no example database, no deadline."""
    return settings(
        derandomize=True,
        database=None,
        max_examples=EXAMPLES or default_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@dataclass(frozen=True)
class Seed:
    """A JSON document to mutate, the other documents of its kind (donors of subtrees), the words its
    format uses, and how to feed it to the loader."""

    document: dict
    donors: tuple[dict, ...]
    words: tuple[str, ...]
    check: Callable[[dict, int], bool]


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path (keys and indexes) into a JSON document, containers included, the root excluded."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, child in items:
        yield (*prefix, key)
        yield from paths(child, (*prefix, key))


def walk(document: Any, path: tuple) -> Any:
    for key in path:
        document = document[key]
    return document


def words_of(documents: list[dict]) -> tuple[str, ...]:
    """Every key and string value the documents use: mutations write these to reach deep checks."""
    found: set[str] = set()
    for document in documents:
        for path in paths(document):
            found.add(str(path[-1]))
            value = walk(document, path)
            if isinstance(value, str):
                found.add(value)
    return tuple(sorted(found))


def values(original: Any, words: tuple[str, ...]) -> st.SearchStrategy:
    near = st.integers(-3, 3).map(lambda d: original + d) if type(original) is int else st.nothing()
    return st.one_of(
        st.sampled_from(EDGE_INTEGERS),
        near,
        st.sampled_from(words),
        st.sampled_from((None, True, False, 0.0, 1.0, 1.5, -0.0, "", "0", [], {}, [0], {"x": 0, "y": 0})),
    )


def mutate(data: st.DataObject, seed: Seed) -> dict:
    """The seed's document after 1 to 3 mutations drawn from `data`."""
    document = copy.deepcopy(seed.document)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        all_paths = list(paths(document))
        if not all_paths:
            break
        path = data.draw(st.sampled_from(all_paths), label="path")
        _apply(data, document, path, data.draw(st.sampled_from(MUTATIONS), label="mutation"), seed)
    if os.environ.get("ORRERY_FUZZ_DUMP"):
        with open(os.environ["ORRERY_FUZZ_DUMP"], "w") as out:  # the last input tried: after a failure,
            json.dump(document, out)  # the shrunk failing one
    return document


def _apply(data: st.DataObject, document: dict, path: tuple, mutation: str, seed: Seed) -> None:
    parent, key = walk(document, path[:-1]), path[-1]
    value = parent[key]
    if mutation == "replace" or (mutation == "nudge" and type(value) is not int):
        parent[key] = data.draw(values(value, seed.words), label="value")
    elif mutation == "nudge":
        parent[key] = value + data.draw(st.sampled_from((-2, -1, 1, 2)), label="delta")
    elif mutation == "delete":
        del parent[key]
    elif mutation == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif mutation == "add_key" and isinstance(value, dict):
        value[data.draw(st.sampled_from(seed.words), label="key")] = data.draw(values(0, seed.words))
    elif mutation == "transplant" and seed.donors:
        donor = data.draw(st.sampled_from(seed.donors), label="donor")
        try:
            parent[key] = copy.deepcopy(walk(donor, path))
        except (KeyError, IndexError, TypeError):
            parent[key] = copy.deepcopy(donor.get("state", donor))


# ---------------------------------------------------------------- what an accepted input must do


def check_state_input(game: Any, document: dict, seed: int) -> bool:
    """False if refused with StateFormatError; else the loaded state round-trips and plays to the end."""
    try:
        state = game.state_from_json(json.dumps(document))
    except StateFormatError:
        return False
    assert game.state_from_json(state.to_json()) == state, "its own JSON must load back equal"
    play(game, state, seed)
    return True


def check_observation_input(game: Any, document: dict, seed: int) -> bool:
    """As check_state_input, for observations: besides, a determinization of it is a valid full state
    that the observer cannot tell apart, and a search from it runs."""
    try:
        observation = game.observation_from_dict(json.loads(json.dumps(document)))
    except StateFormatError:
        return False
    assert game.observation_from_json(observation.to_json()) == observation
    observation.render()
    for action in observation.legal_actions():
        observation.action_to_struct(action)
    sample = observation.determinize(seed)
    assert sample.observation(observation.player) == observation, "determinize changed what it saw"
    assert game.state_from_json(sample.to_json()) == sample, "a determinization is a valid full state"
    if not observation.is_terminal() and observation.current_player == observation.player:
        result = search_observation(observation, get_config("ismcts"), Budget(iterations=6), seed=seed)
        assert result.best_action in observation.legal_actions()
    play(game, sample, seed)
    return True


def play(game: Any, state: Any, seed: int) -> None:
    """Random moves (each described, every position loading back from its JSON), then playouts."""
    rng = random.Random(seed)
    for _ in range(rng.randint(0, 24)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, "a position that is not over has a legal action"
        action = rng.choice(legal)
        state.action_to_struct(action)
        state.apply(action)
        assert game.state_from_json(state.to_json()) == state, "every position reached loads back"
        for seat in range(game.num_players):
            observation = state.observation(seat)
            assert game.observation_from_json(observation.to_json()) == observation
    state.render()
    policy = state.clone()
    policy.playout(seed, use_policy=True)
    assert policy.is_terminal() and len(policy.returns()) == game.num_players
    state.playout(seed)
    assert state.is_terminal()
    assert game.state_from_json(state.to_json()) == state


def random_positions(game: Any, seeds: range, keep: Callable[[Any], Any], steps: int = 2000) -> list[Any]:
    """States along seeded random games, one per distinct keep(state) value (None: skip), plus each end."""
    found: dict[Any, Any] = {}
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            key = keep(state)
            if key is not None and key not in found:
                found[key] = state.clone()
            legal = state.legal_actions()
            state.apply(legal[0] if len(legal) > 1 and rng.random() < 0.4 else rng.choice(legal))
        found.setdefault(("end", seed), state.clone())
    return list(found.values())


def check_one_mutation(data: st.DataObject, pool: tuple[Seed, ...]) -> None:
    """One fuzz example: mutate a seed drawn from `pool`, then load it and play on (Seed.check)."""
    seed = data.draw(st.sampled_from(pool), label="seed")
    accepted = seed.check(mutate(data, seed), data.draw(st.integers(0, 2**32 - 1), label="play seed"))
    event("accepted" if accepted else "refused")
