"""The standard gRPC services beside orrery.v1.Orrery: health (Check, Watch, List) and server
reflection in both versions clients use, v1 (grpc.reflection.v1) and v1alpha.

grpcio-reflection ships only v1alpha. v1 is the same protocol under a new package name, with
byte-identical messages (grpc/reflection/v1/reflection.proto was copied from v1alpha field for
field), so the v1 descriptors are built here from the v1alpha ones with the package renamed, added to
the default pool (so reflection can describe them too), and served by the same servicer.
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer as AsyncReflectionServicer

REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"
REFLECTION_V1ALPHA = reflection.SERVICE_NAME
_V1_FILE = "grpc/reflection/v1/reflection.proto"


class HealthServicer(health.aio.HealthServicer):
    """grpc-health's asyncio servicer plus List (a snapshot of every service's status)."""

    async def List(
        self, request: health_pb2.HealthListRequest, context: Any
    ) -> health_pb2.HealthListResponse:
        statuses = {
            name: health_pb2.HealthCheckResponse(status=status)
            for name, status in sorted(self._server_status.items())
        }
        return health_pb2.HealthListResponse(statuses=statuses)


def _v1_file() -> Any:
    """The grpc.reflection.v1 file descriptor (added to the default pool once)."""
    pool = descriptor_pool.Default()
    try:
        return pool.FindFileByName(_V1_FILE)
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    old, new = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    proto.name = _V1_FILE
    proto.package = "grpc.reflection.v1"
    proto.ClearField("options")
    for message in proto.message_type:
        for field in message.field:
            if field.type_name.startswith(old):
                field.type_name = new + field.type_name[len(old) :]
    for service in proto.service:
        for method in service.method:
            method.input_type = new + method.input_type[len(old) :]
            method.output_type = new + method.output_type[len(old) :]
    return pool.Add(proto)


def reflection_v1_classes() -> tuple[type, type]:
    """(ServerReflectionRequest, ServerReflectionResponse) of grpc.reflection.v1, for clients."""
    _v1_file()
    pool = descriptor_pool.Default()
    request = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("grpc.reflection.v1.ServerReflectionRequest")
    )
    response = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("grpc.reflection.v1.ServerReflectionResponse")
    )
    return request, response


def enable_reflection(service_names: tuple[str, ...], server: Any) -> None:
    """Serve reflection v1 and v1alpha for `service_names` (both reflection services are added)."""
    _v1_file()
    names = (*service_names, REFLECTION_V1, REFLECTION_V1ALPHA)
    servicer = AsyncReflectionServicer(names)
    reflection.enable_server_reflection(names, server)  # v1alpha
    v1 = grpc.method_handlers_generic_handler(
        REFLECTION_V1,
        {
            "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                servicer.ServerReflectionInfo,
                request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
                response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
            )
        },
    )
    server.add_generic_rpc_handlers((v1,))
