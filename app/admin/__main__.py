"""Server-side commands.

`python -m app.admin migrate`: bring the database to the newest schema and load the shipped
catalog and its updates, as every start does, one process at a time (run it before starting the
workers of a new release, so that none of them waits for it).
`python -m app.admin create-admin NAME`: the only way to make an admin (no default password); the
password is asked for twice, or read from standard input with --password-stdin.
`python -m app.admin load-catalog FILE`: load a JSON export into a database that has no catalog yet
(run it before the first start, which would otherwise load the shipped catalog).
`python -m app.admin refresh SOURCE [--apply]`: fetch a public price source and print what it would
change; with --apply, apply it as one catalog version (not if any row is malformed). SOURCE `ecb`
is the ECB's euro reference rate, which --apply saves as the EUR exchange rate.
"""

import argparse
import getpass
import json
import sys

import httpx
from sqlmodel import Session

from app.admin.accounts import create_admin
from app.catalog.changes import Change, StaleRecord
from app.catalog.imports import apply_import, load_catalog
from app.catalog.rate_changes import change_rate
from app.catalog.snapshot import catalogs_for
from app.catalog.tables import Provenance
from app.catalog.updates import bring_up_to_date
from app.platform.db import make_engine, migrate, session_factory
from app.platform.settings import settings
from app.refresh.ecb import read_ecb
from app.refresh.fetch import Fetcher, RefreshFailed
from app.refresh.sources import SOURCES, http_client, plan_refresh


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.admin")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="bring the schema to head and load the shipped catalog updates")
    create = commands.add_parser("create-admin", help="create an admin account")
    create.add_argument("username")
    create.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    load = commands.add_parser("load-catalog", help="load a JSON export into a database without a catalog")
    load.add_argument("file")
    refresh = commands.add_parser("refresh", help="refresh prices from a public source")
    refresh.add_argument("source", choices=[*sorted(SOURCES), "ecb"])
    refresh.add_argument("--apply", action="store_true", help="apply the prices as one catalog version")
    args = parser.parse_args(argv)

    if args.command == "migrate":
        bring_up_to_date(settings.database_url)
        print("The database is at the newest schema, with the shipped catalog and its updates.")
        return 0

    if args.command == "refresh":
        return _refresh(args.source, args.apply)

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


def _refresh(source: str, apply: bool) -> int:
    bring_up_to_date(settings.database_url)
    engine = make_engine(settings.database_url)
    with Session(engine) as session, http_client() as client:
        if source == "ecb":
            return _refresh_rate(session, client, apply)
        version = catalogs_for(engine).newest()
        try:
            plan = plan_refresh(session_factory(engine), version, source, client)
        except RefreshFailed as e:
            print(f"Nothing was changed: {e}.", file=sys.stderr)
            return 1
        print(f"{SOURCES[source].title}: {plan.rows} prices read, {len(plan.add)} new, {len(plan.change)} changed, "
              f"{plan.unchanged} unchanged, {len(plan.problems)} malformed.")  # fmt: skip
        for line in plan.left_out:
            print(f"  {line}")
        for where, reason in plan.problems:
            print(f"  {where}: {reason}", file=sys.stderr)
        if plan.problems:
            print("Nothing was changed: the source has malformed rows.", file=sys.stderr)
            return 1
        if not apply or not (plan.add or plan.change):
            print("Nothing applied." if apply else "Preview only: add --apply to apply it.")
            return 0
        try:
            applied = apply_import(session, plan, f"refresh from {SOURCES[source].title}", "command line")
        except (ValueError, StaleRecord) as e:
            print(f"Nothing was changed: {e}.", file=sys.stderr)
            return 1
    print(f"Applied as catalog version {applied}.")
    return 0


def _refresh_rate(session: Session, client: httpx.Client, apply: bool) -> int:
    try:
        found = read_ecb(Fetcher(client), settings.ecb_rates_url)
    except RefreshFailed as e:
        print(f"Nothing was changed: {e}.", file=sys.stderr)
        return 1
    print(f"ECB reference rate of {found.as_of}: 1 EUR = {found.usd_per_eur} USD.")
    if not apply:
        print("Preview only: add --apply to apply it.")
        return 0
    provenance = Provenance(source=found.url, as_of=found.as_of, source_kind="official", quote=found.quote)
    change = Change(f"ECB euro reference rate of {found.as_of}", "command line")
    version = change_rate(session, "EUR", found.usd_per_eur, provenance, change)
    print(f"Applied as catalog version {version}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
