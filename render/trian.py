"""Galaxy of Trian: the triangular galaxy (tiles by feature, emissaries, stations, ships, nebula minerals),
the two stacks, the tile in hand and every seat's supply, from one seat's observation.

Reads the game facts of the observation JSON. `_facts()` is the one place that knows the JSON layout:
it takes the facts-only "orrery.trian.observation/2" payload as it is and converts the retired
"orrery.observation/1" struct dump into the same shape, so the drawing code never changes with formats.
"""

from __future__ import annotations

import math
from typing import Any

from orrery.render._svg import INK, document, seat_colour, text, view_name

SIDE = 64.0  # triangle side (px)
HEIGHT = SIDE * math.sqrt(3) / 2
COLOURS = {"red": "#d1495b", "blue": "#2e86ab", "green": "#3f9c35", "yellow": "#e0a100"}
# Face families: fill colour and the short code of the terminal render (core_ext/trian/render.pxi).
FAMILIES = {
    "space": ("#101a33", ".."),
    "nebula": ("#6c4f9c", "n"),
    "extractor": ("#b5651d", "x"),
    "planet": ("#3d8b5a", "p"),
    "starlight": ("#c9a227", "--"),
    "gas": ("#2a8f9c", "g"),
    "trade": ("#8a8d93", "$$"),
    "teleport": ("#8a8d93", "TT"),
    "exmitter": ("#8a8d93", "EX"),
}
# mixed faces (two features on one side) share one fill
SHORT = {
    "nebula-gas": "ng",
    "nebula-band": "nb",
    "gas-band": "gb",
    "nebula-path": "n-",
    "planet-gas-end": "pg",
    "path-gas": "-g",
    "planet-end-and-path-end": "p:",
}
LEVELS = {"cap": "1", "end": "1", "bend": "2", "link": "2", "core": "3", "hub": "3"}
PHASES = {
    "phase1": "phase 1 (extraction)",
    "phase2_draw": "phase 2 (draw a tile)",
    "phase2_place": "phase 2 (place the tile)",
    "phase3": "phase 3 (exploration)",
    "take_back": "taking pieces back",
    "battle_declare": "battle: declare tokens",
    "battle_reroll": "battle: reroll",
    "game_over": "game over",
    "ship_target": "ship battle: choose a target",
    "racial_step": "racial power",
    "send_home": "battle: choose an emissary to send home",
}


def face_style(face: str) -> tuple[str, str]:
    """(fill colour, two-letter code) of a face name such as "nebula-bend"."""
    if face in SHORT:
        return "#5b7fa8", SHORT[face]
    family, _, level = face.partition("-")
    fill, code = FAMILIES.get(family, ("#cccccc", "??"))
    return fill, code + LEVELS.get(level, "") if len(code) == 1 else code


def corners(x: int, y: int) -> list[tuple[float, float]]:
    """Screen corners of cell (x, y): up triangles when x + y is even (core_ext/trian/engine.pyx _orient);
    the vertical neighbour of an up triangle is y + 1, so y grows downwards."""
    cx, top = x * SIDE / 2, y * HEIGHT
    if (x + y) % 2 == 0:
        return [(cx - SIDE / 2, top + HEIGHT), (cx + SIDE / 2, top + HEIGHT), (cx, top)]
    return [(cx - SIDE / 2, top), (cx + SIDE / 2, top), (cx, top + HEIGHT)]


def centre(x: int, y: int) -> tuple[float, float]:
    pts = corners(x, y)
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


# ---------------------------------------------------------------- the facts, whatever the format


def _facts(obs: dict[str, Any]) -> dict[str, Any]:
    return obs["state"]  # orrery.trian.observation/2 holds the game facts the picture needs


# ---------------------------------------------------------------- drawing


