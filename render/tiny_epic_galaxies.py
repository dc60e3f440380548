"""Tiny Epic Galaxies: the planet row (each planet's colony track with the ships in orbit, and the ships
on its surface), the dice of the turn, and every galaxy mat (empire level, energy and culture, ships,
colonies, points, the secret mission), the Rogue's in solo, from one seat's observation.

Reads the `tiny_epic_galaxies/1` payload (docs/rules/tiny_epic_galaxies.md section 10) and the catalogue
for what a planet or mission name means. Another seat's mission is "?" in an observation and is drawn
face down. Beyond the Black (section 13.7 of the rules doc) is drawn when the observation carries its
fields, so the base game does not depend on them: the table's `beyond_the_black.pilot_row` and
`exploration_row` (`_expansion`), and on each mat the `hangar` (advanced ship kind -> pilot and ship),
`retired_pilots`, `exploration_cards` (names the observer may see) and `hidden_cards` (another seat's
face-down cards: badge and dwarf points only), and ships in Unexplored Space or on a danger track.
"""

from __future__ import annotations

import functools
from typing import Any
from xml.sax.saxutils import quoteattr

from orrery.render._svg import (
    INK,
    clip,
    document,
    last_turn_marks,
    marks,
    rect,
    seat_colour,
    text,
    titled,
    view_name,
    wrap,
)

WIDTH = 1130
CARD_W = 176
GAP = 8
ROGUE = "#4a4a4a"
FACES = ("move", "energy", "culture", "diplomacy", "economy", "colony")
FACE_STYLE = {
    "move": ("#2e86ab", "MOVE", "Move a Ship"),
    "energy": ("#d89a00", "ENRG", "Acquire Energy"),
    "culture": ("#c2185b", "CULT", "Acquire Culture"),
    "diplomacy": ("#7b4fa8", "DIPL", "Advance Diplomacy"),
    "economy": ("#3f8f3a", "ECON", "Advance Economy"),
    "colony": ("#5b6f8a", "UTIL", "Utilize a Colony"),
}
RESOURCE_COLOUR = {"energy": "#d89a00", "culture": "#c2185b", "both": "#8a5a8c"}  # both: Beyond the Black
TRACK_COLOUR = {"diplomacy": "#7b4fa8", "economy": "#3f8f3a"}
DECISIONS = {
    "keep_mission": "choose a secret mission to keep",
    "turn": "main step (activate, reroll, convert or end)",
    "reroll": "picking dice to reroll",
    "convert": "using the converter",
    "follow": "asked to follow",
    "resolve_die": "resolving a die",
    "landed": "landed: use the planet's action?",
    "planet_action": "a planet's action",
    "rogue_turn": "the Rogue's turn",
    "rogue_die": "the Rogue's die",
    "rogue_takes": "the Rogue takes resources",
}
MISSION_TEXT = {
    "most": "most {measure}",
    "fewest": "fewest {measure}",
    "equal": "as many economy as diplomacy colonies",
    "triggered_end": "trigger the end of the game",
    "at_least_3_each": "3+ energy and 3+ culture",
    "empire_level_6": "empire level 6",
    "all_ships_home": "every ship on the galaxy mat",
    "no_ship_home": "no ship on the galaxy mat",
}


@functools.cache  # the catalogue is read once, on the first picture, and never changes
def _cat() -> dict[str, Any]:
    from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

    return {
        "planets": {p["name"]: p for p in CATALOGUE["planets"] + CATALOGUE["beyond_the_black"]["planets"]},
        "missions": {m["name"]: m for m in CATALOGUE["missions"] + CATALOGUE["beyond_the_black"]["missions"]},
        "empire": {e["level"]: e for e in CATALOGUE["empire"]},
        "spaces": {int(k): int(v) for k, v in CATALOGUE["spaces_by_vp"].items()},
        "points_to_end": CATALOGUE["points_to_end"],
        "pilots": {p["name"]: p for p in CATALOGUE["beyond_the_black"]["pilots"]},
        "cards": {c["name"]: c for c in CATALOGUE["beyond_the_black"]["exploration_cards"]},
        "hire": CATALOGUE["beyond_the_black"]["hire_cost"],
    }


