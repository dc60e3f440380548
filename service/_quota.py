"""Per-peer rate limits (token buckets), e.g. on match creation.

A peer is the client's network address without its port (`ipv4:10.0.0.7`), so every connection from
one host shares a bucket. Behind a proxy every request comes from the proxy: raise the limit there or
turn it off (rate 0).
"""

from __future__ import annotations

import time

from orrery.service._errors import exhausted


def peer_host(peer: str) -> str:
    """'ipv4:127.0.0.1:5123' -> 'ipv4:127.0.0.1'; 'ipv6:[::1]:5123' -> 'ipv6:[::1]'; others as given."""
    if peer.startswith(("ipv4:", "ipv6:")) and peer.count(":") >= 2:
        return peer.rsplit(":", 1)[0]
    return peer


class RateLimit:
    """At most `per_minute` events per peer per minute, in bursts of up to `per_minute`."""

    MAX_PEERS = 100_000  # buckets kept; full ones are dropped first when there are more

    def __init__(self, per_minute: float, what: str, flag: str) -> None:
        self.per_minute = per_minute
        self.what = what
        self.flag = flag
        self._buckets: dict[str, tuple[float, float]] = {}  # peer -> (tokens, updated at)

    def take(self, peer: str, now: float | None = None) -> None:
        """Spend one token of `peer`'s bucket, or raise RESOURCE_EXHAUSTED saying when to retry."""
        if self.per_minute <= 0:
            return
        now = time.monotonic() if now is None else now
        rate = self.per_minute / 60.0
        tokens, updated = self._buckets.get(peer, (self.per_minute, now))
        tokens = min(self.per_minute, tokens + (now - updated) * rate)
        if tokens < 1.0:
            wait = (1.0 - tokens) / rate
            raise exhausted(
                f"too many {self.what} from {peer}: at most {self.per_minute:g} per minute ({self.flag}); "
                f"retry in {wait:.1f} s"
            )
        self._buckets[peer] = (tokens - 1.0, now)
        if len(self._buckets) > self.MAX_PEERS:
            self._forget_full(now, rate)

    def _forget_full(self, now: float, rate: float) -> None:
        for peer, (tokens, updated) in list(self._buckets.items()):
            if tokens + (now - updated) * rate >= self.per_minute:
                del self._buckets[peer]
