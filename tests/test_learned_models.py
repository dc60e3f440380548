"""Model files as part of the product (issue 31, part 4; docs/learning.md "Shipped models"): the model file
ties a network to its game's catalogue revision and feature layout, the shipped models are listed (by
`orrery games`; ListGames is tested in test_service.py) only where this build can use them, and a search
config asking for `evaluation = "learned"` is refused, naming the field, where no model is shipped."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace

import numpy as np
import pytest

from orrery.core_ext import load_game
from orrery.core_ext.trian import features as trian_features
from orrery.search import (
    Budget,
    SearchConfig,
    check_evaluation,
    get_config,
    learned_preset,
    search_observation,
    shipped_models,
)
from orrery.search._config import _preset
from orrery.search._learned import ValueNetwork, model_path
from orrery.search._model import (
    FORMAT_VERSION,
    Model,
    ModelFormatError,
    check_model_matches,
    decode_model,
    encode_model,
)
from orrery.search._shipped import STRENGTH_VERDICTS, learned_model_problem, shipped_index
from orrery.service._config_check import SearchConfigError, check_server_configs
from orrery.service.cli import main

TRIAN = load_game("trian", players=2, variant="full")
CATALOGUE = TRIAN._catalogue_revision()
SHIPPED = model_path("trian", "full", 2)


def _model(catalogue: str | None = CATALOGUE, layout: int = trian_features.LAYOUT_VERSION) -> Model:
    rng = np.random.default_rng(1)
    sizes = (trian_features.num_features(2), 4, 2)
    weights = tuple(
        rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:], strict=False)
    )
    biases = tuple(np.zeros(b, np.float32) for b in sizes[1:])
    return Model("trian", "full", 2, layout, True, weights, biases, catalogue=catalogue)


# ---- the file records the catalogue revision ----


def test_version_2_records_the_catalogue_and_version_1_still_reads():
    v2 = encode_model(_model())
    assert int.from_bytes(v2[8:10], "little") == FORMAT_VERSION == 2
    assert CATALOGUE.encode() in v2 and decode_model(v2).catalogue == CATALOGUE
    v1 = encode_model(_model(catalogue=None))
    assert int.from_bytes(v1[8:10], "little") == 1 and len(v1) == len(v2) - 1 - len(CATALOGUE)
    back = decode_model(v1)
    assert back.catalogue is None and back.format_version == 1 and encode_model(back) == v1


def test_a_model_of_another_catalogue_revision_or_none_is_refused_by_the_game():
    ValueNetwork(_model(), TRIAN)  # the game's own revision binds
    with pytest.raises(ModelFormatError, match=r"trained with catalogue 'orrery.trian-tiles/2@1'.*retrain"):
        ValueNetwork(_model(catalogue="orrery.trian-tiles/2@1"), TRIAN)
    with pytest.raises(ModelFormatError, match=r"format version 1\) records no catalogue revision"):
        ValueNetwork(_model(catalogue=None), TRIAN)
    with pytest.raises(ModelFormatError, match="feature layout version 7"):
        ValueNetwork(_model(layout=7), TRIAN)


def test_a_game_without_a_catalogue_takes_an_empty_or_unrecorded_revision_only():
    fields = dict(game="trian", variant="full", players=2, layout_version=trian_features.LAYOUT_VERSION)
    fields["num_features"] = trian_features.num_features(2)
    for recorded in ("", None):
        check_model_matches(_model(catalogue=recorded), **fields, catalogue=None)
    with pytest.raises(ModelFormatError, match="has no catalogue"):
        check_model_matches(_model(), **fields, catalogue=None)


def test_the_shipped_model_records_its_catalogue_and_training():
    """The shipped file carries the catalogue revision its games were dealt with, and its manifest says how
    it was trained (issue 31 part 4). A file converted from format 1 by `orrery train stamp` also keeps
    the trained file's SHA-256: dropping the stamp gives back those exact bytes."""
    manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
    model = decode_model(SHIPPED.read_bytes())
    assert (model.format_version, model.catalogue) == (manifest["format_version"], manifest["catalogue"])
    assert model.catalogue == CATALOGUE
    assert hashlib.sha256(SHIPPED.read_bytes()).hexdigest() == manifest["sha256"]
    if "stamped_from" in manifest:
        trained = encode_model(replace(model, catalogue=None))
        assert hashlib.sha256(trained).hexdigest() == manifest["stamped_from"]["sha256"]
        assert len(trained) == manifest["stamped_from"]["bytes"]
    assert manifest["training_command"].startswith("orrery train fit")
    assert manifest["data"]["games"] > 0 and manifest["data"]["positions"] > 0
    assert manifest["date"].endswith("Z") and manifest["layout_version"] == trian_features.LAYOUT_VERSION


