"""Server-side commands.

`python -m app.admin create-admin NAME`: the only way to make an admin (no default password); the
password is asked for twice, or read from standard input with --password-stdin.
`python -m app.admin load-catalog FILE`: load a JSON export into a database that has no catalog yet
(run it before the first start, which would otherwise load the shipped catalog).
"""

import argparse
import getpass
import json
import sys

from sqlmodel import Session

from app.admin.accounts import create_admin
from app.catalog.imports import load_catalog
from app.db import make_engine, migrate
from app.settings import settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.admin")
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-admin", help="create an admin account")
    create.add_argument("username")
    create.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    load = commands.add_parser("load-catalog", help="load a JSON export into a database without a catalog")
    load.add_argument("file")
    args = parser.parse_args(argv)

    if args.command == "load-catalog":
        migrate(settings.database_url)
        with open(args.file) as f, Session(make_engine(settings.database_url)) as session:
            try:
                version = load_catalog(session, json.load(f))
            except (ValueError, KeyError) as e:
                print(f"Not loaded: {e}", file=sys.stderr)
                return 1
        print(f"Loaded as catalog version {version}.")
        return 0

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != password:
            print("The passwords differ.", file=sys.stderr)
            return 1
    migrate(settings.database_url)
    with Session(make_engine(settings.database_url)) as session:
        try:
            create_admin(session, args.username, password)
        except ValueError as e:
            print(f"Not created: {e}.", file=sys.stderr)
            return 1
    print(f"Admin {args.username} created.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