def _planet(name: str) -> dict[str, Any]:
    """A planet's catalogue entry; a planet this renderer does not know gets a neutral one."""
    cat = _cat()
    return cat["planets"].get(name) or {
        "name": name,
        "resource": "",
        "track": "",
        "spaces": 1,
        "vp": 0,
        "text": "",
    }


def points(galaxy: dict[str, Any]) -> int:
    """Colonies' VP + the empire level's VP, and in Beyond the Black 1 per pilot hired (retired ones too)
    and the dwarf planets' VP (missions and badge majorities are scored at the end and not included)."""
    cat = _cat()
    total = sum(int(_planet(p).get("vp", 0)) for p in galaxy.get("colonies", []))
    total += len(_pilots(galaxy)) + sum(_dwarf_vp(c) for c in _cards(galaxy))
    return total + int(cat["empire"].get(int(galaxy.get("empire", 1)), {}).get("vp", 0))


def _pilots(galaxy: dict[str, Any]) -> list[str]:
    """Beyond the Black: every pilot the galaxy has hired, the flying ones first."""
    hangar = galaxy.get("hangar") or {}
    return [h["pilot"] for h in hangar.values() if h] + list(galaxy.get("retired_pilots") or [])


def _cards(galaxy: dict[str, Any]) -> list[Any]:
    """Beyond the Black: the galaxy's exploration cards, by name where the observer may see it, else the
    public part ({"badge", "dwarf_planet_vp"})."""
    return list(galaxy.get("exploration_cards") or []) + list(galaxy.get("hidden_cards") or [])


def _dwarf_vp(card: Any) -> int:
    if isinstance(card, dict):
        return int(card.get("dwarf_planet_vp", 0))
    return int(_cat()["cards"].get(card, {}).get("dwarf_planet_vp", 0))


def mission_text(name: str) -> str:
    """A mission's goal and points: its catalogue text, else one made from its condition."""
    m = _cat()["missions"].get(name)
    if m is None:
        return ""
    if m.get("text"):  # the Beyond the Black ones name no points: add them
        return str(m["text"]) + ("" if "VP" in m["text"] else f": {m['vp']} VP")
    goal = MISSION_TEXT.get(m["condition"], m["condition"]).format(measure=m["measure"].replace("_", " "))
    tied = f", tied {m['tied_vp']}" if m["tied_vp"] != m["vp"] else ""
    return f"{goal}: {m['vp']} VP{tied}"


def planet_tip(name: str) -> str:
    p = _planet(name)
    n = int(p.get("spaces", 1))
    return (
        f"{name}: {p.get('vp', 0)} VP, {p.get('resource', '')} planet on the {p.get('track', '')} track "
        f"({n} orbit spaces; {n + 1} advances colonize it). Colony action: {p.get('text', '')}"
    )


def pilot_tip(name: str) -> str:
    cat = _cat()
    pilot = cat["pilots"].get(name, {})
    cost = cat["hire"]
    trained = ", ".join(pilot.get("trained", [])) or "no ship"
    return (
        f"{name}: {pilot.get('text', '')}. Hire: {cost['trained']} matching dice on a ship it is trained "
        f"for ({trained}), else {cost['any']} dice of one face; {pilot.get('vp', 1)} VP"
    )


def card_tip(name: str) -> str:
    return f"{name}: {_cat()['cards'].get(name, {}).get('text', '')}"


def mission_tip(name: str) -> str:
    return f"{name} (secret mission): {mission_text(name)}"


def _galaxy_colour(g: int, solo: bool) -> str:
    return ROGUE if solo and g == 1 else seat_colour(g)


def _galaxy_name(g: int, solo: bool) -> str:
    return "Rogue" if solo and g == 1 else f"seat {g}"


