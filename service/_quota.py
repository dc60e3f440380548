"""Per-peer rate limits (token buckets): match creation, and wrong tokens (guesses).

A peer is the client's network address without its port (`ipv4:10.0.0.7`), so every connection from
one host shares a bucket. Behind a proxy every request comes from the proxy: raise the limit there or
turn it off (rate 0).
"""

from __future__ import annotations

import time

from orrery.service._errors import ServiceError, exhausted


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
                f"retry in {wait:.1f} s",
                retry_after_s=wait,
            )
        self._buckets[peer] = (tokens - 1.0, now)
        if len(self._buckets) > self.MAX_PEERS:
            self._forget_full(now, rate)

    def _forget_full(self, now: float, rate: float) -> None:
        for peer, (tokens, updated) in list(self._buckets.items()):
            if tokens + (now - updated) * rate >= self.per_minute:
                del self._buckets[peer]


class FailureLimit:
    """At most `per_minute` failures (wrong seat, spectator or owner tokens) per peer per minute, in
    bursts of up to `per_minute`: a token bucket that only failures spend. While a peer's bucket is
    empty every call it makes that needs a token is refused (RESOURCE_EXHAUSTED with a retry hint),
    right tokens included: otherwise a guesser would learn from the answers whether a guess was right.
    Calls with right tokens never spend anything."""

    def __init__(self, per_minute: float, flag: str) -> None:
        self._bucket = RateLimit(per_minute, "wrong tokens", flag)

    @property
    def per_minute(self) -> float:
        return self._bucket.per_minute

    def check(self, peer: str, now: float | None = None) -> None:
        """Raise RESOURCE_EXHAUSTED (with when to retry) if `peer` has no failure left to spend."""
        bucket = self._bucket
        if bucket.per_minute <= 0:
            return
        now = time.monotonic() if now is None else now
        tokens, updated = bucket._buckets.get(peer, (bucket.per_minute, now))
        tokens = min(bucket.per_minute, tokens + (now - updated) * bucket.per_minute / 60.0)
        if tokens < 1.0:
            bucket.take(peer, now)  # raises, saying when to retry

    def failed(self, peer: str, count: int = 1, now: float | None = None) -> None:
        """`peer` gave `count` wrong tokens: spend them (as far as its bucket goes; never raises)."""
        for _ in range(count):
            try:
                self._bucket.take(peer, now)
            except ServiceError:
                return
