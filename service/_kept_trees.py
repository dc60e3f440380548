"""The bound on the search trees the server keeps between its AI seats' decisions (issue 25, part 3).

A hosted AI seat whose search config reuses trees keeps its turn's trees (search's TurnTree, one tree per
worker) from one decision to the next (service/_ai_clock.py). With many matches each holding a turn's
trees, that memory grows with the number of matches; this bounds it for the whole server process:
at most `trees` turns' trees and `nodes` nodes in all are kept between decisions, the most recently
searched freed first (--max-kept-trees, --max-kept-tree-nodes; docs/api.md, "Running the server").

Why the most recent: the scheduler serves waiting AI turns in order, so the turn searched least recently
is the one searched next, and the one just searched waits longest for its next decision. Freeing the
least recent (LRU) would free each tree just before it is reused: with 64 matches waiting on a bound of
32 trees LRU reused 0.3% of decisions and this policy 32.3% (docs/performance.md, session 7). A full bound
thus keeps the turns it holds until they end, and a turn beyond it searches without a kept tree.

Freeing a turn's trees (an eviction) only makes that seat's next decision start a new tree, exactly as
a turn's first decision does: never an error, and the move is searched as any other. A tree that a search
is running on (from the moment the scheduler hands it to a backend, on a search thread, to the search's
end) is never freed under it: the lock below makes that hand-over and an eviction exclusive. A tree
waiting in the queue is between decisions, and may be freed.

Nodes are counted where this process holds them (the in-process backends and the time-shared lane);
trees kept on Ray actors count as trees here, with their nodes bounded by each actor's own bound
(search/_ray.py, KEPT_TREES and KEPT_TREE_NODES; --worker-kept-trees, --worker-kept-tree-nodes). Freeing
one frees it there too (TurnTree.clear).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from orrery.search import TurnTree
from orrery.search._ray import KEPT_TREE_NODES, KEPT_TREES

# A kept Take The Galaxy node costs about 290 to 300 bytes of the server's resident memory
# (docs/performance.md, "2026-11-27 (session 7)"), so the default node bound is about 0.6 GB; a hard turn's
# tree has up to 300,000 nodes, an expert one (2 s a turn) a few hundred thousand a worker.
DEFAULT_KEPT_TREES = 32
DEFAULT_KEPT_TREE_NODES = 2_000_000
# Each Ray search actor's own bound on the trees it keeps of those turns (search/_ray.py says why these).
DEFAULT_WORKER_KEPT_TREES = KEPT_TREES
DEFAULT_WORKER_KEPT_TREE_NODES = KEPT_TREE_NODES


@dataclass(frozen=True, kw_only=True)
class TreeBound:
    """What the server keeps of its AI seats' turns between decisions, at most."""

    trees: int = DEFAULT_KEPT_TREES  # seats' turns whose trees are kept (each one tree per worker); 0: none
    nodes: int = DEFAULT_KEPT_TREE_NODES  # nodes of those trees held in this process, all together

    def __post_init__(self) -> None:
        for name, value in (("trees", self.trees), ("nodes", self.nodes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"the kept-tree bound's {name} must be an int >= 0, got {value!r}")


class KeptTrees:
    """The TurnTrees the server's AI seats keep between decisions, by match, least recently searched first.

    searching() (on the search's thread, when the scheduler hands the tree to a backend) marks a tree in
    use; searched() (on the event loop, after the search) puts it back as the most recent and frees the
    most recent ones beyond the bound, this one first; release() frees a match's tree at once (its turn
    ended, the match
    ended or another replica plays it), or when its running search ends."""

    def __init__(self, bound: TreeBound | None = None, *, metrics: Any = None) -> None:
        self.bound = bound if bound is not None else TreeBound()
        self._metrics = metrics  # ServiceMetrics: its kept-tree gauges and eviction counter, if given
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, TurnTree] = OrderedDict()  # between decisions, least recent first
        self._nodes: dict[str, int] = {}  # match id -> its kept tree's nodes in this process
        self._in_use: dict[str, TurnTree] = {}  # match id -> the tree a search runs on now
        self._released: set[str] = set()  # in use when released: freed when its search ends
        self.evictions = 0

    def searching(self, match_id: str, tree: TurnTree) -> None:
        """A search starts on `tree` (any thread): it is not freed until searched()."""
        with self._lock:
            self._kept.pop(match_id, None)
            self._nodes.pop(match_id, None)
            self._in_use[match_id] = tree
            self._released.discard(match_id)
            self._publish()

    def searched(self, match_id: str) -> None:
        """The search on the match's tree ended (or never started): keep it, within the bound."""
        with self._lock:
            tree = self._in_use.pop(match_id, None)
            if tree is None:
                return
            if match_id in self._released:
                self._released.discard(match_id)
                tree.clear()
            elif tree.holds_tree:
                self._kept[match_id] = tree
                self._nodes[match_id] = tree_nodes(tree)
                self._trim()
            self._publish()

    def release(self, match_id: str, tree: TurnTree | None = None) -> None:
        """Free the match's kept tree (and `tree`, the turn's own) now; one in use is freed when its
        search ends."""
        with self._lock:
            kept = self._kept.pop(match_id, None)
            self._nodes.pop(match_id, None)
            if match_id in self._in_use:
                self._released.add(match_id)
            else:
                for turn_tree in {id(t): t for t in (kept, tree) if t is not None}.values():
                    turn_tree.clear()
            self._publish()

    @property
    def trees(self) -> int:
        """Turns' trees kept between decisions now."""
        return len(self._kept)

    @property
    def nodes(self) -> int:
        """Their nodes held in this process."""
        return sum(self._nodes.values())

    def kept_matches(self) -> list[str]:
        """The matches whose trees are kept, least recently searched first (for tests and debugging)."""
        with self._lock:
            return list(self._kept)

    def _trim(self) -> None:
        """Free the most recently searched kept trees beyond the bound (under the lock): their next
        decisions are the furthest off in the queue (the module's docstring)."""
        nodes = sum(self._nodes.values())
        while self._kept and (len(self._kept) > self.bound.trees or nodes > self.bound.nodes):
            match_id, newest = self._kept.popitem(last=True)
            nodes -= self._nodes.pop(match_id, 0)
            newest.clear()
            self.evictions += 1
            if self._metrics is not None:
                self._metrics.ai_kept_tree_evictions.inc()

    def _publish(self) -> None:
        if self._metrics is not None:
            self._metrics.ai_kept_trees.set(len(self._kept))
            self._metrics.ai_kept_tree_nodes.set(sum(self._nodes.values()))


def tree_nodes(tree: TurnTree) -> int:
    """The nodes of `tree`'s workers' trees held in this process (0 for trees kept on Ray actors)."""
    return sum(search.searcher.tree_size for search in tree.in_process_searches())
