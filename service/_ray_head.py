"""The local Ray head of `orrery serve`, started in a clean child process.

Ray starts its processes (GCS, raylet, dashboard, monitors) with fork() and a Python preexec_fn in the
forked child. Done inside the server, that fork copies a process that already runs gRPC threads: gRPC
skips its fork handlers ("Other threads are currently calling into gRPC, skipping fork() handlers") and
the child can abort (the dashboard's "return code -6") or hang before exec (then the GCS never writes
its port file: "Timed out waiting for file .../gcs_server_port_..."). So the server starts this module
with subprocess (no preexec_fn: vfork and exec, no fork handlers), and the forks happen here, in a
process with no gRPC server, as under `ray start`. The server then connects with
ray.init(address=...).

Ray's head always starts a dashboard process, even with include_dashboard=False (a reduced one that
only sends usage stats). Without --dashboard it is not started here at all.

Protocol: this prints one line, "orrery-ray-head GCS_ADDRESS", once the head is up, then waits for
end-of-file on stdin (the server closed the pipe or is gone) or SIGTERM, stops every Ray process it
started and exits. If Ray's GCS or raylet dies meanwhile, it stops the rest and exits 1.

    python -m orrery.service._ray_head --temp-dir DIR [--num-cpus N] [--node-ip IP] [--dashboard-host HOST]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import signal
import sys
from typing import Any

READY = "orrery-ray-head"
WATCH_S = 1.0


def _without_api_server(node_class: Any) -> None:
    """Make Ray's head skip its dashboard process (the API server)."""

    def start_api_server(self: Any, **_: Any) -> None:
        self._webui_url = None

    if hasattr(node_class, "start_api_server"):
        node_class.start_api_server = start_api_server


def start_head(
    *, temp_dir: str, num_cpus: int | None, node_ip: str | None, dashboard_host: str | None
) -> Any:
    """Start a Ray head node in this process (its processes are children of this one) and return it."""
    import ray._private.node
    import ray._private.parameter
    import ray._private.services

    dashboard = dashboard_host is not None
    if not dashboard:
        _without_api_server(ray._private.node.Node)
    params = ray._private.parameter.RayParams(
        node_ip_address=node_ip or ray._private.services.get_node_ip_address(),
        num_cpus=num_cpus,
        temp_dir=temp_dir,
        include_dashboard=dashboard,
        dashboard_host=dashboard_host or "127.0.0.1",
    )
    return ray._private.node.Node(params, head=True, shutdown_at_exit=False, spawn_reaper=False)


def _stop(node: Any) -> None:
    with contextlib.suppress(Exception):
        node.kill_all_processes(check_alive=False, allow_graceful=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m orrery.service._ray_head")
    parser.add_argument("--temp-dir", required=True)
    parser.add_argument("--num-cpus", type=int, default=None)
    parser.add_argument("--node-ip", default=None)
    parser.add_argument("--dashboard-host", default=None, help="start Ray's dashboard on this host")
    args = parser.parse_args(argv)
    stop = False
    # Ctrl-C reaches the server too, which then stops this Ray. A handler, not SIG_IGN: Ray's processes
    # would inherit SIG_IGN through exec.
    signal.signal(signal.SIGINT, lambda signum, frame: None)

    def on_term(signum: int, frame: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    node = start_head(
        temp_dir=args.temp_dir,
        num_cpus=args.num_cpus,
        node_ip=args.node_ip,
        dashboard_host=args.dashboard_host,
    )
    try:
        print(f"{READY} {node.gcs_address}", flush=True)
        stdin = sys.stdin.fileno()
        while not stop:
            try:
                ready, _, _ = select.select([stdin], [], [], WATCH_S)
            except InterruptedError:
                continue
            if ready and not os.read(stdin, 4096):
                break  # end of file: the server is done with this Ray, or gone
            dead = [kind for kind, _ in node.dead_processes() if kind in ("gcs_server", "raylet")]
            if dead:
                print(
                    f"orrery-ray-head: Ray's {', '.join(dead)} exited; stopping", file=sys.stderr, flush=True
                )
                return 1
        return 0
    finally:
        _stop(node)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
