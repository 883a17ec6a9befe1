"""Clients of the Dominion engine: the command line, and (over gRPC) a typed client library."""
