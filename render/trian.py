"""Galaxy of Trian: the triangular galaxy (tiles by feature, emissaries, stations, ships, nebula minerals),
the two stacks, the tile in hand and every seat's supply, from one seat's observation.

Reads the game facts of the observation JSON. `_facts()` is the one place that knows the JSON layout:
it takes the facts-only "orrery.trian.observation/2" payload as it is and converts the retired
"orrery.observation/1" struct dump into the same shape, so the drawing code never changes with formats.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

from orrery.render._svg import INK, document, seat_colour, text, titled, view_name, wrap

SIDE = 90.0  # triangle side (px): room for 12 px text, pieces and minerals inside a tile
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


# ---------------------------------------------------------------- edges (docs/rules/trian.md section 2)

# A face's clockwise edge i lies on side CW[orientation][(i + rotation) % 3] of its cell (the engine's
# catalogue.pxi: up triangles clockwise from the apex, down triangles from the top-left corner).
CW = {0: ("right", "vert", "left"), 1: ("vert", "right", "left")}
# Each side of a cell as two of corners()' points: up [bottom-left, bottom-right, apex], down
# [top-left, top-right, bottom]; "vert" is the horizontal edge (the base of an up triangle, the top of a
# down one), named as the players see it.
SIDE_POINTS = {
    0: {"right": (1, 2), "vert": (0, 1), "left": (2, 0)},
    1: {"vert": (0, 1), "right": (1, 2), "left": (2, 0)},
}
SIDE_WORDS = {
    0: {"right": "right", "vert": "base", "left": "left"},
    1: {"right": "right", "vert": "top", "left": "left"},
}
# Edge letters of the catalogue (catalogue.json "edge_codes") that carry a feature, drawn as a band along
# the side: (name, stroke colour, width, dash, what it means for a player).
EDGES = {
    "N": (
        "nebula border",
        "#f3b6ff",
        6,
        "",
        "the nebula goes on across it: the tile placed there must show nebula on this side",
    ),
    "P": (
        "starlight path",
        "#ffd84d",
        4,
        "8 4",
        "the planetary system goes on across it: the tile placed there must show a path on this side",
    ),
    "G": (
        "gas cloud border",
        "#9ff5c4",
        6,
        "",
        "gas divides outer space and stops ships: the tile placed there must show gas on this side",
    ),
}
EDGE_NAMES = {"S": "outer space", "P": "starlight path", "N": "nebula", "G": "gas cloud"}
FEATURE_WORDS = {
    "planet": "a planet (emissaries may land; it joins a planetary system)",
    "extractor": "a Trian extractor (+1 to the nebula's value and minerals; no emissary)",
    "outpost": "a trade outpost (an emissary here: 2 more actions and trade 1 credit cheaper)",
    "teleport": "a teleport (one unit teleported the turn it is placed)",
    "exmitter": "an exmitter (units around it go home; none may enter)",
}


def _faces() -> dict[str, dict[str, Any]]:
    from orrery.core_ext.trian import CATALOGUE

    return {f["name"]: f for f in CATALOGUE["faces"]}


def face_edges(face: str, x: int, y: int, rotation: int) -> list[tuple[str, str]]:
    """(side, edge letter) for each side of cell (x, y) holding `face` at `rotation`."""
    edges = _faces()[face]["edges"]
    o = (x + y) % 2
    return [(CW[o][(i + rotation) % 3], letter) for i, letter in enumerate(edges)]


def describe_face(face: str, x: int, y: int, rotation: int) -> str:
    """A face in words: its feature and the edge on each side, "nebula-bend: edges left nebula, ..."."""
    o = (x + y) % 2
    sides = sorted(face_edges(face, x, y, rotation), key=lambda e: ("left", "vert", "right").index(e[0]))
    feature = _faces()[face]["feature"]
    out = f"{face}: edges " + ", ".join(
        f"{SIDE_WORDS[o][side]} {EDGE_NAMES[letter]}" for side, letter in sides
    )
    return out + (f"; {FEATURE_WORDS[feature]}" if feature in FEATURE_WORDS else "")


def _edge_bands(face: str, x: int, y: int, rotation: int, ox: float, oy: float) -> list[str]:
    """The nebula, path and gas edges of a placed face as bands just inside the cell's sides, each with
    its meaning as a tooltip (outer-space edges are left bare)."""
    pts = corners(x, y)
    cx, cy = centre(x, y)
    o = (x + y) % 2
    out = []
    for side, letter in face_edges(face, x, y, rotation):
        if letter not in EDGES:
            continue
        name, colour, width, dash, meaning = EDGES[letter]
        (ax, ay), (bx, by) = (pts[k] for k in SIDE_POINTS[o][side])
        dashes = f" stroke-dasharray='{dash}'" if dash else ""
        # pulled 12 % towards the centre: inside the cell, a little shorter than the side
        a = (ax + (cx - ax) * 0.12 + ox, ay + (cy - ay) * 0.12 + oy)
        b = (bx + (cx - bx) * 0.12 + ox, by + (cy - by) * 0.12 + oy)
        line = (
            f"<line x1='{a[0]:.1f}' y1='{a[1]:.1f}' x2='{b[0]:.1f}' y2='{b[1]:.1f}' stroke='{colour}' "
            f"stroke-width='{width}' stroke-linecap='round'{dashes}/>"
        )
        tip = f"{name} on the {SIDE_WORDS[o][side]} side of ({x}, {y}): {meaning}"
        out += titled([line], tip, extra=f"data-edge='{letter}'")
    return out


# ---------------------------------------------------------------- one tile


UNIT_WORDS = {
    "emissary": "emissary",
    "slave_minion": "Slave-minion",
    "supreme_priestess": "Supreme Priestess",
}
SHIP_WORDS = {"corvette": "Corvette", "rogue": "Rogue", "supreme_priestess": "Supreme Priestess (a ship)"}


def _tile(tile: dict[str, Any], minerals: dict[str, int], ox: float, oy: float) -> list[str]:
    """A placed tile: its face's colour and code, its edges, the emissary (and station), the ship and
    the minerals of the nebula it names; the polygon's tooltip says it all in words."""
    x, y = tile["x"], tile["y"]
    fill, code = face_style(tile["face"])
    words = f"({x}, {y}) " + describe_face(tile["face"], x, y, int(tile.get("rotation") or 0))
    if tile.get("placer") is not None:
        words += f"; placed by seat {tile['placer']}"
    body = [
        f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='{fill}' stroke='#e8e6df' "
        f"stroke-width='1.5' data-cell='{x},{y}'><title>{escape(words)}</title></polygon>"
    ]
    body += _edge_bands(tile["face"], x, y, int(tile.get("rotation") or 0), ox, oy)
    cx, cy = centre(x, y)
    cx, cy = cx + ox, cy + oy
    wide = 1 if (x + y) % 2 == 0 else -1  # the side of the centre where the triangle is wide (up: below)
    body.append(text(cx, cy + 4, code, size=12, anchor="middle", fill="white", weight="bold"))
    row = cy - 19 * wide  # the pieces, on the narrow side
    em = tile.get("emissary")
    if em:
        body += _emissary(em, cx - 10, row, x, y)
    ship = tile.get("ship")
    if ship:
        body += _ship(ship, cx + 10, row, x, y)
    shown = [c for c in COLOURS if minerals.get(c)]  # colour order, not key order
    left = cx - 10 * len(shown) + 5
    for j, colour in enumerate(shown):
        count = minerals[colour]
        mx, my = left + 20 * j, cy + 19 * wide
        parts = [f"<circle cx='{mx:.1f}' cy='{my:.1f}' r='5' fill='{COLOURS[colour]}' stroke='white'/>"]
        if count > 1:
            parts.append(text(mx + 6, my + 4.5, count, size=12, fill="white", weight="bold"))
        body += titled(
            parts, f"{count} {colour} mineral{'s' if count > 1 else ''} in the nebula at ({x}, {y})"
        )
    return body


