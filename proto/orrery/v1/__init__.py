"""Code generated at build time from orrery.proto (orrery_pb2, orrery_pb2_grpc); never committed."""
