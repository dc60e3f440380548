// The Orrery reference web client: every call goes through the gateway (Envoy) as gRPC-Web.
// Flow: ListGames -> CreateMatch (you are seat 0, the other seats are AI) -> WatchMatch (server
// stream: each move as it happens) + GetObservation (board picture, legal moves) -> ApplyAction;
// Hint = Analyze (server stream, top three candidates); Resign = ResignMatch; Replay = GetReplay
// with pictures (opens once the match is over). The URL names the match (#match=<id>) and the seat
// tokens stay in localStorage, so a reload resumes it; New match and Resign ask first. Spectator
// mode (#watch=MATCH&token=SPECTATOR_TOKEN): the public view only, through WatchMatch without a seat
// and GetReplay's svg_public.
// The game-over view names the winner(s), the points, who resigned, the teams and the solo result;
// a decision with one legal move is played at once (an option); on a phone one panel shows at a
// time (Board / Moves / Log tabs) and the board can be shown at full size and panned; the lobby
// lists this browser's matches (ListMatches) with resume and abandon. On a phone a tap on a Galaxy of
// Trian placement shows its preview on the Board tab with Play / Rotate / Back (preview.js).
// The set-up form offers the AI a learned evaluation where ListGames lists a model for the chosen game,
// variant and player count, and says where one exists (learned.js).
// document.body.dataset.state ("loading", "ready", "your-turn", "waiting", "watching", "over", "error"),
// dataset.moves (moves played) and dataset.views (pictures shown) say where the page is, for people
// and for tests.
import { connect } from "./grpcweb.js";
import { explain, technical } from "./errors.js";
import { showScores, showFinalScores } from "./scores.js";
import { keyboardBoard } from "./boardkeys.js";
import { choosePlacement, endPlacement, setUpPlacementBar } from "./preview.js";
import {
  HANDWRITTEN, LEVEL_OWN, gameText, learnedDetail, levelPlaysIt, learnedModel, learnedOption, learnedSummary, playersText, variantText,
  variantTitle, whereLearned,
} from "./learned.js";

const $ = (id) => document.getElementById(id);
const SEAT = 0;
const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th"];
const FILTER_FROM = 2;  // the filter box shows whenever there is a choice to narrow
const HINT_MS = 500;  // the hint's search budget
const WATCH_RETRIES = 8;  // WatchMatch failures in a row (about 45 s of retries) before the page shows the error
// Pictures per GetReplay call (at most about 35 KB each); ?replay-window=N changes it (tests use 2).
const REPLAY_WINDOW = Number(new URLSearchParams(location.search).get("replay-window")) || 100;
let client = null;
let games = [];
let match = null;  // {id, players, token, ai: [bool], moveNumber, view, over, logged: last move logged}
let watchAbort = null;
let views = 0;
// One GetObservation at a time; moves that arrive meanwhile ask for one more afterwards (an AI
// seat may play many moves in a burst: the page shows the latest, not every step).
let refreshing = null;
let refreshAgain = false;

function setState(state, text, error = false) {
  document.body.dataset.state = state;
  if (text !== undefined) $("status").textContent = text;
  $("status").classList.toggle("error", error);
  if (!error) $("status").removeAttribute("title");
}

// An error as a sentence a player can act on (errors.js); the technical text goes to the console and
// the status line's tooltip.
function fail(err) {
  console.error(err);
  setState("error", explain(err), true);
  $("status").title = technical(err);
}

function md() {
  return { "x-orrery-seat-token": match.token };
}