def _emissary(em: dict[str, Any], px: float, py: float, x: int, y: int) -> list[str]:
    seat = int(em["seat"])
    unit = UNIT_WORDS.get(str(em.get("unit") or "emissary"), "emissary")
    station = em.get("station")
    tip = f"seat {seat}'s {unit} at ({x}, {y})" + (f" with a {station} station" if station else "")
    return titled(_emissary_shapes(seat, station, px, py), tip)


def _emissary_shapes(seat: int, station: str | None, px: float, py: float) -> list[str]:
    """A dot in the seat's colour; on a research station ringed, on a space station framed."""
    colour = seat_colour(seat)
    parts = []
    if station == "space":
        parts.append(
            f"<rect x='{px - 9:.1f}' y='{py - 9:.1f}' width='18' height='18' fill='white' stroke='{colour}' "
            f"stroke-width='2'/>"
        )
    elif station == "research":
        parts.append(
            f"<circle cx='{px:.1f}' cy='{py:.1f}' r='9.5' fill='white' stroke='{colour}' stroke-width='2'/>"
        )
    parts.append(f"<circle cx='{px:.1f}' cy='{py:.1f}' r='6' fill='{colour}' stroke='white'/>")
    return parts


def _ship(ship: dict[str, Any], px: float, py: float, x: int, y: int) -> list[str]:
    seat, kind = int(ship["seat"]), str(ship.get("kind"))
    return titled(
        [_ship_shape(seat, kind, px, py)], f"seat {seat}'s {SHIP_WORDS.get(kind, 'ship')} at ({x}, {y})"
    )


