"""Envoy in front of the service (`orrery gateway`): its config, then gRPC-Web and JSON calls made with
a plain HTTP client against real `orrery serve` and Envoy processes."""

from __future__ import annotations

import json
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from gateway_helpers import envoy_available, grpc_web_call, grpc_web_frames, post_json, running_gateway

from orrery.service._gateway import GatewayConfig, envoy_binary, render_config, web_files, write_config
from orrery.v1 import orrery_pb2 as pb

NO_ENVOY = envoy_available()
needs_envoy = pytest.mark.skipif(NO_ENVOY is not None, reason=f"no Envoy: {NO_ENVOY}")
TOKEN = "x-orrery-seat-token"


def test_config_routes_every_web_file_and_the_api() -> None:
    config = render_config(
        GatewayConfig(port=9999, upstream="orrery:50051", cors_origins=("https://a\\.example",))
    )
    listener = config["static_resources"]["listeners"][0]
    assert listener["address"]["socket_address"] == {"address": "127.0.0.1", "port_value": 9999}
    hcm = listener["filter_chains"][0]["filters"][0]["typed_config"]
    vhost = hcm["route_config"]["virtual_hosts"][0]
    paths = {r["match"].get("path") or r["match"].get("prefix") for r in vhost["routes"]}
    assert {"/orrery.v1.Orrery/", "/", "/index.html", "/app.js", "/grpcweb.js", "/orrery.proto"} <= paths
    assert set(web_files()) <= paths
    filters = [f["name"] for f in hcm["http_filters"]]
    assert filters[-1] == "envoy.filters.http.router"
    assert {
        "envoy.filters.http.grpc_web",
        "envoy.filters.http.cors",
        "envoy.filters.http.grpc_json_transcoder",
    } < set(filters)
    cors = vhost["typed_per_filter_config"]["envoy.filters.http.cors"]
    assert cors["allow_origin_string_match"] == [{"safe_regex": {"regex": "https://a\\.example"}}]
    assert TOKEN in cors["allow_headers"] and "grpc-status" in cors["expose_headers"]
    # The first route refuses preflights from every origin but the allowed ones; the last is a plain 404.
    refused = vhost["routes"][0]["match"]["headers"]
    assert refused[0]["string_match"] == {"exact": "OPTIONS"}
    assert refused[1] == {
        "name": "origin",
        "string_match": {"safe_regex": {"regex": "(?:https://a\\.example)"}},
        "invert_match": True,
        "treat_missing_header_as_empty": True,
    }
    assert vhost["routes"][-1]["direct_response"]["status"] == 404
    endpoint = config["static_resources"]["clusters"][0]["load_assignment"]["endpoints"][0]["lb_endpoints"][0]
    assert endpoint["endpoint"]["address"]["socket_address"] == {"address": "orrery", "port_value": 50051}


def test_descriptor_set_is_built_and_not_committed() -> None:
    from orrery.service._gateway import descriptor_path

    path = descriptor_path()
    assert path.is_file(), "setup.py generates orrery/v1/orrery.pb at install time"
    from google.protobuf import descriptor_pb2

    files = descriptor_pb2.FileDescriptorSet.FromString(path.read_bytes()).file
    assert "orrery.v1.Orrery" in {f"{f.package}.{s.name}" for f in files for s in f.service}
    tracked = subprocess.run(
        ["git", "ls-files", "*.pb"], capture_output=True, text=True, cwd=Path(__file__).parents[1]
    )
    assert tracked.stdout.strip() == ""


