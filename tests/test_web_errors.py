"""The web client's error handling without a browser: service/web/grpcweb.js turns the gateway's answers
(gRPC status headers, the gateway's JSON errors, plain-text errors, no answer at all) into GrpcError
with the right code, and service/web/errors.js turns each into a plain sentence. Runs the two ES
modules in Node.js with a stubbed fetch; skips without node."""

from __future__ import annotations

import json

import pytest
from web_node import run_web_script

SCRIPT = """
import { GrpcWebClient, GrpcError } from "./grpcweb.js";
import { explain } from "./errors.js";

const cases = JSON.parse(process.argv[1]);
const root = { lookupService: () => ({ methods: {} }) };
const method = { name: "GetObservation", resolvedRequestType: {
  fromObject: (o) => o, encode: () => ({ finish: () => new Uint8Array(0) }) } };
const out = {};
for (const [name, answer] of Object.entries(cases)) {
  globalThis.fetch = async () => {
    if (answer.network) throw new TypeError("Failed to fetch");
    return new Response(answer.body ?? "", { status: answer.status, headers: answer.headers ?? {} });
  };
  try {
    await new GrpcWebClient("", "orrery.v1.Orrery", root)._post(method, {}, {}, undefined);
    out[name] = { ok: true };
  } catch (err) {
    out[name] = { grpc: err instanceof GrpcError, code: err.code, network: err.network,
      details: err.details, sentence: explain(err) };
  }
}
out.other = { sentence: explain(new Error("boom")) };
console.log(JSON.stringify(out));
"""

CASES = {
    # Envoy's own gRPC-Web answer when the service is down.
    "server down": {
        "status": 200,
        "headers": {
            "grpc-status": "14",
            "grpc-message": "upstream connect error or disconnect/reset before headers",
        },
    },
    "gateway down": {"network": True},
    "json error": {
        "status": 404,
        "headers": {"content-type": "application/json"},
        "body": json.dumps({"code": 12, "message": "unknown method: /x", "details": []}),
    },
    "plain text 503": {"status": 503, "body": "upstream connect error or disconnect/reset before headers"},
    "not found": {"status": 200, "headers": {"grpc-status": "5", "grpc-message": "match_id: no match abc"}},
    "token": {"status": 200, "headers": {"grpc-status": "16", "grpc-message": "seat token missing"}},
    "too late": {
        "status": 200,
        "headers": {"grpc-status": "9", "grpc-message": "expected_move_number: 3 != 4"},
    },
    "invalid": {
        "status": 200,
        "headers": {"grpc-status": "3", "grpc-message": "action_id%3A 99 is not legal"},
    },
    "busy": {"status": 200, "headers": {"grpc-status": "8", "grpc-message": "queue full"}},
    "fine": {"status": 200, "headers": {"content-type": "application/grpc-web+proto"}},
}


@pytest.fixture(scope="module")
def answers() -> dict:
    return run_web_script(SCRIPT, CASES)  # type: ignore[no-any-return]


def test_the_gateway_and_the_service_being_down_read_as_sentences(answers) -> None:
    down = answers["server down"]
    assert down["code"] == 14 and not down["network"]
    assert down["sentence"].startswith("The game server is not answering: it may be stopped or restarting.")
    assert "upstream" not in down["sentence"]
    gone = answers["gateway down"]
    assert (
        gone["code"] == 14
        and gone["network"]
        and gone["sentence"].startswith("The game server cannot be reached.")
    )
    plain = answers["plain text 503"]
    assert plain["code"] == 14 and "upstream" not in plain["sentence"]


def test_the_gateways_json_errors_keep_their_code(answers) -> None:
    error = answers["json error"]
    assert error["grpc"] and error["code"] == 12 and error["details"] == "unknown method: /x"
    assert (
        error["sentence"] == "The server does not offer this call; it may be an older version than this page."
    )


def test_each_grpc_code_a_player_meets_has_its_sentence(answers) -> None:
    assert answers["not found"]["sentence"].startswith("This match no longer exists on the server")
    assert answers["token"]["sentence"].startswith("The server does not accept this browser's seat")
    assert answers["too late"]["sentence"].startswith("The match moved on before your move arrived")
    assert answers["invalid"]["sentence"] == "The server refused the request: action_id: 99 is not legal."
    assert answers["busy"]["sentence"].startswith("The game server is busy right now.")
    assert answers["other"]["sentence"].startswith("Something went wrong in this page.")
    assert answers["fine"] == {"ok": True}
