"""Generated gRPC/protobuf code for package dominion.v1 (scripts/gen_protos.py; do not edit)."""