async function start() {
  setState("loading");
  client = await connect("");
  games = (await client.unary("ListGames", {})).games;
  const select = $("game");
  for (const g of games) {
    const short = g.title.split(" (")[0];  // titles may go on with player counts and variants
    const option = new Option(gameText(g, g.testingOnly ? `${short} (test game)` : short), g.name);
    const learned = whereLearned(g);
    option.title = learned ? `${g.title}\nlearned evaluation (trained by self-play): ${learned}` : g.title;
    select.add(option);
  }
  select.value = games.some((g) => g.name === "trian") ? "trian" : games[0].name;
  select.onchange = fillGameOptions;
  $("variant").onchange = fillPlayers;
  $("players").onchange = fillEvaluation;
  $("level").onchange = fillEvaluation;
  $("evaluation").onchange = () => {
    $("evaluation").dataset.wanted = $("evaluation").value ? "learned" : "";
    showEvaluationNote();
  };
  fillGameOptions();
  $("setup").onsubmit = (e) => { e.preventDefault(); newMatch().catch(fail); };
  $("hint").onclick = () => hint().catch(fail);
  $("resign").onclick = () => resign().catch(fail);
  $("replay").onclick = () => openReplay().catch(fail);
  $("filter").oninput = applyFilter;
  $("pick-clear").onclick = () => { if (picked) pick(picked.el); };
  $("over-replay").onclick = () => openReplay().catch(fail);
  $("over-new").onclick = () => $("new-match").click();
  setUpPanels();
  $("new-match").disabled = false;
  setState("ready", "Pick a game and start a match against the AI.");
  showLobby().catch((err) => {  // the list is a convenience: the page works without it
    console.error(err);
    $("lobby").hidden = true;
  });
  window.addEventListener("hashchange", () => {
    const watched = spectatorLink();
    (watched ? spectate(watched) : resumeFromUrl()).catch(fail);
  });
  const link = spectatorLink();
  if (link) await spectate(link);
  else await resumeFromUrl();
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

function fillGameOptions() {
  const g = currentGame();
  $("game").title = g.title;
  const variant = $("variant");
  variant.length = 0;
  for (const v of g.variants) {
    const option = new Option(variantText(g, v, v.replaceAll("_", " ")), v);
    option.title = variantTitle(g, v);
    variant.add(option);
  }
  fillPlayers();
}

// A variant listed in variantPlayerCounts is playable at exactly those counts; the others at the
// game's counts.
function fillPlayers() {
  const g = currentGame();
  const own = (g.variantPlayerCounts || []).find((vp) => vp.variant === $("variant").value);
  const counts = own ? own.playerCounts : g.playerCounts;
  const players = $("players");
  players.length = 0;
  for (const n of [...counts].sort((a, b) => a - b)) {
    players.add(new Option(playersText(g, $("variant").value, n), String(n)));
  }
  players.value = counts.includes(2) ? "2" : players.options[0].value;
  fillEvaluation();
}

// The AI evaluation choice: the learned one (its preset from ListGames, sent as AiSeat.bot) only where
// this game, variant and player count have a model; elsewhere the choice is hidden and nothing is sent.
// Where the chosen level plays the model anyway (hard and expert, where it made them stronger), that is
// the only choice, and nothing is sent either.
function fillEvaluation() {
  const model = learnedModel(currentGame(), $("variant").value, $("players").value);
  const select = $("evaluation");
  const wanted = select.dataset.wanted === "learned";  // kept across settings that offer the choice
  const own = levelPlaysIt(model, $("level").value);
  select.length = 0;
  select.add(new Option(own ? LEVEL_OWN : HANDWRITTEN, ""));
  if (model && !own) {
    const option = new Option(learnedOption(model), model.searchConfig);
    option.title = learnedDetail(model);
    select.add(option);
    select.value = wanted ? model.searchConfig : "";
  }
  select.options[0].title = own ? learnedDetail(model) : "";
  $("evaluation-choice").hidden = !model;
  showEvaluationNote();
}

function showEvaluationNote() {
  const model = learnedModel(currentGame(), $("variant").value, $("players").value);
  const note = $("evaluation-note");
  const chosen = $("evaluation").value;
  const own = chosen === "" && levelPlaysIt(model, $("level").value);
  const learned = model !== null && (chosen === model.searchConfig || own);
  note.hidden = !learned;
  note.textContent = learned ? learnedSummary(model) : "";
  note.title = learned ? learnedDetail(model) : "";
}

async function newMatch() {
  if (!confirmLeave()) return;
  if (watchAbort) watchAbort.abort();
  const players = Number($("players").value);
  const seats = [];
  const ai = { level: $("level").value };
  if (!$("evaluation-choice").hidden && $("evaluation").value) ai.bot = $("evaluation").value;
  if ($("turn-ms").value) ai.turnBudget = { milliseconds: Number($("turn-ms").value) };  // per whole turn
  for (let s = 0; s < players; s++) seats.push(s === SEAT ? { human: {} } : { ai });
  setState("waiting", "Creating the match…");
  const created = await client.unary("CreateMatch", {
    game: $("game").value, variant: $("variant").value, players, seats,
  });
  match = {
    id: created.matchId, players, token: created.seatTokens[SEAT].token, game: $("game").value,
    ai: created.seatTokens.map((t) => t.ai), moveNumber: 0, view: null, over: false, logged: 0,
    spectatorToken: created.spectatorToken || "", bot: ai.bot || "",
    onlyMoves: new Set(),
  };
  keepSeat(match);
  nameMatchInUrl(match.id);
  await enterMatch();
}

// Show `match` from scratch: empty log (WatchMatch from move 0 fills it), no hint, no replay.
async function enterMatch() {
  $("log").replaceChildren();
  clearHint();
  $("filter").value = "";
  $("replay-bar").hidden = true;
  $("replay").disabled = true;
  $("resign").disabled = false;
  $("game-over").hidden = true;
  $("lobby").hidden = true;
  delete document.body.dataset.replay;
  showSpectatorLink(match.id, match.spectatorToken);
  await refresh();
  watch(match);
}

// ---- Matches that survive a reload. The URL names the match (#match=<id>: a history entry per
// match, so Back returns to the previous one); this browser keeps each seat's token in localStorage
// (SEATS_KEY, the newest KEPT_SEATS matches), so a reload or the address resumes the match; starting
// another match or resigning a live one asks first.
const SEATS_KEY = "orrery.seats";
const KEPT_SEATS = 50;
const NOT_FOUND = 5;  // the gRPC code of a match the server does not know

function keptSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    return seats && typeof seats === "object" ? seats : {};
  } catch {
    return {};
  }
}

function keepSeat(m) {
  const seats = keptSeats();
  seats[m.id] = {
    token: m.token, seat: SEAT, players: m.players, ai: m.ai, game: $("game").value, variant: $("variant").value,
    bot: m.bot || "", spectatorToken: m.spectatorToken, savedAt: Date.now(),
  };
  const newest = Object.entries(seats).sort((a, b) => b[1].savedAt - a[1].savedAt).slice(0, KEPT_SEATS);
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // storage off or full: the match plays on, it just will not survive a reload
  }
}

function matchInUrl() {
  const named = /^#match=([0-9A-Za-z_-]+)$/.exec(location.hash);
  return named ? named[1] : null;
}

function nameMatchInUrl(id) {
  if (matchInUrl() !== id) location.hash = `match=${id}`;
}

function confirmLeave() {
  return !match || match.over || window.confirm(
    "Leave the match in progress? It stays saved in this browser: the Back button or its address " +
    `(#match=${match.id}) brings you back to it.`);
}

// The set-up form shows the resumed match's game, variant and player count (the next match's default).
function showSetupOf(seat) {
  if (!games.some((g) => g.name === seat.game)) return;
  $("game").value = seat.game;
  fillGameOptions();
  if ([...$("variant").options].some((o) => o.value === seat.variant)) $("variant").value = seat.variant;
  fillPlayers();
  if ([...$("players").options].some((o) => o.value === String(seat.players))) $("players").value = String(seat.players);
  $("evaluation").dataset.wanted = seat.bot ? "learned" : "";
  fillEvaluation();
  if (seat.bot && [...$("evaluation").options].some((o) => o.value === seat.bot)) $("evaluation").value = seat.bot;
  showEvaluationNote();
}

