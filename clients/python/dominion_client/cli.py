"""The ``dominion`` command. Each group of subcommands lives in its own module and registers
itself here, so that the engine's commands and the network's commands grow independently."""
from __future__ import annotations

import argparse
import sys

from . import commands_db, commands_engine, commands_net

COMMAND_MODULES = [commands_engine, commands_net, commands_db]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dominion",
        description="A Dominion rules engine (base game and Intrigue, both editions, 2-6 "
                    "players): list cards, simulate bot games, serve games over gRPC, play.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
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
