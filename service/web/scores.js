// Where each seat's points come from: GetObservation.scoreBreakdown (docs/api.md), as the server built it
// from this seat's own view (another seat's secret mission is neither named nor scored before the end).
// Two places show it: a "Scores" panel over the board during the game (one line of totals, opened for
// the parts) and a list under the game-over table. Nothing here computes a score: a game that gives no
// breakdown (Kuhn poker) shows neither.
//
// `names` is {seat(entry): "you" / "seat 1 (AI)" / "the Rogue", points(value): "12 points"}.

// One player's parts as a list: "colonies (2): 3 points — Vizcarra 1, Vesper 2".
function partsList(entry, names) {
  const list = document.createElement("ul");
  list.className = "score-parts";
  for (const part of entry.parts) {
    const li = document.createElement("li");
    li.dataset.points = String(part.points);
    const label = document.createElement("span");
    label.className = "score-label";
    label.textContent = `${part.label}: `;
    const pts = document.createElement("b");
    pts.textContent = names.points(part.points);
    li.append(label, pts);
    if (part.detail) {
      const detail = document.createElement("span");
      detail.className = "score-detail";
      detail.textContent = ` — ${part.detail}`;
      li.append(detail);
    }
    list.append(li);
  }
  return list;
}

function seatsList(breakdown, names) {
  const list = document.createElement("ul");
  list.className = "score-seats";
  for (const entry of breakdown) {
    const li = document.createElement("li");
    li.dataset.seat = String(entry.seat);
    li.dataset.total = String(entry.total);
    const head = document.createElement("span");
    head.className = "score-seat";
    head.textContent = `${names.seat(entry)}: ${names.points(entry.total)}`;
    li.append(head, partsList(entry, names));
    list.append(li);
  }
  return list;
}

// The panel over the board, made once (#scores, just before #board): closed, its summary holds every
// player's total; its state (open or closed) is kept across moves.
function panel() {
  let box = document.getElementById("scores");
  if (box) return box;
  box = document.createElement("details");
  box.id = "scores";
  box.className = "scores";
  box.hidden = true;
  const summary = document.createElement("summary");
  box.append(summary);
  document.getElementById("board").before(box);
  return box;
}

export function showScores(view, names) {
  const box = panel();
  const breakdown = view.scoreBreakdown || [];
  box.hidden = breakdown.length === 0;
  if (!breakdown.length) return;
  const totals = breakdown.map((e) => `${names.seat(e)} ${names.points(e.total)}`).join(" · ");
  box.querySelector("summary").textContent = `Scores: ${totals}`;
  box.querySelector("summary").title = "where each player's points come from";
  box.querySelector(".score-seats")?.remove();
  box.append(seatsList(breakdown, names));
}

// Under the game-over table: "Where the points come from", open, every part of every player.
export function showFinalScores(view, names) {
  let box = document.getElementById("over-scores");
  if (!box) {
    box = document.createElement("details");
    box.id = "over-scores";
    box.className = "scores";
    box.open = true;
    const summary = document.createElement("summary");
    summary.textContent = "Where the points come from";
    box.append(summary);
    document.getElementById("result-table").after(box);
  }
  const breakdown = view.scoreBreakdown || [];
  box.hidden = breakdown.length === 0;
  box.querySelector(".score-seats")?.remove();
  if (breakdown.length) box.append(seatsList(breakdown, names));
}

export function hideScores() {
  for (const id of ["scores", "over-scores"]) {
    const box = document.getElementById(id);
    if (box) box.hidden = true;
  }
}