def render(
    obs: dict[str, Any],
    highlight: dict[str, Any] | None = None,
    targets: list[dict[str, Any]] | None = None,
    last_turn: list[Any] | None = None,
) -> str:
    state = obs["state"]
    ended = obs.get("ended", "")  # a hosted match that ended otherwise (a resignation): nobody to play
    if ended:
        state = {**state, "over": True, "trigger": None}
    players = int(obs["players"])
    observer = int(obs["observer"])
    solo = players == 1
    galaxies = state.get("galaxies", [])
    active = state.get("active")
    boxes: dict[Any, tuple[float, float, float, float]] = {}
    body: list[str] = []

    pending = state.get("pending", [])
    if state.get("over"):
        head = f"game over — {ended}" if ended else "game over"
        trigger = state.get("trigger")
        if trigger is not None:
            who = "the Rogue" if trigger == "rogue" else f"seat {trigger}"
            head += f" (ended by {who})"
    elif state.get("round", 0) == 0:
        head = "set-up: choosing secret missions"
    else:
        who = "the Rogue's" if active == "rogue" else f"seat {active}'s"
        head = f"round {state.get('round')}, {who} turn"
    body.append(text(16, 28, f"Tiny Epic Galaxies — {head}", size=17, weight="bold"))
    sub = f"{obs.get('variant', '')}, {players} player{'s' if players > 1 else ' against the Rogue'} — "
    sub += f"{view_name(observer)}. The round someone reaches {_cat()['points_to_end']} VP is the last"
    sub += " (VP shown without missions)"
    if pending and not state.get("over"):
        top = pending[-1]
        g = top.get("galaxy")
        who = _galaxy_name(int(g), solo) if isinstance(g, int) else ""
        what = DECISIONS.get(top.get("decision", ""), str(top.get("decision", "")).replace("_", " "))
        if top.get("decision") == "follow" and top.get("face") in FACE_STYLE:
            what += f": {FACE_STYLE[top['face']][2]}"
        sub += f".  Now: {who} — {what}"
    sub_lines = wrap(sub, 150)
    for i, line in enumerate(sub_lines):
        body.append(text(16, 48 + 16 * i, line, size=12, fill="#555"))

    # dice
    y = 64.0 + 16 * (len(sub_lines) - 1)
    part, h = _dice(state, solo, y, boxes)
    body += part
    y += h + 12

    # planet row
    body.append(text(16, y + 14, "Planet row", size=14, weight="bold"))
    body.append(
        text(
            WIDTH - 16,
            y + 14,
            "ships: numbered by seat colour; ● on a space of the orbit track, ▲ on the surface",
            size=12,
            anchor="end",
            fill="#555",
        )
    )
    y += 24
    row = state.get("row", [])
    ships_at = _ships_by_planet(galaxies, solo)
    tallest = 0.0
    for slot, name in enumerate(row):
        x = 16.0 + slot * (CARD_W + GAP)
        part, h = _planet_card(x, y, slot, name, ships_at.get(name or "", []), solo, boxes)
        body += part
        tallest = max(tallest, h)
    y += tallest + 14

    part, h = _expansion(state, y)
    body += part
    y += h

    # galaxy mats, three to a line
    per_line = 3
    mat_w = (WIDTH - 32 - (per_line - 1) * 10) / per_line
    line_h = 0.0
    for g, galaxy in enumerate(galaxies):
        col = g % per_line
        if col == 0 and g:
            y += line_h + 10
            line_h = 0.0
        x = 16 + col * (mat_w + 10)
        part, h = _mat(x, y, mat_w, g, galaxy, state, observer, solo, boxes)
        body += part
        line_h = max(line_h, h)
    y += line_h + 12

    current = active if isinstance(active, int) else None
    body += marks(boxes, lambda a: _keys(a, current, row), highlight, targets)
    body += last_turn_marks(boxes, last_turn)
    return document(WIDTH, y, body, title=f"Tiny Epic Galaxies, {view_name(observer)}")


def _keys(action: dict[str, Any], current: int | None, row: list[Any]) -> list[Any]:
    """The boxes an action touches (see the keys given to `boxes` while drawing)."""
    kind = action.get("kind")
    if kind in ("activate", "face", "follow"):
        return [("die", action.get("face"))]
    if kind in ("move", "ship") and current is not None:
        keys: list[Any] = [("ship", current, action.get("ship"))]
        where = str(action.get("to", ""))
        for name in row:
            if name and where.startswith(str(name)):
                keys.append(("planet", name))
        return keys
    if kind == "enemy_ship":
        return [("ship", action.get("galaxy"), action.get("ship"))]
    if kind == "colony":
        return [("colony", action.get("planet"))]
    if kind == "upgrade" and current is not None:
        return [("empire", current)]
    if kind == "keep_mission" and current is not None:
        return [("mission", current, action.get("index"))]
    if kind == "player":
        return [("galaxy", action.get("galaxy"))]
    return []


