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
"""

from __future__ import annotations

from orrery.search._config import SearchConfig
from orrery.search._driver import WorkerSearch
from orrery.search._result import worker_seed


class TurnTree:
    """A seat's search trees (one per worker) kept between the decisions of one of its turns.

    searches() gives a decision's workers their trees, re-rooted when allowed, else new; played() books
    each move of the seat (searched or not) so the next decision knows where to re-root; clear() frees the
    trees at the turn's end."""

    def __init__(self) -> None:
        self._searches: list[WorkerSearch] | None = None
        self._config: SearchConfig | None = None
        self._played: list[int] = []  # the seat's moves since the kept trees' searches
        # the visits the latest searches() carried over (summed over workers), None when it made new trees
        self.carried_visits: int | None = None

    def searches(self, observation, config: SearchConfig, workers: int, seed: int) -> list[WorkerSearch]:
        """The workers' searches for this decision: the kept trees re-rooted at the moves played since,
        when every worker's tree allows it, else new trees (the old ones are freed)."""
        kept, played = self._searches, self._played
        self._searches, self._played = None, []
        if kept is not None and played and config == self._config and len(kept) == workers:
            carried = [
                search.searcher.reroot(played, observation, seed=worker_seed(seed, i))
                for i, search in enumerate(kept)
            ]
            if all(visits >= 0 for visits in carried):
                self.carried_visits = sum(carried)
                self._searches = kept
                return kept
        del kept  # free the old trees before growing new ones
        self.carried_visits = None
        self._searches = [WorkerSearch(observation, config, worker_seed(seed, i)) for i in range(workers)]
        self._config = config
        return self._searches

    def played(self, action: int) -> None:
        """The seat played `action` (its turn goes on); the next searches() re-roots past it."""
        if self._searches is not None:
            self._played.append(int(action))

    def clear(self) -> None:
        """Free the kept trees (the turn ended, a new game began, or the tree cannot be used)."""
        self._searches, self._played = None, []

    @property
    def holds_tree(self) -> bool:
        return self._searches is not None
