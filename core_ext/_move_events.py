"""What a move changed, as one viewer sees it: the feed's "events" and per-seat "changes".

Chance and automatic steps (dice, revealed cards and tiles, the solo Rogue's turn, an area that closes
and pays) are resolved inside State.apply(), so they have no label of their own. This module names
them by comparing the viewer's own view of the position before the move with its view after it
(State.observation(viewer) or public_observation()): everything it says is read from what that viewer
can see, so it never names another seat's secret (tests/test_move_events.py runs the viewer
conformance check on it).

`move_events(before, after, mover=...)` takes the two views (Observations of the same viewer) and
returns MoveEvents: `events`, short sentences in the order the game resolved them, and `changes`, per
seat (a seat number as text, or "rogue") the change of each counted quantity ("credits": +3), and
`touched`, the places on the viewer's board picture that changed (keys of the game's renderer in
orrery.render, as lists: ["cell", x, y], ["planet", name], ...). A client sums `changes` over a turn's
moves for the turn's summary; the picture outlines a turn's `touched` places (to_svg(last_turn=...)).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from orrery.core_ext.game import Observation

ROGUE = "rogue"  # the key of the solo Rogue galaxy (Tiny Epic Galaxies) in `changes`


@dataclass(frozen=True)
class MoveEvents:
    events: tuple[str, ...] = ()
    changes: dict[str, dict[str, int]] = field(default_factory=dict)  # seat -> quantity -> change
    touched: tuple[tuple[Any, ...], ...] = ()  # renderer box keys that changed

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "events": list(self.events),
            "changes": self.changes,
            "touched": [list(k) for k in self.touched],
        }


def move_events(before: Any, after: Any, *, mover: int) -> MoveEvents:
    """The events and changes of one move between two views of the same viewer (Observations)."""
    if not (isinstance(before, Observation) and isinstance(after, Observation)):
        raise TypeError("move_events reads views (Observations), never full states")
    if before.game.name != after.game.name or before.observer != after.observer:
        raise ValueError("move_events needs two views of one game by one viewer")
    describe = _DESCRIBERS.get(before.game.name)
    if describe is None:
        return MoveEvents()
    events: list[str] = []
    changes: dict[str, dict[str, int]] = {}
    touched: list[tuple[Any, ...]] = []
    describe(before.to_dict()["state"], after.to_dict()["state"], mover, events, changes, touched)
    return MoveEvents(
        tuple(events), {who: c for who, c in changes.items() if c}, tuple(dict.fromkeys(touched))
    )


def seat_name(who: str) -> str:
    return "the Rogue" if who == ROGUE else f"seat {who}"


def changes_text(changes: dict[str, int]) -> str:
    """'+3 credits, -1 red' (quantities in the order given)."""
    return ", ".join(f"{delta:+d} {name}" for name, delta in changes.items() if delta)


def _count_changes(
    changes: dict[str, dict[str, int]], who: str, before: dict[str, int], after: dict[str, int]
) -> None:
    for name in dict.fromkeys([*before, *after]):
        delta = after.get(name, 0) - before.get(name, 0)
        if delta:
            changes.setdefault(who, {})[name] = changes.get(who, {}).get(name, 0) + delta


def _added(before: Iterable[Any], after: Iterable[Any]) -> list[Any]:
    """Items of `after` not in `before` (as a multiset), in `after`'s order."""
    left = Counter(_key(x) for x in before)
    out = []
    for item in after:
        if left[_key(item)] > 0:
            left[_key(item)] -= 1
        else:
            out.append(item)
    return out


def _key(item: Any) -> Any:
    return repr(item) if isinstance(item, dict | list) else item


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ---- Tiny Epic Galaxies ----

DIE_FACES = ("move", "energy", "culture", "diplomacy", "economy", "colony")