// The match the URL names, if this browser holds its seat: true when it was opened.
async function resumeFromUrl() {
  const id = matchInUrl();
  if (id === null || (match && match.id === id)) return false;
  const seat = keptSeats()[id];
  if (!seat || !seat.token) {
    setState("ready", `This address names match ${id}, but this browser holds no seat in it. ` +
      "Pick a game to start a new match.");
    return false;
  }
  if (watchAbort) watchAbort.abort();
  match = {
    id, players: seat.players, token: seat.token, ai: seat.ai || [], moveNumber: 0, view: null, over: false,
    logged: 0, game: seat.game, onlyMoves: new Set(), spectatorToken: seat.spectatorToken || "",
  };
  showSetupOf(seat);
  setState("waiting", "Resuming the match…");
  try {
    await enterMatch();
  } catch (err) {
    if (err.code !== NOT_FOUND || match.id !== id) throw err;
    forgetSeat(id);  // expired, or the server's store was reset: nothing left to resume
    match = null;
    setState("ready", `Match ${id} no longer exists on the server (matches expire after a week without a ` +
      "move). Pick a game to start a new match.");
    return false;
  }
  if (match.id === id && match.view) match.ai = match.view.aiSeats;
  return true;
}

function forgetSeat(id) {
  const seats = keptSeats();
  delete seats[id];
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
  } catch {
    // storage off: nothing was kept
  }
}

// WatchMatch for as long as the match runs. A stream that breaks (the gateway closes one idle for an
// hour, the server restarts) is opened again after the last move shown, so no move is lost or doubled;
// only repeated failures in a row show an error.
async function watch(m) {
  const abort = new AbortController();
  watchAbort = abort;
  let failures = 0;
  while (m === match && !abort.signal.aborted) {
    try {
      const request = { matchId: m.id, afterMove: m.logged };
      if (!m.spectator) request.seat = SEAT;
      for await (const ev of client.stream("WatchMatch", request, md(), abort.signal)) {
        if (m !== match) return;
        failures = 0;
        if (ev.kind === "MATCH_EVENT_MOVE") {
          if (ev.moveNumber > m.logged) logMove(m, ev);
          refresh().catch(fail);
        } else if (ev.kind === "MATCH_EVENT_END") {
          refresh().catch(fail);
          return;
        }
      }
    } catch (err) {
      if (err.name === "AbortError" || m !== match) return;
      failures += 1;
      if (failures > WATCH_RETRIES) {
        fail(err);
        return;
      }
    }
    await new Promise((done) => setTimeout(done, Math.min(10000, 250 * 2 ** failures)));
  }
}

function logMove(m, ev) {
  m.logged = ev.moveNumber;
  const log = $("log");
  const li = document.createElement("li");
  li.value = ev.moveNumber;
  li.classList.add("move");
  li.textContent = `${ev.action.label}`;
  if (m.onlyMoves && m.onlyMoves.has(ev.moveNumber)) li.textContent += " (the only legal move)";
  for (const text of ev.events || []) {
    const said = document.createElement("div");
    said.className = "said";
    said.textContent = text;  // what the move set off, as this seat saw it (MatchEvent.events)
    li.append(said);
  }
  turnEntry(m, ev).append(li);
  log.scrollTop = log.scrollHeight;  // scroll the list, never the page
}

// The turn a move belongs to: consecutive moves of one seat share one collapsible entry whose summary
// names the seat, counts its moves and adds up what changed for each seat (MatchEvent.changesJson).
// Only the latest turn stays open; its moves are the ones marked as the last turn.
function turnEntry(m, ev) {
  const log = $("log");
  let turn = log.lastElementChild;
  if (!turn || Number(turn.dataset.seat) !== ev.seat) {
    if (turn) turn.querySelector("details").open = false;
    turn = document.createElement("li");
    turn.className = ev.byAi ? "turn ai" : "turn";
    turn.dataset.seat = String(ev.seat);
    turn.changes = {};
    const details = document.createElement("details");
    details.open = true;
    details.append(document.createElement("summary"), document.createElement("ol"));
    turn.append(details);
    log.append(turn);
  }
  addChanges(turn.changes, ev.changesJson);
  const moves = turn.querySelector("ol");
  const count = moves.children.length + 1;
  const who = `seat ${ev.seat}${ev.seat === SEAT && !m.spectator ? " (you)" : ev.byAi ? " (AI)" : ""}`;
  const summary = changesSummary(turn.changes, String(ev.seat));
  turn.querySelector("summary").textContent =
    `${who}: ${count === 1 ? ev.action.label : `${count} moves`}${summary ? ` — ${summary}` : ""}`;
  return moves;
}

function addChanges(total, json) {
  if (!json) return;
  for (const [who, quantities] of Object.entries(JSON.parse(json))) {
    const mine = total[who] || (total[who] = {});
    for (const [name, delta] of Object.entries(quantities)) mine[name] = (mine[name] || 0) + delta;
  }
}

// "+1 empire, -2 energy; seat 0 +3 credits": the turn's own seat first and unnamed, then the others.
function changesSummary(total, mover) {
  const parts = [];
  const order = Object.keys(total).sort((a, b) => (b === mover) - (a === mover));
  for (const who of order) {
    const said = Object.entries(total[who]).filter(([, d]) => d !== 0)
      .map(([name, d]) => `${d > 0 ? "+" : ""}${d} ${name}`);
    if (!said.length) continue;
    const name = who === mover ? "" : `${who === "rogue" ? "the Rogue" : `seat ${who}`} `;
    parts.push(`${name}${said.join(", ")}`);
  }
  return parts.join("; ");
}

