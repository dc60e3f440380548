"""The observation tensor of every registered game, variant and player count (issue 19).

tests/conformance.py check_observation_tensor covers shape, dtype, range and "a function of the
observation only" along random games; this file checks that the tensor tells observations apart, that
seats' tensors differ where their views differ, the documented layout, and a few values by hand.

Regenerate the layout tables in docs/rules/<game>.md after changing an encoder:
    .venv/bin/python -m tests.test_observation_tensor --write
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from orrery.core_ext import (
    UnknownGameError,
    load_game,
    observation_tensor,
    observation_tensor_shape,
    registered_games,
)
from orrery.core_ext._tensor import MAX_SEATS, SELF, Maybe, Obj, Seq, tensor_spec

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
BEGIN, END = (
    "<!-- observation-tensor-layout: begin (generated) -->",
    "<!-- observation-tensor-layout: end -->",
)


def every_game():
    return [
        pytest.param(info.name, variant, n, id=f"{info.name}-{variant}-{n}p")
        for info in registered_games()
        for variant in info.variants
        for n in info.players_for(variant)
    ]


def sampled_observations(game, seeds, max_steps):
    """(state, [observation per seat]) along seeded random games."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(max_steps):
            yield state, [state.observation(p) for p in range(game.num_players)]
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,variant,players", every_game())
def test_different_observations_give_different_tensors(name, variant, players):
    """The tensor is a function of the observation (equal info keys: equal tensors) that tells apart the
    observations met along random games: at most 2% of distinct observations share a tensor."""
    game = load_game(name, players=players, variant=variant)
    tensor_of_key: dict[bytes, bytes] = {}
    for _, observations in sampled_observations(game, seeds=range(2), max_steps=60):
        for obs in observations:
            tensor = observation_tensor(obs).tobytes()
            assert tensor_of_key.setdefault(obs.info_key(), tensor) == tensor
    distinct_tensors = len(set(tensor_of_key.values()))
    assert distinct_tensors >= 0.98 * len(tensor_of_key), (distinct_tensors, len(tensor_of_key))


@pytest.mark.parametrize("name,variant,players", [p for p in every_game() if p.values[2] > 1])
def test_seats_tensors_differ_where_their_views_differ(name, variant, players):
    """Two seats whose views of one position differ get different tensors, even without the observer's
    seat number (the first MAX_SEATS floats): what each sees, seat-relative, tells them apart."""
    game = load_game(name, players=players, variant=variant)
    pairs = same = 0
    for _, observations in sampled_observations(game, seeds=range(2), max_steps=40):
        tensors = [observation_tensor(obs)[MAX_SEATS:] for obs in observations]
        views = [obs.to_dict()["state"] for obs in observations]
        for a in range(players):
            for b in range(a + 1, players):
                if views[a] != views[b]:
                    pairs += 1
                    same += np.array_equal(tensors[a], tensors[b])
    assert pairs and same == 0, f"{same} of {pairs} seat pairs got the same tensor"


@pytest.mark.parametrize("name,variant,players", every_game())
def test_shape_is_fixed_per_game_variant_and_player_count(name, variant, players):
    spec = tensor_spec(name)
    shape = observation_tensor_shape(name, variant=variant, num_players=players)
    blocks = 2 if name == "tiny_epic_galaxies" and players == 1 else players  # the solo Rogue's block
    assert shape == (spec.global_part.size + blocks * spec.seat_block.size,)
    game = load_game(name, players=players, variant=variant)
    assert observation_tensor(game.new_initial_state(seed=3).observation(0)).shape == shape


def keys_left_out(node, value, path: str):
    """Paths of object keys in `value` that the encoder tree `node` does not read."""
    if isinstance(node, Obj) and isinstance(value, dict):
        listed = dict(node.fields)
        read_whole = ("x", "y") if SELF in listed else ()  # a cell written inline: its x and y
        for key, item in value.items():
            if key not in listed and key not in read_whole:
                yield f"{path}.{key}"
            elif key in listed and item is not None:
                yield from keys_left_out(listed[key], item, f"{path}.{key}")
    elif isinstance(node, Seq) and isinstance(value, list):
        for i, item in enumerate(value):
            if item is not None:
                yield from keys_left_out(node.item, item, f"{path}[{i}]")
    elif isinstance(node, Maybe):
        yield from keys_left_out(node.node, value, path)


@pytest.mark.parametrize("name,variant,players", every_game())
def test_every_fact_of_the_observation_is_encoded(name, variant, players):
    """No key of the observation payload is skipped by the encoders (but the documented constants), so a
    fact a game adds later fails here until its tensor reads it."""
    spec = tensor_spec(name)
    game = load_game(name, players=players, variant=variant)
    left_out = set()
    for _, observations in sampled_observations(game, seeds=range(2), max_steps=80):
        for obs in observations:
            payload = obs.to_dict()["state"]
            rest = {k: v for k, v in payload.items() if k not in spec.not_encoded and k != spec.seats_key}
            left_out.update(keys_left_out(spec.global_part, rest, ""))
            for seat in payload[spec.seats_key]:
                left_out.update(keys_left_out(spec.seat_block, seat, f"{spec.seats_key}[k]"))
    assert not left_out, f"observation facts the tensor does not encode: {sorted(left_out)}"


def test_a_state_is_not_an_observation():
    state = load_game("kuhn", players=2).new_initial_state(seed=0)
    with pytest.raises(TypeError, match="takes an Observation"):
        observation_tensor(state)


