"""Live proofs for deploy/, on loopback, without Docker.

A real multi-process Ray cluster (`ray start --head` plus a `ray start --address` worker node, each in
its own process tree, one CPU each) with `orrery serve` connected through RAY_ADDRESS:
- suggestions are answered by search actors on both nodes;
- a real Prometheus (the Debian `prometheus` package) scrapes the service with deploy/prometheus.yml,
  its HTTP API returns the request histogram, and promtool accepts the config and the metrics;
- the dashboard's metrics are all really exported;
- the worker node is killed (SIGKILL of its whole process tree) during a request: the request is
  answered, and later requests succeed on the surviving node, which spends their whole budget;
- a new worker node joins (as compose's restart policy or KubeRay would start one) and searches use
  both nodes again.

The tests share one cluster and one server (module fixtures) and run in file order; the node kill is
last. Each Ray node lives in its own temp dir and is stopped by signalling its own processes: never
`ray stop`, which would kill every Ray on the machine, other test sessions' included.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_deploy_static import DASHBOARD, dashboard_queries, metric_names_in

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
RAY_CLI = Path(sys.executable).with_name("ray")
# The installed console script (the image's entry point) when there is one, else the same main().
ORRERY_CLI = Path(sys.executable).with_name("orrery")
ORRERY_SERVE = (
    [str(ORRERY_CLI), "serve"]
    if ORRERY_CLI.exists()
    else [sys.executable, "-m", "orrery.service.cli", "serve"]
)
STARTUP_TIMEOUT_S = 150.0  # two Ray nodes on a busy 2-core box take ~25 s; allow for much worse
SERVE_TIMEOUT_S = 150.0
NO_PROMETHEUS = "the prometheus and promtool binaries are not installed (Debian: apt-get install prometheus)"


def serve_command_available() -> bool:
    from orrery.service.cli import COMMAND_MODULES

    return any(name.startswith("orrery.service.") for name in COMMAND_MODULES)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.ray,  # a real two-node Ray cluster
    pytest.mark.timeout(400),
    pytest.mark.skipif(
        not serve_command_available(),
        reason="`orrery serve` is not on this branch yet (the service branch is not merged)",
    ),
]


# ---------------------------------------------------------------- processes


def free_ports(count: int) -> list[int]:
    """Distinct loopback ports that were free a moment ago (held open together so none repeats)."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]


