"""The databases the tests run on: SQLite, and PostgreSQL, the production database.

TEST_DATABASES (default `sqlite,postgresql`) names the backends that the database tests are
parametrised over. PostgreSQL is the server at TEST_POSTGRESQL_URL (a role that may create
databases) or else a throwaway cluster that the first test needing it starts with Debian's initdb,
listening on a unix socket in a temporary folder only, as the user postgres when run as root (the
server refuses root), and that is stopped when the run ends.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import psycopg
from psycopg import sql
from sqlalchemy import URL, create_engine, make_url
from sqlalchemy.pool import NullPool
from sqlmodel import SQLModel

import app.admin.tables  # noqa: F401  (the tables of the models, registered on SQLModel.metadata)
import app.catalog.tables  # noqa: F401
import app.catalog.throughput_tables  # noqa: F401
import app.scenarios.profiles  # noqa: F401
import app.scenarios.tables  # noqa: F401

BACKENDS = tuple((os.environ.get("TEST_DATABASES") or "sqlite,postgresql").split(","))
SERVER_SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
}
"""Throwaway data: durability traded for speed; enough connections for the concurrency tests."""
EMPTY_ALL_TABLES = sql.SQL(
    "".join(f'DELETE FROM "{table.name}";' for table in reversed(SQLModel.metadata.sorted_tables))
    + "SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S'"
)
"""Cheaper than TRUNCATE or a new copy for the few rows a test leaves; the ids start at 1 again."""


class PostgresServer:
    """Makes and drops databases on one server, each a copy of an empty one or of a template."""

    def __init__(self, url: URL) -> None:
        self.url = url
        self._names = itertools.count()
        self._schema_template: str | None = None
        self._given_back: list[str] = []

    def url_of(self, database: str) -> str:
        return self.url.set(database=database).render_as_string(hide_password=False)

    def create(self, template: str | None = None, name: str | None = None) -> str:
        """A new database (a copy of `template` if given); returns its name."""
        name = name or f"test_{os.getpid()}_{next(self._names)}"
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            statement += sql.SQL(" TEMPLATE {} STRATEGY WAL_LOG").format(sql.Identifier(template))
        self._run(statement)
        return name

    def schema_database(self) -> str:
        """A database with the schema of the models and no rows, ids starting at 1: one a test gave
        back, emptied, or else a new copy of the schema (each copy costs a few hundred milliseconds)."""
        if self._schema_template is None:
            self._schema_template = self.create(name=f"schema_{os.getpid()}")
            engine = create_engine(self.url_of(self._schema_template), poolclass=NullPool)
            SQLModel.metadata.create_all(engine)
            engine.dispose()
            atexit.register(self.drop, self._schema_template)
        if not self._given_back:
            return self.create(template=self._schema_template)
        name = self._given_back.pop()
        with psycopg.connect(self._conninfo(name), autocommit=True) as connection:
            connection.execute(EMPTY_ALL_TABLES)
        return name

    def give_back(self, name: str) -> None:
        """A database of `schema_database` that its test is done with."""
        self._given_back.append(name)

    def drop(self, name: str) -> None:
        self._run(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    def _run(self, statement: sql.Composable) -> None:
        with psycopg.connect(self._conninfo(), autocommit=True) as connection:
            connection.execute(statement)

    def _conninfo(self, database: str | None = None) -> str:
        url = self.url.set(drivername="postgresql")
        return url.set(database=database or url.database or "postgres").render_as_string(hide_password=False)


@cache
def postgres() -> PostgresServer:
    """The server of this test run, started on first use."""
    given = os.environ.get("TEST_POSTGRESQL_URL")
    if given:
        return PostgresServer(make_url(given).set(drivername="postgresql+psycopg"))
    return PostgresServer(_start_cluster())


def _start_cluster() -> URL:
    cluster = Cluster()
    cluster.start()
    atexit.register(cluster.remove)
    return cluster.url


class Cluster:
    """A throwaway server of Debian's PostgreSQL, made with initdb in a temporary folder, listening on
    a unix socket there only, run as the user postgres when the tests run as root (the server refuses
    root): started and stopped at will (a test may stop its own to see the app without it)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise RuntimeError(
                "PostgreSQL is not installed: run scripts/setup (Debian's postgresql), set TEST_POSTGRESQL_URL "
                "to a server, or TEST_DATABASES=sqlite to test on SQLite only"
            )
        self._bin = Path(found[-1]).parent
        self.home = Path(tempfile.mkdtemp(prefix="gpucost-postgres-"))
        self._as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as_owner:
            shutil.chown(self.home, "postgres")
        self._data = self.home / "data"
        self._run("initdb", "-D", self._data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "-N")
        self.url = URL.create("postgresql+psycopg", username="postgres", database="postgres",
                              query={"host": str(self.home)})  # fmt: skip

    def start(self) -> None:
        options = " ".join(f"-c {name}={value}" for name, value in SERVER_SETTINGS.items())
        self._run("pg_ctl", "-D", self._data, "-l", self.home / "server.log", "-w", "-o", f"-k {self.home} {options}",
                  "start")  # fmt: skip

    def stop(self) -> None:
        """As an operator stops it (`pg_ctl stop -m fast`): open connections are cut, and what was committed
        is written first (with synchronous_commit off, an immediate stop could lose the last commits)."""
        self._run("pg_ctl", "-D", self._data, "-m", "fast", "stop")

    def remove(self) -> None:
        subprocess.run([*self._as_owner, self._bin / "pg_ctl", "-D", self._data, "-m", "immediate", "stop"],
                       capture_output=True)  # fmt: skip
        shutil.rmtree(self.home, ignore_errors=True)

    def _run(self, program: str, *args: object) -> None:
        subprocess.run([*self._as_owner, self._bin / program, *args], check=True, capture_output=True)
