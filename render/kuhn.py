"""Kuhn poker: each seat's card (hidden ones face down), the betting history and the pot."""

from __future__ import annotations

from typing import Any

from orrery.render._svg import INK, document, seat_colour, text, view_name

CARD_NAMES = ("J", "Q", "K", "A", "10")  # card n of an n+1-card deck, lowest first
ACTIONS = {0: "check", 1: "bet"}


def _card_name(card: int, players: int) -> str:
    # Kuhn deals from players + 1 cards; name them from the top: 2 players J Q K, 3 players J Q K A.
    return CARD_NAMES[card] if card < len(CARD_NAMES) else str(card)


def render(
    obs: dict[str, Any],
    highlight: dict[str, Any] | None = None,
    targets: list[dict[str, Any]] | None = None,
    last_turn: list[Any] | None = None,
) -> str:
    state = obs["state"]
    players = int(obs["players"])
    observer = int(obs["observer"])
    cards = state.get("cards", [])
    history = [int(a) for a in state.get("history", [])]
    first_bet = history.index(1) if 1 in history else -1
    # who put chips in, and who folded (passed after a bet)
    stake = [1] * players
    folded = [False] * players
    for i, a in enumerate(history):
        seat = i % players
        if a == 1:
            stake[seat] = 2
        elif first_bet >= 0 and i > first_bet:
            folded[seat] = True
    to_move = len(history) % players
    over = _is_over(history, players)
    width, row = max(150 * players + 40, 440), 170
    body = [text(20, 30, f"Kuhn poker, {players} players — {view_name(observer)}", size=16, weight="bold")]
    for seat in range(players):
        x = 20 + 150 * seat
        colour = seat_colour(seat)
        card = cards[seat] if seat < len(cards) else None
        body.append(
            f"<rect x='{x}' y='50' width='130' height='{row}' rx='10' fill='white' stroke='{colour}' "
            f"stroke-width='{4 if (seat == to_move and not over) else 2}'/>"
        )
        body.append(
            text(
                x + 65,
                72,
                f"seat {seat}" + (" (you)" if seat == observer else ""),
                size=14,
                anchor="middle",
                fill=colour,
                weight="bold",
            )
        )
        if card is None:  # face down: this seat cannot see it
            body.append(
                f"<rect x='{x + 35}' y='85' width='60' height='84' rx='6' fill='#3b4a6b' "
                f"stroke='{INK}'/><path d='M{x + 41} 91h48v72h-48z' fill='none' stroke='#8fa3c8' "
                f"stroke-dasharray='4 3'/>"
            )
        else:
            body.append(
                f"<rect x='{x + 35}' y='85' width='60' height='84' rx='6' fill='#fffdf5' stroke='{INK}'/>"
            )
            body.append(
                text(
                    x + 65,
                    140,
                    _card_name(int(card), players),
                    size=34,
                    anchor="middle",
                    weight="bold",
                    extra="data-card='1'",
                )
            )
        status = "folded" if folded[seat] else f"in for {stake[seat]}"
        body.append(text(x + 65, 198, status, size=13, anchor="middle"))
    words = [
        ("call" if a == 1 else "fold") if 0 <= first_bet < i else ACTIONS.get(a, str(a))
        for i, a in enumerate(history)
    ]
    moves = ", ".join(f"seat {i % players} {w}" for i, w in enumerate(words)) or "no bets yet"
    body.append(text(20, 245, f"history: {moves}", size=13))
    body.append(
        text(
            20, 265, f"pot: {sum(stake)}" + (" — hand over" if over else f" — seat {to_move} to act"), size=13
        )
    )
    if highlight and highlight.get("kind") in ("check", "bet"):
        body.append(text(20, 285, f"considering: {highlight['kind']}", size=13, fill=seat_colour(to_move)))
    return document(width, 300, body, title=f"Kuhn poker, {view_name(observer)}")


def _is_over(history: list[int], players: int) -> bool:
    if 1 in history:
        return len(history) - history.index(1) >= players
    return len(history) >= players