def test_shape_rejects_what_the_registry_does_not_offer():
    with pytest.raises(UnknownGameError):
        observation_tensor_shape("chess", num_players=2)
    with pytest.raises(ValueError, match="unknown variant"):
        observation_tensor_shape("trian", variant="nope", num_players=2)
    with pytest.raises(ValueError, match="players not supported"):
        observation_tensor_shape("kuhn", variant="teams", num_players=3)
    assert observation_tensor_shape("kuhn", num_players=2) == observation_tensor_shape(
        "kuhn", variant="standard", num_players=2
    )


def documented_layout(name: str) -> str:
    text = (DOCS / f"{name}.md").read_text()
    assert "Observation tensor" in text, f"docs/rules/{name}.md has no 'Observation tensor' section"
    start, end = text.find(BEGIN), text.find(END)
    assert 0 <= start < end, f"docs/rules/{name}.md: layout markers missing"
    return text[start + len(BEGIN) : end].strip("\n") + "\n"


@pytest.mark.parametrize("info", registered_games(), ids=lambda info: info.name)
def test_rules_doc_documents_the_layout_the_code_writes(info):
    layout = documented_layout(info.name)
    assert layout == tensor_spec(info.name).markdown(), (
        f"docs/rules/{info.name}.md is stale: python -m tests.test_observation_tensor --write"
    )
    # the documented sizes add up to the shape at every player count
    global_size, block_size = map(
        int, re.search(r"Global part: (\d+) floats.*?block of (\d+) floats", layout).groups()
    )
    top_rows = [r for r in re.findall(r"^\| (\d+) \| (\d+) \|", layout, re.M)]
    assert sum(int(size) for offset, size in top_rows if int(offset) < global_size) == global_size
    for variant in info.variants:
        for n in info.players_for(variant):
            blocks = 2 if info.name == "tiny_epic_galaxies" and n == 1 else n
            shape = observation_tensor_shape(info.name, variant=variant, num_players=n)
            assert shape == (global_size + blocks * block_size,)


def test_kuhn_tensor_by_hand():
    game = load_game("kuhn", players=3)
    state = game.new_initial_state(seed=1)
    state.apply(1)  # seat 0 bets
    cards = state.to_dict()["state"]["cards"]
    obs = state.observation(1)
    tensor = observation_tensor(obs)
    expected = np.zeros(MAX_SEATS + 8 * 3 + 3 * 6, dtype=np.float32)
    expected[1] = 1  # observer: seat 1
    expected[MAX_SEATS + 0] = 1  # history[0] exists
    expected[MAX_SEATS + 2] = 1  # ... and is 1 (bet)
    expected[MAX_SEATS + 24 + cards[1]] = 1  # block 0: the observer's own card; the others are hidden
    assert np.array_equal(tensor, expected)


def test_trian_tensor_puts_the_observers_facts_first():
    game = load_game("trian", players=3, variant="full")
    state = game.new_initial_state(seed=5)
    state.playout(seed=5)
    spec = tensor_spec("trian")
    players = state.to_dict()["state"]["players"]
    for observer in range(3):
        tensor = observation_tensor(state.observation(observer))
        for k in range(3):
            block = spec.global_part.size + k * spec.seat_block.size
            credits = players[(observer + k) % 3]["credits"]
            assert tensor[block] == pytest.approx(min(1.0, credits / 50))


def test_hidden_facts_do_not_reach_the_tensor():
    """Take The Galaxy: another seat's hand is hidden, so swapping it (a determinization) keeps seat 0's
    tensor, while seat 0's own hand shows."""
    game = load_game("take_the_galaxy", players=2)
    state = game.new_initial_state(seed=2)
    rng = random.Random(2)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    tensor = observation_tensor(obs)
    changed = 0
    for seed in range(8):
        sample = state.determinize(0, seed=seed)
        changed += (
            sample.to_dict()["state"]["players"][1]["hand"] != state.to_dict()["state"]["players"][1]["hand"]
        )
        assert np.array_equal(observation_tensor(sample.observation(0)), tensor)
    assert changed, "the determinizations never changed the hidden hand"


def test_observation_method_is_the_function():
    state = load_game("take_the_galaxy", players=3).new_initial_state(seed=4)
    for p in range(3):
        obs = state.observation(p)
        assert np.array_equal(obs.tensor(), observation_tensor(obs))


def test_bench_tensor_reports_the_build_cost():
    from orrery.core_ext._cli import bench_tensor

    result = bench_tensor("kuhn", 3, None, 0.01, 5)
    assert result["bench"] == "tensor" and result["floats"] == 29 + 3 * 6
    assert result["tensors"] >= 100 and result["microseconds_per_tensor"] > 0


def write_docs() -> None:
    for info in registered_games():
        path = DOCS / f"{info.name}.md"
        text = path.read_text()
        start, end = text.find(BEGIN), text.find(END)
        if not 0 <= start < end:
            raise SystemExit(f"{path}: add the layout markers to its 'Observation tensor' section first")
        path.write_text(text[: start + len(BEGIN)] + "\n" + tensor_spec(info.name).markdown() + text[end:])


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write_docs()


def test_a_spectators_view_has_no_seat_relative_tensor():
    state = load_game("kuhn", players=3).new_initial_state(seed=2)
    with pytest.raises(ValueError, match="spectator"):
        observation_tensor(state.public_observation())
