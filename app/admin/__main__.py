"""`python -m app.admin create-admin NAME`: the only way to make an admin (no default password).

The password is asked for twice, or read from standard input with --password-stdin.
"""

import argparse
import getpass
import sys

from sqlmodel import Session

from app.admin.accounts import create_admin
from app.db import engine, migrate
from app.settings import settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.admin")
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-admin", help="create an admin account")
    create.add_argument("username")
    create.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    args = parser.parse_args(argv)

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != password:
            print("The passwords differ.", file=sys.stderr)
            return 1
    migrate(settings.database_url)
    with Session(engine) as session:
        try:
            create_admin(session, args.username, password)
        except ValueError as e:
            print(f"Not created: {e}.", file=sys.stderr)
            return 1
    print(f"Admin {args.username} created.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