async function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        refreshAgain = false;
        const m = match;
        if (m.spectator) {
          await refreshPublic(m);
          continue;
        }
        const view = await client.unary("GetObservation", { matchId: m.id, seat: SEAT }, md());
        if (m === match && view.moveNumber >= m.moveNumber) show(m, view);
      } while (refreshAgain);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function show(m, view) {
  const turnChanged = !m.view || m.view.moveNumber !== view.moveNumber || m.view.gameOver !== view.gameOver;
  m.view = view;
  m.moveNumber = view.moveNumber;
  document.body.dataset.moves = String(view.moveNumber);
  if (turnChanged) {
    if (document.body.dataset.replay === undefined) showBoard(view.svg);
    showMoves(view);
    clearHint();
  }
  showScores(view, scoreNames(m, view));
  if (view.gameOver) {
    m.over = true;
    setState("over", `Game over: ${resultSentence(m, view)}`);
    showGameOver(m, view);
    showFinalScores(view, scoreNames(m, view));
    $("hint").disabled = true;
    $("resign").disabled = true;
    $("replay").disabled = false;
  } else if (view.yourTurn && turnChanged && playIfOnlyMove(m, view)) {
    setState("waiting", `Playing the only legal move: ${view.legalActions[0].label}`);
    $("hint").disabled = true;
  } else if (view.yourTurn) {
    setState("your-turn", `Your turn — move ${view.moveNumber + 1} (${view.legalActions.length} legal).`);
    $("hint").disabled = false;
  } else {
    setState("waiting", `Seat ${view.currentPlayer}${m.ai[view.currentPlayer] ? " (AI)" : ""} is thinking…`);
    $("hint").disabled = true;
  }
}

function kindOf(action) {
  try {
    return JSON.parse(action.structJson || "{}").kind || "move";
  } catch {
    return "move";
  }
}

// Legal moves grouped by the action's kind (in the order the game lists them), with a filter box:
// Galaxy of Trian and Tiny Epic Galaxies can offer dozens.
function showMoves(view) {
  const box = $("moves");
  box.replaceChildren();
  const groups = new Map();
  for (const a of view.legalActions) {
    const kind = kindOf(a);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(a);
  }
  for (const [kind, actions] of groups) {
    const group = document.createElement("details");
    group.className = "group";
    group.open = true;
    group.dataset.kind = kind;
    const summary = document.createElement("summary");
    summary.textContent = kind.replaceAll("_", " ");
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = String(actions.length);
    summary.append(count);
    group.append(summary);
    for (const a of actions) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = a.label;
      b.title = a.label;
      b.dataset.action = String(a.id);
      // on a phone a Trian placement is previewed on the Board tab first (preview.js)
      b.onclick = () => { if (!choosePlacement(a)) play(a.id).catch(fail); };
      b.onmouseenter = b.onfocus = () => mark(a.id, true);
      b.onmouseleave = b.onblur = () => mark(a.id, false);
      group.append(b);
    }
    box.append(group);
  }
  $("filter").hidden = view.legalActions.length < FILTER_FROM;
  applyFilter();
}

function applyFilter() {
  const words = $("filter").hidden ? [] : $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  if (picked && !$("board").contains(picked.el)) picked = null;  // a new picture came
  $("pick-clear").hidden = !picked;
  let total = 0;
  let all = 0;
  for (const group of $("moves").querySelectorAll(".group")) {
    let shown = 0;
    for (const b of group.querySelectorAll("button")) {
      const text = `${group.dataset.kind} ${b.textContent}`.toLowerCase().replaceAll("_", " ");
      b.hidden = !words.every((w) => text.includes(w)) || (picked !== null && !picked.ids.has(b.dataset.action));
      if (!b.hidden) shown += 1;
      all += 1;
    }
    group.hidden = shown === 0;
    const count = group.querySelectorAll("button").length;
    group.querySelector(".count").textContent = shown === count ? String(count) : `${shown} of ${count}`;
    total += shown;
  }
  $("move-count").textContent = all === 0 ? "" : total === all ? `(${all})` : `(${total} of ${all})`;
}

function showBoard(svg) {
  endPlacement();  // a new picture: a placement selected on a phone (preview.js) is gone
  $("board").innerHTML = svg;
  document.body.dataset.views = String(++views);
  for (const el of $("board").querySelectorAll(".target")) el.onclick = () => pick(el);
  applyZoom();
}

// A click on a lit part of the board keeps the moves that touch it (click again or "all" to undo).
let picked = null;  // {el, ids: Set of action ids} or null

function pick(el) {
  const same = picked && picked.el === el;
  if (picked) picked.el.classList.remove("picked");
  picked = same ? null : { el, ids: new Set((el.dataset.actions || "").split(" ").filter(Boolean)) };
  if (picked) el.classList.add("picked");
  applyFilter();
}

// Show the board parts a move touches (the picture carries them as hidden .target outlines).
function mark(id, on) {
  for (const el of $("board").querySelectorAll(".target")) {
    if ((el.dataset.actions || "").split(" ").includes(String(id))) el.classList.toggle("on", on);
  }
  previewPlacement(id, on);
}

// Galaxy of Trian: pointing at or focusing a tile placement shows the tile at its cell and rotation
// (the picture's hidden .preview group of that move, drawn by the server from this seat's view).
function previewPlacement(id, on) {
  for (const el of $("board").querySelectorAll(`.preview[data-action="${Number(id)}"]`)) el.classList.toggle("on", on);
}

async function play(id) {
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  setState("waiting", "Playing…");
  try {
    await client.unary("ApplyAction", {
      matchId: match.id, seat: SEAT, actionId: id, expectedMoveNumber: match.moveNumber,
    }, md());
  } catch (err) {
    fail(err);  // the message says why; the moves come back for another try
    if (match.view) showMoves(match.view);
    return;
  }
  await refresh();
  keepFocusInMoves();
}

function clearHint() {
  const list = $("hint-list");
  list.replaceChildren();
  delete list.dataset.final;
  for (const b of $("moves").querySelectorAll("button.hinted")) b.classList.remove("hinted");
}

