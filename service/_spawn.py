"""Start `orrery serve` as a child process on free loopback ports, for the bench, `play` and tests."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

READY_LINE = re.compile(
    r"orrery serving on (?P<host>\S+):(?P<port>\d+) \(metrics (?:on :(?P<mport>\d+)|off)\)"
)


@dataclass
class SpawnedServer:
    process: subprocess.Popen[str]
    port: int
    metrics_port: int
    log: list[str]  # the child's stderr lines so far

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.metrics_port}/metrics"

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM (graceful drain), then wait; SIGKILL if it does not exit in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return int(self.process.returncode)


def start_server(
    args: Sequence[str],
    *,
    ready_timeout: float = 120.0,
    env: dict | None = None,
    cwd: str | None = None,
    same_imports: bool = False,
) -> SpawnedServer:
    """Run `python -m orrery.service.cli serve --host 127.0.0.1 --port 0 --metrics-port 0 ARGS` and wait for
    its "orrery serving on" line (printed only once its workers are warm).

    same_imports: give the child this process's sys.path, so it imports the same code (tests)."""
    command = [
        sys.executable,
        "-m",
        "orrery.service.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--metrics-port",
        "0",
        *args,
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {}), **(_same_path() if same_imports else {})},
        cwd=cwd,
    )
    log: list[str] = []
    threading.Thread(target=_collect, args=(process.stderr, log), daemon=True).start()
    found: list[re.Match[str]] = []
    reader = threading.Thread(target=_wait_ready, args=(process.stdout, found), daemon=True)
    reader.start()
    reader.join(ready_timeout)
    if not found:
        process.kill()
        process.wait()
        tail = "".join(log[-30:])
        raise RuntimeError(f"orrery serve did not become ready in {ready_timeout:g}s:\n{tail}")
    m = found[0]
    return SpawnedServer(process, int(m["port"]), int(m["mport"] or 0), log)


def _same_path() -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join(os.path.abspath(p) for p in sys.path if p)}


def _collect(stream, log: list[str]) -> None:  # type: ignore[no-untyped-def]
    for line in stream:
        log.append(line)


def _wait_ready(stream, found: list) -> None:  # type: ignore[no-untyped-def]
    for line in stream:
        m = READY_LINE.search(line)
        if m:
            found.append(m)
            break
    # keep draining stdout so the child never blocks on a full pipe
    threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()


@contextlib.contextmanager
def running_server(args: Sequence[str], **kwargs) -> Iterator[SpawnedServer]:  # type: ignore[no-untyped-def]
    server = start_server(args, **kwargs)
    try:
        yield server
    finally:
        server.terminate()


def wait_until(predicate, timeout: float = 10.0, interval: float = 0.05) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
