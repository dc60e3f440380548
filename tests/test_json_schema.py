"""The JSON Schemas shipped in the package (core_ext/<game>/state.schema.json) describe what each game
writes: every state and every seat's observation along seeded random games validates, in every variant
and at every player count, and the schemas refuse what the loaders refuse for its shape."""

from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator, ValidationError
from test_fuzz_trian import seeds as fuzz_seeds

from orrery.core_ext import load_game, registered_games
from orrery.core_ext.schemas import load_schema

CASES = [
    (info.name, variant, n)
    for info in registered_games()
    for variant in info.variants
    for n in info.players_for(variant)
]


def positions(game, seed: int, steps: tuple[int, ...]):
    """The positions of a seeded random game after each number of `steps` (while it lasts), and its end."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for step in range(max(steps) + 1):
        if state.is_terminal():
            break
        if step in steps:
            yield state.clone()
        state.apply(rng.choice(state.legal_actions()))
    state.playout(seed)
    yield state


def test_every_registered_game_ships_a_valid_schema():
    for info in registered_games():
        Draft202012Validator.check_schema(load_schema(info.name))


@pytest.mark.parametrize("name,variant,players", CASES, ids=[f"{g}-{v}-{n}p" for g, v, n in CASES])
def test_states_and_observations_of_random_games_validate(name, variant, players):
    game = load_game(name, players=players, variant=variant)
    schema = load_schema(name)
    validator = Draft202012Validator(schema)
    # a schema describes the whole document (Trian, Kuhn) or only its `state` payload
    whole = "format" in json.dumps(schema.get("properties", {})) or "if" in schema
    for state in positions(game, seed=1, steps=(0, 30, 120)):
        for document in [state.to_dict()] + [state.observation(seat).to_dict() for seat in range(players)]:
            validator.validate(json.loads(json.dumps(document if whole else document["state"])))


def test_every_kind_of_trian_decision_validates():
    # the fuzzing seeds: one position per kind of decision (battles, ship battles, racial steps)
    validator = Draft202012Validator(load_schema("trian"))
    states, observations = fuzz_seeds()
    for seed in states + observations:
        validator.validate(seed.document)


def test_the_schema_refuses_unknown_fields_hidden_values_in_a_state_and_the_retired_format():
    game = load_game("trian", players=2, variant="full")
    validator = Draft202012Validator(load_schema("trian"))
    document = json.loads(game.new_initial_state(3).to_json())
    for change in (
        lambda d: d["state"].update(hkey=[0] * 512),
        lambda d: d["state"].pop("random_streams"),
        lambda d: d["state"]["stacks"][0].pop("tiles"),
        lambda d: d["state"]["players"][0].update(credits=-1),
        lambda d: d.update(format="orrery.state/1"),
    ):
        wrong = json.loads(json.dumps(document))
        change(wrong)
        with pytest.raises(ValidationError):
            validator.validate(wrong)