async function hint() {
  const m = match;
  const list = $("hint-list");
  clearHint();
  $("hint").disabled = true;
  const query = { match: { matchId: m.id, seat: SEAT }, params: { budget: { milliseconds: HINT_MS }, topK: 3 } };
  for await (const update of client.stream("Analyze", { query, progressIntervalMs: 150 }, md())) {
    if (m !== match) return;
    if (!update.result) continue;  // a progress message before the first answer
    const final = update.final && update.result.hints;  // hints in the game's terms come with the answer
    const items = final ? hintCards(update.result) : update.result.candidates.slice(0, 3).map(hintItem);
    list.replaceChildren(...items);
    if (update.final) {
      list.dataset.final = "1";
      const best = update.result.candidates[0];
      const button = best && $("moves").querySelector(`button[data-action='${best.action.id}']`);
      if (button) {
        button.classList.add("hinted");
        button.closest("details").open = true;
        revealInMoves(button);
      }
    }
  }
  $("hint").disabled = !(match.view && match.view.yourTurn);
}

function hintItem(c) {
  const li = document.createElement("li");
  li.dataset.action = String(c.action.id);
  li.textContent = `${c.action.label} — value ${c.value.toFixed(3)}, ${(100 * c.visitShare).toFixed(0)}% of visits`;
  const bar = document.createElement("span");
  bar.className = "bar";
  bar.style.width = `${Math.round(80 * c.visitShare)}px`;
  li.append(bar);
  li.onmouseenter = () => mark(c.action.id, true);
  li.onmouseleave = () => mark(c.action.id, false);
  return li;
}

// ---- hints in the game's terms (the final answer's MoveHint fields, docs/api.md "Hints"); the
// terminal client says the same in service/_hint_text.py.

const SINGULAR = { credits: "credit", points: "point", chips: "chip" };

