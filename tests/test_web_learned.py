"""The web client's learned-evaluation choice without a browser: service/web/learned.js reads ListGames'
`learned_models` (the server's real answer for the shipped games, as proto3 JSON, plus a made-up game
with models at two player counts and one that no preset plays) and says which variants and player
counts have a learned evaluation, which preset an AI seat names for it, and how the page words it.
Runs the ES module in Node.js; skips without node. The page itself: tests/test_web_client.py."""

from __future__ import annotations

import pytest
from google.protobuf.json_format import MessageToDict
from web_node import run_web_script

from orrery.core_ext import registered_games
from orrery.search import shipped_models
from orrery.service._servicer import _learned_model
from orrery.v1 import orrery_pb2 as pb

SCRIPT = """
import * as learned from "./learned.js";

const games = Object.fromEntries(JSON.parse(process.argv[1]).map((g) => [g.name, g]));
const out = {};
for (const [name, g] of Object.entries(games)) {
  out[name] = {
    game: learned.gameText(g, "Title"),
    where: learned.whereLearned(g),
    variants: Object.fromEntries(g.variants.map((v) => [v, learned.variantText(g, v, v)])),
    titles: Object.fromEntries(g.variants.map((v) => [v, learned.variantTitle(g, v)])),
    players: Object.fromEntries(g.variants.map((v) => [v,
      g.playerCounts.map((n) => learned.playersText(g, v, n))])),
    bots: Object.fromEntries(g.variants.map((v) => [v, g.playerCounts.map((n) => {
      const model = learned.learnedModel(g, v, String(n));  // the form's value is a string
      return model ? model.searchConfig : null;
    })])),
  };
}
const trian = learned.learnedModel(games.trian, "full", 2);
out.summary = learned.learnedSummary(trian);
out.untested = learned.learnedSummary(learned.learnedModel(games.made_up, "standard", 3));
out.detail = learned.learnedDetail(trian);
out.labels = [learned.HANDWRITTEN, learned.LEARNED];
out.options = Object.fromEntries(["STRONGER", "MIXED", "EVEN", "WEAKER", "UNMEASURED"].map((s) =>
  [s, learned.learnedOption({ strength: `MODEL_STRENGTH_${s}` })]));
out.options.absent = learned.learnedOption({});
out.levelOwn = Object.fromEntries(Object.entries(games).map(([name, g]) => [name,
  (g.learnedModels || []).filter((m) => learned.levelPlaysIt(m, "LEVEL_HARD")).map((m) => m.variant)]));
out.levelOwn.none = [learned.levelPlaysIt(null, "LEVEL_HARD"), learned.levelPlaysIt({}, "LEVEL_HARD")];
console.log(JSON.stringify(out));
"""


def _listed_games() -> list[dict]:
    """ListGames' games as the page gets them (camelCase JSON), with the shipped models."""
    games = [
        pb.GameDescription(
            name=g.name,
            title=g.title,
            variants=list(g.variants),
            player_counts=list(g.player_counts),
            learned_models=[_learned_model(m) for m in shipped_models() if m.game == g.name],
        )
        for g in registered_games()
    ]
    trian_model = games[[g.name for g in games].index("trian")].learned_models[0]
    made_up = pb.GameDescription(
        name="made_up",
        title="Made Up",
        variants=["standard", "short_game"],
        player_counts=[2, 3, 4],
        learned_models=[
            pb.LearnedModel(
                variant="standard",
                players=2,
                search_config="made-up-learned@2",
                strength=pb.MODEL_STRENGTH_STRONGER,
                strength_summary="Stronger.",
            ),
            # unmeasured: offered, not advertised
            pb.LearnedModel(variant="standard", players=3, search_config="made-up-learned@2"),
            pb.LearnedModel(
                variant="short_game", players=4, search_config="", strength=pb.MODEL_STRENGTH_STRONGER
            ),  # no preset plays it
        ],
    )
    for model in made_up.learned_models:
        model.MergeFrom(pb.LearnedModel(trained=trian_model.trained, sha256=trian_model.sha256))
    return [MessageToDict(g) for g in [*games, made_up]]


@pytest.fixture(scope="module")
def answers() -> dict:
    return run_web_script(SCRIPT, _listed_games())  # type: ignore[no-any-return]


