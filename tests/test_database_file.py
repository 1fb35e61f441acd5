"""A SQLite database file is made by a migration only: once where none was ever made, and again after
it is lost only when `python -m app.admin migrate` is asked to; an engine never makes one."""

import io
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app.admin.__main__ import NO_DATABASE
from app.admin.__main__ import main as admin_command
from app.catalog.updates import bring_up_to_date
from app.platform.db import DatabaseMissing, make_engine, migrate
from app.platform.settings import settings


def newest_revision(url: str) -> str:
    with make_engine(url).connect() as connection:
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()


def test_an_engine_on_a_path_with_no_file_makes_none(tmp_path: Path) -> None:
    path = tmp_path / "never.db"
    with pytest.raises(OperationalError, match="unable to open database file"):
        make_engine(f"sqlite:///{path}").connect()
    assert not path.exists()


def test_the_first_migration_at_a_path_makes_the_database(tmp_path: Path) -> None:
    """An empty lock file, as one once committed to the repository beside gpucost.db, is no sign of a database."""
    path = tmp_path / "first.db"
    Path(f"{path}.migrate.lock").touch()
    migrate(f"sqlite:///{path}")
    assert path.exists() and newest_revision(f"sqlite:///{path}")


def test_a_database_lost_after_it_was_made_is_missing_not_made_again(tmp_path: Path) -> None:
    path = tmp_path / "lost.db"
    migrate(f"sqlite:///{path}")
    path.unlink()
    with pytest.raises(DatabaseMissing, match="python -m app.admin migrate"):
        bring_up_to_date(f"sqlite:///{path}")
    with pytest.raises(DatabaseMissing):
        migrate(f"sqlite:///{path}")
    assert not path.exists()


def test_the_migrate_commands_step_makes_a_lost_database_again_on_purpose(tmp_path: Path) -> None:
    path = tmp_path / "lost.db"
    migrate(f"sqlite:///{path}")
    path.unlink()
    bring_up_to_date(f"sqlite:///{path}", remake_lost=True)
    assert newest_revision(f"sqlite:///{path}")


def test_a_pooled_connection_gives_up_a_file_moved_away_and_opens_the_one_put_back(tmp_path: Path) -> None:
    """An open connection would go on reading the moved file, so that requests would answer from a
    database that is no longer at its path; a file put back there is read again."""
    path, moved = tmp_path / "served.db", tmp_path / "moved.db"
    migrate(f"sqlite:///{path}")
    engine = make_engine(f"sqlite:///{path}", connections=1)
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    path.rename(moved)
    with pytest.raises(OperationalError), engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    assert not path.exists()
    moved.rename(path)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT 1")).scalar_one() == 1


@pytest.mark.parametrize(
    "command",
    [
        ["create-admin", "bob", "--password-stdin"],
        ["load-catalog", "export.json"],
        ["refresh", "ecb"],
        ["refresh", "--all"],
    ],
)
def test_an_admin_command_on_a_lost_database_says_so_in_one_line_and_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """No traceback and nothing done: the reason and `migrate` on one line, exit status 2 (not a refresh's
    1 for a source that failed, nor its 75 for one already running)."""
    path = tmp_path / "lost.db"
    migrate(f"sqlite:///{path}")
    path.unlink()
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{path}")
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    assert admin_command(command) == NO_DATABASE == 2
    said, err = capsys.readouterr()
    assert said == "" and err.count("\n") == 1
    assert err.startswith(f"python -m app.admin {command[0]}: The SQLite database {path} is missing, though")
    assert "run `python -m app.admin migrate` to make a new, empty one" in err
    assert not path.exists()


@pytest.mark.parametrize("command", [["migrate"], ["create-admin", "bob", "--password-stdin"]])
def test_an_admin_command_on_a_path_in_no_directory_says_which_directory_is_not_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = tmp_path / "not-made" / "gpucost.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{path}")
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    assert admin_command(command) == NO_DATABASE
    err = capsys.readouterr().err
    assert err == (
        f"python -m app.admin {command[0]}: There is no directory {path.parent} for the SQLite database {path}: "
        "make it, or set DATABASE_URL to where the database is, then run `python -m app.admin migrate`.\n"
    )
    assert not path.parent.exists()