def _ships_by_planet(galaxies: list[dict[str, Any]], solo: bool) -> dict[str, list[tuple[int, int, Any]]]:
    """planet name -> [(galaxy, ship, track space or "surface")]."""
    out: dict[str, list[tuple[int, int, Any]]] = {}
    for g, galaxy in enumerate(galaxies):
        for k, ship in enumerate(galaxy.get("ships", [])):
            if isinstance(ship, dict) and ship.get("planet"):
                where = "surface" if ship.get("surface") else int(ship.get("track", 0))
                out.setdefault(ship["planet"], []).append((g, k, where))
    return out


def _ship(x: float, y: float, g: int, k: int, solo: bool, *, surface: bool = False) -> list[str]:
    colour = _galaxy_colour(g, solo)
    label = f"{_galaxy_name(g, solo)}, ship {k}"
    if surface:
        shape = (
            f"<path d='M{x - 9:.1f} {y + 7:.1f} l9 -16 l9 16 z' fill='{colour}' stroke='white'>"
            f"<title>{label}</title></path>"
        )
        return [shape, text(x, y + 6, k, size=12, anchor="middle", fill="white", weight="bold")]
    return [
        f"<circle cx='{x:.1f}' cy='{y:.1f}' r='9' fill='{colour}' stroke='white'>"
        f"<title>{label}</title></circle>",
        text(x, y + 4.5, k, size=12, anchor="middle", fill="white", weight="bold"),
    ]


def _dice(state: dict[str, Any], solo: bool, y: float, boxes: dict[Any, Any]) -> tuple[list[str], float]:
    dice = state.get("dice", {})
    inactive = dice.get("inactive", {})
    activated = dice.get("activated", {})
    active = state.get("active")
    out = [text(16, y + 18, "Dice", size=14, weight="bold")]
    who = "the Rogue" if active == "rogue" else f"seat {active}"
    if not inactive and not activated:
        out.append(text(60, y + 18, "none rolled", size=12, fill="#777"))
        return out, 28
    out.append(text(60, y + 18, f"({who})", size=12, fill="#555"))
    x = 130.0
    for face in FACES:
        for state_word, count in (
            ("inactive", int(inactive.get(face, 0))),
            ("activated", int(activated.get(face, 0))),
        ):
            if not count:
                continue
            start = x
            for _ in range(count):
                colour, short, word = FACE_STYLE[face]
                faded = state_word == "activated"
                out.append(
                    rect(
                        x,
                        y,
                        46,
                        36,
                        fill=colour,
                        stroke=INK if not faded else "#bbb",
                        width=1,
                        rx=7,
                        extra=f"opacity='{0.35 if faded else 1}' data-die='{face}' "
                        f"data-activated='{int(faded)}'",
                    )
                )
                out.append(text(x + 23, y + 23, short, size=12, anchor="middle", fill="white", weight="bold"))
                x += 52
            if state_word == "inactive":
                boxes[("die", face)] = (start, y, x - start - 6, 36)
    x += 10
    notes = [f"activated dice are faded; rerolls this turn {dice.get('rerolls', 0)}"]
    notes.append(
        f"converter {'used' if dice.get('converter_used') else 'unused'}; "
        f"follow cost {state.get('follow_cost', 1)} culture"
    )
    bonus = state.get("follow_bonus") or []
    if bonus:
        notes[-1] += f"; follow bonus: {', '.join(map(str, bonus))}"
    for i, note in enumerate(notes):
        out.append(text(max(x, 560), y + 14 + 16 * i, note, size=12, fill="#555"))
    return out, 40


