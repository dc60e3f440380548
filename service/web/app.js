// The Orrery reference web client: every call goes through the gateway (Envoy) as gRPC-Web.
// Flow: ListGames -> CreateMatch (you are seat 0, the other seats are AI) -> WatchMatch (server
// stream: each move as it happens) + GetObservation (board picture, legal moves) -> ApplyAction;
// Hint = Analyze (server stream, top three candidates); Resign = ResignMatch; Replay = GetReplay
// with pictures (opens once the match is over). Spectator mode (#watch=MATCH&token=SPECTATOR_TOKEN):
// the public view only, through WatchMatch without a seat and GetReplay's svg_public.
// document.body.dataset.state ("loading", "ready", "your-turn", "waiting", "watching", "over", "error"),
// dataset.moves (moves played) and dataset.views (pictures shown) say where the page is, for people
// and for tests.
import { connect } from "./grpcweb.js";

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
    const short = g.title.split(" (")[0];  // titles may go on with player counts and variants
    const option = new Option(g.testingOnly ? `${short} (test game)` : short, g.name);
    option.title = g.title;
    select.add(option);
  }
  select.value = games.some((g) => g.name === "trian") ? "trian" : games[0].name;
  select.onchange = fillGameOptions;
  $("variant").onchange = fillPlayers;
  fillGameOptions();
  $("setup").onsubmit = (e) => { e.preventDefault(); newMatch().catch(fail); };
  $("hint").onclick = () => hint().catch(fail);
  $("resign").onclick = () => resign().catch(fail);
  $("replay").onclick = () => replay().catch(fail);
  $("filter").oninput = applyFilter;
  $("pick-clear").onclick = () => { if (picked) pick(picked.el); };
  $("new-match").disabled = false;
  setState("ready", "Pick a game and start a match against the AI.");
  const link = spectatorLink();
  if (link) await spectate(link);
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

function fillGameOptions() {
  const g = currentGame();
  $("game").title = g.title;
  const variant = $("variant");
  variant.length = 0;
  for (const v of g.variants) variant.add(new Option(v.replaceAll("_", " "), v));
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
  for (const n of [...counts].sort((a, b) => a - b)) players.add(new Option(String(n), String(n)));
  players.value = counts.includes(2) ? "2" : players.options[0].value;
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
    ai: created.seatTokens.map((t) => t.ai), moveNumber: 0, view: null, over: false, logged: 0,
  };
  $("log").replaceChildren();
  clearHint();
  $("filter").value = "";
  $("replay-bar").hidden = true;
  $("replay").disabled = true;
  $("resign").disabled = false;
  delete document.body.dataset.replay;
  showSpectatorLink(match.id, created.spectatorToken);
  await refresh();
  watch(match);
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
  const who = ev.byAi ? " (AI)" : m.spectator ? "" : " (you)";
  li.textContent = `seat ${ev.seat}${who}: ${ev.action.label}`;
  if (ev.byAi) li.classList.add("ai");
  log.append(li);
  log.scrollTop = log.scrollHeight;  // scroll the list, never the page
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
  if (view.gameOver) {
    m.over = true;
    const place = view.ranks.length ? ORDINAL[view.ranks[SEAT]] || `#${view.ranks[SEAT] + 1}` : "no result";
    const scores = view.scores.map((s, i) => `seat ${i}: ${Number(s).toFixed(2)}`).join(", ");
    setState("over", `Game over (${view.status.replace("MATCH_STATUS_", "").toLowerCase()}): you finished ${place}. ${scores}`);
    $("hint").disabled = true;
    $("resign").disabled = true;
    $("replay").disabled = false;
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
      b.onclick = () => play(a.id).catch(fail);
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
  $("board").innerHTML = svg;
  document.body.dataset.views = String(++views);
  for (const el of $("board").querySelectorAll(".target")) el.onclick = () => pick(el);
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
    const items = update.result.candidates.slice(0, 3).map(hintItem);
    list.replaceChildren(...items);
    if (update.final) {
      list.dataset.final = "1";
      const best = update.result.candidates[0];
      const button = best && $("moves").querySelector(`button[data-action='${best.action.id}']`);
      if (button) {
        button.classList.add("hinted");
        button.closest("details").open = true;
        button.scrollIntoView({ block: "nearest" });
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

async function resign() {
  if (!match || match.over) return;
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
    for (const li of $("log").children) li.classList.toggle("current", li.value === i);
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
  m.moveNumber = n;
  m.over = moves.status !== "MATCH_STATUS_ACTIVE";
  document.body.dataset.moves = String(n);
  if (document.body.dataset.replay === undefined) showBoard(n === 0 ? pictured.initialSvg : pictured.moves[n - 1].svg);
  const status = moves.status.replace("MATCH_STATUS_", "").toLowerCase();
  if (m.over) {
    const scores = moves.scores.map((s, i) => `seat ${i}: ${Number(s).toFixed(2)}`).join(", ");
    setState("over", `Spectator — game over (${status}). ${scores}`);
    $("replay").disabled = false;
  } else {
    setState("watching", `Spectator — the public view after move ${n}.`);
  }
}

start().catch(fail);