def _highlight_cells(action: dict[str, Any] | None) -> list[tuple[int, int]]:
    """The cells a move touches: its own x/y and any {x, y} it names (from, to, cell, ...)."""
    if not action:
        return []
    cells = []
    if isinstance(action.get("x"), int) and isinstance(action.get("y"), int):
        cells.append((action["x"], action["y"]))
    for value in action.values():
        if isinstance(value, dict) and isinstance(value.get("x"), int) and isinstance(value.get("y"), int):
            cells.append((value["x"], value["y"]))
    return cells


def _polygon(pts: list[tuple[float, float]], ox: float, oy: float) -> str:
    return " ".join(f"{px + ox:.1f},{py + oy:.1f}" for px, py in pts)


def render(
    obs: dict[str, Any],
    highlight: dict[str, Any] | None = None,
    targets: list[dict[str, Any]] | None = None,
    last_turn: list[Any] | None = None,
) -> str:
    facts = _facts(obs)
    players = int(obs["players"])
    observer = int(obs["observer"])
    galaxy = facts.get("galaxy", [])
    marks = _highlight_cells(highlight)
    touched: dict[tuple[int, int], list[int]] = {}
    for action in targets or []:
        for cell in _highlight_cells(action):
            touched.setdefault(cell, []).append(int(action["id"]))
    cells = [(t["x"], t["y"]) for t in galaxy] + marks + list(touched) or [(0, 0)]
    xs = [p[0] for c in cells for p in corners(*c)]
    ys = [p[1] for c in cells for p in corners(*c)]
    margin = 34.0  # room for the coordinates along the top and the left
    board_w = max(xs) - min(xs) + 2 * margin
    board_h = max(ys) - min(ys) + 2 * margin
    panel_w = 300.0
    width = max(board_w, 360.0) + panel_w
    ox, oy = margin - min(xs), 70 + margin - min(ys)
    body: list[str] = []
    who = facts.get("turn_player", 0)
    ended = obs.get("ended", "")  # a hosted match that ended otherwise (a resignation)
    if ended or facts.get("phase") == "game_over":
        head = "Galaxy of Trian — game over" + (f" — {ended}" if ended else "")
        head += f" (turn {facts.get('turn', '?')})"
    else:
        head = (
            f"Galaxy of Trian — turn {facts.get('turn', '?')}, seat {who} to play, "
            f"{PHASES.get(facts.get('phase', ''), facts.get('phase', ''))}"
        )
    body.append(text(16, 28, head, size=16, weight="bold"))
    body.append(
        text(16, 50, f"{obs.get('variant', '')} variant, {players} players — {view_name(observer)}", size=13)
    )
    body.append(
        f"<rect x='8' y='62' width='{board_w - 8:.0f}' height='{board_h:.0f}' rx='10' fill='#0b1226'/>"
    )
    minerals_at = {(n["x"], n["y"]): n.get("minerals", {}) for n in facts.get("nebulas", [])}
    for tile in galaxy:
        x, y = tile["x"], tile["y"]
        fill, code = face_style(tile["face"])
        body.append(
            f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='{fill}' stroke='#e8e6df' "
            f"stroke-width='1.5' data-cell='{x},{y}'><title>({x}, {y}) {tile['face']}</title></polygon>"
        )
        cx, cy = centre(x, y)
        cx, cy = cx + ox, cy + oy
        body.append(text(cx, cy + 4, code, size=12, anchor="middle", fill="white", weight="bold"))
        em = tile.get("emissary")
        if em:
            colour = seat_colour(int(em["seat"]))
            body.append(
                f"<circle cx='{cx - 10:.1f}' cy='{cy - 9:.1f}' r='6' fill='{colour}' stroke='white'/>"
            )
            station = em.get("station")
            if station:
                shape = "rect" if station == "space" else "circle"
                if shape == "rect":
                    body.append(
                        f"<rect x='{cx + 4:.1f}' y='{cy - 15:.1f}' width='11' height='11' "
                        f"fill='{colour}' stroke='white'/>"
                    )
                else:
                    body.append(
                        f"<circle cx='{cx + 10:.1f}' cy='{cy - 9:.1f}' r='5' fill='white' "
                        f"stroke='{colour}' stroke-width='3'/>"
                    )
        ship = tile.get("ship")
        if ship:
            colour = seat_colour(int(ship["seat"]))
            letter = {"corvette": "C", "rogue": "R"}.get(str(ship.get("kind")), "S")
            body.append(
                f"<path d='M{cx - 8:.1f} {cy + 20:.1f} l8 -12 l8 12 z' fill='{colour}' stroke='white'/>"
            )
            body.append(text(cx, cy + 19, letter, size=8, anchor="middle", fill="white", weight="bold"))
        here = minerals_at.get((x, y), {})
        for j, colour in enumerate(c for c in COLOURS if here.get(c)):  # colour order, not key order
            count = here[colour]
            body.append(
                f"<circle cx='{cx - 12 + 9 * j:.1f}' cy='{cy + 14:.1f}' r='4' fill='{COLOURS[colour]}' "
                f"stroke='white'/>"
            )
            if count > 1:
                body.append(text(cx - 12 + 9 * j, cy + 26, count, size=8, anchor="middle", fill="white"))
    for (x, y), ids in touched.items():
        body.append(
            f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='#ffe066' fill-opacity='0.35' "
            f"stroke='#ffe066' stroke-width='3' class='target' visibility='hidden' "
            f"data-cell='{x},{y}' data-actions='{' '.join(map(str, ids))}'/>"
        )
    for key in last_turn or []:
        if len(key) == 3 and key[0] == "cell":
            body.append(
                f"<polygon points='{_polygon(corners(key[1], key[2]), ox, oy)}' fill='none' "
                f"stroke='#e8590c' stroke-width='3' class='last-move'/>"
            )
    for x, y in marks:
        body.append(
            f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='#ffe066' fill-opacity='0.35' "
            f"stroke='#ffe066' stroke-width='3' stroke-dasharray='6 3' class='highlight'/>"
        )
    body += _coordinates(cells, ox, oy)
    panel = _panel(facts, players, observer, width - panel_w + 8, 70)
    legend_y = 70 + 28 * (len(facts.get("stacks", [])) + (1 if facts.get("hand") else 0)) + 10 + 118 * players
    body += panel + _legend(width - panel_w + 8, legend_y)
    height = max(board_h + 80, legend_y + LEGEND_H + 10)
    return document(width, height, body, title=f"Galaxy of Trian, {view_name(observer)}")