// Scroll the move list (only it: scrollIntoView would also scroll the panel and hide the hint's top)
// so the hinted move shows.
function revealInMoves(button) {
  const list = $("moves");
  const top = button.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  if (top < list.scrollTop || top + button.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

function hintAmount(value, unit) {
  const whole = Math.round(value);
  if (Math.abs(value - whole) < 0.05 || Math.abs(value) >= 10) {
    return `${whole} ${Math.abs(whole) === 1 ? (SINGULAR[unit] || unit) : unit}`;
  }
  return `${value.toFixed(1)} ${unit}`;
}

const HINT_TURNS = 4;  // turns of a line shown; the rest is "…"

// A gap within two standard errors is one the rollouts cannot tell from noise: no gap.
function hintGap(behind, unit, error) {
  if (Math.abs(behind) < Math.max(0.5, 2 * (error || 0))) return "about as good as the best";
  const whole = hintAmount(Math.max(1, Math.round(Math.abs(behind))), unit);
  return behind > 0 ? `about ${whole} behind the best` : `about ${whole} ahead of the best in rollouts (the search rates it lower)`;
}

function hintOutcome(h, summary) {
  if (summary.sides > 2 && h.expectedPlace != null) return `expected place ${h.expectedPlace.toFixed(1)} of ${summary.players}`;
  if (h.winChance != null) return `win chance ${Math.round(100 * h.winChance)}%`;
  return "";
}

function hintChanges(tallies) {
  const parts = tallies.filter((t) => Math.abs(t.change) >= 0.05)
    .map((t) => `${t.change > 0 ? "+" : ""}${Number(t.change.toFixed(1))} ${t.name}`);
  return parts.length ? parts.join(", ") : "no visible change";
}

function hintRow(cls, text) {
  const div = document.createElement("div");
  div.className = cls;
  div.textContent = text;
  return div;
}

// The line of play, one row per turn: who plays, then their steps.
function hintTurns(turns) {
  const box = document.createElement("div");
  box.className = "hint-line";
  for (const t of turns.slice(0, HINT_TURNS)) {
    if (t.seat === -1) {  // steps no sampled position could play: their count, not their ids
      box.append(hintRow("turn", `then ${t.labels.length} more step${t.labels.length === 1 ? "" : "s"}`));
      continue;
    }
    const row = hintRow(t.seat === SEAT ? "turn mine" : "turn", "");
    const who = document.createElement("b");
    who.textContent = `${t.seatName}: `;
    row.append(who, t.labels.join(", "));
    box.append(row);
  }
  if (turns.length > HINT_TURNS) box.append(hintRow("turn", "…"));
  return box;
}

// The final answer as cards: the best move in full, the others with their gap to it. The search's
// value and visit share stay on each card, small, for people who want them.
function hintCards(result) {
  const summary = result.hints;
  const unit = summary.scoreUnit;
  return result.candidates.slice(0, 3).map((c, i) => {
    const h = c.hint;
    const li = document.createElement("li");
    li.dataset.action = String(c.action.id);
    li.className = i === 0 ? "hint-card best" : "hint-card";
    const head = hintRow("hint-move", c.action.label);
    const outcome = hintOutcome(h, summary);
    const score = `final score about ${hintAmount(h.expectedScore, unit)}`;
    if (i === 0) {
      li.append(head, hintRow("hint-outcome", [outcome, score].filter(Boolean).join(" · ")));
      li.append(hintRow("hint-change", `This move: ${hintChanges(h.thisMove)}`));
      li.append(hintRow("hint-change", `By the end of your turn: ${hintChanges(h.thisTurn)}`));
      li.append(hintTurns(h.turns));
    } else {
      li.append(head, hintRow("hint-outcome", [hintGap(h.scoreBehind, unit, h.scoreBehindError), outcome].filter(Boolean).join(" · ")));
      li.append(hintRow("hint-change", `This move: ${hintChanges(h.thisMove)}`));
    }
    const stats = hintRow("hint-stats", `value ${c.value.toFixed(3)}, ${(100 * c.visitShare).toFixed(0)}% of visits`);
    li.append(stats);
    li.onmouseenter = () => mark(c.action.id, true);
    li.onmouseleave = () => mark(c.action.id, false);
    return li;
  });
}

async function resign() {
  if (!match || match.over) return;
  if (!window.confirm("Resign this match? It ends now and you finish last.")) return;
  $("resign").disabled = true;
  await client.unary("ResignMatch", { matchId: match.id, seat: SEAT }, md());
  await refresh();
}

// A replay with a picture per position, fetched REPLAY_WINDOW pictures at a time (a long Tiny Epic
// Galaxies game's pictures would not fit in one answer: the server's 16 MiB message limit).
async function replay() {
  const m = match;
  $("replay").disabled = true;
  setState("over", "Loading the replay…");
  const seen = m.spectator ? { svgPublic: true } : { svgSeat: SEAT };  // whose pictures
  const r = await client.unary("GetReplay", { matchId: m.id, ...seen, svgFrom: 0, svgCount: REPLAY_WINDOW }, md());
  const frames = [{ svg: r.initialSvg, text: "start" }].concat(
    r.moves.map((mv) => ({ svg: mv.svg, text: `move ${mv.moveNumber}: seat ${mv.seat} ${mv.action.label}` })));
  const slider = $("replay-slider");
  slider.max = String(frames.length - 1);
  let serial = 0;
  const show = async (i) => {
    const mine = ++serial;
    slider.value = String(i);
    if (!frames[i].svg) {
      $("replay-pos").textContent = `${i} / ${frames.length - 1} — loading…`;
      const from = i - (i % REPLAY_WINDOW);
      const w = await client.unary("GetReplay", { matchId: m.id, ...seen, svgFrom: from, svgCount: REPLAY_WINDOW }, md());
      if (w.initialSvg) frames[0].svg = w.initialSvg;
      for (const mv of w.moves) if (mv.svg) frames[mv.moveNumber].svg = mv.svg;
      if (mine !== serial || m !== match) return;  // the slider moved on meanwhile
    }
    showBoard(frames[i].svg);
    $("replay-pos").textContent = `${i} / ${frames.length - 1} — ${frames[i].text}`;
    document.body.dataset.replay = String(i);
    for (const li of $("log").querySelectorAll("li.move")) li.classList.toggle("current", li.value === i);
    const current = $("log").querySelector("li.current");
    if (current) $("log").scrollTop = current.offsetTop - $("log").offsetTop - 40;
  };
  const go = (i) => show(i).catch(fail);
  slider.oninput = () => go(Number(slider.value));
  $("replay-prev").onclick = () => go(Math.max(0, Number(slider.value) - 1));
  $("replay-next").onclick = () => go(Math.min(frames.length - 1, Number(slider.value) + 1));
  $("replay-bar").hidden = false;
  $("replay").disabled = false;
  setState("over", `Replay: ${frames.length - 1} moves (◀ ▶ or the slider).`);
  await show(0);
}

// ---- spectators: the public view of a match, nothing a seat keeps hidden ----

function spectatorLink() {
  const p = new URLSearchParams(location.hash.slice(1));  // a fragment never reaches the server's logs
  return p.get("watch") && p.get("token") ? { id: p.get("watch"), token: p.get("token") } : null;
}

// After CreateMatch: a link that opens this match for a spectator (its own token, the public view).
function showSpectatorLink(id, token) {
  const a = $("spectate");
  a.href = `${location.pathname}#watch=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
  a.hidden = !token;
}

async function spectate(link) {
  match = {
    id: link.id, token: link.token, spectator: true, players: 0, ai: [], moveNumber: 0, view: null,
    over: false, logged: 0,
  };
  $("log").replaceChildren();
  $("moves").replaceChildren();
  $("hint").disabled = true;
  $("resign").disabled = true;
  setState("waiting", "Opening the match as a spectator…");
  await refresh();
  watch(match);
}

// GetReplay as the spectator: the moves so far (labels as the public sees them), then the public
// picture of the latest position.
async function refreshPublic(m) {
  const moves = await client.unary("GetReplay", { matchId: m.id }, md());
  const n = moves.moves.length;
  const pictured = await client.unary("GetReplay", { matchId: m.id, svgPublic: true, svgFrom: n, svgCount: 1 }, md());
  if (m !== match || n < m.moveNumber) return;
  m.players = moves.players;
  m.game = moves.game;
  m.moveNumber = n;
  m.over = moves.status !== "MATCH_STATUS_ACTIVE";
  document.body.dataset.moves = String(n);
  if (document.body.dataset.replay === undefined) showBoard(n === 0 ? pictured.initialSvg : pictured.moves[n - 1].svg);
  const status = moves.status.replace("MATCH_STATUS_", "").toLowerCase();
  if (m.over) {
    const scores = moves.scores.map((s, i) => `seat ${i}: ${points(s, m.game)}`).join(", ");
    setState("over", `Spectator — game over (${status}). ${scores}`);
    $("replay").disabled = false;
  } else {
    setState("watching", `Spectator — the public view after move ${n}.`);
  }
}

// ---- The game-over view: who won, each seat's points in the game's unit (whole numbers without
// decimals), who resigned, the teams (GetObservation's seatTeams) and the solo result against the
// Rogue; its buttons open the replay or start a new match.
// The games' score units (core_ext/<game>/hints.py SCORE_UNIT; the hint answer's scoreUnit).
const SCORE_UNITS = { trian: "credits", take_the_galaxy: "renown", tiny_epic_galaxies: "points", kuhn: "chips" };

function points(value, game) {
  const n = Number(value);
  const shown = Number.isInteger(n) ? String(n) : n.toFixed(1);
  const unit = SCORE_UNITS[game] || "points";
  return `${shown} ${Math.abs(n) === 1 && SINGULAR[unit] ? SINGULAR[unit] : unit}`;
}

function seatName(m, seat) {
  if (seat === SEAT) return "you";
  return `seat ${seat}${m.ai[seat] ? " (AI)" : ""}`;
}

function teamsOf(view) {
  const teams = view.seatTeams && view.seatTeams.length ? view.seatTeams : view.scores.map((_, i) => i);
  return new Set(teams).size < teams.length ? teams : null;  // null: no seat shares a team
}

const TEAM_NAMES = ["A", "B", "C", "D", "E"];

// Breakdown where the rules score by a formula the observation holds: Galaxy of Trian's credits plus
// 3 per mineral (section VII.1).
function breakdown(m, view, seat) {
  if (m.game !== "trian") return "";
  try {
    const state = JSON.parse(view.observationJson).state;
    return trianScoreWords(state.players[seat], state.phase);
  } catch {
    return "";
  }
}

// Galaxy of Trian: a score before the end is credits + 3 per mineral (section VII.1); at the end the
// minerals were exchanged and the Corvettes have plundered (VII.2), so the credits are the whole score.
function trianScoreWords(player, phase) {
  if (phase === "game_over") return "minerals exchanged at 3 each and plundering done";
  const minerals = Object.values(player.minerals || {}).reduce((a, b) => a + b, 0);
  return `${player.credits} credits + ${minerals} mineral${minerals === 1 ? "" : "s"} × 3`;
}

// The solo Rogue as the observation shows it (Tiny Epic Galaxies: galaxy 1 is the Rogue's; it wins on
// reaching empire level 6, else on points, docs/rules/tiny_epic_galaxies.md): its empire level.
function rogueSummary(view) {
  try {
    const state = JSON.parse(view.observationJson).state;
    const rogue = state.galaxies[1];
    const level = `empire level ${rogue.empire}`;
    return state.trigger === "rogue" ? `${level} (it ended the game)` : level;
  } catch {
    return "see the board";
  }
}

function resultSentence(m, view) {
  if (!view.ranks.length) {
    return `the match ended without a result (${view.status.replace("MATCH_STATUS_", "").toLowerCase()}).`;
  }
  const who = view.resignedSeat >= 0 ? (view.resignedSeat === SEAT ? "You resigned" : `${seatName(m, view.resignedSeat)} resigned`) : "";
  if (view.ranks.length === 1) {  // solo: against the Rogue (Tiny Epic Galaxies), else for the score
    const scored = points(view.scores[0], m.game);
    let text = `you finished with ${scored}.`;  // Take The Galaxy's solo game has no opponent
    if (m.game === "tiny_epic_galaxies") {
      text = view.ranks[0] === 0 ? `you beat the Rogue with ${scored}.` : `the Rogue wins; you scored ${scored}.`;
    }
    return who ? `${who}: ${text}` : text;
  }
  const winners = view.ranks.map((r, s) => (r === 0 ? s : -1)).filter((s) => s >= 0);
  const teams = teamsOf(view);
  let text;
  if (teams && new Set(winners.map((s) => teams[s])).size > 1) {
    text = "the teams tie.";
  } else if (teams) {
    const team = TEAM_NAMES[teams[winners[0]]] || String(teams[winners[0]]);
    const mine = winners.includes(SEAT);
    text = `team ${team} (${winners.map((s) => seatName(m, s)).join(" and ")}) wins${mine ? " — your team" : ""}.`;
  } else if (winners.length === 1) {
    text = winners[0] === SEAT ? "you win!" : `${seatName(m, winners[0])} wins.`;
  } else {
    text = `${winners.map((s) => seatName(m, s)).join(" and ")} share first place.`;
  }
  return who ? `${who}; ${text}` : text;
}

function showGameOver(m, view) {
  $("game-over").hidden = false;
  const sentence = resultSentence(m, view);
  $("result").textContent = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  const table = $("result-table");
  table.replaceChildren();
  if (!view.ranks.length) return;
  const teams = teamsOf(view);
  const head = table.createTHead().insertRow();
  for (const h of ["place", "seat", ...(teams ? ["team"] : []), "score"]) {
    const th = document.createElement("th");
    th.textContent = h;
    th.scope = "col";
    head.append(th);
  }
  const body = table.createTBody();
  const order = view.ranks.map((r, s) => s).sort((a, b) => view.ranks[a] - view.ranks[b] || a - b);
  for (const s of order) {
    const row = body.insertRow();
    row.className = view.ranks[s] === 0 ? "winner" : "";
    if (s === SEAT) row.classList.add("mine");
    const place = ORDINAL[view.ranks[s]] || `#${view.ranks[s] + 1}`;
    const name = seatName(m, s) + (s === view.resignedSeat ? " — resigned" : "");
    const cells = [place, name, ...(teams ? [`team ${TEAM_NAMES[teams[s]] || teams[s]}`] : [])];
    const extra = breakdown(m, view, s);
    cells.push(points(view.scores[s], m.game) + (extra ? ` (${extra})` : ""));
    for (const c of cells) row.insertCell().textContent = c;
  }
  if (view.ranks.length === 1 && m.game === "tiny_epic_galaxies") {
    const row = body.insertRow(view.ranks[0] === 0 ? -1 : 0);  // winners first
    row.className = view.ranks[0] === 0 ? "" : "winner";
    for (const c of [view.ranks[0] === 0 ? "2nd" : "1st", "the Rogue", rogueSummary(view)]) {
      row.insertCell().textContent = c;
    }
  }
  $("over-replay").disabled = false;
}

// How scores.js names a player (with its team in a team variant) and its points
// (GetObservation.scoreBreakdown's entries).
function scoreNames(m, view) {
  const teams = teamsOf(view);
  const team = (s) => (teams ? `, team ${TEAM_NAMES[teams[s]] || teams[s]}` : "");
  return { seat: (e) => (e.seat < 0 ? e.name : seatName(m, e.seat) + team(e.seat)), points: (v) => points(v, m.game) };
}

// ---- A decision with one legal move is played at once when the set-up's option is on (the default);
// the log marks it "(the only legal move)". Once per position: a refused move is not retried.
function playIfOnlyMove(m, view) {
  if (!$("auto-single").checked || view.legalActions.length !== 1 || m.autoAt === view.moveNumber) return false;
  m.autoAt = view.moveNumber;
  m.onlyMoves.add(view.moveNumber + 1);
  play(view.legalActions[0].id).catch(fail);
  return true;
}

// After a move made with the keyboard, the focus stays in the move list (the first move of the new
// list), not at the top of the page. A mouse player gets no focus ring on a move it did not pick.
let usingKeys = false;
window.addEventListener("keydown", () => { usingKeys = true; }, true);
window.addEventListener("pointerdown", () => { usingKeys = false; }, true);

function keepFocusInMoves() {
  if (!usingKeys) return;
  const active = document.activeElement;
  if (active && active !== document.body && !$("moves").contains(active)) return;  // the player went elsewhere
  const first = $("moves").querySelector("button:not([hidden]):not(:disabled)");
  if (first) first.focus({ preventScroll: true });
  else $("moves").focus({ preventScroll: true });
}

// ---- Phone layout: one panel at a time (Board, Moves, Log) below 700 px. At every width the board is
// never drawn below its full size (its 12-unit text stays at least 12 px) and pans in its own box;
// "Fit the board" shrinks it to the column, "Zoom in" undoes that.

function setUpPanels() {
  $("moves").tabIndex = -1;
  for (const b of $("tabs").querySelectorAll("button")) b.onclick = () => showPanel(b.dataset.tab);
  showPanel("moves");
  document.body.dataset.zoom = "full";
  $("zoom").onclick = () => {
    document.body.dataset.zoom = document.body.dataset.zoom === "full" ? "fit" : "full";
    applyZoom();
  };
  $("board").addEventListener("click", showDetail);
  setUpPlacementBar({
    play: (id) => play(id).catch(fail), showPanel, actions: () => match?.view?.legalActions || [],
  });
  keyboardBoard($("board"), () => new Map((match?.view?.legalActions || []).map((a) => [String(a.id), a.label])));
}

// A click or tap on a board part with a tooltip (<title>: a card's cost and effect, a pilot's ability)
// shows that text under the board, since a phone has no hover. The move outlines (.target) lie over the
// parts, so the parts under the pointer are searched too; a click elsewhere hides the panel.
function showDetail(event) {
  const board = $("board");
  const tipOf = (el) => {
    for (let n = el; n && n !== board && n.tagName !== "svg"; n = n.parentElement) {
      const title = n.querySelector(":scope > title");
      if (title) return title.textContent;
    }
    return "";
  };
  let tip = tipOf(event.target);
  for (const el of tip ? [] : document.elementsFromPoint(event.clientX, event.clientY)) {
    if ((tip = tipOf(el))) break;
  }
  $("board-detail").textContent = tip;
  $("board-detail").hidden = !tip;
  if (tip) $("board-detail").scrollIntoView({ block: "nearest" });  // under a tall board: bring it up
}

// The replay steps through pictures: on a phone it opens on the Board tab (its ◀ ▶ bar is there).
function openReplay() {
  showPanel("board");
  return replay();
}

function showPanel(tab) {
  document.body.dataset.tab = tab;
  for (const b of $("tabs").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.tab === tab));
  if (tab === "board") applyZoom();
}

