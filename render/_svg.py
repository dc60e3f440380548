"""Small SVG helpers shared by the per-game renderers (no dependency beyond the standard library)."""

from __future__ import annotations

from xml.sax.saxutils import escape

# Seat colours, readable on a light background and on each other (up to MAX_PLAYERS = 5 seats).
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#3f9c35", "#e0a100", "#7b4fa8")
INK = "#1d2430"
PAPER = "#f7f5ef"
FONT = "font-family='DejaVu Sans, Verdana, sans-serif'"


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else "#888888"


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