@needs_envoy
def test_envoy_accepts_the_rendered_config() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_config(GatewayConfig(), folder)
        result = subprocess.run(
            [envoy_binary(), "--mode", "validate", "-c", str(path), "--disable-hot-restart"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


# ---------------------------------------------------------------- live: orrery serve + Envoy


@pytest.fixture(scope="module")
def gateway():  # type: ignore[no-untyped-def]
    if NO_ENVOY:
        pytest.skip(f"no Envoy: {NO_ENVOY}")
    from orrery.service._spawn import running_server

    with tempfile.TemporaryDirectory() as folder:
        args = ["--backend", "in-process", "--workers", "1", "--db", str(Path(folder) / "m.sqlite3")]
        with running_server(args, same_imports=True) as server, running_gateway(server.target) as base:
            yield base


def kuhn_match(base: str) -> tuple[str, str]:
    status, _, created = post_json(
        base,
        "CreateMatch",
        {"game": "kuhn", "players": 2, "seed": 5, "seats": [{"human": {}}, {"ai": {"level": "LEVEL_EASY"}}]},
    )
    assert status == 200, created
    return created["matchId"], created["seatTokens"][0]["token"]


@pytest.mark.slow
def test_json_transcoding_of_unary_calls(gateway: str) -> None:
    status, headers, games = post_json(gateway, "ListGames", {})
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert {"kuhn", "trian"} <= {g["name"] for g in games["games"]}
    match_id, token = kuhn_match(gateway)
    status, _, view = post_json(gateway, "GetObservation", {"matchId": match_id, "seat": 0}, {TOKEN: token})
    assert status == 200 and view["yourTurn"] is True
    assert view["svg"].startswith("<svg") and "Kuhn poker" in view["svg"]
    assert json.loads(view["observationJson"])["game"] == "kuhn"
    check = next(a for a in view["legalActions"] if a["label"] == "check")
    status, _, applied = post_json(
        gateway, "ApplyAction", {"matchId": match_id, "seat": 0, "actionId": check["id"]}, {TOKEN: token}
    )
    assert status == 200 and applied["moveNumber"] == 1
    status, _, version = post_json(gateway, "GetVersion", {})
    assert version["apiVersion"] == "orrery.v1"


@pytest.mark.slow
def test_json_errors_keep_the_grpc_status(gateway: str) -> None:
    match_id, _ = kuhn_match(gateway)
    status, headers, body = post_json(gateway, "GetObservation", {"matchId": match_id, "seat": 0})
    assert status == 401 and body["code"] == 16  # UNAUTHENTICATED: no seat token
    status, headers, body = post_json(gateway, "CreateMatch", {"game": "no-such-game", "players": 2})
    assert status == 400 and body["code"] == 3 and body["message"].startswith("game")


@pytest.mark.slow
def test_grpc_web_unary_and_server_streaming(gateway: str) -> None:
    headers, messages, trailers = grpc_web_call(gateway, "ListGames", pb.ListGamesRequest())
    assert headers["content-type"].startswith("application/grpc-web")
    assert trailers["grpc-status"] == "0"
    assert "trian" in {g.name for g in pb.ListGamesResponse.FromString(messages[0]).games}

    match_id, token = kuhn_match(gateway)
    auth = {TOKEN: token}
    # Analyze: a server stream of progress messages, then exactly one final message.
    query = pb.SuggestMoveRequest(
        match=pb.HostedSeat(match_id=match_id, seat=0),
        params=pb.SearchParams(budget=pb.Budget(iterations=400), top_k=3, seed=1),
    )
    _, messages, trailers = grpc_web_call(
        gateway, "Analyze", pb.AnalyzeRequest(query=query, progress_interval_ms=20), auth
    )
    updates = [pb.AnalyzeUpdate.FromString(m) for m in messages]
    assert (
        trailers["grpc-status"] == "0" and [u.final for u in updates].count(True) == 1 and updates[-1].final
    )
    assert 1 <= len(updates[-1].result.candidates) <= 3

    # Play the hand out (the AI answers), then WatchMatch replays every move and ends with END.
    while True:
        _, _, view = post_json(gateway, "GetObservation", {"matchId": match_id, "seat": 0}, auth)
        if view["gameOver"]:
            break
        if view["yourTurn"]:
            post_json(gateway, "ApplyAction", {"matchId": match_id, "seat": 0, "actionId": 1}, auth)
        else:  # the AI seat is thinking: wait for its move on the stream
            request = pb.WatchMatchRequest(match_id=match_id, seat=0, after_move=view["moveNumber"])
            _, messages, _ = _first_move(gateway, request, auth)
    request = pb.WatchMatchRequest(match_id=match_id, seat=0, after_move=0)
    _, messages, trailers = grpc_web_call(gateway, "WatchMatch", request, auth)
    events = [pb.MatchEvent.FromString(m) for m in messages]
    kinds = [e.kind for e in events]
    assert kinds[0] == pb.MATCH_EVENT_SYNC and kinds[-1] == pb.MATCH_EVENT_END
    moves = [e for e in events if e.kind == pb.MATCH_EVENT_MOVE]
    assert moves and any(e.by_ai for e in moves) and trailers["grpc-status"] == "0"

    # The finished match's replay, with one picture per position.
    _, messages, _ = grpc_web_call(gateway, "GetReplay", pb.GetReplayRequest(match_id=match_id, svg_seat=0))
    replay = pb.GetReplayResponse.FromString(messages[0])
    assert replay.initial_svg.startswith("<svg") and all(m.svg.startswith("<svg") for m in replay.moves)
    # A window of pictures: the position after move 1 only; the moves are all there, labels included.
    request = pb.GetReplayRequest(match_id=match_id, svg_seat=0, svg_from=1, svg_count=1)
    _, messages, _ = grpc_web_call(gateway, "GetReplay", request)
    window = pb.GetReplayResponse.FromString(messages[0])
    assert [m.action.label for m in window.moves] == [m.action.label for m in replay.moves]
    assert window.initial_svg == "" and [m.svg for m in window.moves] == [replay.moves[0].svg] + [""] * (
        len(replay.moves) - 1
    )
    # A window past the last position, or one without a seat, is refused with the field's name.
    past = {"matchId": match_id, "svgSeat": 0, "svgFrom": len(replay.moves) + 1}
    status, _, body = post_json(gateway, "GetReplay", past)
    assert status == 400 and body["message"].startswith("svg_from:"), body
    status, _, body = post_json(gateway, "GetReplay", {"matchId": match_id, "svgCount": 2})
    assert status == 400 and body["message"].startswith("svg_count:"), body


def _raw(
    base: str, path: str, *, method: str = "POST", data: bytes | None = None, headers: dict | None = None
):
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


@pytest.mark.slow
def test_errors_envoy_answers_itself_are_the_documented_json(gateway: str) -> None:
    as_json = {"content-type": "application/json"}
    api = "/orrery.v1.Orrery/"
    status, headers, body = _raw(gateway, api + "ListGames", data=b"{not json", headers=as_json)
    assert status == 400 and headers["content-type"] == "application/json"
    error = json.loads(body)
    assert error["code"] == 3 and error["details"] == []
    assert error["message"].startswith("the request body is not valid JSON: ")
    bad_level = {"game": "kuhn", "players": 2, "seats": [{"human": {}}, {"ai": {"level": "LEVEL_NOPE"}}]}
    status, _, error = post_json(gateway, "CreateMatch", bad_level)
    assert status == 400 and error["code"] == 3 and error["message"].startswith("seats[1].ai.level: ")
    assert '"LEVEL_NOPE"' in error["message"]
    status, _, error = post_json(gateway, "NoSuchMethod", {})
    assert status == 404 and error == {
        "code": 12,
        "message": f"unknown method: {api}NoSuchMethod is not an Orrery RPC (docs/api.md lists them)",
        "details": [],
    }
    status, headers, body = _raw(gateway, api + "ListGames", method="GET")
    assert status == 405 and headers["allow"] == "POST" and json.loads(body)["code"] == 12
    status, _, body = _raw(gateway, "/no-such-file.js", method="GET")
    assert status == 404 and body == b"not found\n"


@pytest.mark.slow
def test_grpc_web_text_with_whitespace_around_the_base64(gateway: str) -> None:
    import base64
    import struct

    payload = pb.ListGamesRequest().SerializeToString()
    text = base64.b64encode(struct.pack(">BI", 0, len(payload)) + payload)
    text_type = "application/grpc-web-text"
    headers = {"content-type": text_type, "accept": text_type, "x-grpc-web": "1"}
    answers = []
    for body in (text, text + b"\n", text + b" \r\n"):
        status, _, answer = _raw(gateway, "/orrery.v1.Orrery/ListGames", data=body, headers=headers)
        assert status == 200
        answers.append(answer)
    assert answers[0] == answers[1] == answers[2]
    # The answer is padded base64 blocks one after another: every 4 characters decode on their own.
    quads = [answers[0][i : i + 4] for i in range(0, len(answers[0]), 4)]
    messages, trailers = grpc_web_frames(b"".join(base64.b64decode(q) for q in quads))
    assert trailers["grpc-status"] == "0"
    assert "kuhn" in {g.name for g in pb.ListGamesResponse.FromString(messages[0]).games}


def _first_move(base: str, request: pb.WatchMatchRequest, auth: dict) -> tuple[dict, list[bytes], dict]:
    """Read a WatchMatch stream only until its first MOVE or END (the stream stays open otherwise)."""
    import struct

    payload = request.SerializeToString()
    http = urllib.request.Request(
        f"{base}/orrery.v1.Orrery/WatchMatch",
        data=struct.pack(">BI", 0, len(payload)) + payload,
        headers={"content-type": "application/grpc-web+proto", "x-grpc-web": "1", **auth},
        method="POST",
    )
    messages = []
    with urllib.request.urlopen(http, timeout=60) as r:
        while True:
            head = r.read(5)
            flag, length = struct.unpack(">BI", head)
            body = r.read(length)
            if flag & 0x80:
                break
            messages.append(body)
            if pb.MatchEvent.FromString(body).kind in (pb.MATCH_EVENT_MOVE, pb.MATCH_EVENT_END):
                break
        return dict(r.headers), messages, {}


@pytest.mark.slow
def test_cors_preflight_and_static_files(gateway: str) -> None:
    preflight = urllib.request.Request(
        f"{gateway}/orrery.v1.Orrery/ListGames",
        method="OPTIONS",
        headers={
            "origin": "http://localhost:5173",
            "access-control-request-method": "POST",
            "access-control-request-headers": f"content-type,x-grpc-web,{TOKEN}",
        },
    )
    with urllib.request.urlopen(preflight, timeout=30) as r:
        assert r.headers["access-control-allow-origin"] == "http://localhost:5173"
        assert TOKEN in r.headers["access-control-allow-headers"]
    foreign = urllib.request.Request(
        preflight.full_url,
        method="OPTIONS",
        headers={"origin": "https://elsewhere.example", "access-control-request-method": "POST"},
    )
    # Refused by the gateway itself (never passed on to the gRPC port), with the JSON error.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(foreign, timeout=30)
    assert refused.value.code == 403 and "access-control-allow-origin" not in refused.value.headers
    assert json.loads(refused.value.read())["message"].startswith("origin not allowed")
    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"), ("/orrery.proto", "text/plain")):
        with urllib.request.urlopen(gateway + path, timeout=30) as r:
            assert r.headers["content-type"].startswith(kind), path
            assert len(r.read()) > 100


def test_compose_and_kubernetes_run_the_gateway_in_front_of_the_service() -> None:
    import yaml

    deploy = Path(__file__).resolve().parents[1] / "deploy"
    compose = yaml.safe_load((deploy / "docker-compose.yml").read_text())["services"]["gateway"]
    assert compose["entrypoint"] == ["orrery", "gateway"] and "--upstream=orrery:50051" in compose["command"]
    assert "8080:8080" in compose["ports"]
    docs = list(yaml.safe_load_all((deploy / "kubernetes" / "orrery-gateway.yaml").read_text()))
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == ["orrery", "gateway"]
    assert "--upstream=orrery-headless.orrery.svc.cluster.local:50051" in container["args"]
    service = next(d for d in docs if d["kind"] == "Service")
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
