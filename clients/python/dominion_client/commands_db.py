"""Database subcommands: ``dominion db copy`` (games from a SQLite file into PostgreSQL)."""
from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("db", help="the games database: copy every game into another one",
                       description="Work on a games database (what `dominion serve --db` "
                                   "names).")
    db_sub = p.add_subparsers(dest="db_command", metavar="DB_COMMAND")
    db_sub.required = True
    c = db_sub.add_parser(
        "copy", help="copy every game from a SQLite file into PostgreSQL (or another file)",
        description="Copy every game of a SQLite games file (games in progress, games over, "
                    "and games that cannot be served, exactly as stored) into another games "
                    "database, in one transaction, then read each back and compare it with "
                    "the original. Games already there and identical are left as they are, so "
                    "running it again changes nothing; a different game under the same id "
                    "refuses the copy and nothing is stored. No server may be using either "
                    "database. Both are brought to the current schema first.")
    c.add_argument("source", metavar="SOURCE", help="the SQLite file to copy from")
    c.add_argument("target", metavar="TARGET",
                   help="the database to copy into: postgresql://user@host:port/dbname "
                        "(password in the URL or in PGPASSWORD), or a SQLite file")
    c.set_defaults(run=run_copy)


def run_copy(args) -> int:
    from dominion_service.storage import (POSTGRES_SCHEMES, StorageError, copy_games,
                                          open_storage)
    source = target = None
    try:
        if args.source.startswith(POSTGRES_SCHEMES) or not Path(args.source).is_file():
            raise StorageError(f"{args.source}: no such SQLite file to copy from")
        source = open_storage(args.source)
        target = open_storage(args.target)
        report = copy_games(source, target)
    except StorageError as e:
        print(f"dominion db copy: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # the database failed during the copy (its transaction undone)
        print(f"dominion db copy: the copy failed ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    finally:
        for storage in (source, target):
            if storage is not None:
                storage.close()
    print(f"copied {report.copied} games from {source.path} to {target.path} "
          f"({report.already} were there already, identical); checked: all {report.games} "
          f"games ({report.answers} answers) read back identical")
    return 0
