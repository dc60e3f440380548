// The Orrery reference web client: every call goes through the gateway (Envoy) as gRPC-Web.
// Flow: ListGames -> CreateMatch (you are seat 0, the other seats are AI) -> WatchMatch (server
// stream: each move as it happens) + GetObservation (board picture, legal moves) -> ApplyAction;
// Hint = Analyze (server stream, top three candidates); Replay = GetReplay with pictures.
// document.body.dataset.state ("loading", "ready", "your-turn", "waiting", "over", "error") and
// dataset.moves (moves played) say where the page is, for people and for tests.
import { connect } from "./grpcweb.js";

const $ = (id) => document.getElementById(id);
const SEAT = 0;
const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th"];
let client = null;
let games = [];
let match = null;  // {id, players, token, ai: [bool], moveNumber, view}
let refreshSerial = 0;
let watchAbort = null;

function setState(state, text, error = false) {
  document.body.dataset.state = state;
  if (text !== undefined) $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

function fail(err) {
  console.error(err);
  setState("error", `Error: ${err.message || err}`, true);
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
    select.add(new Option(g.testingOnly ? `${g.title} (test game)` : g.title, g.name));
  }
  select.value = games.some((g) => g.name === "trian") ? "trian" : games[0].name;
  select.onchange = fillGameOptions;
  $("variant").onchange = fillPlayers;
  fillGameOptions();
  $("setup").onsubmit = (e) => { e.preventDefault(); newMatch().catch(fail); };
  $("hint").onclick = () => hint().catch(fail);
  $("replay").onclick = () => replay().catch(fail);
  $("new-match").disabled = false;
  setState("ready", "Pick a game and start a match against the AI.");
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

function fillGameOptions() {
  const g = currentGame();
  const variant = $("variant");
  variant.length = 0;
  for (const v of g.variants) variant.add(new Option(v, v));
  fillPlayers();
}

function fillPlayers() {
  const g = currentGame();
  const counts = new Set(g.playerCounts);
  for (const vp of g.variantPlayerCounts || []) {
    if (vp.variant === $("variant").value) vp.playerCounts.forEach((n) => counts.add(n));
  }
  const players = $("players");
  players.length = 0;
  for (const n of [...counts].sort((a, b) => a - b)) players.add(new Option(String(n), String(n)));
  players.value = counts.has(2) ? "2" : players.options[0].value;
}

async function newMatch() {
  if (watchAbort) watchAbort.abort();
  const players = Number($("players").value);
  const seats = [];
  for (let s = 0; s < players; s++) seats.push(s === SEAT ? { human: {} } : { ai: { level: $("level").value } });
  setState("waiting", "Creating the match…");
  const created = await client.unary("CreateMatch", {
    game: $("game").value, variant: $("variant").value, players, seats,
  });
  match = {
    id: created.matchId, players, token: created.seatTokens[SEAT].token,
    ai: created.seatTokens.map((t) => t.ai), moveNumber: 0, view: null, over: false,
  };
  $("log").replaceChildren();
  $("hint-list").replaceChildren();
  $("replay-bar").hidden = true;
  $("replay").disabled = true;
  await refresh();
  watch(match);
}

async function watch(m) {
  watchAbort = new AbortController();
  try {
    const events = client.stream("WatchMatch", { matchId: m.id, seat: SEAT, afterMove: 0 }, md(), watchAbort.signal);
    for await (const ev of events) {
      if (m !== match) return;
      if (ev.kind === "MATCH_EVENT_MOVE") {
        const li = document.createElement("li");
        li.value = ev.moveNumber;
        li.textContent = `seat ${ev.seat}${ev.byAi ? " (AI)" : " (you)"}: ${ev.action.label}`;
        if (ev.byAi) li.classList.add("ai");
        $("log").append(li);
        li.scrollIntoView({ block: "nearest" });
        await refresh();
      } else if (ev.kind === "MATCH_EVENT_END") {
        await refresh();
      }
    }
  } catch (err) {
    if (err.name !== "AbortError" && m === match) fail(err);
  }
}

async function refresh() {
  const serial = ++refreshSerial;
  const m = match;
  const view = await client.unary("GetObservation", { matchId: m.id, seat: SEAT }, md());
  if (serial !== refreshSerial || m !== match) return;  // a newer refresh is on its way
  m.view = view;
  m.moveNumber = view.moveNumber;
  document.body.dataset.moves = String(view.moveNumber);
  $("board").innerHTML = view.svg;
  showMoves(view);
  if (view.gameOver) {
    m.over = true;
    const place = view.ranks.length ? ORDINAL[view.ranks[SEAT]] || `#${view.ranks[SEAT] + 1}` : "no result";
    const scores = view.scores.map((s, i) => `seat ${i}: ${Number(s).toFixed(2)}`).join(", ");
    setState("over", `Game over (${view.status.replace("MATCH_STATUS_", "").toLowerCase()}): you finished ${place}. ${scores}`);
    $("hint").disabled = true;
    $("replay").disabled = false;
  } else if (view.yourTurn) {
    setState("your-turn", `Your turn — move ${view.moveNumber + 1}.`);
    $("hint").disabled = false;
  } else {
    setState("waiting", `Seat ${view.currentPlayer}${m.ai[view.currentPlayer] ? " (AI)" : ""} is thinking…`);
    $("hint").disabled = true;
  }
}

function showMoves(view) {
  const box = $("moves");
  box.replaceChildren();
  $("hint-list").replaceChildren();
  const groups = new Map();
  for (const a of view.legalActions) {
    const kind = JSON.parse(a.structJson || "{}").kind || "move";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(a);
  }
  for (const [kind, actions] of groups) {
    const group = document.createElement("div");
    group.className = "group";
    const h = document.createElement("h3");
    h.textContent = kind.replaceAll("_", " ");
    group.append(h);
    for (const a of actions) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = a.label;
      b.dataset.action = String(a.id);
      b.onclick = () => play(a.id).catch(fail);
      b.onmouseenter = () => mark(a.id, true);
      b.onmouseleave = () => mark(a.id, false);
      group.append(b);
    }
    box.append(group);
  }
}