def _ship_shape(seat: int, kind: str, px: float, py: float) -> str:
    """A Corvette is a triangle, a Rogue a diamond, the Supreme Priestess a ringed dot."""
    colour = seat_colour(seat)
    if kind == "rogue":
        return f"<path d='M{px:.1f} {py - 8:.1f} l7 8 l-7 8 l-7 -8 z' fill='{colour}' stroke='white'/>"
    if kind == "corvette":
        return f"<path d='M{px - 7:.1f} {py + 7:.1f} l7 -14 l7 14 z' fill='{colour}' stroke='white'/>"
    return f"<circle cx='{px:.1f}' cy='{py:.1f}' r='7' fill='white' stroke='{colour}' stroke-width='4'/>"


def _preview(action: dict[str, Any], ox: float, oy: float) -> list[str]:
    """A legal placement drawn at its cell and rotation, hidden until the web page shows it (class
    "preview", data-action = the move's id) while the move is pointed at or focused: the face of the
    tile in hand, which the seat placing it sees."""
    x, y, face, rotation = action["x"], action["y"], action["face"], int(action["rotation"])
    fill, code = face_style(face)
    cx, cy = centre(x, y)
    parts = [
        f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='{fill}' stroke='#ffe066' "
        "stroke-width='3'/>",
        *_edge_bands(face, x, y, rotation, ox, oy),
        text(cx + ox, cy + oy + 4, code, size=12, anchor="middle", fill="white", weight="bold"),
    ]
    label = action.get("label") or f"place {face} at ({x}, {y}) rotation {rotation}"
    return [
        f"<g class='preview' data-action='{int(action['id'])}' visibility='hidden' pointer-events='none'>"
        f"<title>{escape(label)}: {escape(describe_face(face, x, y, rotation))}</title>",
        *parts,
        "</g>",
    ]


# ---------------------------------------------------------------- the score (rulebook section VII)