def _planet_card(
    x: float,
    y: float,
    slot: int,
    name: str | None,
    ships: list[tuple[int, int, Any]],
    solo: bool,
    boxes: dict[Any, Any],
) -> tuple[list[str], float]:
    if not name:
        return [
            rect(x, y, CARD_W, 60, fill="none", stroke="#bbb", extra="stroke-dasharray='5 4'"),
            text(x + CARD_W / 2, y + 34, "empty (deck exhausted)", size=12, anchor="middle", fill="#888"),
        ], 60
    p = _planet(name)
    out: list[str] = []
    res_colour = RESOURCE_COLOUR.get(p["resource"], INK)
    track_colour = TRACK_COLOUR.get(p["track"], INK)
    out.append(
        f"<path d='M{x:.1f} {y + 24:.1f} v-18 a6 6 0 0 1 6 -6 h{CARD_W - 12:.1f} a6 6 0 0 1 6 6 v18 z' "
        f"fill='{res_colour}'/>"
    )
    out.append(text(x + 8, y + 17, name, size=13, fill="white", weight="bold"))  # 17 letters fit
    resource = "energy & culture" if p["resource"] == "both" else p["resource"]
    out.append(text(x + 8, y + 40, resource, size=12, fill=res_colour, weight="bold"))
    out.append(text(x + CARD_W - 8, y + 40, f"{p['vp']} VP", size=12, weight="bold", anchor="end"))
    # the orbit track: spaces 0..N, then the colony flag (N + 1 advances colonize): the planet's cost
    n = int(p.get("spaces", 1))
    out.append(text(x + 8, y + 56, f"colonize: {p['track']} ×{n + 1}", size=12, fill=track_colour))
    step = (CARD_W - 36) / (n + 1)
    ty = y + 80
    out.append(
        f"<line x1='{x + 12:.1f}' y1='{ty:.1f}' x2='{x + 12 + step * (n + 1):.1f}' y2='{ty:.1f}' "
        f"stroke='{track_colour}' stroke-width='3'/>"
    )
    for s in range(n + 1):
        cx = x + 12 + step * s
        out.append(
            f"<circle cx='{cx:.1f}' cy='{ty:.1f}' r='5' fill='white' stroke='{track_colour}' "
            "stroke-width='2'/>"
        )
        out.append(text(cx, ty - 8, s, size=12, anchor="middle", fill="#666"))
    fx = x + 12 + step * (n + 1)
    out.append(
        f"<path d='M{fx:.1f} {ty + 6:.1f} v-18 l10 5 l-10 5' fill='{track_colour}' stroke='{track_colour}'/>"
    )
    by_space: dict[int, int] = {}
    lowest = ty
    for g, k, where in ships:
        if where == "surface":
            continue
        s = min(int(where), n)
        row = by_space.get(s, 0)
        by_space[s] = row + 1
        cy = ty + 18 + 18 * row
        out += _ship(x + 12 + step * s, cy, g, k, solo)
        boxes[("ship", g, k)] = (x + 12 + step * s - 9, cy - 9, 18, 18)
        lowest = max(lowest, cy)
    h = lowest - y + 18
    # the surface
    landed = [(g, k) for g, k, where in ships if where == "surface"]
    out.append(text(x + 8, y + h + 10, "surface:", size=12, fill="#555"))
    for i, (g, k) in enumerate(landed):
        sx = x + 70 + 22 * i
        out += _ship(sx, y + h + 6, g, k, solo, surface=True)
        boxes[("ship", g, k)] = (sx - 10, y + h - 10, 20, 18)
    if not landed:
        out.append(text(x + 62, y + h + 10, "-", size=12, fill="#999"))
    h += 22
    effect = wrap(str(p.get("text", "")), 23)
    if len(effect) > 4:  # the whole text is in the tooltip
        effect = [*effect[:3], clip(effect[3] + " " + " ".join(effect[4:]), 23)]
    for line in effect:
        out.append(text(x + 8, y + h + 10, line, size=12, fill=INK))
        h += 15
    h += 8
    boxes[("planet", name)] = (x, y, CARD_W, h)
    frame = rect(x, y, CARD_W, h, stroke="#999", extra=f"data-planet='{slot}'")
    return titled([frame, *out], planet_tip(name)), h


