"""Small SVG helpers shared by the per-game renderers (no dependency beyond the standard library)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from xml.sax.saxutils import escape

# Seat colours, readable on a light background and on each other (up to MAX_PLAYERS = 5 seats).
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#3f9c35", "#e0a100", "#7b4fa8")
INK = "#1d2430"
PAPER = "#f7f5ef"
FONT = "font-family='DejaVu Sans, Verdana, sans-serif'"
MIN_TEXT = 12  # the smallest font size drawn (units = CSS px at full size): readable on a phone's zoom


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else "#888888"


def view_name(observer: int) -> str:
    """Whose view a picture shows: a seat's, or the public view (observer -1: a spectator's)."""
    return "the public view" if observer < 0 else f"seat {observer}'s view"


def text(
    x: float,
    y: float,
    value: object,
    *,
    size: float = 14,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
    extra: str = "",
) -> str:
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size:g}' text-anchor='{anchor}' fill='{fill}' "
        f"font-weight='{weight}' {FONT}{(' ' + extra) if extra else ''}>{escape(str(value))}</text>"
    )


def titled(parts: list[str], tooltip: str, *, extra: str = "") -> list[str]:
    """`parts` grouped with a <title> carrying `tooltip` (a browser shows it on hover; the web client
    shows it in its detail panel on a click or tap). Only for what the viewer may see: a face-down card
    gets none."""
    if not tooltip:
        return parts
    attrs = f" class='has-detail'{(' ' + extra) if extra else ''}"
    return [f"<g{attrs}><title>{escape(tooltip)}</title>", *parts, "</g>"]


def document(width: float, height: float, body: list[str], *, title: str) -> str:
    """A standalone SVG document (with a <title> for screen readers and browsers' tooltips)."""
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width:.0f} {height:.0f}' "
        f"width='{width:.0f}' height='{height:.0f}' role='img'>"
        f"<title>{escape(title)}</title>"
        f"<rect width='100%' height='100%' fill='{PAPER}'/>" + "".join(body) + "</svg>\n"
    )


def fallback_svg(game: str, rendered: str) -> str:
    """Any game without a renderer of its own: its text render in a framed box (monospace)."""
    lines = rendered.splitlines() or [f"{game}: no picture"]
    width = 40 + 8.4 * max(len(line) for line in lines)
    height = 40 + 18 * len(lines)
    body = [
        f"<rect x='10' y='10' width='{width - 20:.0f}' height='{height - 20:.0f}' rx='8' "
        f"fill='white' stroke='{INK}'/>"
    ]
    for i, line in enumerate(lines):
        body.append(
            f"<text x='20' y='{34 + 18 * i}' font-size='14' font-family='DejaVu Sans Mono, monospace' "
            f"fill='{INK}' xml:space='preserve'>{escape(line)}</text>"
        )
    return document(width, height, body, title=f"{game} position")


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str = "white",
    stroke: str = INK,
    width: float = 1,
    rx: float = 6,
    extra: str = "",
) -> str:
    return (
        f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' rx='{rx:g}' fill='{fill}' "
        f"stroke='{stroke}' stroke-width='{width:g}'{(' ' + extra) if extra else ''}/>"
    )


def clip(value: str, chars: int) -> str:
    """`value` cut to `chars` characters (with an ellipsis) so it fits its box."""
    return value if len(value) <= chars else value[: max(chars - 1, 1)] + "…"


def wrap(value: str, chars: int) -> list[str]:
    """`value` in lines of at most `chars` characters, broken at spaces."""
    lines: list[str] = []
    for word in value.split():
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def marks(
    boxes: dict[Any, tuple[float, float, float, float]],
    keys_of: Callable[[dict[str, Any]], Iterable[Any]],
    highlight: dict[str, Any] | None,
    targets: list[dict[str, Any]] | None,
) -> list[str]:
    """Outlines over the boxes a move touches: a hidden one per box (class "target", data-actions = the
    legal action ids touching it, shown by a web page on hover) and a visible dashed one (class
    "highlight") for `highlight`. `keys_of(action struct)` names the boxes' keys an action touches."""
    touched: dict[Any, list[int]] = {}
    for action in targets or []:
        for key in keys_of(action):
            if key in boxes:
                touched.setdefault(key, []).append(int(action["id"]))
    out = [
        _glow(boxes[key], f"class='target' visibility='hidden' data-actions='{' '.join(map(str, ids))}'")
        for key, ids in touched.items()
    ]
    for key in keys_of(highlight) if highlight else []:
        if key in boxes:
            out.append(_glow(boxes[key], "stroke-dasharray='6 3' class='highlight'"))
    return out


def last_turn_marks(
    boxes: dict[Any, tuple[float, float, float, float]], last_turn: list[Any] | None
) -> list[str]:
    """Solid orange frames (class "last-move") over the boxes the last turn changed: renderer keys as
    core_ext._move_events gives them (lists), from the viewer's own views."""
    out = []
    for key in last_turn or []:
        box = boxes.get(tuple(key))
        if box is not None:
            x, y, w, h = box
            out.append(
                rect(
                    x - 3,
                    y - 3,
                    w + 6,
                    h + 6,
                    fill="none",
                    stroke="#e8590c",
                    width=3,
                    extra="class='last-move'",
                )
            )
    return out


def _glow(box: tuple[float, float, float, float], extra: str) -> str:
    """A translucent yellow frame just outside a box; `extra` adds the attributes that say what it is."""
    x, y, w, h = box
    return rect(
        x - 2,
        y - 2,
        w + 4,
        h + 4,
        fill="#ffe066",
        stroke="#e0a100",
        width=3,
        extra=f"fill-opacity='0.3' {extra}",
    )