def process_tree(root: int) -> list[int]:
    """root and every process descended from it, by parent pid (Ray's workers call setsid)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    tree, stack = [], [root]
    while stack:
        pid = stack.pop()
        tree.append(pid)
        stack.extend(children.get(pid, []))
    return tree


def kill_tree(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


# Ray >= 2.5x turns token authentication on when ~/.ray/auth_token exists, and any other Ray session
# on this machine may (re)write that file. This cluster carries its own token, as deploy/ does.
RAY_AUTH_TOKEN = secrets.token_hex(32)
# Every process this module starts carries this mark in its environment, and Ray passes it on to
# the workers its nodes spawn; teardown sweeps up whatever still has it (see sweep()).
RUN_MARK = ("ORRERY_DEPLOY_TEST_RUN", secrets.token_hex(8))


def processes_of_this_run() -> list[int]:
    """Every live process whose environment carries RUN_MARK."""
    mark = f"{RUN_MARK[0]}={RUN_MARK[1]}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environment = Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:
            continue
        if mark in environment.split(b"\0"):
            found.append(int(entry))
    return found


def processes_holding_files_under(folder: Path) -> list[int]:
    """Every process with a file open under folder (Ray's processes keep their logs open there)."""
    prefix = str(folder) + os.sep
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
            if any(os.readlink(f"/proc/{entry}/fd/{fd}").startswith(prefix) for fd in fds):
                found.append(int(entry))
        except OSError:
            continue
    return found


def sweep(folder: Path, rounds: int = 20) -> None:
    """SIGKILL what is left of this run until nothing is: a raylet that is being stopped may start a
    fresh agent, which is re-parented to init, escapes the process tree, and does not inherit the
    environment mark, but does open its log under the node's temp dir."""
    for _ in range(rounds):
        left = set(processes_of_this_run()) | set(processes_holding_files_under(folder))
        if not left:
            return
        kill_tree(sorted(left))
        time.sleep(0.5)


def child_env(**extra: str) -> dict[str, str]:
    """The environment of every process the tests start: this checkout importable, the cluster's own
    Ray token, no telemetry."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_ADDRESS", "RAY_AUTH"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    env["RAY_AUTH_MODE"] = "token"
    env["RAY_AUTH_TOKEN"] = RAY_AUTH_TOKEN
    env[RUN_MARK[0]] = RUN_MARK[1]
    env.update(extra)
    return env


@dataclass
class Daemon:
    """A process started in its own session, its output in a log file, stopped with its whole tree."""

    name: str
    args: list[str]
    log: Path
    env: dict[str, str]
    process: subprocess.Popen | None = field(init=False, default=None)

    def start(self) -> Daemon:
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                self.args,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def tail(self, lines: int = 40) -> str:
        return f"--- {self.name} ({self.log}) ---\n" + "\n".join(self.output().splitlines()[-lines:])

    def crash(self) -> None:
        """SIGKILL the process and everything under it at once, as if its machine were lost."""
        assert self.process is not None
        kill_tree(process_tree(self.process.pid))
        self.process.wait(timeout=30)

    def stop(self, grace_s: float = 20.0) -> None:
        """SIGTERM (Ray and orrery clean up on it), then SIGKILL whatever of the tree is left."""
        if self.process is None or not self.alive():
            return
        tree = process_tree(self.process.pid)
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=grace_s)
        kill_tree([pid for pid in tree if Path(f"/proc/{pid}").exists()])
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)


def wait_for(what: str, condition: Callable[[], Any], timeout_s: float, daemons: list[Daemon]) -> Any:
    """Poll condition() until it returns something truthy; fail with the daemons' logs otherwise."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for daemon in daemons:
            if not daemon.alive():
                pytest.fail(f"{daemon.name} exited while waiting for {what}\n{daemon.tail()}")
        with contextlib.suppress(OSError, ValueError):
            value = condition()
            if value:
                return value
        time.sleep(0.5)
    pytest.fail(
        f"timed out after {timeout_s:.0f} s waiting for {what}\n" + "\n".join(d.tail() for d in daemons)
    )


def http_json(url: str, headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def http_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return reply.read().decode()


# ---------------------------------------------------------------- the Ray cluster


@dataclass
class RayCluster:
    head: Daemon
    worker: Daemon
    gcs_port: int
    dashboard_port: int
    head_metrics_port: int
    worker_metrics_port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.gcs_port}"

    def state(self, resource: str) -> list[dict]:
        """Ray's state API (what `ray list nodes|actors` shows), over the dashboard's HTTP."""
        reply = http_json(
            f"http://127.0.0.1:{self.dashboard_port}/api/v0/{resource}?limit=1000&detail=1",
            {"Authorization": f"Bearer {RAY_AUTH_TOKEN}"},
        )
        return reply["data"]["result"]["result"]

    def alive_nodes(self) -> list[dict]:
        return [n for n in self.state("nodes") if n["state"] == "ALIVE"]


def ray_node_args(temp_dir: str) -> list[str]:
    """Per-node settings: loopback, one CPU, a small object store, and ports of its own (two nodes on
    one machine must not share the agent ports that Ray otherwise picks by default)."""
    metrics, agent_http, agent_grpc, runtime_env, node_manager, object_manager = free_ports(6)
    return [
        "--block",
        "--node-ip-address=127.0.0.1",
        "--num-cpus=1",
        "--object-store-memory=100000000",
        f"--temp-dir={temp_dir}",
        f"--metrics-export-port={metrics}",
        f"--dashboard-agent-listen-port={agent_http}",
        f"--dashboard-agent-grpc-port={agent_grpc}",
        f"--runtime-env-agent-port={runtime_env}",
        f"--node-manager-port={node_manager}",
        f"--object-manager-port={object_manager}",
        "--disable-usage-stats",
    ]


def metrics_port_of(args: list[str]) -> int:
    return int(next(a for a in args if a.startswith("--metrics-export-port=")).split("=")[1])


def worker_node(gcs_port: int, node_args: list[str], log: Path) -> Daemon:
    return Daemon(
        "ray worker node",
        [str(RAY_CLI), "start", f"--address=127.0.0.1:{gcs_port}", *node_args],
        log,
        child_env(),
    )


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    # Short and under /tmp: Ray's unix socket paths must stay under ~107 bytes.
    path = Path(tempfile.mkdtemp(prefix="orrery-deploy-", dir="/tmp"))
    yield path
    # The last teardown of the module (every other fixture uses this one).
    sweep(path)
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def ray_cluster(workdir: Path) -> Iterator[RayCluster]:
    if not RAY_CLI.exists():
        pytest.fail(f"the ray command is missing next to {sys.executable}")
    gcs, dashboard, client = free_ports(3)
    head_args = ray_node_args(str(workdir / "ray-head"))
    worker_args = ray_node_args(str(workdir / "ray-worker"))
    head = Daemon(
        "ray head",
        [
            str(RAY_CLI),
            "start",
            "--head",
            f"--port={gcs}",
            "--include-dashboard=true",
            "--dashboard-host=127.0.0.1",
            f"--dashboard-port={dashboard}",
            f"--ray-client-server-port={client}",
            *head_args,
        ],
        workdir / "ray-head.log",
        child_env(),
    )
    worker = worker_node(gcs, worker_args, workdir / "ray-worker.log")
    cluster = RayCluster(
        head, worker, gcs, dashboard, metrics_port_of(head_args), metrics_port_of(worker_args)
    )
    try:
        head.start()
        wait_for("the Ray head node", lambda: len(cluster.alive_nodes()) == 1, STARTUP_TIMEOUT_S, [head])
        worker.start()
        wait_for(
            "two alive Ray nodes", lambda: len(cluster.alive_nodes()) == 2, STARTUP_TIMEOUT_S, [head, worker]
        )
        yield cluster
    finally:
        worker.stop()
        head.stop()


# ---------------------------------------------------------------- orrery serve


@dataclass
class Server:
    daemon: Daemon
    port: int
    metrics_port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def metrics(self) -> str:
        return http_text(f"http://127.0.0.1:{self.metrics_port}/metrics")


@pytest.fixture(scope="module")
def server(ray_cluster: RayCluster, workdir: Path) -> Iterator[Server]:
    port, metrics_port = free_ports(2)
    daemon = Daemon(
        "orrery serve",
        [
            *ORRERY_SERVE,
            "--host=127.0.0.1",
            f"--port={port}",
            f"--metrics-port={metrics_port}",
            "--workers=2",  # one search actor per node: both nodes have one CPU
            f"--db={workdir / 'matches.sqlite3'}",
        ],
        workdir / "serve.log",
        child_env(RAY_ADDRESS=ray_cluster.address),
    ).start()
    try:
        banner = wait_for(
            "orrery serve's banner",
            lambda: re.search(r"orrery serving on (\S+):(\d+) \(metrics on :(\d+)\)", daemon.output()),
            SERVE_TIMEOUT_S,
            [daemon, ray_cluster.head, ray_cluster.worker],
        )
        assert (int(banner.group(2)), int(banner.group(3))) == (port, metrics_port)
        yield Server(daemon, port, metrics_port)
    finally:
        daemon.stop(grace_s=30)


@pytest.fixture(scope="module")
def stub(server: Server) -> Iterator[Any]:
    import grpc

    from orrery.v1 import orrery_pb2_grpc

    with grpc.insecure_channel(server.address) as channel:
        yield orrery_pb2_grpc.OrreryStub(channel)


def kuhn_request(*, seed: int, iterations: int | None = None, milliseconds: int | None = None) -> Any:
    """A stateless SuggestMove on a 2-player Kuhn position (the test game every build has)."""
    from orrery.core_ext import load_game
    from orrery.v1 import orrery_pb2

    state = load_game("kuhn", players=2).new_initial_state(seed)
    observation = state.observation(state.current_player)
    budget = (
        orrery_pb2.Budget(iterations=iterations)
        if iterations is not None
        else orrery_pb2.Budget(milliseconds=milliseconds)
    )
    request = orrery_pb2.SuggestMoveRequest(
        observation=orrery_pb2.ObservationInput(game="kuhn", observation_json=observation.to_json()),
        params=orrery_pb2.SearchParams(budget=budget, seed=seed),
    )
    return request, observation.legal_actions()


def health(server: Server, service: str) -> subprocess.CompletedProcess:
    """deploy/grpc_health_check.py: what the image's HEALTHCHECK and compose run."""
    return subprocess.run(
        [
            sys.executable,
            str(DEPLOY / "grpc_health_check.py"),
            f"--address={server.address}",
            f"--service={service}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(),
    )


def metric_value(exposition: str, name: str) -> float:
    """Sum of an unlabelled-or-labelled sample family's values in a /metrics text."""
    values = [float(m.group(1)) for m in re.finditer(rf"^{name}(?:{{[^}}]*}})? (\S+)$", exposition, re.M)]
    assert values, f"{name} not in the exposition"
    return sum(values)


# ---------------------------------------------------------------- the proofs


def test_service_on_a_two_node_cluster_uses_workers_on_both_nodes(
    ray_cluster: RayCluster, server: Server, stub: Any
) -> None:
    for service in ("", "orrery.v1.Orrery"):
        result = health(server, service)
        assert result.returncode == 0 and "SERVING" in result.stdout, result.stdout + result.stderr

    for seed in (1, 2, 3):
        request, legal = kuhn_request(seed=seed, iterations=2000)
        reply = stub.SuggestMove(request, timeout=120)
        assert reply.action.id in legal
        assert reply.stats.workers == 2, reply.stats
        assert reply.stats.iterations >= 2000

    actors = [a for a in ray_cluster.state("actors") if a["state"] == "ALIVE"]
    nodes = {n["node_id"] for n in ray_cluster.alive_nodes()}
    actor_nodes = {a["node_id"] for a in actors}
    assert len(nodes) == 2 and actor_nodes == nodes, (actors, nodes)


def prometheus_config_for(cluster: RayCluster, server: Server, prometheus_port: int) -> dict:
    """deploy/prometheus.yml with its compose host names pointed at this test's loopback ports."""
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = {
        "orrery:9464": f"127.0.0.1:{server.metrics_port}",
        "ray-head:8080": f"127.0.0.1:{cluster.head_metrics_port}",
        "localhost:9090": f"127.0.0.1:{prometheus_port}",
    }
    config["global"]["scrape_interval"] = config["global"]["evaluation_interval"] = "1s"
    for job in config["scrape_configs"]:
        for static in job.get("static_configs", []):
            static["targets"] = [targets[t] for t in static["targets"]]
        if "dns_sd_configs" in job:  # compose's DNS finds the scaled replicas; here there is one
            (dns,) = job.pop("dns_sd_configs")
            port = {"orrery": (9464, server.metrics_port), "ray-worker": (8080, cluster.worker_metrics_port)}
            assert dns["port"] == port[job["job_name"]][0]
            job["static_configs"] = [{"targets": [f"127.0.0.1:{port[job['job_name']][1]}"]}]
    return config


@pytest.mark.skipif(not (shutil.which("prometheus") and shutil.which("promtool")), reason=NO_PROMETHEUS)
def test_prometheus_scrapes_the_service_with_deploys_config(
    ray_cluster: RayCluster, server: Server, stub: Any, workdir: Path
) -> None:
    exposition = server.metrics()
    checked = subprocess.run(
        ["promtool", "check", "metrics"], input=exposition, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr

    # Every metric the dashboard asks for is one the running service really declares.
    declared = set(re.findall(r"^# TYPE (\S+) (\S+)$", exposition, re.M))
    series = {name for name, _ in declared}
    series |= {
        name + suffix
        for name, kind in declared
        if kind == "histogram"
        for suffix in ("_bucket", "_sum", "_count")
    }
    series |= {
        name + "_total" for name, kind in declared if kind == "counter"
    }  # prometheus_client's TYPE names
    for expr in dashboard_queries(json.loads(DASHBOARD.read_text())):
        assert metric_names_in(expr) <= series, f"{metric_names_in(expr) - series} not exported: {expr}"

    (port,) = free_ports(1)
    config_path = workdir / "prometheus.yml"
    config_path.write_text(yaml.safe_dump(prometheus_config_for(ray_cluster, server, port)))
    checked = subprocess.run(
        ["promtool", "check", "config", str(config_path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr

    prometheus = Daemon(
        "prometheus",
        [
            "prometheus",
            f"--config.file={config_path}",
            f"--storage.tsdb.path={workdir / 'prometheus-data'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--web.enable-lifecycle",
        ],
        workdir / "prometheus.log",
        child_env(),
    ).start()
    api = f"http://127.0.0.1:{port}/api/v1"

    def query(promql: str) -> list[dict]:
        reply = http_json(f"{api}/query?" + urllib.parse.urlencode({"query": promql}))
        assert reply["status"] == "success", reply
        return reply["data"]["result"]

    try:
        wait_for("Prometheus ready", lambda: http_text(f"http://127.0.0.1:{port}/-/ready"), 60, [prometheus])
        request, _ = kuhn_request(seed=11, iterations=500)
        stub.SuggestMove(request, timeout=120)
        histogram = wait_for(
            "the SuggestMove latency histogram in Prometheus",
            lambda: query('grpc_server_handling_seconds_bucket{job="orrery",grpc_method="SuggestMove"}'),
            60,
            [prometheus, server.daemon],
        )
        buckets = {series["metric"]["le"] for series in histogram}
        assert "+Inf" in buckets and len(buckets) > 3
        assert all(series["metric"]["grpc_service"] == "orrery.v1.Orrery" for series in histogram)
        count = query('sum(grpc_server_handling_seconds_count{job="orrery",grpc_method="SuggestMove"})')
        assert float(count[0]["value"][1]) >= 1
        jobs = {job["job_name"] for job in yaml.safe_load(config_path.read_text())["scrape_configs"]}
        assert jobs == {"orrery", "ray-head", "ray-worker", "prometheus"}

        def jobs_up() -> set[str]:
            return {s["metric"]["job"] for s in query("up") if s["value"][1] == "1"}

        wait_for(
            "every scrape target (service, Ray head and worker) up",
            lambda: jobs_up() == jobs,
            60,
            [prometheus],
        )
    finally:
        prometheus.stop()


def suggest(cluster: RayCluster, server: Server, call: Callable[[], Any]) -> Any:
    """A SuggestMove reply; a failed call fails the test with the Ray actors' states and the server's log."""
    import grpc

    try:
        return call()
    except grpc.RpcError as error:
        try:
            actors = [(a["class_name"], a["state"], a["node_id"] or "-") for a in cluster.state("actors")]
        except OSError as unreachable:
            actors = [("Ray state API unreachable", str(unreachable), "")]
        pytest.fail(
            f"SuggestMove failed: {error.code().name} {error.details()}\n"
            f"Ray actors (class, state, node): {actors}\n{server.daemon.tail(80)}"
        )


def test_a_worker_node_killed_during_a_request(ray_cluster: RayCluster, server: Server, stub: Any) -> None:
    request, legal = kuhn_request(seed=21, milliseconds=8000)
    future = stub.SuggestMove.future(request, timeout=120)
    wait_for(
        "the search to start",
        lambda: metric_value(server.metrics(), "orrery_active_searches") >= 1,
        60,
        [server.daemon],
    )
    time.sleep(1.0)  # well inside the 8 s budget: both nodes are searching
    ray_cluster.worker.crash()
    reply = suggest(ray_cluster, server, lambda: future.result(timeout=150))
    assert reply.action.id in legal
    assert reply.stats.workers_lost >= 1, reply.stats

    # The cluster now has one CPU, busy with the surviving search actor: a later request must still
    # be answered while the lost worker's replacement cannot be scheduled.
    request, legal = kuhn_request(seed=22, iterations=1000)
    reply = suggest(ray_cluster, server, functools.partial(stub.SuggestMove, request, timeout=60))
    assert reply.action.id in legal
    assert reply.stats.workers >= 1
    assert metric_value(server.metrics(), "orrery_worker_losses_total") >= 1
    assert health(server, "orrery.v1.Orrery").returncode == 0


def test_requests_after_a_node_loss_are_served_by_the_survivors_alone(
    ray_cluster: RayCluster, server: Server, stub: Any
) -> None:
    """No worker dies during a request that starts after the loss, so none may be charged as lost
    and the survivors must spend the whole budget. (A replacement actor that waits for a CPU no
    node has must not hold the search up: while it did, each request waited the backend's slice
    grace, 30 s, and returned half its iterations.)"""
    assert not ray_cluster.worker.alive(), "runs after the node-kill test"
    request, legal = kuhn_request(seed=23, iterations=1000)
    reply = suggest(ray_cluster, server, functools.partial(stub.SuggestMove, request, timeout=60))
    assert reply.action.id in legal
    assert reply.stats.workers_lost == 0, reply.stats
    assert reply.stats.iterations >= 1000 and not reply.stats.cut_short, reply.stats


def test_a_replacement_worker_node_brings_searches_back_to_both_nodes(
    ray_cluster: RayCluster, server: Server, stub: Any, workdir: Path
) -> None:
    """What compose's restart policy and KubeRay do after a node loss: a new node joins, and the
    service's replacement search actor lands on it."""
    assert not ray_cluster.worker.alive(), "runs after the node-kill test"
    node_args = ray_node_args(str(workdir / "ray-worker-2"))
    ray_cluster.worker = worker_node(ray_cluster.gcs_port, node_args, workdir / "ray-worker-2.log").start()
    wait_for(
        "the new worker node",
        lambda: len(ray_cluster.alive_nodes()) == 2,
        STARTUP_TIMEOUT_S,
        [ray_cluster.head, ray_cluster.worker],
    )
    # The replacement actor starts once the node offers a CPU; searches take it in once it is warm.
    request, legal = kuhn_request(seed=31, iterations=1000)
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while True:
        reply = suggest(ray_cluster, server, functools.partial(stub.SuggestMove, request, timeout=120))
        assert reply.action.id in legal and reply.stats.workers_lost == 0, reply.stats
        if reply.stats.workers == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert reply.stats.workers == 2, reply.stats
