// Galaxy of Trian on a phone (issue 27, "the placed tile previewed in each rotation before it is
// played"). On a desktop pointing at a placement shows its preview (app.js mark). A phone has no hover
// and shows the board on another tab than the moves, so there a tap on a move that has a preview in the
// picture (`.preview[data-action=ID]`, drawn by the server only for the seat placing the tile) does not
// play it: it selects it and opens the Board tab with that preview shown and a bar
// "<label>  Play  Rotate  Back". Rotate steps to the next legal placement at the same cell (the action's
// structJson `x` and `y`: another rotation, or the tile's other side); Back returns to the Moves tab;
// Play plays the selected move (and returns to the Moves tab, where the turn goes on).
// Every other move, and every move on a wider screen, is played at once as before.

const PHONE = window.matchMedia("(max-width: 700px)");  // style.css's phone layout (the tabs)
const SHOWN = "chosen";  // the class that shows the selected preview (preview.css)

let hooks = null;  // {play(id), showPanel(tab), actions(): the legal moves}
let selected = null;  // the selected legal action, or null

const $ = (id) => document.getElementById(id);

function previewOf(id) {
  return $("board").querySelector(`.preview[data-action="${Number(id)}"]`);
}

function cellOf(action) {
  try {
    const s = JSON.parse(action.structJson || "{}");
    return Number.isInteger(s.x) && Number.isInteger(s.y) ? `${s.x},${s.y}` : null;
  } catch {
    return null;
  }
}

// The legal placements at the selected one's cell, in the order the server lists them.
function sameCell(action) {
  const cell = cellOf(action);
  if (cell === null) return [action];
  return hooks.actions().filter((a) => cellOf(a) === cell && previewOf(a.id));
}

function show(action) {
  for (const el of $("board").querySelectorAll(`.preview.${SHOWN}`)) el.classList.remove(SHOWN);
  selected = action;
  const preview = previewOf(action.id);
  preview.classList.add(SHOWN);
  $("place-label").textContent = action.label;
  $("place-rotate").hidden = sameCell(action).length < 2;
  $("place-bar").hidden = false;
  hooks.showPanel("board");
  $("bar").scrollIntoView({ block: "start" });  // the tabs, the bar and the board's top in view
  centreInBoard(preview);
}

// The board pans in its own box (style.css): bring the preview to its middle without moving the page.
function centreInBoard(el) {
  const board = $("board");
  const box = board.getBoundingClientRect();
  const at = el.getBoundingClientRect();
  board.scrollLeft += at.left + at.width / 2 - (box.left + box.width / 2);
  board.scrollTop += at.top + at.height / 2 - (box.top + box.height / 2);
}

// No selection: the bar goes and the preview hides (a new picture, Back, Play).
export function endPlacement() {
  selected = null;
  $("place-bar").hidden = true;
  for (const el of $("board").querySelectorAll(`.preview.${SHOWN}`)) el.classList.remove(SHOWN);
}

// A tap on a move: true when it was taken here (a phone, a move with a preview), false to play it.
export function choosePlacement(action) {
  if (!hooks || !PHONE.matches || !previewOf(action.id)) return false;
  show(action);
  return true;
}

export function setUpPlacementBar(given) {
  hooks = given;
  $("place-play").onclick = () => {
    const action = selected;
    endPlacement();
    hooks.showPanel("moves");
    if (action) hooks.play(action.id);
  };
  $("place-back").onclick = () => {
    endPlacement();
    hooks.showPanel("moves");
  };
  $("place-rotate").onclick = () => {
    if (!selected) return;
    const here = sameCell(selected);
    show(here[(here.findIndex((a) => a.id === selected.id) + 1) % here.length]);
  };
  PHONE.addEventListener("change", () => { if (!PHONE.matches) endPlacement(); });
}
