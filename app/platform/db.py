"""Making a database engine (the app makes its own at start) and its short sessions, and bringing
the schema up to date."""

import fcntl
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar, cast
from urllib.parse import quote

from alembic import command
from alembic.config import Config
from sqlalchemy import CursorResult, Engine, Result, event, make_url, text
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import NullPool, QueuePool
from sqlmodel import Session, create_engine

from app.platform.settings import ROOT

T = TypeVar("T")

ID_MAX = 2**31 - 1
"""The largest id or catalog version either database stores: their columns are 32-bit integers, and
PostgreSQL refuses a larger number in a query (an error, where SQLite finds no row)."""
MIGRATION_LOCK = zlib.crc32(b"gpucost migrate")
"""The PostgreSQL advisory lock that one migrating process holds at a time."""


CONNECT_TIMEOUT_S = 5
"""How long PostgreSQL's connect may take (libpq's connect_timeout, unless the URL sets one): a server
out of reach is a 503 after this, not a request held for the minutes a TCP connect may wait."""


class DatabaseMissing(RuntimeError):
    """A SQLite database file that was made at its path and is no longer there: an error that says so,
    never a new empty database in its place (which would start again from the shipped catalog and
    seem to have lost every saved scenario)."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"The SQLite database {path} is missing, though a database was made there before "
            f"({path}.migrate.lock says so). Put the file back (from a backup), or run "
            "`python -m app.admin migrate` to make a new, empty one there on purpose."
        )


class NoDatabaseDirectory(RuntimeError):
    """A SQLite database's path in a directory that is not there: nothing can be opened or made in it."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"There is no directory {os.path.dirname(path) or '.'} for the SQLite database {path}: make it, or "
            "set DATABASE_URL to where the database is, then run `python -m app.admin migrate`."
        )


def _lock_file(path: str, name: str) -> IO[str]:
    """`<database file>.<name>.lock`, opened to append (made if need be) beside the database."""
    try:
        return open(f"{path}.{name}.lock", "a")
    except FileNotFoundError:
        raise NoDatabaseDirectory(path) from None


def sqlite_file(url: str) -> str | None:
    """The absolute path of the SQLite database file at `url`; None for an in-memory one or another database."""
    if not url.startswith("sqlite"):
        return None
    path = make_url(url).database
    return None if not path or path == ":memory:" else os.path.abspath(path)


def make_engine(url: str, connections: int | None = None, wait_s: float = 30.0) -> Engine:
    """An engine on `url`. `connections`: the most it holds open at once, a checkout waiting `wait_s`
    for one to come free before SQLAlchemy's TimeoutError (the server sizes it to its threads, in
    app/main.py); None: SQLAlchemy's default of 5, and 10 more under load. It never makes a SQLite
    file (only a migration does): a file that is not there, or no longer the one it opened, is an
    OperationalError, which the app answers 503."""
    pool = {} if connections is None else {"pool_size": connections, "max_overflow": 0, "pool_timeout": wait_s}
    if not url.startswith("sqlite"):
        timeout = {} if "connect_timeout" in make_url(url).query else {"connect_timeout": CONNECT_TIMEOUT_S}
        engine = create_engine(url, pool_pre_ping=True, connect_args=timeout, **pool)
        event.listen(engine, "before_cursor_execute", _without_nul, retval=True)
        return engine
    path = sqlite_file(url)
    if path is None:
        engine = create_engine(url, connect_args={"check_same_thread": False}, **pool)
    else:
        engine = create_engine("sqlite://", creator=lambda: _open_existing(path), poolclass=QueuePool, **pool)
        event.listen(engine, "connect", lambda _connection, record: record.info.update(file=_identity(path)))
        event.listen(engine, "checkout", lambda _connection, record, _proxy: _still_there(path, record.info))

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine


def _open_existing(path: str) -> sqlite3.Connection:
    """The file at `path` opened to read and write, never made: sqlite3's `mode=rw`."""
    return sqlite3.connect(f"file:{quote(path)}?mode=rw", uri=True, check_same_thread=False)


def _identity(path: str) -> tuple[int, int] | None:
    """Which file is at `path` (its device and inode), None if none is."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _still_there(path: str, info: dict[str, Any]) -> None:
    """A pooled connection whose file was moved or deleted would go on reading it (an open file
    follows its inode): given up at checkout, so that the next connection finds no file, and a
    file put back at the path is opened afresh. One stat a checkout."""
    if _identity(path) != info.get("file"):
        raise DisconnectionError(f"the SQLite database {path} is not the file this connection opened")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions for one use of the database each: a route opens one (`with db() as session:`) for
    the reads and writes it needs and closes it before it quotes, renders or calls out, so that a
    connection is back in the pool while the request does the rest. What it read stays readable
    after a commit and after the session closes."""
    return sessionmaker(engine, class_=Session, expire_on_commit=False)