def test_the_learned_choice_exists_exactly_where_a_model_is_listed(answers) -> None:
    (shipped,) = [m for m in shipped_models() if (m.game, m.players) == ("trian", 2)]
    trian = answers["trian"]
    assert trian["bots"]["full"] == [shipped.search_config, shipped.search_config, None]  # 2, 3, 4 players
    assert trian["bots"]["beginner"] == trian["bots"]["ships"] == [None, None, None]
    for game in registered_games():  # every other game: offered exactly where a model is shipped
        models = {(m.variant, m.players): m.search_config for m in shipped_models() if m.game == game.name}
        expected = {v: [models.get((v, n)) for n in game.player_counts] for v in game.variants}
        assert answers[game.name]["bots"] == expected, game.name
    made_up = answers["made_up"]
    assert made_up["bots"] == {
        "standard": ["made-up-learned@2", "made-up-learned@2", None],
        "short_game": [None, None, None],  # listed, but no preset plays it: not offered
    }


def test_the_game_picker_says_where_the_learned_evaluation_makes_a_stronger_ai(answers) -> None:
    """Only models that played stronger than the hand-written evaluation (at every level or at some) are
    advertised in the pickers: Trian's 3-player model lost its SPRT, so "3" has no suffix; Trian's 2-player
    model won at small budgets only (mixed) and Beyond the Black's won its SPRT (stronger, since session
    10), so both have one."""
    strength = {(m.game, m.variant, m.players): m.strength for m in shipped_models()}
    assert strength[("trian", "full", 2)] == "mixed" and strength[("trian", "full", 3)] == "weaker"
    assert strength[("tiny_epic_galaxies", "beyond_the_black", 2)] == "stronger"
    trian = answers["trian"]
    assert trian["game"] == "Title (learned AI)" and trian["where"] == "full with 2 players"
    assert trian["variants"] == {"beginner": "beginner", "ships": "ships", "full": "full (learned AI)"}
    assert trian["titles"] == {"beginner": "", "ships": "", "full": "learned AI for 2 players"}
    assert trian["players"]["full"] == ["2 (learned AI)", "3", "4"]
    assert trian["players"]["beginner"] == ["2", "3", "4"]
    teg = answers["tiny_epic_galaxies"]
    assert teg["variants"]["beyond_the_black"] == "beyond_the_black (learned AI)"
    assert teg["where"] == "base with 2 players; beyond the black with 2 players"
    assert answers["kuhn"]["game"] == "Title" and answers["kuhn"]["where"] == ""
    made_up = answers["made_up"]
    assert made_up["variants"]["standard"] == "standard (learned AI)"
    assert made_up["titles"]["standard"] == "learned AI for 2 players"
    assert made_up["players"]["standard"] == ["2 (learned AI)", "3", "4"]
    assert made_up["variants"]["short_game"] == "short_game"
    assert made_up["where"] == "standard with 2 players"


def test_where_the_level_plays_the_model_the_form_knows_it(answers) -> None:
    """LearnedModel.levels (the levels that play the model with no config named) reaches the page: hard
    plays Take The Galaxy's, Tiny Epic Galaxies base's and Beyond the Black's, and since session 12
    Trian full's 2-player model (not its 3-player one)."""
    own = answers["levelOwn"]
    assert own["take_the_galaxy"] == ["standard"] and own["trian"] == ["full"]
    assert sorted(own["tiny_epic_galaxies"]) == ["base", "beyond_the_black"]
    assert own["none"] == [False, False]


def test_the_evaluation_choice_says_when_a_model_is_no_stronger(answers) -> None:
    assert answers["options"] == {
        "STRONGER": "learned (trained by self-play)",
        "MIXED": "learned (stronger at some levels)",
        "EVEN": "learned (no stronger)",
        "WEAKER": "learned (weaker in tests)",
        "UNMEASURED": "learned (untested)",
        "absent": "learned (untested)",  # proto3 JSON leaves the default value out
    }


def test_the_learned_choice_reads_in_plain_words_with_the_details_aside(answers) -> None:
    (shipped,) = [m for m in shipped_models() if (m.game, m.players) == ("trian", 2)]
    assert answers["labels"] == ["hand-written", "learned (trained by self-play)"]
    games, positions = f"{shipped.training_games:,}", f"{shipped.training_positions:,}"
    assert answers["summary"] == (
        f"The AI judges positions with a network trained on {games} games it played against itself "
        f"({positions} positions, {shipped.trained[:10]}), instead of the hand-written scoring. "
        f"Tested: {shipped.strength_summary}"
    )
    assert shipped.strength_summary.startswith("Stronger than the hand-written evaluation when")
    assert answers["untested"].endswith("instead of the hand-written scoring. Not tested against it yet.")
    detail = answers["detail"].split("\n")
    assert detail[0] == f"search preset {shipped.search_config}"
    assert detail[1] == f"model full, 2 players: format 2, feature layout 1, catalogue {shipped.catalogue}"
    assert detail[2] == f"{shipped.file_bytes:,} bytes, SHA-256 {shipped.sha256[:12]}…"
    assert detail[3] == f"trained {shipped.trained}: {shipped.training_command}"