def test_stamping_is_deterministic_and_refuses_a_stamped_file(tmp_path):
    manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
    trained = encode_model(replace(decode_model(SHIPPED.read_bytes()), catalogue=None))
    old = {k: v for k, v in manifest.items() if k not in ("catalogue", "stamped_from")}
    old.update(format_version=1, bytes=len(trained), sha256=hashlib.sha256(trained).hexdigest())
    path = tmp_path / SHIPPED.name
    path.write_bytes(trained)
    path.with_suffix(".json").write_text(json.dumps(old, indent=2) + "\n")
    assert main(["train", "stamp", str(path), "--catalogue", CATALOGUE]) == 0
    assert path.read_bytes() == SHIPPED.read_bytes()
    stamped = json.loads(path.with_suffix(".json").read_text())
    assert stamped.pop("stamped_from") == {
        "format_version": 1,
        "bytes": len(trained),
        "sha256": old["sha256"],
    }
    assert stamped == {k: v for k, v in manifest.items() if k != "stamped_from"}
    with pytest.raises(SystemExit, match="already records catalogue"):
        main(["train", "stamp", str(path), "--catalogue", CATALOGUE])


# ---- the shipped list ----


def test_the_shipped_trian_model_is_listed_with_its_manifest():
    trian = [m for m in shipped_models() if m.game == "trian"]
    assert [(m.variant, m.players) for m in trian] == [("full", 2), ("full", 3)]  # sorted by player count
    model = trian[0]
    manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
    assert (model.variant, model.players, model.file_name) == ("full", 2, "trian-full-2p.orrnet")
    assert (model.format_version, model.layout_version, model.catalogue) == (2, 1, CATALOGUE)
    assert model.file_bytes == SHIPPED.stat().st_size and model.sha256 == manifest["sha256"]
    assert model.trained == manifest["date"] and model.training_command == manifest["training_command"]
    assert (model.training_games, model.training_positions) == (
        manifest["data"]["games"],
        manifest["data"]["positions"],
    )
    assert shipped_index().refused == {}
    # what its tournament said (docs/learning.md): stronger at 2,000 iterations a turn, not at 20,000
    assert model.strength == manifest["strength"]["verdict"] == "mixed"
    assert model.strength_summary == manifest["strength"]["summary"]


def test_a_manifest_without_a_strength_lists_the_model_as_unmeasured(tmp_path):
    _copy_shipped(tmp_path, strength=None)
    (model,) = shipped_index(tmp_path).models
    assert (model.strength, model.strength_summary) == ("unmeasured", "")


def test_every_shipped_model_records_how_it_played_against_the_hand_written_evaluation():
    for model in shipped_models():
        assert model.strength in STRENGTH_VERDICTS and model.strength != "unmeasured", model.file_name
        assert "hand-written evaluation" in model.strength_summary and "Elo" in model.strength_summary