function applyZoom() {
  const full = document.body.dataset.zoom === "full";
  $("zoom").textContent = full ? "Fit the board" : "Zoom in";
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const box = svg.viewBox && svg.viewBox.baseVal;
  // the column's width (style.css) when that is larger, one SVG unit per CSS px when it is not
  svg.style.minWidth = full && box && box.width ? `${box.width}px` : "";
}

// ---- The lobby: this browser's kept matches, as the server knows them (ListMatches with every kept
// token), with Resume (the match's address) and Abandon (AbandonMatch, asked first) or Forget.
async function showLobby() {
  const seats = keptSeats();
  const tokens = Object.values(seats).map((s) => s.token).filter(Boolean).slice(0, KEPT_SEATS);
  const list = $("match-list");
  if (!tokens.length) {
    $("lobby").hidden = true;
    return;
  }
  const found = await client.unary("ListMatches", {}, { "x-orrery-seat-token": tokens.join(", ") });
  if (match) {  // a match opened meanwhile (the address named one)
    $("lobby").hidden = true;
    return;
  }
  list.replaceChildren();
  for (const s of found.matches) {
    if (!seats[s.matchId]) continue;
    const li = document.createElement("li");
    li.dataset.match = s.matchId;
    const live = s.status === "MATCH_STATUS_ACTIVE";
    const state = live ? (s.currentPlayer === s.seat ? "your turn" : "in play") :
      s.status.replace("MATCH_STATUS_", "").toLowerCase();
    const when = new Date(s.updatedAt * 1000).toLocaleString();
    const text = document.createElement("div");
    const game = games.find((g) => g.name === s.game);
    const title = game ? game.title.split(" (")[0] : s.game;
    const learnedAi = seats[s.matchId].bot ? ", learned AI" : "";  // this browser chose it (ListMatches has no bot)
    text.textContent = `${title} (${s.variant.replaceAll("_", " ")}), ${s.players} player${s.players === 1 ? "" : "s"}` +
      `${learnedAi} — ` +
      `${state}, ${s.moveNumber} moves, ${when}`;
    const resume = document.createElement("a");
    resume.href = `#match=${s.matchId}`;
    resume.textContent = live ? "Resume" : "Open";
    resume.className = "button";
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = live ? "Abandon" : "Forget";
    drop.onclick = () => dropMatch(s, seats[s.matchId]).catch(fail);
    const actions = document.createElement("div");
    actions.className = "row";
    actions.append(resume, drop);
    li.append(text, actions);
    list.append(li);
  }
  $("lobby").hidden = list.children.length === 0;
}

async function dropMatch(summary, seat) {
  if (summary.status === "MATCH_STATUS_ACTIVE") {
    if (!window.confirm("Abandon this match? It ends without a result and cannot be resumed.")) return;
    await client.unary("AbandonMatch", { matchId: summary.matchId, seat: summary.seat },
      { "x-orrery-seat-token": seat.token });
  }
  forgetSeat(summary.matchId);
  await showLobby();
}

start().catch(fail);
