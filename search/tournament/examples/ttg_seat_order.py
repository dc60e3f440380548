"""Take The Galaxy's seat order at any player count (issue 28, part 5): replay tournament results files in
which every seat plays the same bot (duplicate sets) and compare the seats on what they saw, took and
scored. ttg_first_seat.py is the 2-player reading with its opening-specific rows; this one reads 2, 3
and 4 players alike.

    python search/tournament/examples/ttg_seat_order.py RESULTS.jsonl [RESULTS.jsonl ...]   # pooled
    python search/tournament/examples/ttg_seat_order.py --playouts PLAYERS[,PLAYERS...] N

`--playouts PLAYERS N`: each seat's win share in N full games (deals 0..N-1 of `standard`), played by
the engine's heuristic playout policy and by uniformly random choices (`state.playout(seed,
use_policy=...)`, playout seed 1000 + deal): what the rules give play that does not plan.

For a results file, per seat (means over games; "vs 0" is the seat minus seat 0 with a 95% interval over
games): the win share (95% interval over duplicate sets) and the sanity row (the first-named bot's share
of the wins, which must come out at 50%: the bots are identical); the final score and its parts ("End the
game": tokens, pile, systems held, top colonies); the cards taken from explored space by kind and by
sector, their printed renown, the claimed systems' slots and hazards; the turns each seat had and who
played the game's last turn; the choices a game by kind (uses, builds, relinquishes, Space Race
relinquishes, pirate discards) and the seat's own turns with each event in explored space; per round, the
take rate, the printed renown taken and each seat's score minus the table mean after the round; the
explored space each seat chose from, per round: how many of its cards were Fringe (the sector the game
ends in) and the best printed renown on offer; who took the cards by when they were revealed (the first
cards, the last round's), and how old a taken card was (turns since its reveal); who leads after round
10, when every seat has had the same 10 turns, and how often that lead is turned into a win; and each
seat's last turn, by whether it began it in the lead.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ttg_first_seat import TAKES, mean_ci, share_ci  # this folder is on sys.path (run as a script)

from orrery.core_ext import load_game

SECTORS = ("core", "expanse", "fringe")
COUNTED = (
    "use_colony",
    "use_ship",
    "build",
    "build_ship",
    "upgrade",
    "relinquish",
    "opportunity",
    "sell_ship",
    "take_bounty",
    "draw",
    "retrieve",
)


def win_shares(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of the win: a shared first place splits it."""
    firsts = [seat for seat, rank in enumerate(ranks) if rank == 0]
    return [1.0 / len(firsts) if seat in firsts else 0.0 for seat in range(len(ranks))]


def catalogue() -> dict:
    from orrery.core_ext.take_the_galaxy import engine

    return json.loads(engine.CATALOGUE_PATH.read_text())


@dataclass
class GameTally:
    """What one replayed game adds, per seat (lists are indexed by seat, dicts keyed by round or kind)."""

    players: int
    score: list[float] = field(default_factory=list)
    parts: list[list[int]] = field(default_factory=list)  # tokens, pile, systems, colonies
    turns: list[int] = field(default_factory=list)  # turns each seat played
    last_mover: int = -1  # the seat of the game's last turn
    taken: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))  # (seat, kind)
    taken_sector: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))
    taken_renown: list[int] = field(default_factory=list)  # printed renown of the cards taken
    claims: list[list[tuple[int, int]]] = field(default_factory=list)  # (slots, hazards) per claim
    choices: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))
    race_relinquish: list[int] = field(default_factory=list)  # relinquishes while Space Race is out
    pirate_discards: list[int] = field(default_factory=list)
    round_takes: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))  # (seat, rd)
    round_renown: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))  # printed
    round_lead: dict[tuple[int, int], float] = field(default_factory=dict)  # score - table mean after rd
    window_fringe: dict[tuple[int, int], int] = field(default_factory=dict)  # Fringe cards on offer
    window_best: dict[tuple[int, int], int] = field(default_factory=dict)  # best printed renown on offer
    # (seat, reveal class) -> takes; classes: "first" (the set-up cards), "last round", "other"
    taken_by_reveal: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))
    taken_age: list[list[int]] = field(default_factory=list)  # turns between reveal and take
    last_turn: list[tuple[bool, int]] = field(default_factory=list)  # (began in the lead, took a card)
    event_turns: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))  # out in