def _mat(
    x: float,
    y: float,
    w: float,
    g: int,
    galaxy: dict[str, Any],
    state: dict[str, Any],
    observer: int,
    solo: bool,
    boxes: dict[Any, Any],
) -> tuple[list[str], float]:
    cat = _cat()
    colour = _galaxy_colour(g, solo)
    rogue = solo and g == 1
    turn = state.get("active") == ("rogue" if rogue else g) and not state.get("over")
    out: list[str] = []
    name = "Rogue galaxy" if rogue else f"seat {g}" + (" (you)" if g == observer else "")
    if turn:
        name += " — to play"
    out.append(text(x + 12, y + 22, name, size=15, fill=colour, weight="bold"))
    out.append(text(x + w - 12, y + 22, f"{points(galaxy)} VP", size=15, weight="bold", anchor="end"))
    # empire track
    level = int(galaxy.get("empire", 1))
    emp = cat["empire"].get(level, {})
    cy = y + 36
    out.append(text(x + 12, cy + 13, "empire", size=12))
    for lv in range(1, 7):
        filled = lv <= level
        out.append(
            rect(
                x + 70 + 22 * (lv - 1),
                cy,
                19,
                18,
                fill=colour if filled else "white",
                stroke=colour,
                rx=3,
            )
        )
        out.append(
            text(
                x + 79.5 + 22 * (lv - 1),
                cy + 13,
                lv,
                size=12,
                anchor="middle",
                fill="white" if filled else "#888",
            )
        )
    boxes[("empire", g)] = (x + 68, cy - 2, 22 * 6 + 2, 22)
    out.append(
        text(
            x + 210,
            cy + 13,
            f"{emp.get('dice', '?')} dice, {emp.get('ships', '?')} ships, {emp.get('vp', 0)} VP",
            size=12,
            fill="#555",
        )
    )
    # energy and culture, 0..7
    for i, resource in enumerate(("energy", "culture")):
        ry = cy + 26 + 22 * i
        value = int(galaxy.get(resource, 0))
        rc = RESOURCE_COLOUR[resource]
        out.append(text(x + 12, ry + 13, resource, size=12))
        for v in range(8):
            on = v == value
            out.append(rect(x + 70 + 19 * v, ry, 17, 18, fill=rc if on else "white", stroke=rc, rx=9))
            out.append(
                text(x + 78.5 + 19 * v, ry + 13, v, size=12, anchor="middle", fill="white" if on else "#777")
            )
    # ships
    sy = cy + 26 + 44 + 8
    out.append(text(x + 12, sy + 12, "ships", size=12))
    home = 0
    lines: list[str] = []
    for k, ship in enumerate(galaxy.get("ships", [])):
        if ship == "home":
            sx = x + 70 + 22 * home
            out += _ship(sx, sy + 8, g, k, solo)
            boxes[("ship", g, k)] = (sx - 9, sy - 1, 18, 18)
            home += 1
        elif ship == "locked":
            lines.append(f"ship {k} locked")
        elif ship == "unexplored":
            lines.append(f"ship {k}{_advanced(galaxy, k)} in Unexplored Space")
        elif isinstance(ship, dict) and "danger" in ship:
            lines.append(
                f"ship {k}{_advanced(galaxy, k)} on {ship['danger']} (danger {ship.get('track', 0)})"
            )
        elif isinstance(ship, dict):
            where = "surface" if ship.get("surface") else f"track {ship.get('track', 0)}"
            lines.append(f"ship {k}{_advanced(galaxy, k)} at {ship.get('planet')} ({where})")
    out.append(
        text(
            x + 76 + 22 * max(home, 0),
            sy + 12,
            "on the mat" if home else "none on the mat",
            size=12,
            fill="#555",
        )
    )
    ly = sy + 12
    for line in lines:
        for part in wrap(line, int((w - 82) / 7)):
            ly += 15
            out.append(text(x + 70, ly, part, size=12, fill="#555" if "locked" in line else INK))
    # colonies
    cy = ly + 20
    colonies = galaxy.get("colonies", [])
    out.append(text(x + 12, cy, f"colonies ({len(colonies)})", size=12))
    cx, row_y = x + 100, cy - 13
    if not colonies:
        out.append(text(cx, cy, "-", size=12, fill="#999"))
    for planet in colonies:
        p = _planet(planet)
        label = f"{planet} {p.get('vp', 0)}"
        width = 7.8 * len(label) + 12
        if cx + width > x + w - 8:
            cx, row_y = x + 100, row_y + 20
        chip = rect(
            cx,
            row_y,
            width,
            17,
            fill=RESOURCE_COLOUR.get(p["resource"], "#888"),
            stroke="none",
            rx=8,
            extra=f"data-colony='{planet}'",
        )
        label_text = text(
            cx + width / 2, row_y + 13, label, size=12, anchor="middle", fill="white", weight="bold"
        )
        out += titled([chip, label_text], planet_tip(planet))
        boxes[("colony", planet)] = (cx, row_y, width, 17)
        cx += width + 4
    cy = row_y + 17 + 8
    # secret mission
    if not rogue:
        cy += 12
        mission = galaxy.get("mission")
        dealt = galaxy.get("dealt") or []
        if mission is None and dealt and "?" not in dealt:  # choosing: the owner sees both
            out.append(text(x + 12, cy, "missions dealt (keep one):", size=12))
            for i, m in enumerate(dealt):
                top = cy + 16
                row = []
                for part in wrap(f"{m}: {mission_text(m)}", int((w - 32) / 7)):
                    cy += 16
                    row.append(text(x + 20, cy, part, size=12, extra="data-mission='1'"))
                out += titled(row, mission_tip(m))
                boxes[("mission", g, i)] = (x + 16, top - 12, w - 28, cy - top + 16)
        elif mission in (None, "?"):
            out.append(text(x + 12, cy, "mission", size=12))
            out.append(
                rect(x + 70, cy - 12, 30, 18, fill="#3b4a6b", stroke="white", rx=3, extra="data-facedown='1'")
            )
            out.append(
                text(x + 108, cy, "secret" if mission == "?" else "not chosen yet", size=12, fill="#555")
            )
        else:
            out.append(text(x + 12, cy, "mission", size=12))
            row = [text(x + 70, cy, f"{mission}", size=12, weight="bold", extra="data-mission='1'")]
            for part in wrap(mission_text(mission), int((w - 82) / 7)):
                cy += 16
                row.append(text(x + 70, cy, part, size=12, fill="#555"))
            out += titled(row, mission_tip(mission))
        cy += 8
    lines_btb, cy = _hangar_lines(x, cy, w, galaxy)
    out += lines_btb
    if galaxy.get("once_used"):
        for part in wrap(f"used this turn: {', '.join(galaxy['once_used'])}", int((w - 24) / 7)):
            cy += 16
            out.append(text(x + 12, cy, part, size=12, fill="#555"))
    h = cy - y + 10
    boxes[("galaxy", g)] = (x, y, w, h)
    frame = rect(x, y, w, h, fill="#fffdf8", stroke=colour, width=4 if turn else 1.5, rx=10)
    return [frame, *out], h


