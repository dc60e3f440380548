"""Take The Galaxy: explored space (systems with their slots, hazards and bounty; anomalies; events), the
space deck's cards left per sector, and every player's tableau (systems with the colonies on their slots,
ships, renown, hand, discard pile), from one seat's observation.

Reads the `take_the_galaxy/1` payload of the observation (docs/rules/take_the_galaxy.md section 9) and
the card catalogue for what a name means. Another seat's hand is null in an observation, so it is drawn
face down with its size only.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

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
CARD_W = 206
GAP = 12
RES_SHORT = {"manpower": "M", "production": "P", "science": "S", "credits": "C", "renown": "R"}
RES_COLOUR = {"manpower": "#c0392b", "production": "#8a5a2b", "science": "#2e86ab", "credits": "#b8860b"}
SECTOR_COLOUR = {"core": "#2e6f95", "expanse": "#6c4f9c", "fringe": "#a0522d", "home": "#3f7f4f"}
KIND_COLOUR = {"civilization": "#3f9c35", "mining": "#a0672d", "utility": "#5b6f8a", "ship": "#2a8f9c"}
SLOT_H = 34  # a slot row: the colony's name, then its effect
SLOT_STYLE = {"B": ("#3f9c35", "biosphere"), "D": ("#a0672d", "deposit")}
EVENT_TEXT = {
    "migration": "once a turn: gain 1 M",
    "pirates": "after exploring: discard 1 card",
    "investors": "once a turn: 1 renown -> 2 C",
    "guildship": "once a turn: 2 P -> 2 S",
    "burst": "+1 hazard on every explored system",
    "race": "relinquishing earns 2 more renown",
    "strike": "no colony can be upgraded",
    "crackdown": "negative-renown colonies unusable",
    "mech": "mining and utility colonies cost 1 less",
    "next_step": "once a turn: a ship -> 2 renown",
    "ion_storm": "ships cannot be used",
}
PHASES = {
    "frontier": "set-up: choose a frontier colony",
    "action": "action phase",
    "payment": "paying",
    "over": "game over",
}


@functools.cache  # the catalogue is read once, on the first picture, and never changes
def _cat() -> dict[str, Any]:
    from orrery.core_ext.take_the_galaxy import CATALOGUE

    systems = {c["name"]: c for c in CATALOGUE["systems"]}
    systems[CATALOGUE["starting_system"]["name"]] = dict(CATALOGUE["starting_system"], sector="home")
    return {
        "cards": {c["name"]: c for c in CATALOGUE["player_cards"]},
        "systems": systems,
        "anomalies": {c["name"]: c for c in CATALOGUE["anomalies"]},
        "events": {c["name"]: c for c in CATALOGUE["events"]},
        "setup": CATALOGUE["setup_counts"],
    }


def card_effect(card: dict[str, Any]) -> str:
    """A player card's effect in one short line ("2 M -> 1 S", "+1 M 1 C", "+3 renown")."""
    made = _resources(card.get("out", {}))
    line = f"{_resources(card['in'])} -> {made}" if card.get("in") else ("+" + made if made != "-" else "")
    if card.get("renown"):
        line += f"{'; ' if line else ''}{int(card['renown']):+d} renown"
    return line or card.get("kind", "")


def _card_tip(name: str) -> str:
    """A player card's tooltip: its name and its catalogue text (public once the card is face up)."""
    card = _cat()["cards"].get(name)
    return f"{name}: {card['text']}" if card else name


def _space_tip(name: str) -> str:
    cat = _cat()
    for table in ("systems", "anomalies", "events"):
        if name in cat[table]:
            return f"{name}: {cat[table][name].get('text', '')}"
    return name


def _resources(amounts: dict[str, int]) -> str:
    return " ".join(f"{n} {RES_SHORT.get(r, r)}" for r, n in amounts.items() if n) or "-"


def _space_renown(name: str) -> int:
    cat = _cat()
    for table in ("systems", "anomalies", "events"):
        if name in cat[table]:
            return int(cat[table][name]["renown"])
    return 0


def score(player: dict[str, Any]) -> int:
    """Renown as the game scores it: tokens + renown pile + systems held + every slot's top colony."""
    cards = _cat()["cards"]
    total = int(player.get("renown_tokens", 0))
    total += sum(_space_renown(name) for name in player.get("renown_pile", []))
    for system in player.get("systems", []):
        total += _space_renown(system["card"])
        total += sum(int(cards.get(stack[-1], {}).get("renown", 0)) for stack in system["slots"] if stack)
    return total