# The legend under the seats' panels: each code of the board with its colour (FAMILIES, SHORT, LEVELS).
LEGEND = (
    ("nebula", "n1 n2 n3 nebula"),
    ("extractor", "x1 x2 x3 extractor"),
    ("planet", "p1 p2 p3 planet"),
    ("starlight", "-- starlight path"),
    ("gas", "g1 g2 g3 gas cloud"),
    ("mixed", "ng nb gb n- pg -g p: two features"),
    ("trade", "$$ trade outpost, TT teleport, EX exmitter"),
    ("space", ".. empty space"),
)
LEGEND_H = 22 + 18 * len(LEGEND) + 40


def _legend(x: float, y: float) -> list[str]:
    """What the codes on the tiles mean, how the score is counted and what the outlines say."""
    out = [
        text(x + 4, y + 14, "Tile codes", size=12, weight="bold"),
        text(x + 80, y + 14, "1 cap/end, 2 bend/link, 3 core/hub", size=12),
    ]
    for k, (family, words) in enumerate(LEGEND):
        fill = "#5b7fa8" if family == "mixed" else FAMILIES[family][0]
        top = y + 22 + 18 * k
        out.append(f"<rect x='{x + 4}' y='{top}' width='14' height='14' fill='{fill}' stroke='{INK}'/>")
        out.append(text(x + 24, top + 12, words, size=12))
    end = y + 22 + 18 * len(LEGEND)
    out.append(text(x + 4, end + 14, "score: credits + 3 per mineral", size=12))
    out.append(text(x + 4, end + 32, "orange outline: what the last turn changed", size=12, fill="#b8430a"))
    return out


