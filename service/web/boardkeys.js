// Board spots a keyboard can reach (issue 27, "Keyboard and accessibility"): every part of the board
// picture a click does something with gets into the tab order, with a role and a name, and Enter or
// Space does what a click does there.
//
// - A part with a tooltip (`<g class="has-detail"><title>`: a card, planet, pilot, mission): role
//   button, named by its title (led by the words drawn on it where the title lacks them); a click shows
//   the title in the detail panel under the board.
// - A move outline (`.target`, `data-actions`: the legal moves that touch it): role button, named by
//   those moves ("2 moves here: build Township ...; ..."); a click keeps only those moves. The outlines
//   come hidden (`visibility="hidden"`), which no element can be focused with, so they are made
//   invisible with opacity instead (boardkeys.css), and shown on hover, on focus and when lit.
//
// Each new picture (the board's content replaced) is set up again; `movesById()` gives the current
// legal moves by id (for the outlines' names).

const KEYED = "keyed";  // the class of a spot set up here

function titleOf(el) {
  const title = el.querySelector(":scope > title");
  return title ? title.textContent.trim() : "";
}

// A card's name: its tooltip, led by the words drawn on it when the tooltip does not hold them (a
// control's name contains its visible text, WCAG 2.5.3).
function cardName(el) {
  const title = titleOf(el);
  if (!title) return "";
  const copy = el.cloneNode(true);  // the drawn words as a screen reader collects them: every text, no title
  for (const t of copy.querySelectorAll("title")) t.remove();
  const drawn = copy.textContent.replace(/\s+/g, " ").trim();
  return !drawn || title.includes(drawn) ? title : `${drawn} — ${title}`;
}

function targetName(el, movesById) {
  const ids = (el.dataset.actions || "").split(" ").filter(Boolean);
  const labels = ids.map((id) => movesById().get(id)).filter(Boolean);
  const count = `${ids.length} move${ids.length === 1 ? "" : "s"} here`;
  return labels.length ? `${count}: ${labels.join("; ")}` : count;
}

function setUp(board, movesById) {
  // The picture holds controls now: a group, not an image (an image's content is not read out).
  const svg = board.querySelector("svg");
  if (svg && svg.getAttribute("role") === "img") svg.setAttribute("role", "group");
  for (const el of board.querySelectorAll(".has-detail, .target")) {
    if (el.classList.contains(KEYED)) continue;
    const name = el.classList.contains("target") ? targetName(el, movesById) : cardName(el);
    if (!name) continue;
    if (el.classList.contains("target")) el.removeAttribute("visibility");
    el.classList.add(KEYED);
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", name);
  }
}

// Enter or Space on a spot: the click a pointer would make at its centre (so the page's own click
// handlers run: the detail panel, the move filter).
function onKey(event) {
  if (event.key !== "Enter" && event.key !== " ") return;
  const el = event.target;
  if (!el.classList || !el.classList.contains(KEYED)) return;
  event.preventDefault();
  const box = el.getBoundingClientRect();
  const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
  el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window, ...at }));
}

export function keyboardBoard(board, movesById) {
  new MutationObserver(() => setUp(board, movesById)).observe(board, { childList: true });
  board.addEventListener("keydown", onKey);
  setUp(board, movesById);
}
