"""CancelToken: stop a running search from any thread."""

from __future__ import annotations

import threading
from collections.abc import Callable

from orrery.search._kernel import CancelFlag


class CancelToken:
    """Thread-safe. cancel() sets a C flag that in-process searches poll every iteration, and runs the
    callbacks that backends register (the Ray backend forwards the cancel to its actors)."""

    def __init__(self) -> None:
        self._flag = CancelFlag()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    def cancel(self) -> None:
        with self._lock:
            if self._flag.is_set:
                return
            self._flag.set()
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    @property
    def cancelled(self) -> bool:
        return bool(self._flag.is_set)

    @property
    def flag(self) -> CancelFlag:
        return self._flag

    def add_callback(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run callback on cancel (at once if already cancelled); returns a function that removes it."""
        with self._lock:
            already = self._flag.is_set
            if not already:
                self._callbacks.append(callback)
        if already:
            callback()

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return remove

    def __repr__(self) -> str:
        return f"CancelToken(cancelled={self.cancelled})"