def _coordinates(cells: list[tuple[int, int]], ox: float, oy: float) -> list[str]:
    """x along the top and y down the left of the board, as move labels name cells: "(x, y)"."""
    xs = sorted({c[0] for c in cells})
    ys = sorted({c[1] for c in cells})
    top = min(p[1] for c in cells for p in corners(*c)) + oy - 8
    left = min(p[0] for c in cells for p in corners(*c)) + ox - 14
    out = [text(left, top, "y\\x", size=11, anchor="middle", fill="#c9d1e0")]
    out += [
        text(x * SIDE / 2 + ox, top, x, size=11, anchor="middle", fill="#c9d1e0")
        for x in range(xs[0], xs[-1] + 1)
    ]
    out += [
        text(left, y * HEIGHT + HEIGHT / 2 + oy + 4, y, size=11, anchor="middle", fill="#c9d1e0")
        for y in range(ys[0], ys[-1] + 1)
    ]
    return out


def _panel(facts: dict[str, Any], players: int, observer: int, x: float, y: float) -> list[str]:
    out = []
    stacks = facts.get("stacks", [])
    for k, stack in enumerate(stacks):
        top = stack.get("top_face")
        fill, code = face_style(top) if top else ("#cccccc", "-")
        out.append(f"<polygon points='{x + 12},{y + 28} {x + 36},{y + 28} {x + 24},{y + 7}' fill='{fill}'/>")
        out.append(
            text(x + 44, y + 24, f"stack {k}: {stack.get('size', 0)} tiles, top {top or '-'}", size=12)
        )
        y += 28
    hand = facts.get("hand")
    if hand:
        fill, code = face_style(hand["face_up"])
        out.append(
            f"<polygon points='{x + 12},{y + 28} {x + 36},{y + 28} {x + 24},{y + 7}' fill='{fill}' "
            f"stroke='#ffe066' stroke-width='2'/>"
        )
        out.append(text(x + 44, y + 24, f"in hand: {hand['face_up']}", size=12, weight="bold"))
        y += 28
    y += 10
    for p, player in enumerate(facts.get("players", [])[:players]):
        colour = seat_colour(p)
        active = p == facts.get("turn_player")
        out.append(
            f"<rect x='{x}' y='{y}' width='276' height='108' rx='8' fill='white' stroke='{colour}' "
            f"stroke-width='{4 if active else 2}'/>"
        )
        minerals = player.get("minerals", {})
        score = player.get("credits", 0) + 3 * sum(minerals.values())
        out.append(
            text(
                x + 10,
                y + 20,
                f"seat {p}{' (you)' if p == observer else ''}",
                size=13,
                fill=colour,
                weight="bold",
            )
        )
        out.append(text(x + 266, y + 20, f"score {score}", size=13, anchor="end", weight="bold"))
        out.append(text(x + 10, y + 42, f"{player.get('credits', 0)} credits", size=12))
        for j, (c, n) in enumerate((c, minerals[c]) for c in COLOURS if c in minerals):
            out.append(f"<circle cx='{x + 110 + 40 * j}' cy='{y + 38}' r='7' fill='{COLOURS.get(c, INK)}'/>")
            out.append(text(x + 121 + 40 * j, y + 42, n, size=12))
        supply = player.get("supply", {})
        out.append(
            text(
                x + 10,
                y + 64,
                f"emissaries {supply.get('emissaries', 0)}, research "
                f"{supply.get('research_stations', 0)}, space {supply.get('space_stations', 0)}",
                size=12,
            )
        )
        if supply.get("corvettes") or supply.get("rogues"):
            out.append(
                text(
                    x + 10,
                    y + 84,
                    f"ships: {supply.get('corvettes', 0)} corvettes, {supply.get('rogues', 0)} rogues",
                    size=12,
                )
            )
        tokens = player.get("combat_tokens")
        if tokens:
            out.append(text(x + 10, y + 100, f"combat tokens {tokens.get('count', 0)}", size=11))
        y += 118
    return out