def score_parts(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Per seat: `credits`, `minerals` (3 credits each at the end) and `plunder` (what the end's
    plundering would move if the game ended now; 0 once it has ended), from the engine's own end-of-game
    scoring (orrery.core_ext.trian.end_scoring). The score the panel shows is credits + 3 x minerals,
    the engine's scores(); the final score adds the plunder. `obs` may carry them already
    (extra_facts); a seat's view is loaded back to ask the engine; the public view, which no seat's
    loader takes, and a view the engine refuses get `plunder` None (not drawn)."""
    if "score_parts" in obs:
        return list(obs["score_parts"])
    from orrery.core_ext import StateFormatError, load_game
    from orrery.core_ext.trian import end_scoring

    if int(obs["observer"]) >= 0:
        game = load_game("trian", players=int(obs["players"]), variant=str(obs.get("variant") or "beginner"))
        try:
            return list(
                end_scoring(game.observation_from_dict({k: v for k, v in obs.items() if k != "ended"}))
            )
        except StateFormatError:
            pass  # a picture of facts the engine does not take back (an edited file): without the plunder
    return [
        {"credits": p.get("credits", 0), "minerals": sum(p.get("minerals", {}).values()), "plunder": None}
        for p in _facts(obs).get("players", [])
    ]


def extra_facts(observation: Any) -> dict[str, Any]:
    """What the picture needs beyond the observation's JSON, asked of the engine when to_svg is given
    the Observation itself: the score's parts (score_parts)."""
    from orrery.core_ext.trian import end_scoring

    return {"score_parts": end_scoring(observation)}


# ---------------------------------------------------------------- the picture


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
    width = max(board_w, 360.0) + PANEL_W
    ox, oy = margin - min(xs), 70 + margin - min(ys)
    body: list[str] = []
    who = facts.get("turn_player", 0)
    ended = obs.get("ended", "")  # a hosted match that ended otherwise (a resignation)
    over = bool(ended) or facts.get("phase") == "game_over"
    if over:
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
        body += _tile(tile, minerals_at.get((tile["x"], tile["y"]), {}), ox, oy)
    for (x, y), ids in touched.items():
        body.append(
            f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='#ffe066' fill-opacity='0.35' "
            f"stroke='#ffe066' stroke-width='3' class='target' visibility='hidden' "
            f"data-cell='{x},{y}' data-actions='{' '.join(map(str, ids))}'/>"
        )
    for action in targets or []:
        if (
            action.get("face")
            and isinstance(action.get("rotation"), int)
            and isinstance(action.get("x"), int)
        ):
            body += _preview(action, ox, oy)
    for key in last_turn or []:
        if len(key) == 3 and key[0] == "cell":
            body.append(
                f"<polygon points='{_polygon(corners(key[1], key[2]), ox, oy)}' fill='none' "
                f"stroke='#e8590c' stroke-width='3' class='last-move' pointer-events='none'/>"
            )
    for x, y in marks:
        body.append(
            f"<polygon points='{_polygon(corners(x, y), ox, oy)}' fill='#ffe066' fill-opacity='0.35' "
            f"stroke='#ffe066' stroke-width='3' stroke-dasharray='6 3' class='highlight'/>"
        )
    body += _coordinates(cells, ox, oy)
    panel, bottom = _panel(facts, players, observer, width - PANEL_W + 8, 70, score_parts(obs), over)
    body += panel + _legend(width - PANEL_W + 8, bottom + 10, ships=obs.get("variant") != "beginner")
    height = max(board_h + 80, bottom + 10 + legend_height(ships=obs.get("variant") != "beginner") + 10)
    return document(width, height, body, title=f"Galaxy of Trian, {view_name(observer)}")


PANEL_W = 360.0  # the column right of the board: stacks, hand, one box per seat, the legend
BOX_W = 336.0  # a seat's box
LINE = 18.0  # one 12 px line of text
WRAP = 46  # characters of 12 px text in a seat's box


# The legend under the seats' panels: each code of the board with its colour (FAMILIES, SHORT, LEVELS),
# the edges, the pieces, how the score is counted and what the outlines say.
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
EDGE_LEGEND = (
    ("N", "nebula border: the nebula goes on"),
    ("P", "starlight path: the system goes on"),
    ("G", "gas cloud border: divides space"),
)
PIECE_LEGEND = (
    ("emissary", "emissary"),
    ("research", "emissary on a research station"),
    ("space", "emissary on a space station"),
    ("corvette", "Corvette"),
    ("rogue", "Rogue"),
)
SCORE_LINES = ("score = credits + 3 per mineral (section VII.1)",)
PLUNDER_LINES = (  # the variants with ships
    "at the end the minerals become credits, then",
    "Corvettes plunder closed systems (VII.2): a",
    "seat's box says how much if it ended now",
)


def legend_height(*, ships: bool) -> float:
    rows = len(LEGEND) + len(EDGE_LEGEND) + (len(PIECE_LEGEND) if ships else 3)
    score = len(SCORE_LINES) + (len(PLUNDER_LINES) if ships else 0)
    return 22 + LINE * rows + 3 * 22 + LINE * score + 30


def _legend(x: float, y: float, *, ships: bool) -> list[str]:
    """What the codes, edges and pieces on the tiles mean, how the score is counted and what the
    outlines say."""
    out = [
        text(x + 4, y + 14, "Tile codes", size=12, weight="bold"),
        text(x + 80, y + 14, "1 cap/end, 2 bend/link, 3 core/hub", size=12),
    ]
    top = y + 22
    for family, words in LEGEND:
        fill = "#5b7fa8" if family == "mixed" else FAMILIES[family][0]
        out.append(f"<rect x='{x + 4}' y='{top:.1f}' width='14' height='14' fill='{fill}' stroke='{INK}'/>")
        out.append(text(x + 24, top + 12, words, size=12))
        top += LINE
    out.append(text(x + 4, top + 14, "Edges (a bare side: outer space)", size=12, weight="bold"))
    top += 22
    for letter, words in EDGE_LEGEND:
        name, colour, width, dash, meaning = EDGES[letter]
        dashes = f" stroke-dasharray='{dash}'" if dash else ""
        out.append(f"<rect x='{x + 2}' y='{top - 1:.1f}' width='30' height='16' fill='#0b1226'/>")
        out += titled(
            [
                f"<line x1='{x + 5}' y1='{top + 7:.1f}' x2='{x + 29}' y2='{top + 7:.1f}' stroke='{colour}' "
                f"stroke-width='{width}'{dashes}/>",
                text(x + 38, top + 12, words, size=12),
            ],
            f"{name}: {meaning}",
        )
        top += LINE
    out.append(text(x + 4, top + 14, "Pieces (seat colours)", size=12, weight="bold"))
    top += 22
    for kind, words in PIECE_LEGEND[: len(PIECE_LEGEND) if ships else 3]:
        px, py = x + 14, top + 7
        if kind in ("corvette", "rogue"):
            out.append(_ship_shape(0, kind, px, py))
        else:
            out += _emissary_shapes(0, {"research": "research", "space": "space"}.get(kind), px, py)
        out.append(text(x + 38, top + 12, words, size=12))
        top += LINE
    out.append(text(x + 4, top + 14, "Score", size=12, weight="bold"))
    top += 22
    for line in SCORE_LINES + (PLUNDER_LINES if ships else ()):
        out.append(text(x + 4, top + 12, line, size=12))
        top += LINE
    out.append(text(x + 4, top + 14, "orange outline: what the last turn changed", size=12, fill="#b8430a"))
    return out


def _coordinates(cells: list[tuple[int, int]], ox: float, oy: float) -> list[str]:
    """x along the top and y down the left of the board, as move labels name cells: "(x, y)"."""
    xs = sorted({c[0] for c in cells})
    ys = sorted({c[1] for c in cells})
    top = min(p[1] for c in cells for p in corners(*c)) + oy - 8
    left = min(p[0] for c in cells for p in corners(*c)) + ox - 14
    out = [text(left, top, "y\\x", size=12, anchor="middle", fill="#c9d1e0")]
    out += [
        text(x * SIDE / 2 + ox, top, x, size=12, anchor="middle", fill="#c9d1e0")
        for x in range(xs[0], xs[-1] + 1)
    ]
    out += [
        text(left, y * HEIGHT + HEIGHT / 2 + oy + 4, y, size=12, anchor="middle", fill="#c9d1e0")
        for y in range(ys[0], ys[-1] + 1)
    ]
    return out


def _panel(
    facts: dict[str, Any],
    players: int,
    observer: int,
    x: float,
    y: float,
    parts: list[dict[str, int]],
    over: bool,
) -> tuple[list[str], float]:
    """The stacks, the tile in hand and one box per seat; returns the drawing and where it ends."""
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
        box, height = _seat(player, p, observer, p == facts.get("turn_player"), x, y, parts[p], over)
        out += box
        y += height + 10
    return out, y


def _seat(
    player: dict[str, Any],
    p: int,
    observer: int,
    active: bool,
    x: float,
    y: float,
    part: dict[str, int],
    over: bool,
) -> tuple[list[str], float]:
    """One seat's box: its score and where it comes from, minerals, supply, race and skills (all of it
    public in Galaxy of Trian, docs/rules/trian.md section 14.5, but for others' combat tokens' kinds)."""
    colour = seat_colour(p)
    inner: list[str] = []
    line = y + 20
    minerals = player.get("minerals", {})
    score = part["credits"] + 3 * part["minerals"]
    inner.append(
        text(
            x + 10, line, f"seat {p}{' (you)' if p == observer else ''}", size=13, fill=colour, weight="bold"
        )
    )
    inner.append(text(x + BOX_W - 10, line, f"score {score}", size=13, anchor="end", weight="bold"))
    line += LINE + 2
    if over:
        why = (
            f"{part['credits']} credits (its minerals exchanged and plundering done at the end, section VII)"
        )
    else:
        plural = "s" if part["minerals"] != 1 else ""
        why = f"= {part['credits']} credits + {part['minerals']} mineral{plural} × 3"
    lines = wrap(why, WRAP)
    inner += titled(
        [text(x + 10, line + LINE * k, words, size=12) for k, words in enumerate(lines)],
        "score: credits plus 3 per mineral (section VII.1); at the end minerals become credits and Corvettes "
        "plunder closed planetary systems (VII.2)",
    )
    line += LINE * len(lines)
    for j, (c, n) in enumerate((c, minerals[c]) for c in COLOURS if c in minerals):
        inner += titled(
            [
                f"<circle cx='{x + 17 + 52 * j}' cy='{line - 4:.1f}' r='7' fill='{COLOURS.get(c, INK)}'/>",
                text(x + 28 + 52 * j, line, n, size=12),
            ],
            f"{n} {c} mineral{'s' if n != 1 else ''}",
        )
    line += LINE
    if part["plunder"]:  # 0: nothing to say; None: not known (the public view of a replay)
        sign = "+" if part["plunder"] > 0 else "−"
        inner += titled(
            [
                text(
                    x + 10,
                    line,
                    f"plunder if it ended now: {sign}{abs(part['plunder'])} credits",
                    size=12,
                    weight="bold",
                )
            ],
            "at the end, each Corvette in a closed planetary system another seat controls with a station "
            "takes tiles × 1 (research station) or × 2 (space station) credits from that seat (VII.2)",
        )
        line += LINE
    supply = player.get("supply", {})
    inner.append(
        text(
            x + 10,
            line,
            f"in supply: emissaries {supply.get('emissaries', 0)}, research "
            f"{supply.get('research_stations', 0)}, space {supply.get('space_stations', 0)}",
            size=12,
        )
    )
    line += LINE
    tokens = player.get("combat_tokens") or {}
    ships = ""
    if supply.get("corvettes") or supply.get("rogues"):
        corvettes, rogues = supply.get("corvettes", 0), supply.get("rogues", 0)
        ships = f"ships: {corvettes} corvette{'s' * (corvettes != 1)}, {rogues} rogue{'s' * (rogues != 1)}; "
    inner.append(text(x + 10, line, f"{ships}combat tokens {tokens.get('count', 0)}", size=12))
    line += LINE
    inner += _race(player, x, line)
    line += LINE * _race_lines(player)
    height = line - y
    frame = (
        f"<rect x='{x}' y='{y}' width='{BOX_W:.0f}' height='{height:.0f}' rx='8' fill='white' "
        f"stroke='{colour}' stroke-width='{4 if active else 2}'/>"
    )
    return [frame, *inner], height


def _skill_lines(player: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(skill name, its lines) for each active skill: "• name: short effect", wrapped to the box."""
    from orrery.core_ext.trian.skills import SKILLS

    out = []
    for name in [*player.get("racial_skills", []), *player.get("universal_skills", [])]:
        skill = SKILLS.get(name)
        out.append((name, wrap(f"• {name}: {skill.short}" if skill else f"• {name}", WRAP)))
    return out


def _race_lines(player: dict[str, Any]) -> int:
    if not player.get("race") and not player.get("universal_skills") and not player.get("racial_skills"):
        return 0
    return 1 + sum(len(lines) for _, lines in _skill_lines(player))


def _race(player: dict[str, Any], x: float, line: float) -> list[str]:
    """The seat's race and active skills, each with what it does (tooltip: the full text)."""
    from orrery.core_ext.trian.skills import tooltip

    if not _race_lines(player):
        return []
    race = player.get("race")
    out = [text(x + 10, line, f"race {race}" if race else "no race", size=12, weight="bold")]
    line += LINE
    for name, lines in _skill_lines(player):
        try:
            tip = tooltip(name)
        except KeyError:
            tip = name
        out += titled(
            [text(x + 10, line + LINE * k, words, size=12) for k, words in enumerate(lines)],
            tip,
            extra="data-skill='1'",
        )
        line += LINE * len(lines)
    return out
