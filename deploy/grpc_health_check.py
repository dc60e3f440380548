"""Exit 0 when an Orrery server reports SERVING on the standard gRPC health service, else 1.

The image's HEALTHCHECK and docker-compose run this (grpc_health_probe is not in the image); Kubernetes
uses its built-in gRPC probes instead. Needs only grpcio and grpcio-health-checking, both runtime
dependencies of orrery.

    python deploy/grpc_health_check.py [--address HOST:PORT] [--service NAME] [--timeout SECONDS]

The address defaults to $ORRERY_HEALTH_ADDRESS, else 127.0.0.1:50051.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

DEFAULT_ADDRESS = "127.0.0.1:50051"
ORRERY_SERVICE = "orrery.v1.Orrery"


def check(address: str, service: str = ORRERY_SERVICE, timeout_s: float = 3.0) -> str:
    """The serving status name ("SERVING", "NOT_SERVING", ...); raises grpc.RpcError if unreachable."""
    with grpc.insecure_channel(address) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout_s
        )
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default=os.environ.get("ORRERY_HEALTH_ADDRESS", DEFAULT_ADDRESS))
    parser.add_argument("--service", default=ORRERY_SERVICE, help='"" asks about the whole server')
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds")
    args = parser.parse_args(argv)
    try:
        status = check(args.address, args.service, args.timeout)
    except grpc.RpcError as error:
        print(f"{args.address}: unreachable ({error.code().name})", file=sys.stderr)
        return 1
    print(f"{args.address} {args.service or '(server)'}: {status}")
    return 0 if status == "SERVING" else 1


if __name__ == "__main__":
    sys.exit(main())