def _advanced(galaxy: dict[str, Any], k: int) -> str:
    """ " (Aurora)" when ship k has become an advanced ship (Beyond the Black), else ""."""
    for kind, h in (galaxy.get("hangar") or {}).items():
        if h and h.get("ship") == k:
            return f" ({kind})"
    return ""


def _hangar_lines(x: float, cy: float, w: float, galaxy: dict[str, Any]) -> tuple[list[str], float]:
    """Beyond the Black on a mat: the hangar (each advanced ship's active pilot), the retired pilots, the
    exploration cards (names the observer may see; another seat's face-down ones by count) and the badges
    (pilots' and cards' badges, all public)."""
    if "hangar" not in galaxy and "exploration_cards" not in galaxy:
        return [], cy
    cat, out = _cat(), []
    lines: list[tuple[str, str, str]] = []  # (kind, line, tooltip)
    if "hangar" in galaxy:
        flying = [(kind, h["pilot"]) for kind, h in galaxy["hangar"].items() if h]
        if not flying:
            lines.append(("pilot", "hangar: no pilot yet", ""))
        for kind, pilot in flying:  # the name and the whole ability, wrapped
            ability = cat["pilots"].get(pilot, {}).get("text", "")
            lines.append(("pilot", f"{kind}: {pilot} — {ability}", pilot_tip(pilot)))
        if galaxy.get("retired_pilots"):
            retired = galaxy["retired_pilots"]
            tip = "; ".join(pilot_tip(p) for p in retired)
            lines.append(("pilot", "retired pilots: " + ", ".join(retired), tip))
    known = list(galaxy.get("exploration_cards") or [])
    hidden = list(galaxy.get("hidden_cards") or [])
    desc = ", ".join(known) or "none"
    if hidden:
        desc = (", ".join(known) + ", " if known else "") + f"{len(hidden)} face down"
    tip = "; ".join(card_tip(c) for c in known)  # the face-down ones: nothing
    lines.append(("exploration", f"exploration cards ({len(known) + len(hidden)}): {desc}", tip))
    badges: dict[str, int] = {}
    for pilot in _pilots(galaxy):
        for b in cat["pilots"].get(pilot, {}).get("badges", []):
            badges[b] = badges.get(b, 0) + 1
    for card in known + hidden:
        b = card.get("badge") if isinstance(card, dict) else cat["cards"].get(card, {}).get("badge")
        if b:
            badges[b] = badges.get(b, 0) + 1
    badge_line = "badges: " + (", ".join(f"{b} {n}" for b, n in sorted(badges.items())) or "none")
    lines.append(("badges", badge_line, ""))
    for kind, line, tip in lines:
        row = []
        for part in wrap(line, int((w - 24) / 7)):
            cy += 15
            row.append(text(x + 12, cy, part, size=12, extra=f"data-btb='{kind}'"))
        out += titled(row, tip)
    return out, cy


