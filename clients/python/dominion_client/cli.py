"""The ``dominion`` command. Each group of subcommands lives in its own module and registers
itself here, so that the engine's commands and the network's commands grow independently."""
from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points

# gRPC's own log lines (a failed TLS handshake, five of them a second) say nothing a person can
# act on; the commands say what went wrong in one line. Set before gRPC is first imported.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

from . import commands_engine, commands_net, commands_plan

COMMAND_MODULES = [commands_engine, commands_net, commands_plan]
# What other installed packages add, by entry point: the service adds ``serve`` and ``db``
# ("dominion.commands") and the in-process server ``dominion play`` runs ("dominion.service").
COMMANDS_GROUP = "dominion.commands"
SERVICE_GROUP = "dominion.service"


def service_entry(name: str):
    """The object the installed service offers under ``name`` (entry point group
    `SERVICE_GROUP`), or None when no service is installed."""
    for entry in entry_points(group=SERVICE_GROUP, name=name):
        return entry.load()
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dominion",
        description="A Dominion rules engine (base game and Intrigue, both editions, 2-6 "
                    "players): list cards, simulate bot games, serve games over gRPC, play.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    for entry in sorted(entry_points(group=COMMANDS_GROUP), key=lambda e: e.name):
        entry.load()(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
