"""Server-side commands.

`python -m app.admin migrate`: bring the database to the newest schema and load the shipped
catalog and its updates, as every start does, one process at a time (run it before starting the
workers of a new release, so that none of them waits for it). It alone makes a new, empty SQLite
database where one was made before and is gone; a start, or any other command, refuses to.
`python -m app.admin create-admin NAME`: the only way to make an admin (no default password); the
password is asked for twice, or read from standard input with --password-stdin.
`python -m app.admin load-catalog FILE`: load a JSON export into a database that has no catalog yet
(run it before the first start, which would otherwise load the shipped catalog).
`python -m app.admin refresh SOURCE [--apply]`: fetch a public price source and print what it would
change; with --apply, apply it as one catalog version (not if any row is malformed). SOURCE `ecb`
is the ECB's euro reference rate, which --apply saves as the EUR exchange rate.
`python -m app.admin refresh --all [--apply]`: every source, each its own catalog version; one that
fails changes nothing and the others go on; the exit status is 1 if any failed. One refresh runs at
a time per database: another started meanwhile says so and does nothing (exit status 75, EX_TEMPFAIL,
so that a scheduler does not count it as a failure).

A SQLite database made before and gone (every command but `migrate`, which makes a new one), a
directory for it that is not there, or a database that does not answer: one line saying which and
what to run, and exit status 2, as for a command line that cannot run (no use trying again as it is).
"""

import argparse
import getpass
import json
import sys

from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.admin.accounts import create_admin
from app.catalog.imports import load_catalog
from app.catalog.updates import bring_up_to_date
from app.platform.db import DatabaseMissing, NoDatabaseDirectory, held_alone, make_engine, migrate
from app.platform.settings import settings
from app.refresh.runs import EVERY_SOURCE, Outcome, run_every_source, run_source
from app.refresh.sources import http_client

ALREADY_RUNNING = 75
"""EX_TEMPFAIL: another refresh holds the database; try again later (not a failure of this one)."""
NO_DATABASE = 2
"""The database is not there or does not answer: nothing was done, and nothing will be until it is."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.admin")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "migrate",
        help="bring the schema to head and load the shipped catalog updates (on SQLite, making a new "
        "empty database if the one made before is gone)",
    )
    create = commands.add_parser("create-admin", help="create an admin account")
    create.add_argument("username")
    create.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    load = commands.add_parser("load-catalog", help="load a JSON export into a database without a catalog")
    load.add_argument("file")
    refresh = commands.add_parser("refresh", help="refresh prices from a public source")
    refresh.add_argument("source", nargs="?", choices=sorted(EVERY_SOURCE))
    refresh.add_argument("--all", action="store_true", help="every source, each as its own catalog version")
    refresh.add_argument("--apply", action="store_true", help="apply the prices as one catalog version")
    args = parser.parse_args(argv)
    if args.command == "refresh" and (args.source is None) == (not args.all):
        parser.error("refresh takes one SOURCE or --all")
    try:
        return _run(args)
    except (DatabaseMissing, NoDatabaseDirectory) as e:
        print(f"python -m app.admin {args.command}: {e}", file=sys.stderr)
    except OperationalError as e:
        said = str(e.orig).strip().splitlines()[0] if e.orig else str(e)
        print(f"python -m app.admin {args.command}: the database did not answer ({said}).", file=sys.stderr)
    return NO_DATABASE


def _run(args: argparse.Namespace) -> int:
    if args.command == "migrate":
        bring_up_to_date(settings.database_url, remake_lost=True)
        print("The database is at the newest schema, with the shipped catalog and its updates.")
        return 0

    if args.command == "refresh":
        return _refresh(None if args.all else args.source, args.apply)

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


def _refresh(source: str | None, apply: bool) -> int:
    """`source`, or every source where None, while no other refresh runs on this database."""
    with held_alone(settings.database_url, "refresh") as alone:
        if not alone:
            print("A refresh is already running on this database; this one changed nothing.", file=sys.stderr)
            return ALREADY_RUNNING
        bring_up_to_date(settings.database_url)
        engine = make_engine(settings.database_url)
        with http_client() as client:
            if source is not None:
                return 0 if _said(run_source(engine, client, source, apply)) else 1
            outcomes = [_said(outcome) for outcome in run_every_source(engine, client, apply)]
    failed = [outcome.source for outcome in outcomes if not outcome.ok]
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} sources refreshed"
          + (f"; failed: {', '.join(failed)}." if failed else "."))  # fmt: skip
    return 1 if failed else 0


def _said(outcome: Outcome) -> Outcome:
    for line in outcome.said:
        print(line)
    for line in outcome.refused:
        print(line if line.startswith("  ") else f"{outcome.source}: {line}", file=sys.stderr)
    return outcome


if __name__ == "__main__":
    sys.exit(main())