def _teg(before: dict, after: dict, mover: int, events: list[str], changes: dict, touched: list) -> None:
    players = len(before["galaxies"]) - (1 if _teg_solo(before) else 0)
    dice_b, dice_a = _teg_dice(before), _teg_dice(after)
    if any(dice_a[f] > dice_b[f] for f in DIE_FACES) and dice_a.total() > 0:
        shown = ", ".join(f"{dice_a[f]} {f}" for f in DIE_FACES if dice_a[f])
        roller = seat_name(_teg_who(after["active"], players))
        if after["active"] != before["active"] or after["round"] != before["round"]:
            events.append(f"{roller} rolls: {shown}")
        else:
            events.append(f"{roller}'s dice now show: {shown}")
    _btb(before, after, players, events)
    for planet in _added(before["row"], after["row"]):
        events.append(f"planet revealed: {planet}")
        touched.append(("planet", planet))
    for g, (gb, ga) in enumerate(zip(before["galaxies"], after["galaxies"], strict=True)):
        who = ROGUE if g >= players else str(g)
        counts_b = {"energy": gb["energy"], "culture": gb["culture"], "empire": gb["empire"]}
        counts_a = {"energy": ga["energy"], "culture": ga["culture"], "empire": ga["empire"]}
        counts_b["colonies"], counts_a["colonies"] = len(gb["colonies"]), len(ga["colonies"])
        if "exploration_cards" in ga:
            counts_b["exploration cards"] = len(gb.get("exploration_cards", [])) + len(
                gb.get("hidden_cards", [])
            )
            counts_a["exploration cards"] = len(ga["exploration_cards"]) + len(ga.get("hidden_cards", []))
            for card in _added(gb.get("exploration_cards", []), ga["exploration_cards"]):
                events.append(f"{seat_name(who)} keeps {card} face up")
            for kind, hired in (ga.get("hangar") or {}).items():
                if hired and hired != (gb.get("hangar") or {}).get(kind):
                    events.append(f"{seat_name(who)} hires {hired['pilot']} for the {kind}")
        _count_changes(changes, who, counts_b, counts_a)
        for planet in _added(gb["colonies"], ga["colonies"]):
            events.append(f"{seat_name(who)} colonizes {planet}")
            touched.append(("colony", planet))
        if gb["empire"] != ga["empire"]:
            touched.append(("empire", g))
        for k, (ship_b, ship_a) in enumerate(zip(gb["ships"], ga["ships"], strict=True)):
            if ship_a != ship_b:
                touched.append(("ship", g, k))
                if isinstance(ship_a, dict) and ship_a.get("planet"):
                    touched.append(("planet", ship_a["planet"]))
        if who == ROGUE:
            for ship_b, ship_a in zip(gb["ships"], ga["ships"], strict=True):
                if ship_a == ship_b or not isinstance(ship_a, dict):
                    continue
                if isinstance(ship_b, dict) and ship_b.get("planet") == ship_a["planet"]:
                    events.append(f"the Rogue's ship advances on {ship_a['planet']}'s track")
                else:
                    events.append(f"the Rogue's ship goes to {ship_a['planet']}")
        if gb.get("mission") != ga.get("mission") and ga.get("mission") not in (None, "?"):
            events.append(f"{seat_name(who)}'s secret mission: {ga['mission']}")
    if after.get("over") and not before.get("over"):
        events.append("the game is over")


def _teg_who(active: Any, players: int) -> str:
    """The `changes` key of a galaxy named by `active` (a number, or "rogue" in solo)."""
    return ROGUE if active == ROGUE or (isinstance(active, int) and active >= players) else str(active)


def _btb(before: dict, after: dict, players: int, events: list[str]) -> None:
    """Beyond the Black: pilots and exploration cards turned face up, a discovery revealed."""
    row_b, row_a = before.get("beyond_the_black") or {}, after.get("beyond_the_black") or {}
    for pilot in _added(row_b.get("pilot_row", []), row_a.get("pilot_row", [])):
        events.append(f"pilot revealed: {pilot}")
    for card in _added(row_b.get("exploration_row", []), row_a.get("exploration_row", [])):
        events.append(f"exploration card face up: {card}")
    revealed_b = [t.get("revealed") for t in before.get("pending", []) if t.get("revealed")]
    for card in _added(
        revealed_b, [t.get("revealed") for t in after.get("pending", []) if t.get("revealed")]
    ):
        who = next((t.get("galaxy") for t in after["pending"] if t.get("revealed") == card), None)
        name = f"{seat_name(_teg_who(who, players))} explores and reveals" if who is not None else "revealed:"
        events.append(f"{name} {card}")


def _teg_solo(state: dict) -> bool:
    return any("dealt" not in g for g in state["galaxies"])


def _teg_dice(state: dict) -> Counter[str]:
    dice = state.get("dice") or {}
    out: Counter[str] = Counter()
    for part in ("inactive", "activated"):
        out.update(dice.get(part) or {})
    return out


# ---- Take The Galaxy ----


