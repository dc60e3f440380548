"""The local Ray a server starts dies with it, kill -9 included.

Ray ties its GCS and raylet to the process that started them, but not every process they start (the
dashboard agent and runtime-env agent outlived a kill -9 of `orrery serve`, listening). So before
starting a local Ray the server starts this reaper, in a session of its own, with a pipe on its stdin
whose only writer is the server: the pipe reaches end-of-file exactly when the server is gone, however
it ended. Until then the reaper notes, twice a second, every process descended from the server; then
it stops (SIGTERM, then SIGKILL after a grace period) those it noted and every process whose command
line names the server's own Ray temp dir (Ray's workers rename themselves; the agents do not), and
removes that dir. After a normal shutdown there is nothing left to stop.

Linux only (/proc); elsewhere the server runs without it.

    python -m orrery.service._reaper SERVER_PID RAY_TEMP_DIR
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import time

SNAPSHOT_S = 0.5
GRACE_S = 3.0


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid in _pids():
        parent = _parent_of(pid)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def naming(marker: str) -> set[int]:
    """Processes whose command line contains `marker`."""
    found = set()
    needle = marker.encode()
    me = os.getpid()
    for pid in _pids():
        if pid == me:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if needle in f.read():
                    found.add(pid)
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _signal(pids: set[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def reap(noted: set[int], marker: str, *, spare: set[int] | frozenset[int] = frozenset()) -> None:
    """Stop (SIGTERM, then SIGKILL after GRACE_S) the `noted` processes and those naming `marker`,
    except `spare` (the server uses this between start attempts, sparing the reaper, which names it)."""

    def found() -> set[int]:
        return {p for p in noted | naming(marker) if p not in spare and _alive(p)}

    targets = found()
    _signal(targets, signal.SIGTERM)
    end = time.monotonic() + GRACE_S
    while time.monotonic() < end:
        targets = {p for p in targets | found() if _alive(p)}
        if not targets:
            break
        time.sleep(0.1)
    _signal({p for p in targets | found() if _alive(p)}, signal.SIGKILL)


def main(argv: list[str]) -> int:
    server, marker = int(argv[0]), argv[1]
    noted: set[int] = set()
    stdin = sys.stdin.fileno()
    while True:
        ready, _, _ = select.select([stdin], [], [], SNAPSHOT_S)
        if ready and not os.read(stdin, 4096):
            break  # end of file: the server is gone
        noted |= descendants(server)
        noted = {p for p in noted if _alive(p)}
    noted.discard(os.getpid())
    reap(noted, marker)
    shutil.rmtree(marker, ignore_errors=True)
    return 0


def start_reaper(marker: str) -> subprocess.Popen[bytes] | None:
    """Start the reaper for this process and the Ray temp dir `marker` (None where /proc is missing).
    Keep the returned Popen referenced for the server's whole life: its stdin is the pipe."""
    if not os.path.isdir("/proc/self"):
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "orrery.service._reaper", str(os.getpid()), marker],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a kill of the server's process group leaves it running
        close_fds=True,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
