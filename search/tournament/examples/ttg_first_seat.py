"""Where Take The Galaxy's first-seat edge comes from (issue 28, part 5): replay 2-player results files
and compare the two seats, which play the same bot in duplicate sets, on what they took and scored.

    python search/tournament/examples/ttg_first_seat.py RESULTS.jsonl [RESULTS.jsonl ...]
    python search/tournament/examples/ttg_first_seat.py --playouts N

`--playouts N`: seat 0's win share (ties half) in N full 2-player games, deals 0..N-1 of `standard` and
of `no_first_claim`, played by the engine's heuristic playout policy and by uniformly random choices
(`state.playout(seed, use_policy=...)`, playout seed 1000 + deal): what the rules give play that does
not plan.

First the win shares with 95% intervals over duplicate sets: seat 0's, and the sanity row (the bot named
first in the config, which must come out at 50% within its interval: the two bots are identical). Per
seat (means over games; the difference is seat 0 minus seat 1 with a 95% interval over games): the final
score and its four parts ("End the game": renown tokens, renown pile, systems held, top colonies), the
cards taken from explored space by kind and their printed renown, and the score gap after every round;
and the choices a game by kind (builds, colony and ship uses, draws: the size of each seat's economy).
Per turn: how often the seat to move took a card, and whether it was the card revealed that turn
("fresh") or an older one, and the systems claimed in the first two turns of each seat (printed slots
and hazards: what the opening pick buys). Each seat's last turn: how often it takes a card when it
begins behind and when level or ahead (a bot whose returns are ranks has nothing to gain in a last turn
it has already won, so final scores understate a winning seat 1). Seat 0's win share by whether a card
is among the 3 explored cards of its first turn (intervals over games: the deal, not the play, decides
this). And the win share seat 0 would have if seat 1 started with k renown (k = 0..6), read off the
final scores: a rough guide only, since the bots played without the handicap and, per the last-turn
rows, do not maximise renown.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence

from orrery.core_ext import load_game

Z = 1.959964
TAKES = {"claim": "system", "study_anomaly": "anomaly", "solve_event": "event"}


def mean_ci(xs: Sequence[float]) -> str:
    """The mean with a 95% normal interval (ttg_seat_order.py uses it too)."""
    mu = statistics.mean(xs)
    half = Z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{mu:+.2f} [{mu - half:+.2f}, {mu + half:+.2f}]"


def share_ci(xs: Sequence[float]) -> str:
    """A share with a 95% normal interval."""
    mu = statistics.mean(xs)
    half = Z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{mu:.3f} [{mu - half:.3f}, {mu + half:.3f}]"


def compare(label: str, a: Sequence[int], b: Sequence[int]) -> None:
    print(
        f"  {label}: seat 0 {statistics.mean(a):.2f}, seat 1 {statistics.mean(b):.2f}, "
        f"difference {mean_ci([x - y for x, y in zip(a, b, strict=True)])}"
    )


def parts(state) -> list[list[int]]:
    """Per seat: tokens, pile, systems, colonies."""
    return [[p["points"] for p in seat["parts"]] for seat in state.score_breakdown()]


class Tally:
    def __init__(self) -> None:
        self.space_renown = space_renown()  # space card -> printed renown
        self.systems = {c["name"]: c for c in catalogue()["systems"]}
        self.early_claims: dict[int, list[tuple[int, int]]] = defaultdict(list)  # turn -> (slots, hazards)
        self.score: dict[int, list[float]] = defaultdict(list)  # seat -> final scores
        # seat -> [tokens, pile, systems, colonies] a game
        self.parts: dict[int, list[list[int]]] = defaultdict(list)
        self.taken: dict[tuple[int, str], list[int]] = defaultdict(list)  # (seat, kind) -> count a game
        self.taken_renown: dict[int, list[int]] = defaultdict(list)  # seat -> printed renown taken a game
        self.round_gap: dict[int, list[int]] = defaultdict(list)  # round -> seat 0 - seat 1 after it
        self.take_turn: dict[tuple[int, bool], int] = defaultdict(int)  # (turn, fresh) -> takes
        self.turns_seen: dict[int, int] = defaultdict(int)  # turn -> games
        self.frontier: dict[tuple[int, str], int] = defaultdict(int)
        self.margins: list[int] = []  # seat 0 - seat 1 final score
        self.first_take: dict[int, list[int]] = defaultdict(list)  # seat -> turn of first take
        self.choices: dict[tuple[int, str], int] = defaultdict(int)  # (seat, action kind) -> choices
        self.last_turn: dict[tuple[int, bool], list[int]] = defaultdict(list)  # (seat, ahead) -> took 0/1
        self.opening: dict[tuple[str, bool], list[float]] = defaultdict(list)  # (card, in first 3) -> shares
        # (pairing, set) -> per game (seat 0's win share, the first-named bot's)
        self.sets: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)

    def game(self, game, record: dict) -> None:
        firsts = [seat for seat, rank in enumerate(record["ranks"]) if rank == 0]
        share0 = 1.0 / len(firsts) if 0 in firsts else 0.0
        baseline = record["seats"].index(sorted(record["seats"])[0])  # the sanity row's bot
        share_a = 1.0 / len(firsts) if baseline in firsts else 0.0
        self.sets[(record["pairing"], record["set"])].append((share0, share_a))
        deal = game.new_initial_state(seed=record["deal_seed"]).to_dict()["state"]
        order = [e["card"] for e in deal["explored"]] + deal["space_deck"]  # reveal order (deck top first)
        for i, card in enumerate(order):
            self.opening[(card, i < 3)].append(share0)  # the 3 cards of seat 0's first turn
        state = game.new_initial_state(seed=record["deal_seed"])
        counts: dict[tuple[int, str], int] = defaultdict(int)
        renown = [0, 0]
        first = [99, 99]
        fresh_card = None
        last_turn = 0
        last_seen = 0
        last_key = (0, False)
        for action in record["actions"]:
            doc = state.to_dict()["state"]
            if doc["turn"] != last_turn:
                if doc["turn"] > 1 and (doc["turn"] - 1) % 2 == 0:  # a round (both seats) just ended
                    sc = state.scores()
                    self.round_gap[(doc["turn"] - 1) // 2].append(int(sc[0] - sc[1]))
                last_turn = doc["turn"]
                self.turns_seen[last_turn] += 1
                fresh_card = doc["explored"][-1]["card"] if doc["explored"] else None
            info = state.action_to_struct(action)
            seat = state.current_player
            if doc["turn"] >= 21 and last_seen != doc["turn"]:  # each seat's last turn (2 players: 21, 22)
                last_seen = doc["turn"]
                sc = state.scores()
                last_key = (seat, sc[seat] >= sc[1 - seat])
                self.last_turn[last_key].append(0)
            self.choices[(seat, info["kind"])] += 1
            if info["kind"] == "choose_frontier":
                self.frontier[(seat, info["card"])] += 1
            if info["kind"] in TAKES:
                card = info.get("system_card") or info["card"]
                counts[(seat, TAKES[info["kind"]])] += 1
                renown[seat] += self.space_renown[card]
                first[seat] = min(first[seat], doc["turn"])
                if info["kind"] == "claim" and doc["turn"] <= 4:
                    sy = self.systems[card]
                    self.early_claims[doc["turn"]].append((len(sy["slots"]), sy["hazards"]))
                if doc["turn"] >= 21:
                    self.last_turn[last_key][-1] = 1
                self.take_turn[(doc["turn"], card == fresh_card)] += 1
            state.apply(action)
        sc = state.scores()
        self.round_gap[11].append(int(sc[0] - sc[1]))
        self.margins.append(int(sc[0] - sc[1]))
        for seat, p in enumerate(parts(state)):
            self.score[seat].append(sc[seat])
            self.parts[seat].append(p)
            self.taken_renown[seat].append(renown[seat])
            self.first_take[seat].append(first[seat])
            for kind in TAKES.values():
                self.taken[(seat, kind)].append(counts[(seat, kind)])

    def report(self) -> None:
        n = len(self.margins)
        print(f"{n} games")
        full = [v for v in self.sets.values() if len(v) == 2]  # complete duplicate sets only
        for i, label in enumerate(
            ("seat 0 wins", "sanity: the first-named bot wins") if len(full) > 1 else ()
        ):
            print(
                f"{label}: {share_ci([statistics.mean(x[i] for x in v) for v in full])} "
                f"(by sets, {len(full)} complete sets)"
            )
        diff = [a - b for a, b in zip(self.score[0], self.score[1], strict=True)]
        print(
            f"score: seat 0 {statistics.mean(self.score[0]):.2f}, "
            f"seat 1 {statistics.mean(self.score[1]):.2f}, difference {mean_ci(diff)}"
        )
        for i, label in enumerate(("renown tokens", "renown pile", "systems held", "top colonies")):
            compare(label, [p[i] for p in self.parts[0]], [p[i] for p in self.parts[1]])
        for kind in TAKES.values():
            compare(f"{kind} cards taken", self.taken[(0, kind)], self.taken[(1, kind)])
        compare("printed renown of the cards taken", self.taken_renown[0], self.taken_renown[1])
        a, b = self.first_take[0], self.first_take[1]
        print(f"  first take (turn): seat 0 {statistics.median(a)}, seat 1 {statistics.median(b)} (medians)")
        print("frontier choices:", dict(sorted(self.frontier.items())))
        print("choices a game by kind (the economy: builds, uses, draws):")
        for kind in sorted({k for _, k in self.choices}):
            per_game = [self.choices[(seat, kind)] / n for seat in (0, 1)]
            print(f"  {kind}: seat 0 {per_game[0]:.2f}, seat 1 {per_game[1]:.2f}")
        print("score gap (seat 0 - seat 1) after each round:")
        for r in sorted(self.round_gap):
            print(f"  round {r:2d}: {mean_ci(self.round_gap[r])}")
        print("takes by turn (odd turns are seat 0's): fresh = the card revealed that turn, left = older")
        for t in sorted(self.turns_seen):
            fresh, left = self.take_turn[(t, True)], self.take_turn[(t, False)]
            print(
                f"  turn {t:2d} (seat {(t - 1) % 2}): takes {(fresh + left) / n:.2f} a game "
                f"(fresh {fresh / n:.2f}, left {left / n:.2f})"
            )
        print("systems claimed in turns 1-4 (each seat's first two turns): printed slots and hazards")
        for t, claims in sorted(self.early_claims.items()):
            slots = statistics.mean(c[0] for c in claims)
            hazards = statistics.mean(c[1] for c in claims)
            seat = (t - 1) % 2
            print(f"  turn {t} (seat {seat}): {len(claims)} claims, slots {slots:.2f}, hazards {hazards:.2f}")
        print("last turn: how often the seat takes a card, by its standing when the turn begins")
        for (seat, ahead), took in sorted(self.last_turn.items()):
            standing = "level or ahead" if ahead else "behind"
            print(f"  seat {seat} {standing:14s}: {statistics.mean(took):.2f} of {len(took)}")
        print("seat 0's win share by whether a card is among the 3 explored cards of its first turn")
        for card in sorted({c for c, _ in self.opening}, key=lambda c: -len(self.opening[(c, True)])):
            inside, outside = self.opening[(card, True)], self.opening[(card, False)]
            if len(inside) > 1 and len(outside) > 1:
                print(
                    f"  {card:24s} among them {share_ci(inside)} ({len(inside)} games), "
                    f"not {share_ci(outside)} ({len(outside)})"
                )
        print("seat 0's win share if seat 1 began with k renown (recorded scores; ties count half):")
        for k in range(7):
            w = sum(1.0 if m > k else 0.5 if m == k else 0.0 for m in self.margins) / n
            print(f"  k={k}: {w:.3f}")


def main(paths: list[str]) -> None:
    tally = Tally()
    for path in paths:
        with open(path) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        config = lines[0]["config"]
        game = load_game(config["game"], players=config["players"], variant=config.get("variant"))
        for r in lines[1:]:
            if r.get("type") == "game":
                tally.game(game, r)
    tally.report()


def catalogue() -> dict:
    from orrery.core_ext.take_the_galaxy import engine

    return json.loads(engine.CATALOGUE_PATH.read_text())


def space_renown() -> dict[str, int]:
    cat = catalogue()
    return {c["name"]: c["renown"] for kind in ("systems", "anomalies", "events") for c in cat[kind]}


def playouts(n: int) -> None:
    for variant in ("standard", "no_first_claim"):
        game = load_game("take_the_galaxy", players=2, variant=variant)
        for use_policy in (True, False):
            shares, margins = [], []
            for deal in range(n):
                state = game.new_initial_state(seed=deal)
                state.playout(1000 + deal, use_policy=use_policy)
                sc = state.scores()
                shares.append(1.0 if sc[0] > sc[1] else 0.5 if sc[0] == sc[1] else 0.0)
                margins.append(sc[0] - sc[1])
            label = "heuristic policy" if use_policy else "uniformly random"
            print(
                f"{variant}, {label}: seat 0 wins {share_ci(shares)} of {n} games; "
                f"score difference {mean_ci(margins)}"
            )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--playouts":
        playouts(int(sys.argv[2]))
    elif len(sys.argv) >= 2 and not sys.argv[1].startswith("-"):
        main(sys.argv[1:])
    else:
        raise SystemExit(__doc__)