def deck_by_sector(state: dict[str, Any], players: int) -> dict[str, int] | None:
    """Cards left in the space deck per sector: the set-up's count per sector less every space card seen
    (the deck is Core over Expanse over Fringe, so this is public). None if it does not add up."""
    setup = _cat()["setup"].get(str(players))
    if setup is None:
        return None
    left = {sector: sum(counts) for sector, counts in setup.items()}
    seen = [e["card"] for e in state.get("explored", [])] + list(state.get("space_discard", []))
    for p in state.get("players", []):
        seen += [s["card"] for s in p.get("systems", [])] + list(p.get("renown_pile", []))
    cat = _cat()
    for name in seen:
        for table in ("systems", "anomalies", "events"):
            sector = cat[table].get(name, {}).get("sector")
            if sector in left:
                left[sector] -= 1
    if sum(left.values()) != len(state.get("space_deck") or []) or min(left.values()) < 0:
        return None
    return left


def render(
    obs: dict[str, Any],
    highlight: dict[str, Any] | None = None,
    targets: list[dict[str, Any]] | None = None,
    last_turn: list[Any] | None = None,
) -> str:
    state = obs["state"]
    ended = obs.get("ended", "")  # a hosted match that ended otherwise (a resignation): nobody to play
    if ended:
        state = {**state, "current": None}
    players = int(obs["players"])
    observer = int(obs["observer"])
    team = obs.get("variant") == "team"
    current = state.get("current")
    boxes: dict[Any, tuple[float, float, float, float]] = {}
    body: list[str] = []

    phase = state.get("phase", "")
    if ended:
        head = f"game over — {ended}"
    elif phase == "over":
        head = "game over — " + _result(state.get("players", []), team)
    else:
        head = f"turn {state.get('turn', 0)}, seat {current} to play — {PHASES.get(phase, phase)}"
        payment = state.get("payment")
        if payment:
            head += f": discard {payment.get('cards_left', 0)} ({payment.get('reason', '')})"
    body.append(text(16, 28, f"Take The Galaxy — {head}", size=17, weight="bold"))
    body.append(
        text(
            16,
            48,
            f"{obs.get('variant', '')} set-up, {players} player{'s' if players > 1 else ''} — "
            f"{view_name(observer)}.  M manpower, P production, S science, C credits; "
            "B biosphere slot, D deposit slot",
            size=12,
            fill="#555",
        )
    )

    # explored space
    y = 70.0
    deck = state.get("space_deck") or []
    sectors = deck_by_sector(state, players)
    detail = ", ".join(f"{n} {s}" for s, n in sectors.items() if n) if sectors else ""
    body.append(text(16, y + 14, "Explored space (oldest first)", size=14, weight="bold"))
    body.append(
        text(
            WIDTH - 16,
            y + 14,
            f"space deck: {len(deck)} left{f' ({detail})' if detail else ''}; "
            f"space discard {len(state.get('space_discard', []))}",
            size=13,
            anchor="end",
        )
    )
    y += 24
    explored = state.get("explored", [])
    burst = any(e["card"] == "Cosmic Burst" for e in explored)
    tallest = 0.0
    for i, entry in enumerate(explored):
        x = 16 + i * (CARD_W + GAP)
        part, h = _space_card(x, y, i, entry, burst, boxes)
        body += part
        tallest = max(tallest, h)
    if not explored:
        body.append(text(16, y + 20, "nothing explored", size=13, fill="#777"))
        tallest = 30
    y += tallest + 18

    # tableaus
    for seat, player in enumerate(state.get("players", [])):
        part, h = _tableau(seat, player, state, observer, team, players, y, boxes)
        body += part
        y += h + 12

    body += marks(boxes, lambda a: _keys(a, current, team, players), highlight, targets)
    body += last_turn_marks(boxes, last_turn)
    return document(WIDTH, y + 4, body, title=f"Take The Galaxy, {view_name(observer)}")


def _result(seats: list[dict[str, Any]], team: bool) -> str:
    totals = [score(p) for p in seats]
    if len(totals) == 1:
        return f"final renown {totals[0]}"
    if team:
        a, b = totals[0] + totals[2], totals[1] + totals[3]
        return "teams tie" if a == b else f"team {'A' if a > b else 'B'} wins, {max(a, b)} to {min(a, b)}"
    best = max(totals)
    winners = [str(s) for s, t in enumerate(totals) if t == best]
    if len(winners) > 1:
        return f"seats {' and '.join(winners)} tie with {best} renown"
    return f"seat {winners[0]} wins with {best} renown"


