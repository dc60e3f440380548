"""Tree reuse across a seat's consecutive decisions (issue 25, part 3).

A turn is all the consecutive decisions of one seat (Take The Galaxy's is about 19 searched ones). After
the seat plays, the next decision of its turn may start from the previous search's tree, re-rooted at the
node its moves lead to, instead of from an empty tree: the statistics of that subtree are kept (its root
starts with the visits the old tree gave the move), and the new search's budget buys iterations on top.

It is reused only when nothing hidden or random happened in between from the seat's point of view
(Searcher.reroot, search/_kernel.pyx): the played moves, applied to REROOT_CHECKS determinizations of the
old root observation, must each give the seat exactly the observation it now has. A card drawn, a die
rolled, a token drawn from a bag, or anything else that could have come out differently makes some of
them differ, and the decision then starts a new tree. The rule and its measured effect are in
docs/search.md, "Tree reuse".

Each worker decides alone: a worker whose kept tree re-roots searches on it, one whose check fails (or
that holds no tree: a replaced Ray actor, a tree its actor evicted) starts a new tree, whatever the other
workers did. The trees live where the workers do: in this process (searches(): the in-process backends,
and the time-shared pool, whose parts are workers too), or on the workers of a backend that keeps them
between calls (RayBackend: on_workers(), the actors hold the trees under a key this TurnTree gives and
frees).
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Callable, Sequence

from orrery.search._config import SearchConfig
from orrery.search._driver import WorkerSearch
from orrery.search._result import worker_seed


class TurnTree:
    """A seat's search trees (one per worker) kept between the decisions of one of its turns.

    searches() gives an in-process decision's workers their trees, each re-rooted when allowed, else new;
    on_workers() does the same for workers that keep the trees themselves (Ray actors); played() books
    each move of the seat (searched or not) so the next decision knows where to re-root; clear() frees the
    trees at the turn's end, here or on the workers."""

    def __init__(self) -> None:
        self.tree_id = uuid.uuid4().hex  # names this turn's trees on the workers that keep them
        self._searches: list[WorkerSearch | None] | None = None  # in-process trees, one per worker
        self._owner: object | None = None  # the backend whose workers keep this turn's trees, if any
        self._generation = 0  # bumped whenever the workers start new trees (see on_workers)
        self._release: weakref.finalize | None = None  # frees the workers' trees (once)
        self._config: SearchConfig | None = None
        self._played: list[int] = []  # the seat's moves since the kept trees' searches
        # the visits the latest decision carried over (summed over the workers that re-rooted), None when
        # every worker made a new tree; and how many workers re-rooted
        self.carried_visits: int | None = None
        self.reused_workers = 0

    def searches(self, observation, config: SearchConfig, workers: int, seed: int) -> list[WorkerSearch]:
        """The workers' searches for this decision, in this process: each worker's kept tree re-rooted at
        the moves played since where its check passes, else a new tree (the old one is freed first)."""
        kept, played = self._searches, self._played
        if self._owner is not None:  # the last decision ran on workers that keep trees: free those
            self._free_on_workers()
        self._searches, self._played = None, []
        reusable = kept is not None and bool(played) and config == self._config
        searches: list[WorkerSearch] = []
        carried: list[int] = []
        for i in range(workers):
            old: WorkerSearch | None = None
            if kept is not None and i < len(kept):
                old, kept[i] = kept[i], None  # from here on only `old` holds it
            visits = -1
            if reusable and old is not None:
                visits = old.searcher.reroot(played, observation, seed=worker_seed(seed, i))
            if visits < 0:
                old = None  # free the old tree before growing a new one
            searches.append(
                old if old is not None else WorkerSearch(observation, config, worker_seed(seed, i))
            )
            carried.append(max(visits, 0))
        del kept
        self.record_carried(carried)
        self._searches = list(searches)
        self._config = config
        return searches

    def on_workers(
        self, owner: object, config: SearchConfig, drop: Callable[[str], None]
    ) -> tuple[str, list[int]]:
        """For a backend whose workers keep the trees between its calls (`owner`, e.g. a RayBackend): the key
        its workers keep this turn's trees under, and the moves played since their last search, to re-root
        them at; no moves when they cannot be reused (a new turn, another backend or config before), and
        the workers then start new trees under the key. `drop(key)` frees the workers' trees: clear() calls
        it, and so does this TurnTree's garbage collection (an entry forgotten without clear())."""
        played, same = self._played, self._owner is owner and config == self._config
        self._searches, self._played = None, []  # in-process trees of an earlier decision are freed
        self.carried_visits, self.reused_workers = None, 0  # until record_carried()
        if not same:
            self._free_on_workers()
            # A new key: a late drop of the old one (a threaded actor may run calls out of order) cannot
            # free the new trees.
            self._generation += 1
            self._owner, self._config = owner, config
            self._release = weakref.finalize(self, drop, self._key())
            self._release.atexit = False  # at exit the workers go too
            played = []
        return self._key(), played

    def record_carried(self, carried: Sequence[int]) -> None:
        """The visits each worker's tree carried over into this decision (0: a new tree)."""
        reused = [int(v) for v in carried if v > 0]
        self.reused_workers = len(reused)
        self.carried_visits = sum(reused) if reused else None

    def played(self, action: int) -> None:
        """The seat played `action` (its turn goes on); the next decision re-roots past it."""
        if self.holds_tree:
            self._played.append(int(action))

    def clear(self) -> None:
        """Free the kept trees (the turn ended, a new game began, or the tree cannot be used), here and on
        the workers that keep them."""
        self._searches, self._played, self._config = None, [], None
        self._free_on_workers()

    def in_process_searches(self) -> list[WorkerSearch]:
        """The workers' trees kept in this process (none when the workers keep them, e.g. Ray actors)."""
        return [search for search in self._searches or () if search is not None]

    @property
    def holds_tree(self) -> bool:
        return self._searches is not None or self._owner is not None

    def _key(self) -> str:
        return f"{self.tree_id}/{self._generation}"

    def _free_on_workers(self) -> None:
        release, self._release, self._owner = self._release, None, None
        if release is not None:
            release()  # calls drop(key) once
