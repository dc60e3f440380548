"""Static proofs for deploy/: the manifests parse and agree with each other, the dashboard asks only
for metrics the service contract names, and the image is built by the very command the CI runs.

Docker, Kubernetes and Grafana are not available here; what they would read is checked instead.
The live proofs (a Ray cluster, a node failure, a real Prometheus) are in test_deploy_live.py.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import tomllib
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "orrery.json"
KUBE = DEPLOY / "kubernetes"

# The metric names of the service contract (briefs/contracts.md), by type.
CONTRACT_METRICS = {
    "grpc_server_started_total": "counter",
    "grpc_server_handled_total": "counter",
    "grpc_server_handling_seconds": "histogram",
    "grpc_server_msg_received_total": "counter",
    "grpc_server_msg_sent_total": "counter",
    "orrery_search_iterations_total": "counter",
    "orrery_search_iterations_per_second": "histogram",
    "orrery_search_seconds": "histogram",
    "orrery_active_searches": "gauge",
    "orrery_queue_depth": "gauge",
    "orrery_live_workers": "gauge",
    "orrery_worker_losses_total": "counter",
    "orrery_matches_created_total": "counter",
    "orrery_matches_active": "gauge",
}
# Metrics the service adds beyond the contract, which the dashboard may also show; the test below checks
# that the server registers them (service/_metrics.py).
SERVICE_METRICS = {
    "orrery_ai_searched_decisions_total": "counter",
    "orrery_ai_carried_visits_total": "counter",
    "orrery_ai_kept_trees": "gauge",
    "orrery_ai_kept_tree_nodes": "gauge",
    "orrery_ai_kept_tree_evictions_total": "counter",
}
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")
METRIC_TOKEN = re.compile(r"\b((?:grpc_server|orrery)_[a-z0-9_]+)\b")


def exposed_series_names(metrics: dict[str, str]) -> set[str]:
    """Series names a scrape can return for these metric families (histograms have three)."""
    names: set[str] = set()
    for name, kind in metrics.items():
        if kind == "histogram":
            names.update(name + suffix for suffix in HISTOGRAM_SUFFIXES)
        else:
            names.add(name)
    return names


def dashboard_queries(dashboard: dict) -> list[str]:
    exprs: list[str] = []
    for panel in dashboard["panels"]:
        exprs.extend(target["expr"] for target in panel.get("targets", []))
    for variable in dashboard.get("templating", {}).get("list", []):
        query = variable.get("query")
        if variable.get("type") == "query":
            exprs.append(query["query"] if isinstance(query, dict) else query)
    return exprs


def metric_names_in(expr: str) -> set[str]:
    return set(METRIC_TOKEN.findall(expr))


def load_yaml_documents(path: Path) -> list:
    with path.open() as f:
        return [doc for doc in yaml.safe_load_all(f) if doc is not None]


def yaml_files() -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yml", ".yaml"))


# ---------------------------------------------------------------- every file parses


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_every_yaml_file_parses(path: Path) -> None:
    documents = load_yaml_documents(path)
    assert documents, f"{path} holds no YAML document"
    for document in documents:
        assert isinstance(document, dict), f"{path}: a document is not a mapping"


def test_there_is_yaml_for_each_part() -> None:
    names = {str(p.relative_to(DEPLOY)) for p in yaml_files()}
    for required in (
        "docker-compose.yml",
        "prometheus.yml",
        "grafana/provisioning/datasources/prometheus.yml",
        "grafana/provisioning/dashboards/orrery.yml",
        "kubernetes/raycluster.yaml",
        "kubernetes/orrery-deployment.yaml",
        "kubernetes/orrery-service.yaml",
        "kubernetes/orrery-configmap.yaml",
        "kubernetes/monitoring/servicemonitor.yaml",
    ):
        assert required in names


# ---------------------------------------------------------------- the Dockerfile


def dockerfile_stages() -> dict[str, list[tuple[str, str]]]:
    """Stage name -> [(INSTRUCTION, arguments)], with line continuations joined and comments dropped."""
    logical, current = [], ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):  # a comment inside a continued instruction
            continue
        if line.endswith("\\"):
            current += line[:-1].strip() + " "
            continue
        logical.append(current + line)
        current = ""
    stages: dict[str, list[tuple[str, str]]] = {"(global)": []}
    stage = "(global)"
    for line in logical:
        instruction, _, arguments = line.partition(" ")
        instruction = instruction.upper()
        if instruction == "FROM":
            parts = arguments.split()
            stage = parts[parts.index("AS") + 1] if "AS" in parts else parts[0]
            stages[stage] = []
        stages[stage].append((instruction, arguments.strip()))
    return stages


def dockerfile_arg(name: str) -> str:
    for instruction, arguments in dockerfile_stages()["(global)"]:
        if instruction == "ARG" and arguments.startswith(name + "="):
            return arguments.split("=", 1)[1]
    raise AssertionError(f"no global ARG {name}= in {DOCKERFILE}")


def ci_install_commands() -> list[str]:
    """The steps of .ci/run that set up and install the project: the '&&' chain before the checks
    (.ci/lint) and the test run."""
    for line in (ROOT / ".ci" / "run").read_text().splitlines():
        if "pip install" in line:
            steps = [step.strip() for step in line.split("&&")]
            return [step for step in steps if "pytest" not in step and "ci/lint" not in step]
    raise AssertionError(".ci/run has no pip install line")


def test_dockerfile_builds_with_the_ci_install_command() -> None:
    ci_steps = ci_install_commands()
    assert any("pip install" in step for step in ci_steps)
    build_runs = [args for instr, args in dockerfile_stages()["build"] if instr == "RUN"]
    chains = [[step.strip() for step in run.split("&&")] for run in build_runs]
    assert ci_steps in chains, (
        f"deploy/Dockerfile's build stage must RUN exactly the CI install {' && '.join(ci_steps)!r}; "
        f"its RUN lines are {build_runs}"
    )
    # ... on the whole repository, in the same folder it then ships.
    build = dockerfile_stages()["build"]
    assert ("COPY", ". .") in build
    workdir = next(args for instr, args in build if instr == "WORKDIR")
    assert any(
        instr == "COPY" and args.split() == ["--from=build", workdir, workdir]
        for instr, args in dockerfile_stages()["runtime"]
    )


def requirement_name(requirement: str) -> str:
    return canonicalize_name(Requirement(requirement).name)


def runtime_closure(requirements: list[str]) -> set[str]:
    """Every distribution the runtime dependencies pull in, read from the installed metadata."""
    seen: set[str] = set()
    pending = [Requirement(r) for r in requirements]
    while pending:
        requirement = pending.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:
            continue
        for line in requires:
            child = Requirement(line)
            wanted = [{"extra": extra} for extra in requirement.extras] or [{"extra": ""}]
            if child.marker is None or any(child.marker.evaluate(env) for env in wanted):
                pending.append(child)
    return seen


def test_docker_build_context_leaves_out_secrets_and_build_outputs() -> None:
    ignored = {
        line.strip()
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {"deploy/.env", ".git", ".venv", "build", "**/*.so", "**/*_pb2.py"} <= ignored
    assert ".env" in (DEPLOY / ".gitignore").read_text().split()


def test_dockerfile_drops_exactly_the_test_tools() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    test_extra = {requirement_name(r) for r in project["optional-dependencies"]["test"]}
    # The image keeps the postgresql extra (compose and Kubernetes keep hosted matches in PostgreSQL).
    kept = project["dependencies"] + project["optional-dependencies"]["postgresql"]
    tools = test_extra - runtime_closure(kept)  # e.g. pyyaml stays: Ray needs it
    assert "pytest" in tools and "pyyaml" not in tools
    uninstall = next(
        run for instr, run in dockerfile_stages()["build"] if instr == "RUN" and "pip uninstall" in run
    )
    words = shlex.split(uninstall.split("&&")[0])
    removed = {canonicalize_name(w) for w in words[words.index("uninstall") + 1 :] if not w.startswith("-")}
    assert removed == tools


def test_dockerfile_runtime_is_slim_non_root_with_grpc_health_check() -> None:
    stages = dockerfile_stages()
    assert list(stages) == ["(global)", "build", "runtime"]
    runtime = stages["runtime"]
    bases = {
        stage: steps[0][1].split()[0] for stage, steps in stages.items() if steps and stage != "(global)"
    }
    assert bases["build"] == bases["runtime"] == "python:${PYTHON_VERSION}-slim-bookworm"
    user = [args for instr, args in runtime if instr == "USER"]
    assert user and user[-1].split(":")[0] not in ("root", "0")
    entrypoint = json.loads(next(args for instr, args in runtime if instr == "ENTRYPOINT"))
    assert entrypoint == ["orrery", "serve"]
    healthcheck = next(args for instr, args in runtime if instr == "HEALTHCHECK")
    command = json.loads(healthcheck.split("CMD", 1)[1])
    assert command[:2] == ["python", "/opt/orrery/deploy/grpc_health_check.py"]
    assert (DEPLOY / "grpc_health_check.py").is_file()
    assert not any(instr == "RUN" and "apt-get install" in args for instr, args in runtime)


def test_pinned_python_and_ray_versions_match_the_project() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    python_version = dockerfile_arg("PYTHON_VERSION")
    assert Version(python_version + ".0") in SpecifierSet(pyproject["project"]["requires-python"])
    assert python_version == pyproject["tool"]["mypy"]["python_version"]
    ray_version = dockerfile_arg("RAY_VERSION")
    ray_requirement = next(r for r in pyproject["project"]["dependencies"] if r.startswith("ray"))
    assert Version(ray_version) in SpecifierSet(ray_requirement.split("]", 1)[1])
    # KubeRay must be told the Ray version the image carries.
    (raycluster,) = load_yaml_documents(KUBE / "raycluster.yaml")
    assert raycluster["spec"]["rayVersion"] == ray_version


# ---------------------------------------------------------------- docker-compose


def compose() -> dict:
    (document,) = load_yaml_documents(DEPLOY / "docker-compose.yml")
    return document


def test_compose_runs_ray_head_workers_service_prometheus_and_grafana() -> None:
    services = compose()["services"]
    assert {"ray-head", "ray-worker", "orrery", "prometheus", "grafana"} <= set(services)
    head, worker, orrery = services["ray-head"], services["ray-worker"], services["orrery"]
    assert head["entrypoint"][:3] == ["ray", "start", "--head"]
    assert "--port=6379" in head["entrypoint"]
    assert worker["entrypoint"][:2] == ["ray", "start"]
    assert "--address=ray-head:6379" in worker["entrypoint"]
    assert worker["deploy"]["replicas"] >= 1
    for name in ("ray-head", "ray-worker", "orrery"):  # every Ray node needs a real /dev/shm
        assert services[name]["shm_size"]
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (DEPLOY / services[name]["build"]["context"] / "deploy" / "Dockerfile").is_file()
    assert orrery["environment"]["RAY_ADDRESS"] == "ray-head:6379"
    for name in ("ray-head", "ray-worker", "orrery"):  # one Ray token on every node and the driver
        assert services[name]["environment"]["RAY_AUTH_MODE"] == "token"
        assert services[name]["environment"]["RAY_AUTH_TOKEN"].startswith("${RAY_AUTH_TOKEN:?")
    assert head["ports"] == ["127.0.0.1:8265:8265"]  # the dashboard runs jobs: this host only
    # The image's HEALTHCHECK asks the gRPC service; the Ray nodes must not inherit it.
    assert "test" in head["healthcheck"] and worker["healthcheck"] == {"disable": True}
    assert "healthcheck" not in orrery
    assert "exec orrery serve" in orrery["entrypoint"][2]


def test_compose_runs_two_replicas_on_postgresql_behind_the_gateway() -> None:
    services = compose()["services"]
    orrery, postgres, gateway = services["orrery"], services["postgres"], services["gateway"]
    assert orrery["deploy"]["replicas"] >= 2
    assert "ports" not in orrery  # replicas would collide on host ports: clients use the gateway
    # The URL and the password come from the environment, never argv (ps and /proc show argv to all).
    assert not [a for a in orrery["command"] if a.startswith("--db")]
    assert "PASSWORD" not in " ".join(orrery["command"]) + " ".join(orrery["entrypoint"])
    assert orrery["environment"]["ORRERY_DB"] == "postgresql://orrery@postgres:5432/orrery"
    assert orrery["environment"]["PGPASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert postgres["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert postgres["environment"]["POSTGRES_USER"] == "orrery" == postgres["environment"]["POSTGRES_DB"]
    assert orrery["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert "pg_isready" in postgres["healthcheck"]["test"]
    assert "--upstream=orrery:50051" in gateway["command"]  # STRICT_DNS: every replica's address
    assert {"8080:8080", "50051:8080"} <= set(gateway["ports"])


def shell_syntax_errors(script: str) -> str:
    result = subprocess.run(["sh", "-n", "-c", script], capture_output=True, text=True, timeout=30)
    return result.stderr if result.returncode else ""


def test_service_start_scripts_are_valid_shell() -> None:
    # Compose turns "$$" into "$" before the container's shell sees the script.
    compose_script = compose()["services"]["orrery"]["entrypoint"][2].replace("$$", "$")
    assert compose_script.startswith("ray start --address=")
    (container,) = kube_object("Deployment", "orrery")["spec"]["template"]["spec"]["containers"]
    for script in (compose_script, container["args"][0]):
        assert not shell_syntax_errors(script), script
    assert shell_syntax_errors("ray start && exec orrery serve (")  # the check itself can fail


def test_compose_mounts_files_that_exist() -> None:
    for name, service in compose()["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("."):
                assert (DEPLOY / source).exists(), f"{name} mounts missing {source}"


def test_prometheus_scrapes_the_service_and_ray() -> None:
    (config,) = load_yaml_documents(DEPLOY / "prometheus.yml")
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    targets = {
        job: [t for static in spec.get("static_configs", []) for t in static["targets"]]
        for job, spec in jobs.items()
    }
    # Compose's DNS finds every replica, on the contract's --metrics-port default.
    assert jobs["orrery"]["dns_sd_configs"][0]["names"] == ["orrery"]
    assert jobs["orrery"]["dns_sd_configs"][0]["port"] == 9464
    assert targets["ray-head"] == ["ray-head:8080"]
    assert jobs["ray-worker"]["dns_sd_configs"][0]["names"] == ["ray-worker"]
    services = compose()["services"]
    assert "9464" in services["orrery"]["expose"]
    assert "--metrics-export-port=8080" in services["ray-head"]["entrypoint"]
    assert "--metrics-export-port=8080" in services["ray-worker"]["entrypoint"]


@pytest.mark.skipif(
    shutil.which("promtool") is None, reason="promtool not installed (apt-get install prometheus)"
)
def test_promtool_accepts_the_prometheus_config() -> None:
    result = subprocess.run(
        ["promtool", "check", "config", str(DEPLOY / "prometheus.yml")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- Grafana


def test_grafana_provisioning_points_at_the_dashboard_and_data_source() -> None:
    (datasources,) = load_yaml_documents(DEPLOY / "grafana/provisioning/datasources/prometheus.yml")
    (source,) = datasources["datasources"]
    assert source["type"] == "prometheus" and source["url"] == "http://prometheus:9090"
    (providers,) = load_yaml_documents(DEPLOY / "grafana/provisioning/dashboards/orrery.yml")
    path = providers["providers"][0]["options"]["path"]
    mounts = dict(v.split(":")[:2][::-1] for v in compose()["services"]["grafana"]["volumes"])
    assert mounts[path] == "./grafana/dashboards"
    dashboard = json.loads(DASHBOARD.read_text())
    datasource_var = next(v for v in dashboard["templating"]["list"] if v["type"] == "datasource")
    assert datasource_var["current"]["value"] == source["uid"]


def test_dashboard_queries_name_only_contract_metrics() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    known = exposed_series_names({**CONTRACT_METRICS, **SERVICE_METRICS})
    exprs = dashboard_queries(dashboard)
    assert exprs
    for expr in exprs:
        names = metric_names_in(expr)
        assert names, f"query names no Orrery metric: {expr}"
        assert names <= known, f"unknown metric {names - known} in {expr}"
    # Counters are only read through rate()/increase(), histograms through their buckets.
    for expr in exprs:
        for name in metric_names_in(expr):
            if name.endswith("_total"):
                assert re.search(rf"(rate|increase)\({name}\b", expr), expr


def test_dashboard_shows_what_operators_need() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    by_title = {p["title"]: " ".join(t["expr"] for t in p["targets"]) for p in dashboard["panels"]}
    everything = " ".join(by_title.values())

    def panel_with(*needles: str) -> str:
        matches = [t for t, expr in by_title.items() if all(n in expr for n in needles)]
        assert matches, f"no panel queries {needles}"
        return matches[0]

    panel_with("rate(grpc_server_started_total")  # request rate
    panel_with("sum by (grpc_code)", "grpc_server_handled_total", 'grpc_code!="OK"')  # errors by code
    latency = by_title[panel_with("grpc_server_handling_seconds_bucket")]
    for quantile in ("0.5", "0.95", "0.99"):
        assert f"histogram_quantile({quantile}, sum by (le, grpc_method)" in latency
    panel_with("rate(orrery_search_iterations_total")  # iterations per second
    for gauge in ("orrery_active_searches", "orrery_queue_depth", "orrery_live_workers"):
        assert gauge in everything
    panel_with("rate(orrery_ai_searched_decisions_total", "sum by (tree)")  # hosted AI seats' tree reuse
    # the trees kept between their decisions, within the server's bound, and its evictions
    kept = ("orrery_ai_kept_trees", "orrery_ai_kept_tree_nodes", "rate(orrery_ai_kept_tree_evictions_total")
    panel_with(*kept)
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))


def test_the_metrics_beyond_the_contract_are_the_servers() -> None:
    from orrery.service._metrics import ServiceMetrics

    registry = ServiceMetrics(max_budget_s=1.0).registry
    registered = {m.name + ("_total" if m.type == "counter" else ""): m.type for m in registry.collect()}
    for name, kind in SERVICE_METRICS.items():
        assert registered.get(name) == kind, name


# ---------------------------------------------------------------- Kubernetes


def kube_documents() -> list[tuple[Path, dict]]:
    return [(path, doc) for path in sorted(KUBE.rglob("*.yaml")) for doc in load_yaml_documents(path)]


def kube_object(kind: str, name: str) -> dict:
    for _, doc in kube_documents():
        if doc.get("kind") == kind and doc["metadata"]["name"] == name:
            return doc
    raise AssertionError(f"no {kind} {name} in deploy/kubernetes")


def test_every_kubernetes_object_is_well_formed_and_listed() -> None:
    for path, doc in kube_documents():
        if doc["kind"] == "Kustomization":
            for resource in doc["resources"]:
                assert (path.parent / resource).is_file(), f"{path} lists missing {resource}"
            continue
        assert doc["apiVersion"] and doc["metadata"]["name"], path
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == "orrery", path
    (kustomization,) = load_yaml_documents(KUBE / "kustomization.yaml")
    top_level = {p.name for p in KUBE.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == top_level


CLUSTER_TOKEN = ("token", {"name": "orrery-ray-auth", "key": "auth_token"})


def ray_auth_env(container: dict) -> tuple[str, dict]:
    """(RAY_AUTH_MODE, the RAY_AUTH_TOKEN secret reference) of a container spec."""
    env = {e["name"]: e for e in container["env"]}
    return env["RAY_AUTH_MODE"]["value"], env["RAY_AUTH_TOKEN"]["valueFrom"]["secretKeyRef"]


def test_every_ray_container_has_the_cluster_token() -> None:
    spec = kube_object("RayCluster", "orrery-ray")["spec"]
    containers = [
        spec["autoscalerOptions"],
        spec["headGroupSpec"]["template"]["spec"]["containers"][0],
        *(group["template"]["spec"]["containers"][0] for group in spec["workerGroupSpecs"]),
    ]
    assert all(ray_auth_env(c) == CLUSTER_TOKEN for c in containers)


def test_raycluster_has_a_head_and_an_autoscaling_worker_group() -> None:
    cluster = kube_object("RayCluster", "orrery-ray")
    assert cluster["apiVersion"] == "ray.io/v1"
    spec = cluster["spec"]
    assert spec["enableInTreeAutoscaling"] is True
    (group,) = spec["workerGroupSpecs"]
    assert group["minReplicas"] <= group["replicas"] <= group["maxReplicas"]
    assert group["maxReplicas"] > group["minReplicas"]
    for template in (spec["headGroupSpec"]["template"], group["template"]):
        (container,) = template["spec"]["containers"]
        assert container["image"].split(":")[0] == "orrery"
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        shm = next(v for v in template["spec"]["volumes"] if v["name"] == mounts["/dev/shm"])
        assert shm["emptyDir"]["medium"] == "Memory"
    for params in (spec["headGroupSpec"]["rayStartParams"], group["rayStartParams"]):
        assert all(isinstance(value, str) for value in params.values())  # KubeRay wants strings


def test_orrery_deployment_probes_grpc_health_and_reads_its_config() -> None:
    deployment = kube_object("Deployment", "orrery")
    pod = deployment["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == 50051
    assert container["readinessProbe"]["grpc"]["service"] == "orrery.v1.Orrery"
    assert container["livenessProbe"]["grpc"]["service"] == ""
    config = kube_object("ConfigMap", "orrery-config")["data"]
    assert container["envFrom"] == [{"configMapRef": {"name": "orrery-config"}}]
    script = container["args"][0]
    env = {e["name"]: e for e in container["env"]}
    for variable in re.findall(r"\$([A-Z_]+)", script):
        assert variable in config or variable in env, f"{variable} used but not in the ConfigMap or env"
    cluster = kube_object("RayCluster", "orrery-ray")
    assert config["RAY_ADDRESS"].startswith(f"{cluster['metadata']['name']}-head-svc.orrery.")
    assert "exec orrery serve" in script
    # The service joins the Ray cluster as a node, so it needs the cluster's token.
    assert ray_auth_env(container) == CLUSTER_TOKEN
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    assert pod["metadata"]["annotations"]["prometheus.io/port"] == config["ORRERY_METRICS_PORT"]
    # Several replicas on one PostgreSQL, its URL from a Secret (never in the ConfigMap).
    assert deployment["spec"]["replicas"] > 1
    assert deployment["spec"]["strategy"]["type"] == "RollingUpdate"
    assert env["ORRERY_DB"]["valueFrom"]["secretKeyRef"] == {"name": "orrery-postgres", "key": "url"}
    assert env["PGPASSWORD"]["valueFrom"]["secretKeyRef"] == {
        "name": "orrery-postgres",
        "key": "password",
        "optional": True,
    }
    assert "--db" not in script and "ORRERY_DB" not in script  # serve reads it: not in argv
    assert "ORRERY_DB" not in config
    assert not [d for _, d in kube_documents() if d.get("kind") == "PersistentVolumeClaim"]


def test_services_and_monitors_select_the_pods() -> None:
    pod_labels = kube_object("Deployment", "orrery")["spec"]["template"]["metadata"]["labels"]
    for name in ("orrery", "orrery-headless"):
        service = kube_object("Service", name)
        assert service["spec"]["selector"].items() <= pod_labels.items()
        assert {"name": "grpc", "port": 50051, "targetPort": "grpc"}.items() <= service["spec"]["ports"][
            0
        ].items()
    assert kube_object("Service", "orrery-headless")["spec"]["clusterIP"] == "None"
    monitor = kube_object("ServiceMonitor", "orrery")
    service_labels = kube_object("Service", "orrery")["metadata"]["labels"]
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service_labels.items()
    assert monitor["spec"]["endpoints"][0]["port"] == "metrics"


def test_health_check_script_reports_unreachable_servers() -> None:
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "grpc_health_check.py"), "--address", "127.0.0.1:1", "--timeout", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "unreachable" in result.stderr