// Show the board cells a move touches (the picture carries them as hidden .target outlines).
function mark(id, on) {
  for (const el of $("board").querySelectorAll(".target")) {
    if ((el.dataset.actions || "").split(" ").includes(String(id))) el.classList.toggle("on", on);
  }
}

async function play(id) {
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  setState("waiting", "Playing…");
  await client.unary("ApplyAction", {
    matchId: match.id, seat: SEAT, actionId: id, expectedMoveNumber: match.moveNumber,
  }, md());
  await refresh();
}

async function hint() {
  const list = $("hint-list");
  $("hint").disabled = true;
  const query = { match: { matchId: match.id, seat: SEAT }, params: { budget: { milliseconds: 500 }, topK: 3 } };
  for await (const update of client.stream("Analyze", { query, progressIntervalMs: 150 }, md())) {
    if (!update.result) continue;  // a progress message before the first answer
    const items = [];
    for (const c of update.result.candidates.slice(0, 3)) {
      const li = document.createElement("li");
      li.textContent = `${c.action.label} — value ${c.value.toFixed(3)}, ${(100 * c.visitShare).toFixed(0)}% of visits`;
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${Math.round(80 * c.visitShare)}px`;
      li.append(bar);
      items.push(li);
    }
    list.replaceChildren(...items);
    if (update.final) {
      list.dataset.final = "1";
      const best = update.result.candidates[0];
      for (const b of $("moves").querySelectorAll("button")) {
        b.classList.toggle("hinted", best && b.dataset.action === String(best.action.id));
      }
    }
  }
  $("hint").disabled = !(match.view && match.view.yourTurn);
}

async function replay() {
  const r = await client.unary("GetReplay", { matchId: match.id, svgSeat: SEAT });
  const frames = [{ svg: r.initialSvg, text: "start" }].concat(
    r.moves.map((mv) => ({ svg: mv.svg, text: `move ${mv.moveNumber}: seat ${mv.seat} ${mv.action.label}` })));
  const slider = $("replay-slider");
  slider.max = String(frames.length - 1);
  const show = (i) => {
    slider.value = String(i);
    $("board").innerHTML = frames[i].svg;
    $("replay-pos").textContent = `${i} / ${frames.length - 1} — ${frames[i].text}`;
    document.body.dataset.replay = String(i);
  };
  slider.oninput = () => show(Number(slider.value));
  $("replay-prev").onclick = () => show(Math.max(0, Number(slider.value) - 1));
  $("replay-next").onclick = () => show(Math.min(frames.length - 1, Number(slider.value) + 1));
  $("replay-bar").hidden = false;
  show(0);
}

start().catch(fail);