def _expansion(state: dict[str, Any], y: float) -> tuple[list[str], float]:
    """Beyond the Black, when the observation carries it (`beyond_the_black`): the pilots for hire, each
    with what it is trained for, and the face-up exploration row, each card with its effect."""
    btb = state.get("beyond_the_black")
    if not isinstance(btb, dict):
        return [], 0
    cat = _cat()
    out = [text(16, y + 14, "Beyond the Black", size=14, weight="bold")]
    h = 22.0
    rows = (
        ("pilot", "Pilots for hire", btb.get("pilot_row") or [], cat["pilots"]),
        ("exploration", "Exploration row", btb.get("exploration_row") or [], cat["cards"]),
    )
    for kind, title, names, entries in rows:
        out.append(text(16, y + h + 12, f"{title}:", size=12, weight="bold"))
        if not names:
            out.append(text(130, y + h + 12, "empty", size=12, fill="#999"))
        tallest = 20.0
        for i, name in enumerate(names):
            bx = 130 + i * 166
            if name is None:
                out.append(text(bx, y + h + 12, "(empty slot)", size=12, fill="#999"))
                continue
            entry = entries.get(name, {})
            if kind == "pilot":  # its cost (trained ships hire for fewer dice) and its ability
                costs = _cat()["hire"]
                trained = ", ".join(entry.get("trained", [])) or "no ship"
                detail = wrap(f"hire {costs['trained']} dice on {trained}, else {costs['any']}", 22)
                detail += wrap(entry.get("text", ""), 22)
                tip = pilot_tip(name)
            else:
                detail = wrap(entry.get("text", ""), 22) or [""]
                tip = card_tip(name)
            if len(detail) > 5:  # the whole text is in the tooltip
                detail = [*detail[:4], clip(" ".join(detail[4:]), 22)]
            box_h = 22 + 15 * len(detail)
            box = [
                rect(bx - 4, y + h, 160, box_h, fill="#f4f1ea", stroke="#bbb", rx=4),
                text(bx, y + h + 15, name, size=12, weight="bold", extra=f"data-{kind}={quoteattr(name)}"),
            ]
            for k, line in enumerate(detail):
                box.append(text(bx, y + h + 30 + 15 * k, line, size=12, fill="#555"))
            out += titled(box, tip)
            tallest = max(tallest, box_h)
        h += tallest + 6
    return out, h + 8