def _copy_shipped(folder, **manifest_changes):
    shutil.copy(SHIPPED, folder / SHIPPED.name)
    manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
    manifest.update(manifest_changes)
    (folder / SHIPPED.name).with_suffix(".json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("catalogue", "trained with catalogue 'orrery.trian-tiles/2@1'"),
        ("manifest", "the manifest disagrees with the file"),
        ("bytes", "CRC-32"),
        ("name", "but holds trian full 2p"),
        ("data", "the manifest lacks the training date, command or data size"),
        ("verdict", "the manifest's strength verdict is 'better', not one of stronger, even, weaker, mixed"),
        ("summary", "the manifest's strength has no summary"),
    ],
)
def test_an_unusable_model_file_is_left_out_with_its_reason(tmp_path, caplog, damage, reason):
    if damage == "catalogue":
        data = encode_model(replace(decode_model(SHIPPED.read_bytes()), catalogue="orrery.trian-tiles/2@1"))
        (tmp_path / SHIPPED.name).write_bytes(data)
        digest = hashlib.sha256(data).hexdigest()
        manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
        manifest.update(catalogue="orrery.trian-tiles/2@1", sha256=digest, bytes=len(data))
        (tmp_path / SHIPPED.name).with_suffix(".json").write_text(json.dumps(manifest))
    elif damage == "manifest":
        _copy_shipped(tmp_path, layout_version=2)
    elif damage == "data":
        _copy_shipped(tmp_path, data=None)
    elif damage == "verdict":
        _copy_shipped(tmp_path, strength={"verdict": "better", "summary": "Better."})
    elif damage == "summary":
        _copy_shipped(tmp_path, strength={"verdict": "stronger", "summary": " "})
    elif damage == "bytes":
        _copy_shipped(tmp_path)
        blob = bytearray((tmp_path / SHIPPED.name).read_bytes())
        blob[100] ^= 1
        (tmp_path / SHIPPED.name).write_bytes(bytes(blob))
    else:
        _copy_shipped(tmp_path)
        (tmp_path / SHIPPED.name).rename(tmp_path / "trian-full-3p.orrnet")
        (tmp_path / SHIPPED.name).with_suffix(".json").rename(tmp_path / "trian-full-3p.json")
    with caplog.at_level("WARNING"):
        index = shipped_index(tmp_path)
    assert index.models == ()
    key = ("trian", "full", 3 if damage == "name" else 2)
    assert reason in index.refused[key] and reason in caplog.text
    problem = learned_model_problem(*key, folder=tmp_path)
    assert problem is not None and problem.startswith("the learned model for trian") and reason in problem


# ---- choosing the evaluation ----


def test_the_learned_preset_is_ismcts_trian_with_the_learned_evaluation():
    learned, handwritten = get_config("ismcts-trian-learned"), get_config("ismcts-trian@1")
    assert learned.label == "ismcts-trian-learned@2" and learned.evaluation == "learned"
    assert replace(
        learned, name="ismcts-trian", version=1, evaluation="handwritten", description=""
    ) == replace(handwritten, description="")