def _keys(action: dict[str, Any], current: Any, team: bool, players: int) -> list[Any]:
    """The boxes an action touches (see the keys given to `boxes` while drawing)."""
    if not isinstance(current, int):
        return []
    kind = action.get("kind")
    seat = current
    if action.get("owner") == 1 and team:
        seat = (current + 2) % players
    if kind in ("use_colony", "upgrade", "build"):
        return [("slot", seat, action.get("system"), action.get("slot"))]
    if kind == "claim":
        return [("explored", action.get("position")), ("hand", current, action.get("card"))]
    if kind in ("study_anomaly", "solve_event", "opportunity"):
        return [("explored", action.get("position"))]
    if kind in ("relinquish", "take_bounty"):
        return [("system", seat, action.get("system"))]
    if kind in ("use_ship", "sell_ship"):
        return [("ship", seat, action.get("ship"))]
    if kind in ("discard", "build_ship", "choose_frontier"):
        return [("hand", current, action.get("card"))]
    if kind == "retrieve":
        return [("discard", current)]
    return []


def _header(x: float, y: float, w: float, name: str, colour: str, right: str) -> tuple[list[str], float]:
    """A card's coloured title band with the whole name (on two lines when it is long) and `right`; returns
    the parts and how much taller than one line the band is."""
    lines = wrap(name, int((w - 24 - 9 * len(right)) / 8.6)) or [""]  # ~8.6 px a bold 13 px character
    extra = 16.0 * (len(lines) - 1)
    out = [
        f"<path d='M{x:.1f} {y + 24 + extra:.1f} v{-18 - extra:.1f} a6 6 0 0 1 6 -6 h{w - 12:.1f} "
        f"a6 6 0 0 1 6 6 v{18 + extra:.1f} z' fill='{colour}'/>",
        text(x + w - 8, y + 17, right, size=13, fill="white", weight="bold", anchor="end"),
    ]
    for i, line in enumerate(lines):
        out.append(text(x + 8, y + 17 + 16 * i, line, size=13, fill="white", weight="bold"))
    return out, extra


def _hazard(x: float, y: float, count: int) -> list[str]:
    return [
        f"<path d='M{x:.1f} {y:.1f} l7 -12 l7 12 z' fill='#e0a100' stroke='{INK}' stroke-width='0.8'/>",
        text(x + 7, y - 1, "!", size=12, anchor="middle", weight="bold"),
        text(x + 18, y, f"× {count} hazard{'s' if count != 1 else ''}", size=12),
    ]


def _space_card(
    x: float, y: float, position: int, entry: dict[str, Any], burst: bool, boxes: dict[Any, Any]
) -> tuple[list[str], float]:
    cat = _cat()
    name = entry["card"]
    out: list[str] = []
    inner: list[str] = []
    h = 30.0
    if name in cat["systems"]:
        info = cat["systems"][name]
        band, grow = _header(x, y, CARD_W, name, SECTOR_COLOUR.get(info["sector"], INK), f"★{info['renown']}")
        out += band
        h += grow
        inner.append(text(x + 8, y + h + 11, f"{info['sector']} system", size=12, fill="#555"))
        hazards = int(info["hazards"]) + (1 if burst else 0)
        if hazards:
            inner += _hazard(x + CARD_W - 96, y + h + 13, hazards)
        h += 18
        for k, slot_type in enumerate(info["slots"]):
            inner += _slot_row(x, y + h, k, slot_type, [], False)
            h += SLOT_H
        if info["bounty"]:
            inner.append(text(x + 8, y + h + 13, f"bounty: {_resources(info['bounty'])}", size=12))
            h += 18
    elif name in cat["anomalies"]:
        info = cat["anomalies"][name]
        band, grow = _header(x, y, CARD_W, name, "#4b3a78", f"★{info['renown']}")
        out += band
        h += grow
        inner.append(text(x + 8, y + h + 11, f"{info['sector']} anomaly", size=12, fill="#555"))
        inner.append(text(x + 8, y + h + 30, f"study: {info['science']} S", size=12))
        h += 40
    elif name in cat["events"]:
        info = cat["events"][name]
        colour = "#3f7f4f" if info["opportunity"] else "#a23b3b"
        band, grow = _header(x, y, CARD_W, name, colour, f"★{info['renown']}")
        out += band
        h += grow
        kind = "opportunity" if info["opportunity"] else "event"
        inner.append(text(x + 8, y + h + 11, f"{info['sector']} {kind}", size=12, fill="#555"))
        if entry.get("used"):
            inner.append(text(x + CARD_W - 8, y + h + 11, "used", size=12, fill="#555", anchor="end"))
        h += 16
        for line in wrap(EVENT_TEXT.get(info["effect"], info["effect"]), 26):
            inner.append(text(x + 8, y + h + 12, line, size=12))
            h += 16
        inner.append(text(x + 8, y + h + 14, f"solve: {_resources(info['solve'])}", size=12))
        h += 20
    else:  # a card this renderer does not know (a later catalogue)
        band, grow = _header(x, y, CARD_W, name, INK, "")
        out += band
        h += 10 + grow
    h += 6
    boxes[("explored", position)] = (x, y, CARD_W, h)
    frame = rect(x, y, CARD_W, h, stroke="#999", extra=f"data-explored='{position}'")
    return titled([frame, *out, *inner], _space_tip(name)), h