def in_a_session(db: sessionmaker[Session], work: Callable[..., T], *args: Any) -> T:
    """`work(session, *args)` in a session of its own, closed when it returns: one step of a request
    run in a thread, so that no session lives across the request's waits between its steps."""
    with db() as session:
        return work(session, *args)


def _without_nul(_connection: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> tuple[str, Any]:
    """PostgreSQL refuses text holding a NUL character, which no name, note or price needs: dropped
    here, in every statement's parameters, rather than failing the request (SQLite stores it)."""
    return statement, _strip_nul(parameters)


def _strip_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {key: _strip_nul(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_strip_nul(item) for item in value)
    return value


@contextmanager
def migration_lock(url: str, remake_lost: bool = False) -> Iterator[None]:
    """Held by one process at a time for each database, so that workers starting together on a new
    database migrate and seed it one after the other: the first does the work, the others find it
    done. PostgreSQL: an advisory lock, freed with its connection if the process dies; SQLite: an
    exclusive lock on `<database file>.migrate.lock` (an in-memory database has one process).

    On SQLite the lock file also keeps a line once a database was made at the path: a file missing
    where one was made is DatabaseMissing, not a new empty database, unless `remake_lost`
    (`python -m app.admin migrate`, which says so in its help)."""
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is None:
            yield
            return
        with _lock_file(path, "migrate") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            if not os.path.exists(path) and _made_here(lock_file) and not remake_lost:
                raise DatabaseMissing(path)
            yield
            if not _made_here(lock_file):
                lock_file.write(f"A database was made at {path}: a start without it refuses to make a new one.\n")
        return
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
    finally:
        engine.dispose()


def _made_here(lock_file: IO[str]) -> bool:
    """Whether a migration wrote its line in the lock file: a database was made at its path."""
    return os.fstat(lock_file.fileno()).st_size > 0


@contextmanager
def held_alone(url: str, name: str) -> Iterator[bool]:
    """Whether this process holds lock `name` on the database at `url` for the block, never waiting
    for it: True for the one process that got it, False for every other while it is held. As
    `migration_lock`: an advisory lock on PostgreSQL, freed with its connection if the process dies;
    on SQLite, `<database file>.<name>.lock`, freed with the file descriptor."""
    if url.startswith("sqlite"):
        path = make_url(url).database
        if not path or path == ":memory:":
            yield True
            return
        with _lock_file(path, name) as lock_file:
            try:
                fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
            except BlockingIOError:
                held = False
            yield held
        return
    key = zlib.crc32(f"gpucost {name}".encode())
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            held = bool(connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": key}).scalar())
            try:
                yield held
            finally:
                if held:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
    finally:
        engine.dispose()


def alembic_config(url: str) -> Config:
    """Alembic's configuration for the database at `url`, from any working directory."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))  # a URL-escaped password or socket path
    return config


def upgrade_schema(url: str) -> None:
    """Bring the schema to the newest Alembic revision; hold `migration_lock` around it. The one step
    that makes a SQLite file where there is none."""
    command.upgrade(alembic_config(url), "head")


def migrate(url: str) -> None:
    """Bring the schema to the newest Alembic revision, one process at a time (never remaking a lost
    SQLite file: see `migration_lock`)."""
    with migration_lock(url):
        upgrade_schema(url)


def rows_touched(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed: what tells a conditional change it lost a race."""
    return cast(CursorResult[Any], result).rowcount


def lock_record(session: Session, record: str) -> None:
    """Order concurrent changes to one record until the transaction ends. SQLite's write lock
    already orders every writing transaction; PostgreSQL's read-committed writers need this lock."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": zlib.crc32(record.encode())})


@contextmanager
def serialised(session: Session, *records: str) -> Iterator[None]:
    """A transaction of its own that concurrent ones naming any of `records` wait for, committed
    at the end (rolled back on an error): what a count that decides an insert needs, or parallel
    requests all pass the count before any has inserted. Whatever the session did before is
    committed first.

    SQLite: BEGIN IMMEDIATE, which takes the database's write lock before the count (pysqlite would
    begin only at the insert), waiting up to its busy timeout. PostgreSQL: an advisory lock per
    record, in the order given, so callers name them in one order (else two could wait on each other).
    """
    session.commit()
    try:
        if session.get_bind().dialect.name == "sqlite":
            session.execute(text("BEGIN IMMEDIATE"))
        else:
            for record in records:
                lock_record(session, record)
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