def test_the_learned_preset_searches_with_the_model():
    """Same seed and iterations: the learned preset is reproducible and differs from the hand-written one
    (so --config really switches the evaluation)."""
    state = TRIAN.new_initial_state(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        state.apply(int(rng.choice(state.legal_actions())))
    observation = state.observation(state.current_player)
    budget = Budget(iterations=400)
    runs = {
        name: [search_observation(observation, get_config(name), budget, seed=2) for _ in range(2)]
        for name in ("ismcts-trian@1", "ismcts-trian-learned@2")
    }
    visits = {name: [[a.visits for a in r.actions] for r in results] for name, results in runs.items()}
    assert all(a == b for a, b in visits.values())  # each reproducible
    assert [(a.action, a.mean_reward) for a in runs["ismcts-trian@1"][0].actions] != [
        (a.action, a.mean_reward) for a in runs["ismcts-trian-learned@2"][0].actions
    ]


@pytest.mark.parametrize(
    ("game", "variant", "players"),
    [
        ("trian", "full", 4),
        ("trian", "beginner", 2),
        ("take_the_galaxy", "standard", 3),
        ("kuhn", "standard", 2),
    ],
)
def test_a_learned_config_without_a_model_is_refused_naming_evaluation(game, variant, players):
    with pytest.raises(ValueError, match=r"ismcts-trian-learned@2 has evaluation 'learned', but no learned"):
        check_evaluation(get_config("ismcts-trian-learned"), game, variant, players)
    check_evaluation(get_config("ismcts-trian@1"), game, variant, players)  # hand-written: always fine
    check_evaluation(get_config("ismcts-trian-learned"), "trian", "full", 2)
    check_evaluation(get_config("ismcts-trian-learned"), "trian", "full", 3)


def test_each_shipped_model_names_the_preset_that_plays_it():
    """ListGames' LearnedModel.search_config (what the web client offers as the learned evaluation): the
    latest preset registered with learned_for the model's game."""
    assert shipped_models()
    for model in shipped_models():
        preset = learned_preset(model.game)
        assert preset is not None and preset.evaluation == "learned", model.file_name
        assert model.search_config == preset.label
    assert learned_preset("trian") == get_config("ismcts-trian-learned@2")
    assert learned_preset("kuhn") is None
    with pytest.raises(ValueError, match=r"^x@1: learned_for='kuhn' needs evaluation 'learned'"):
        _preset(SearchConfig(name="x", version=1, algorithm="ismcts"), learned_for="kuhn")
    assert learned_preset("kuhn") is None


# ---- serve's start-up check (--config and each game's default_search) ----


def test_serve_checks_its_config_at_start(tmp_path):
    assert check_server_configs("") == [] and check_server_configs("ismcts-trian@1") == []
    (warning,) = check_server_configs("ismcts-trian-learned")  # usable for some settings: starts, warns
    assert warning.startswith("--config ismcts-trian-learned@2 has evaluation 'learned'")
    usable = warning.split("works only for ")[1]
    assert "trian full 2p" in usable and "trian full 3p" in usable and "trian full 4p" not in usable
    with pytest.raises(SearchConfigError, match=r"^--config: unknown search config 'no-such'; known: "):
        check_server_configs("no-such")
    with pytest.raises(
        SearchConfigError,
        match=r"^--config: ismcts-trian-learned@2 has evaluation 'learned', but no learned evaluation "
        r"model is usable \(none is shipped\)",
    ):
        check_server_configs("ismcts-trian-learned@2", index=shipped_index(tmp_path))
    damaged = tmp_path / "damaged"  # another folder: shipped_index reads each one once
    damaged.mkdir()
    _copy_shipped(damaged, data=None)
    with pytest.raises(SearchConfigError) as refused:
        check_server_configs("ismcts-trian-learned@2", index=shipped_index(damaged))
    assert "(every shipped model file is refused: trian-full-2p.orrnet: the manifest lacks the training" in (
        str(refused.value)
    )
    assert check_server_configs("ismcts-trian@1", index=shipped_index(damaged)) == []


def test_a_learned_game_default_needs_a_model_for_every_setting(monkeypatch):
    from orrery.core_ext import game_info
    from orrery.service import _config_check

    trian = replace(game_info("trian"), default_search="ismcts-trian-learned@2")
    monkeypatch.setattr(_config_check, "registered_games", lambda: (trian,))
    with pytest.raises(
        SearchConfigError,
        match=r"^trian default_search: ismcts-trian-learned@2 has evaluation 'learned', but trian "
        r"\(beginner, 2 players\) has no usable learned evaluation model: no model file is shipped",
    ):
        check_server_configs("")
    only_full_2p = replace(trian, variants=("full",), player_counts=(2,))
    monkeypatch.setattr(_config_check, "registered_games", lambda: (only_full_2p,))
    assert check_server_configs("") == []
    unknown = replace(trian, default_search="no-such@1")
    monkeypatch.setattr(_config_check, "registered_games", lambda: (unknown,))
    with pytest.raises(SearchConfigError, match=r"^trian default_search: unknown search config 'no-such@1'"):
        check_server_configs("")


def test_orrery_serve_refuses_to_start_without_a_usable_model(tmp_path, monkeypatch, capsys):
    """The whole command: the reason on stderr, exit status 2, and nothing started (no match store)."""
    from orrery.service import _config_check

    _copy_shipped(tmp_path)
    blob = bytearray((tmp_path / SHIPPED.name).read_bytes())
    blob[100] ^= 1
    (tmp_path / SHIPPED.name).write_bytes(bytes(blob))
    monkeypatch.setattr(_config_check, "shipped_index", lambda: shipped_index(tmp_path))
    monkeypatch.setattr("sys.setswitchinterval", lambda seconds: None)  # serve() sets it process-wide
    db = tmp_path / "m.sqlite3"
    serve = ["serve", "--backend", "in-process", "--port", "0", "--no-metrics", "--db", str(db)]
    assert main([*serve, "--config", "ismcts-trian-learned@2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "orrery serve: --config: ismcts-trian-learned@2 has evaluation 'learned', but no learned evaluation "
        "model is usable (every shipped model file is refused: trian-full-2p.orrnet: "
    )
    assert "CRC-32" in err and not db.exists()
    assert main([*serve, "--config", "no-such"]) == 2
    assert capsys.readouterr().err.startswith("orrery serve: --config: unknown search config 'no-such'")


# ---- the command line ----


def test_orrery_games_says_which_games_have_a_model(capsys):
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in lines if line and not line[0].isspace()]
    assert set(names) >= {"kuhn", "trian", "take_the_galaxy", "tiny_epic_galaxies"}
    models = [line.strip() for line in lines if "learned models:" in line]
    assert len(models) == len(names)
    trian = models[names.index("trian")]
    manifest = json.loads(SHIPPED.with_suffix(".json").read_text())
    data = manifest["data"]
    three = model_path("trian", "full", 3)
    three_manifest = json.loads(three.with_suffix(".json").read_text())
    three_data = three_manifest["data"]
    assert trian == (
        "learned models: full 2p (trian-full-2p.orrnet: model format 2, feature layout 1, catalogue "
        f"{CATALOGUE}, {SHIPPED.stat().st_size} bytes, sha256 {manifest['sha256'][:12]}, trained "
        f"{manifest['date']} on {data['games']} games / {data['positions']} positions; played by "
        "ismcts-trian-learned@2; strength against the hand-written evaluation: mixed: "
        f"{manifest['strength']['summary']}); full 3p (trian-full-3p.orrnet: model format 2, feature layout "
        f"1, catalogue {CATALOGUE}, {three.stat().st_size} bytes, sha256 {three_manifest['sha256'][:12]}, "
        "trained "
        f"{three_manifest['date']} on {three_data['games']} games / {three_data['positions']} positions; "
        "played by ismcts-trian-learned@2; strength against the hand-written evaluation: weaker: "
        f"{three_manifest['strength']['summary']})"
    )
    teg_path = model_path("tiny_epic_galaxies", "base", 2)
    teg = json.loads(teg_path.with_suffix(".json").read_text())
    assert models[names.index("tiny_epic_galaxies")].startswith(
        "learned models: base 2p (tiny_epic_galaxies-base-2p.orrnet: model format 2, feature layout 1, "
        f"catalogue {teg['catalogue']}, {teg_path.stat().st_size} bytes, sha256 {teg['sha256'][:12]}, "
        f"trained {teg['date']} on {teg['data']['games']} games / {teg['data']['positions']} positions; "
        "played by ismcts-teg-learned@2; strength against the hand-written evaluation: stronger: "
    )
    with_model = {"trian", "take_the_galaxy", "tiny_epic_galaxies"}  # test_learned_ttg.py: Take The Galaxy's
    assert models.count("learned models: none") == len(names) - len(with_model)


def test_the_cli_config_picks_the_learned_evaluation_or_names_the_problem(capsys):
    args = [
        "selfplay",
        "--game",
        "trian",
        "--variant",
        "full",
        "--players",
        "2",
        "--bots",
        "ismcts",
        "random",
    ]
    args += ["--iterations", "20", "--quiet", "--seed", "1"]
    assert main([*args, "--config", "ismcts-trian-learned@2"]) == 0
    assert "game over after" in capsys.readouterr().out
    with pytest.raises(
        SystemExit, match=r"^--config: ismcts-trian-learned@2 has evaluation 'learned', but no"
    ):
        main(["selfplay", "--game", "kuhn", "--bots", "ismcts", "ismcts", "--config", "ismcts-trian-learned"])
    with pytest.raises(SystemExit, match=r"^--config: unknown search config 'no-such'"):
        main(["selfplay", "--game", "kuhn", "--bots", "ismcts", "ismcts", "--config", "no-such"])
    with pytest.raises(SystemExit, match=r"^--config: .*trian \(full, 4 players\)"):
        main(["train", "selfplay", "--game", "trian", "--variant", "full", "--players", "4", "--games", "1",
              "--out", "unused", "--config", "ismcts-trian-learned"])  # fmt: skip