def _slot_row(x: float, y: float, k: int, slot_type: str, stack: list[str], used: bool) -> list[str]:
    """One slot (SLOT_H tall): its type, the top colony's whole name and renown, and under them the
    colony's effect, whether it was used this turn and how many colonies lie under it; the colony's
    catalogue text as its tooltip."""
    colour, _word = SLOT_STYLE.get(slot_type, ("#888", slot_type))
    out = [
        rect(x + 8, y + 2, 16, 16, fill=colour, stroke="none", rx=3 if slot_type == "D" else 8),
        text(x + 16, y + 15, slot_type, size=12, anchor="middle", fill="white", weight="bold"),
    ]
    if not stack:
        out.append(text(x + 30, y + 15, "empty", size=12, fill="#999", extra="font-style='italic'"))
        return out
    top = stack[-1]
    card = _cat()["cards"].get(top, {})
    kind_colour = KIND_COLOUR.get(card.get("kind", ""), INK)
    out.append(text(x + 30, y + 15, top, size=12, fill=kind_colour if not used else "#999", weight="bold"))
    notes = [card_effect(card)] if card else []
    notes += ["used"] if used else []
    notes += [f"over {len(stack) - 1}"] if len(stack) > 1 else []
    out.append(text(x + 30, y + 29, clip(" · ".join(notes), 27), size=12, fill="#666"))
    return titled(out, _card_tip(top))