class Replay:
    """Replays one recorded game and fills a GameTally (the catalogue facts are looked up once)."""

    def __init__(self) -> None:
        cat = catalogue()
        self.renown = {c["name"]: c["renown"] for k in ("systems", "anomalies", "events") for c in cat[k]}
        self.sector = {c["name"]: c["sector"] for k in ("systems", "anomalies", "events") for c in cat[k]}
        self.systems = {c["name"]: c for c in cat["systems"]}
        self.events = [c["name"] for c in cat["events"]]

    def play(self, game, deal_seed: int, actions: Sequence[int]) -> GameTally:
        state = game.new_initial_state(seed=deal_seed)
        n = len(state.scores())
        t = GameTally(
            players=n,
            turns=[0] * n,
            taken_renown=[0] * n,
            claims=[[] for _ in range(n)],
            race_relinquish=[0] * n,
            pirate_discards=[0] * n,
            taken_age=[[] for _ in range(n)],
        )
        revealed: dict[str, int] = {e["card"]: 0 for e in state.to_dict()["state"]["explored"]}
        last_turn_number = 11 * n  # every seat plays 11 turns (docs/rules/take_the_galaxy.md section 3)
        turn = 0
        for action in actions:
            doc = state.to_dict()["state"]
            seat = state.current_player
            if doc["turn"] != turn:
                turn = doc["turn"]
                self._turn_begins(t, state, doc, seat, turn, revealed, last_turn_number)
            info = state.action_to_struct(action)
            self._action(t, doc, seat, turn, info, revealed, last_turn_number)
            state.apply(action)
        self._round_ends(t, state, (turn - 1) // n + 1)
        t.last_mover = seat
        t.score = list(state.scores())
        t.parts = [[p["points"] for p in s["parts"]] for s in state.score_breakdown()]
        return t

    def _turn_begins(self, t: GameTally, state, doc: dict, seat: int, turn: int, revealed, last: int) -> None:
        n = t.players
        if turn > 1 and (turn - 1) % n == 0:  # every seat has had the same number of turns
            self._round_ends(t, state, (turn - 1) // n)
        explored = [e["card"] for e in doc["explored"]]
        revealed.setdefault(explored[-1], turn)  # the exploration phase put the newest card last
        rd = (turn - 1) // n + 1
        t.turns[seat] += 1
        t.window_fringe[(seat, rd)] = sum(self.sector[c] == "fringe" for c in explored)
        t.window_best[(seat, rd)] = max(self.renown[c] for c in explored)
        for card in explored:
            if card in self.events:  # out during this seat's turn: it acts on this seat ("Events")
                t.event_turns[(seat, card)] += 1
        if turn > last - n:  # the seat's last turn
            sc = state.scores()
            t.last_turn.append((sc[seat] > max(x for i, x in enumerate(sc) if i != seat), 0))

    def _round_ends(self, t: GameTally, state, rd: int) -> None:
        sc = state.scores()
        mean = statistics.mean(sc)
        for seat, x in enumerate(sc):
            t.round_lead[(seat, rd)] = x - mean

    def _action(self, t: GameTally, doc: dict, seat: int, turn: int, info: dict, revealed, last: int) -> None:
        kind = info["kind"]
        t.choices[(seat, kind)] += 1
        explored = {e["card"] for e in doc["explored"]}
        if kind == "relinquish" and "Space Race" in explored:
            t.race_relinquish[seat] += 1
        if kind == "discard" and "pirates" in info["label"]:
            t.pirate_discards[seat] += 1
        if kind not in TAKES:
            return
        card = info.get("system_card") or info["card"]
        rd = (turn - 1) // t.players + 1
        t.taken[(seat, TAKES[kind])] += 1
        t.taken_sector[(seat, self.sector[card])] += 1
        t.taken_renown[seat] += self.renown[card]
        t.round_takes[(seat, rd)] += 1
        t.round_renown[(seat, rd)] += self.renown[card]
        when = revealed[card]
        t.taken_age[seat].append(turn - when)
        cls = "first" if when == 0 else "last round" if when > last - t.players else "other"
        t.taken_by_reveal[(seat, cls)] += 1
        if kind == "claim":
            sy = self.systems[card]
            t.claims[seat].append((len(sy["slots"]), sy["hazards"]))
        if turn > last - t.players:
            t.last_turn[-1] = (t.last_turn[-1][0], 1)


class Report:
    """Sums GameTallies (all of one player count) and prints the seat comparison."""

    def __init__(self) -> None:
        self.games: list[GameTally] = []
        self.shares: list[list[float]] = []  # per game, each seat's share of the win
        # (source file, pairing, set) -> per game (each seat's win share, the first-named bot's)
        self.sets: dict[tuple[int, int, int], list[tuple[list[float], float]]] = defaultdict(list)

    def add(self, record: dict, tally: GameTally, source: int = 0) -> None:
        """One game; `source` tells apart files whose set numbers coincide (another seed's run)."""
        shares = win_shares(record["ranks"])
        baseline = record["seats"].index(sorted(record["seats"])[0])  # the sanity row's bot
        bot = record["seats"][baseline]
        a_share = sum(share for seat, share in enumerate(shares) if record["seats"][seat] == bot)
        self.sets[(source, record["pairing"], record["set"])].append((shares, a_share))
        self.games.append(tally)
        self.shares.append(shares)

    @property
    def players(self) -> int:
        return self.games[0].players

    def per_seat(self, value) -> list[list[float]]:
        return [[value(g, seat) for g in self.games] for seat in range(self.players)]

    def row(self, label: str, value) -> None:
        cols = self.per_seat(value)
        cells = [f"{statistics.mean(cols[0]):7.2f}"]
        for seat in range(1, self.players):
            diff = [a - b for a, b in zip(cols[seat], cols[0], strict=True)]
            cells.append(f"{statistics.mean(cols[seat]):7.2f} (vs 0 {mean_ci(diff)})")
        print(f"  {label:34s} " + " | ".join(cells))

    def print(self) -> None:
        n, games = self.players, self.games
        print(f"{len(games)} games, {n} players")
        sizes = [len(v) for v in self.sets.values()]
        full = [v for v in self.sets.values() if len(v) == max(sizes)]  # complete duplicate sets only
        for seat in range(n):
            seat_sets = [statistics.mean(g[0][seat] for g in v) for v in full]
            print(f"seat {seat} wins {share_ci(seat_sets)} (by sets)")
        print(
            f"sanity: the first-named bot's share of the wins "
            f"{share_ci([statistics.mean(g[1] for g in v) for v in full])} (by sets, {len(full)} complete "
            f"sets of {max(sizes)} games; a fair share is 0.5 when the sets seat both bots alike)"
        )
        print(
            "turns per seat:",
            sorted({tuple(g.turns) for g in games}),
            "; last turn played by seat",
            dict(sorted(_count(g.last_mover for g in games).items())),
        )
        print("per seat (seat 0 | seat 1 (seat 1 - seat 0, 95% over games) | ...):")
        self.row("final score", lambda g, s: g.score[s])
        for i, label in enumerate(("renown tokens", "renown pile", "systems held", "top colonies")):
            self.row(label, lambda g, s, i=i: g.parts[s][i])
        for kind in TAKES.values():
            self.row(f"{kind} cards taken", lambda g, s, k=kind: g.taken[(s, k)])
        for sector in SECTORS:
            self.row(f"{sector} cards taken", lambda g, s, k=sector: g.taken_sector[(s, k)])
        self.row("printed renown taken", lambda g, s: g.taken_renown[s])
        self.row("claimed slots a game", lambda g, s: sum(c[0] for c in g.claims[s]))
        self.row("claimed hazards a game", lambda g, s: sum(c[1] for c in g.claims[s]))
        for cls in ("first", "other", "last round"):
            self.row(f"taken, revealed {cls}", lambda g, s, c=cls: g.taken_by_reveal[(s, c)])
        self.row("age of a taken card (turns)", lambda g, s: statistics.mean(g.taken_age[s] or [0]))
        for kind in COUNTED:
            self.row(f"{kind} choices", lambda g, s, k=kind: g.choices[(s, k)])
        self.row("relinquish with Space Race out", lambda g, s: g.race_relinquish[s])
        self.row("pirate discards", lambda g, s: g.pirate_discards[s])
        for event in sorted({e for g in self.games for _, e in g.event_turns}):
            self.row(f"own turns with {event} out", lambda g, s, e=event: g.event_turns[(s, e)])
        self._rounds()
        self._before_the_last_round()
        self._last_turns()

    def _rounds(self) -> None:
        n, games = self.players, self.games
        rounds = sorted({rd for g in games for _, rd in g.round_lead})
        for title, value in (
            ("take rate", lambda g, s, rd: g.round_takes[(s, rd)]),
            ("printed renown taken", lambda g, s, rd: g.round_renown[(s, rd)]),
            ("score minus the table mean after the round", lambda g, s, rd: g.round_lead[(s, rd)]),
            ("Fringe cards in the explored space chosen from", lambda g, s, rd: g.window_fringe[(s, rd)]),
            ("best printed renown in that explored space", lambda g, s, rd: g.window_best[(s, rd)]),
        ):
            print(f"per round, {title} (seat 0 .. seat {n - 1}):")
            for rd in rounds:
                cells = [statistics.mean(value(g, s, rd) for g in games) for s in range(n)]
                print(f"  round {rd:2d}: " + "  ".join(f"{c:6.2f}" for c in cells))

    def _before_the_last_round(self) -> None:
        """Who leads when every seat has had 10 turns, and how often a lead then is turned into a win."""
        n = self.players
        rd = max(rd for _, rd in self.games[0].round_lead) - 1
        print(
            f"after round {rd} (before anyone's last turn): how often the seat leads alone, and its win share"
        )
        for seat in range(n):
            leads = [leader(g, rd) == seat for g in self.games]
            won = [sh[seat] for sh, lead in zip(self.shares, leads, strict=True) if lead]
            other = [sh[seat] for sh, lead in zip(self.shares, leads, strict=True) if not lead]
            print(
                f"  seat {seat}: leads in {statistics.mean(leads):.3f}; wins "
                f"{statistics.mean(won or [0]):.3f} of those {len(won)} games and "
                f"{statistics.mean(other or [0]):.3f} of the other {len(other)}"
            )

    def _last_turns(self) -> None:
        n = self.players
        print("last turn: how often the seat takes a card, by whether it begins the turn in the lead")
        for seat in range(n):
            for lead in (True, False):
                took = [g.last_turn[seat][1] for g in self.games if g.last_turn[seat][0] == lead]
                if took:
                    label = "in the lead" if lead else "not leading"
                    print(f"  seat {seat} {label:12s}: {statistics.mean(took):.2f} of {len(took)}")


def leader(g: GameTally, rd: int) -> int:
    """The seat strictly ahead of every other after round `rd`, or -1 when the lead is shared."""
    standing = [g.round_lead[(seat, rd)] for seat in range(g.players)]
    best = max(standing)
    return standing.index(best) if standing.count(best) == 1 else -1


def _count(xs) -> dict:
    out: dict = defaultdict(int)
    for x in xs:
        out[x] += 1
    return out


def main(paths: list[str]) -> None:
    report, replay = Report(), Replay()
    for source, path in enumerate(paths):
        with open(path) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        config = lines[0]["config"]
        game = load_game(config["game"], players=config["players"], variant=config.get("variant"))
        for r in lines[1:]:
            if r.get("type") == "game":
                report.add(r, replay.play(game, r["deal_seed"], r["actions"]), source)
    report.print()


def playouts(players: int, n: int) -> None:
    game = load_game("take_the_galaxy", players=players, variant="standard")
    for use_policy in (True, False):
        shares: list[list[float]] = [[] for _ in range(players)]
        for deal in range(n):
            state = game.new_initial_state(seed=deal)
            state.playout(1000 + deal, use_policy=use_policy)
            for seat, s in enumerate(win_shares(state.ranks())):
                shares[seat].append(s)
        label = "heuristic policy" if use_policy else "uniformly random"
        print(f"{players} players, {label}, {n} games, win share by seat (95% over games):")
        for seat in range(players):
            print(f"  seat {seat}: {share_ci(shares[seat])}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--playouts":
        for players in sys.argv[2].split(","):
            playouts(int(players), int(sys.argv[3]))
    elif len(sys.argv) >= 2 and not sys.argv[1].startswith("-"):
        main(sys.argv[1:])
    else:
        raise SystemExit(__doc__)