def _ttg(before: dict, after: dict, mover: int, events: list[str], changes: dict, touched: list) -> None:
    explored = [c["card"] for c in after["explored"]]
    for card in _added([c["card"] for c in before["explored"]], explored):
        events.append(f"explored: {card}")
        touched.append(("explored", explored.index(card)))  # a card's position, not the row's shift
    for p, (pb, pa) in enumerate(zip(before["players"], after["players"], strict=True)):
        who = str(p)
        _count_changes(changes, who, _ttg_counts(pb), _ttg_counts(pa))
        for system in _added([s["card"] for s in pb["systems"]], [s["card"] for s in pa["systems"]]):
            events.append(f"seat {p} claims {system}")
        for system in _added([s["card"] for s in pa["systems"]], [s["card"] for s in pb["systems"]]):
            events.append(f"seat {p} loses {system}")
        for ship in _added(_names(pb["ships"]), _names(pa["ships"])):
            events.append(f"seat {p} builds {ship}")
        for k, ship in enumerate(pa["ships"]):
            if k >= len(pb["ships"]) or pb["ships"][k] != ship:
                touched.append(("ship", p, k))
        for k, system in enumerate(pa["systems"]):
            old = pb["systems"][k] if k < len(pb["systems"]) else None
            if old is None or old["card"] != system["card"] or old.get("bounty") != system.get("bounty"):
                touched.append(("system", p, k))
                continue
            for slot, (was, now) in enumerate(zip(old["slots"], system["slots"], strict=False)):
                if was != now or old["used"][slot] != system["used"][slot]:
                    touched.append(("slot", p, k, slot))
        for card in _added(_names(pb["renown_pile"]), _names(pa["renown_pile"])):
            events.append(f"seat {p} gains renown: {card}")
    if (
        after["phase"] != before["phase"]
        and after.get("payment")
        and after["payment"].get("reason") not in (None, "build")
    ):
        events.append(f"seat {after['current']} must pay: {after['payment']['reason']}")


def _ttg_counts(player: dict) -> dict[str, int]:
    return {
        "renown tokens": int(player["renown_tokens"]),
        "renown cards": len(player["renown_pile"]),
        "systems": len(player["systems"]),
        "ships": len(player["ships"]),
        "cards in hand": int(player["hand_size"]),
    }


def _names(items: list[Any]) -> list[str]:
    return [x if isinstance(x, str) else str(x.get("card", x.get("name", x))) for x in items]


# ---- Galaxy of Trian ----

MINERALS = ("red", "blue", "green", "yellow")


def _trian(before: dict, after: dict, mover: int, events: list[str], changes: dict, touched: list) -> None:
    for k, (sb, sa) in enumerate(zip(before["stacks"], after["stacks"], strict=True)):
        if sa["size"] < sb["size"]:
            events.append(f"stack {k}: a tile is drawn; {sa['size']} left, the next shows {sa['top_face']}")
    placed = _added([(t["x"], t["y"]) for t in before["galaxy"]], [(t["x"], t["y"]) for t in after["galaxy"]])
    for t in after["galaxy"]:
        if (t["x"], t["y"]) in placed:
            events.append(f"tile {t['face']} placed at ({t['x']}, {t['y']})")
    tiles_b = {(t["x"], t["y"]): t for t in before["galaxy"]}
    for t in after["galaxy"]:
        if tiles_b.get((t["x"], t["y"])) != t:
            touched.append(("cell", t["x"], t["y"]))
    pending_b = _areas(before)
    for area in _added(pending_b, _areas(after)):
        events.append(f"{area[0]} at ({area[1]}, {area[2]}) {area[3]}")
    for nebula in _added(_nebulas(before), _nebulas(after)):
        events.append(f"nebula at ({nebula[0]}, {nebula[1]}) holds {nebula[2]} minerals")
        touched.append(("cell", nebula[0], nebula[1]))
    why = ""
    if pending_b:
        why = " for " + ", ".join(f"the {a[0]} at ({a[1]}, {a[2]})" for a in pending_b)
    for p, (pb, pa) in enumerate(zip(before["players"], after["players"], strict=True)):
        counts_b, counts_a = _trian_counts(pb), _trian_counts(pa)
        _count_changes(changes, str(p), counts_b, counts_a)
        gained = counts_a["credits"] - counts_b["credits"]
        if gained > 0 and (p != mover or why):
            events.append(f"seat {p} is paid {gained} credits{why}")
    for what in ("battle", "ship_battle"):
        if after.get(what) and not before.get(what):
            events.append(f"a {what.replace('_', ' ')} begins")


def _areas(state: dict) -> list[tuple[str, int, int, str]]:
    """Areas that closed (or were unblocked) and wait to be scored."""
    pending = (state.get("events") or {}).get("areas") or []
    return [(a["area"], a["x"], a["y"], a["cause"]) for a in pending]


def _nebulas(state: dict) -> list[tuple[int, int, int]]:
    return [(n["x"], n["y"], sum(n["minerals"].values())) for n in state["nebulas"]]


def _trian_counts(player: dict) -> dict[str, int]:
    out = {"credits": int(player["credits"])}
    out.update({colour: int(player["minerals"][colour]) for colour in MINERALS})
    out["combat tokens"] = int(player["combat_tokens"]["count"])
    return out


_DESCRIBERS: dict[str, Callable[[dict, dict, int, list[str], dict, list], None]] = {
    "tiny_epic_galaxies": _teg,
    "take_the_galaxy": _ttg,
    "trian": _trian,
}