def _tableau(
    seat: int,
    player: dict[str, Any],
    state: dict[str, Any],
    observer: int,
    team: bool,
    players: int,
    y: float,
    boxes: dict[Any, Any],
) -> tuple[list[str], float]:
    cat = _cat()
    colour = seat_colour(seat)
    active = seat == state.get("current")
    out: list[str] = []
    name = f"seat {seat}" + (" (you)" if seat == observer else "")
    if team:
        name += f" — team {'A' if seat % 2 == 0 else 'B'}"
    if active:
        name += " — to play"
    out.append(text(24, y + 22, name, size=15, fill=colour, weight="bold"))
    out.append(text(WIDTH - 24, y + 22, f"renown {score(player)}", size=15, weight="bold", anchor="end"))
    pile = player.get("renown_pile", [])
    facts = f"renown tokens {player.get('renown_tokens', 0)}"
    if active:
        facts += f"  ·  pool: {_resources(state.get('pool', {})).replace('-', 'empty')}"
    facts += f"  ·  renown pile: {', '.join(pile) if pile else '-'}"
    out.append(text(24, y + 42, clip(facts, 150), size=12))
    top = y + 54
    tallest = 0.0
    for s, system in enumerate(player.get("systems", [])):
        x = 24 + s * (CARD_W + 8)
        info = cat["systems"].get(system["card"], {"sector": "", "slots": "", "renown": 0, "hazards": 0})
        part, grow = _header(
            x, top, CARD_W, system["card"], SECTOR_COLOUR.get(info["sector"], INK), f"★{info['renown']}"
        )
        h = 30.0 + grow
        used = system.get("used", [])
        slot_types = info["slots"] or "?" * len(system["slots"])
        for k, stack in enumerate(system["slots"]):
            boxes[("slot", seat, s, k)] = (x + 4, top + h, CARD_W - 8, SLOT_H)
            part += _slot_row(x, top + h, k, slot_types[k], stack, bool(used[k]) if k < len(used) else False)
            h += SLOT_H
        bounty = {r: n for r, n in system.get("bounty", {}).items() if n}
        if bounty:
            part.append(text(x + 8, top + h + 13, f"bounty: {_resources(bounty)}", size=12))
            h += 18
        h += 6
        boxes[("system", seat, s)] = (x, top, CARD_W, h)
        frame = rect(x, top, CARD_W, h, stroke="#999", extra=f"data-system='{seat},{s}'")
        out += titled([frame], _space_tip(system["card"]))
        out += part
        tallest = max(tallest, h)
    if not player.get("systems"):
        out.append(text(24, top + 20, "no systems", size=13, fill="#777"))
        tallest = 30

    # right column: ships, hand, draw pile and discard pile
    x = 24 + 4 * (CARD_W + 8) + 4
    w = WIDTH - 24 - x
    cy = top + 14
    ships = player.get("ships", [])
    out.append(text(x, cy, f"ships ({len(ships)})" if ships else "no ships", size=12, weight="bold"))
    for k, ship in enumerate(ships):
        cy += 17
        boxes[("ship", seat, k)] = (x - 2, cy - 13, w, 17)
        used = bool(ship.get("used"))
        label = ship["card"] + (" (used)" if used else "")
        effect = card_effect(_cat()["cards"].get(ship["card"], {}))
        arrow = (
            f"<path d='M{x:.1f} {cy - 2:.1f} l10 -4 l-10 -4 z' "
            f"fill='{KIND_COLOUR['ship'] if not used else '#bbb'}'/>"
        )
        line = text(x + 14, cy, f"{label} · {effect}", size=12, fill=INK if not used else "#999")
        out += titled([arrow, line], _card_tip(ship["card"]))
    cy += 22
    hand = player.get("hand")
    size = int(player.get("hand_size", 0))
    out.append(text(x, cy, f"hand ({size})", size=12, weight="bold"))
    if hand is None:  # hidden: face down, its size only
        for k in range(min(size, 12)):
            out.append(
                rect(
                    x + 2 + 14 * k,
                    cy + 6,
                    18,
                    26,
                    fill="#3b4a6b",
                    stroke="white",
                    rx=3,
                    extra="data-facedown='1'",
                )
            )
        cy += 38
    else:
        names = Counter({n: int(c) for n, c in hand.items() if c})
        if not names:
            cy += 17
            out.append(text(x, cy, "empty", size=12, fill="#999"))
        for card_name, count in sorted(names.items()):  # one card a row: name and cost, then its effect
            cy += 16
            boxes[("hand", seat, card_name)] = (x - 2, cy - 13, w, 32)
            card = cat["cards"].get(card_name, {})
            ink = KIND_COLOUR.get(card.get("kind", ""), INK)
            label = card_name + (f" ×{count}" if count > 1 else "")
            cost = card.get("cost")
            row = [text(x + 2, cy, label, size=12, fill=ink, weight="bold", extra=f"data-hand='{seat}'")]
            if cost is not None:
                row.append(text(x + w - 4, cy, f"cost {cost}", size=12, fill="#555", anchor="end"))
            cy += 15
            row.append(text(x + 10, cy, clip(card_effect(card), 30), size=12, fill="#555"))
            out += titled(row, _card_tip(card_name))
        cy += 8
    cy += 14
    discard = player.get("discard", [])
    boxes[("discard", seat)] = (x - 2, cy - 13, w, 34)
    out.append(
        text(x, cy, f"draw pile {len(player.get('draw_pile') or [])}  ·  discard {len(discard)}", size=12)
    )
    if discard:
        cy += 16
        top_line = text(x, cy, f"top: {discard[-1]}", size=12, fill="#555")
        out += titled([top_line], _card_tip(discard[-1]))
    sold = player.get("sold_ships", [])
    if sold:
        cy += 16
        out.append(text(x, cy, clip(f"sold: {', '.join(sold)}", 34), size=12, fill="#555"))
    h = max(tallest + 54, cy - y + 10)
    frame = rect(8, y, WIDTH - 16, h + 6, fill="#fffdf8", stroke=colour, width=4 if active else 1.5, rx=10)
    return [frame, *out], h + 6
