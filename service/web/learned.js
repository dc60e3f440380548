// Learned evaluations (small networks trained by self-play, docs/learning.md) in the set-up form, from
// ListGames alone: `GameDescription.learnedModels` says which variant and player count of a game has one,
// and each model's `searchConfig` is the preset an AI seat names (`AiSeat.bot`) to play with it. Nothing
// here names a game or a preset, so a model the server adds is offered with no change to the page.
// The game, variant and player choices say where a learned evaluation makes a stronger AI (its
// `strength`, from the tournament in its manifest: stronger, or stronger at some levels); the "AI
// evaluation" choice offers every model exactly where it exists, and says when one is no stronger, so
// that a player is never sold a weaker AI as the better one.

export const HANDWRITTEN = "hand-written";
export const LEARNED = "learned (trained by self-play)";
// The only choice where the chosen level plays the model anyway (LearnedModel.levels): hard and expert
// where the model made them stronger. Offering "hand-written" there would have named what the level
// does not play.
export const LEVEL_OWN = "learned (this level's own)";
const SHORT = "learned AI";

// The models an AI seat can play with: listed by the server with the preset that plays them.
function playable(game) {
  return (game.learnedModels || []).filter((m) => m.searchConfig);
}

// proto3 JSON leaves the default out: a model with no strength field is MODEL_STRENGTH_UNMEASURED.
function strengthOf(model) {
  return (model.strength || "MODEL_STRENGTH_UNMEASURED").replace("MODEL_STRENGTH_", "");
}

// Whether the pickers advertise the model: it made a stronger AI (at every level, or at some).
function advertised(model) {
  return ["STRONGER", "MIXED"].includes(strengthOf(model));
}

function advertisedIn(game) {
  return playable(game).filter(advertised);
}

// The model for this game, variant and player count, or null.
export function learnedModel(game, variant, players) {
  return playable(game).find((m) => m.variant === variant && Number(m.players) === Number(players)) || null;
}

function countsOf(game, variant) {
  return advertisedIn(game).filter((m) => m.variant === variant).map((m) => Number(m.players)).sort((a, b) => a - b);
}

// The option texts of the game picker: "Galaxy of Trian (learned AI)", "full (learned AI)", "2 (learned AI)";
// unchanged where there is no model. The variant's text leaves the player counts to the players picker
// (and to variantTitle, its tooltip), so that it fits a phone's closed picker: "beyond the black (learned
// AI for 2 players)" did not.
export function gameText(game, text) {
  return advertisedIn(game).length ? `${text} (${SHORT})` : text;
}

export function variantText(game, variant, text) {
  return countsOf(game, variant).length ? `${text} (${SHORT})` : text;
}

// "learned AI for 2 players" (the variant option's tooltip), or "" where the variant has no model.
export function variantTitle(game, variant) {
  const counts = countsOf(game, variant);
  if (!counts.length) return "";
  return `${SHORT} for ${counts.length === 1 && counts[0] === 1 ? "1 player" : `${counts.join(", ")} players`}`;
}

export function playersText(game, variant, players) {
  const model = learnedModel(game, variant, players);
  return model && advertised(model) ? `${players} (${SHORT})` : String(players);
}

// The "AI evaluation" option of a model: LEARNED where it made a stronger AI, else saying how it did.
const OPTION_TEXT = {
  STRONGER: LEARNED,
  MIXED: "learned (stronger at some levels)",
  EVEN: "learned (no stronger)",
  WEAKER: "learned (weaker in tests)",
  UNMEASURED: "learned (untested)",
};

// Whether `level` (the form's value, "LEVEL_HARD") plays the model when no evaluation is named.
export function levelPlaysIt(model, level) {
  return Boolean(model) && (model.levels || []).includes(level);
}

export function learnedOption(model) {
  return OPTION_TEXT[strengthOf(model)] || OPTION_TEXT.UNMEASURED;
}

// Where a game's learned evaluations make a stronger AI, in words: "full with 2 players" (for the game
// option's tooltip).
export function whereLearned(game) {
  const variants = [...new Set(advertisedIn(game).map((m) => m.variant))];
  return variants.map((v) => `${v.replaceAll("_", " ")} with ${countsOf(game, v).join(" or ")} players`).join("; ");
}

// The line under the form when the learned evaluation is chosen, in a player's words, and the
// technical details for its tooltip.
export function learnedSummary(model) {
  const games = Number(model.trainingGames).toLocaleString("en-US");
  const positions = Number(model.trainingPositions).toLocaleString("en-US");
  const tested = model.strengthSummary ? ` Tested: ${model.strengthSummary}` : " Not tested against it yet.";
  return `The AI judges positions with a network trained on ${games} games it played against itself ` +
    `(${positions} positions, ${model.trained.slice(0, 10)}), instead of the hand-written scoring.${tested}`;
}

export function learnedDetail(model) {
  return [
    `search preset ${model.searchConfig}`,
    `model ${model.variant}, ${model.players} players: format ${model.formatVersion}, feature layout ` +
      `${model.layoutVersion}${model.catalogue ? `, catalogue ${model.catalogue}` : ""}`,
    `${Number(model.fileBytes).toLocaleString("en-US")} bytes, SHA-256 ${model.sha256.slice(0, 12)}…`,
    `trained ${model.trained}: ${model.trainingCommand}`,
  ].join("\n");
}
