"""`python -m app.admin refresh --all`: every source in one run, each applied as a catalog version of
its own, a failing source changing nothing and named, each source's last success and failure kept
for the admin's refresh page, and one refresh at a time per database, across processes."""

import os
import re
import subprocess
import sys
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from sqlmodel import Session, create_engine

from app.admin.__main__ import main as admin_command
from app.admin.accounts import create_admin
from app.catalog.exports import current_offers
from app.platform.settings import ROOT, settings
from app.refresh import sources
from app.refresh.runs import EVERY_SOURCE, run_source
from app.refresh.status import record, statuses
from tests.refresh.conftest import (
    AZURE,
    ECB,
    GPUHUNT,
    LAMBDA_URL,
    OCI,
    RECORDED,
    answering,
    azure_routes,
    gpuhunt_routes,
    recorded,
)
from tests.web.helpers import PASSWORD, html, signed_in_as, versions

H100_US_EAST = "lambda:gpu_8x_h100_sxm5:H100:us-east-1:on_demand"
RECORDED_SOURCES = ["skypilot:lambda", "gpuhunt:lambda", "gpuhunt:oci", "azure", "oci", "ecb"]
"""The sources with a recorded answer under tests/refresh/recorded."""

HOLD_THE_LOCK = """
import os, sys
from app.platform.db import held_alone
with held_alone(os.environ["DATABASE_URL"], "refresh") as alone:
    print("holding" if alone else "not holding", flush=True)
    sys.stdin.read()
"""


def recorded_routes(lambdalabs_csv=None):
    return (
        {LAMBDA_URL: recorded("skypilot_lambda_vms.csv"), OCI: recorded("oci_products.json"),
         ECB: recorded("ecb_eurofxref_daily.xml")}
        | azure_routes() | gpuhunt_routes("lambdalabs", lambdalabs_csv) | gpuhunt_routes("oci")
    )  # fmt: skip


@pytest.fixture
def command_line(database_url, monkeypatch):
    """The command run in this process on its own database, its sources answered by `serve(routes)`."""
    monkeypatch.setattr(settings, "database_url", database_url)
    monkeypatch.setattr(settings, "azure_prices_url", AZURE)
    monkeypatch.setattr(settings, "oci_prices_url", OCI)

    def serve(routes):
        monkeypatch.setattr("app.admin.__main__.http_client", lambda: answering(routes))

    return serve


def database_now(url):
    with Session(create_engine(url)) as session:
        newest = versions(session)
        return newest, {row.key: row for _, row in current_offers(session, newest)}, statuses(session)


def test_every_recorded_source_is_applied_as_a_version_of_its_own(command_line, monkeypatch, capsys):
    """SkyPilot's Lambda file sets 8x H100 us-east-1 to 31.92, then gpuhunt's Lambda catalog, read
    against that new version, to 27.92 dated 2026-11-30: each source plans against the newest."""
    monkeypatch.setattr("app.refresh.runs.EVERY_SOURCE", RECORDED_SOURCES)
    command_line(recorded_routes())
    assert admin_command(["refresh", "--all", "--apply"]) == 0
    out = capsys.readouterr().out
    applied = [int(v) for v in re.findall(r"Applied as catalog version (\d+)\.", out)]
    newest, offers, known = database_now(settings.database_url)
    assert applied == sorted(set(applied)) and applied[-1] == newest and len(applied) >= 4
    assert "6 of 6 sources refreshed." in out
    h100 = offers[H100_US_EAST]
    assert (h100.price, h100.as_of, h100.source_url) == (
        Decimal("27.92"), date(2026, 11, 30), f"{GPUHUNT}/lambdalabs/20261130-412/catalog.zip"
    )  # fmt: skip
    assert sorted(known) == sorted(RECORDED_SOURCES)
    assert all(s.succeeded_at and s.failed_at is None for s in known.values())


def test_a_failing_source_changes_nothing_is_named_and_the_others_go_on(command_line, capsys):
    """Every source, only the recorded ones answered: the rest fail with the address that failed;
    gpuhunt's Lambda catalog holds a price of 1e9, so it is refused whole and SkyPilot's 31.92 stays."""
    bad = (RECORDED / "gpuhunt_lambdalabs.csv").read_text() + (
        "gpu_8x_h100_sxm5,us-west-1,1e9,208,1800.0,8,H100,80.0,False,,nvidia,,x86,{}\n"
    )
    command_line(recorded_routes(bad))
    assert admin_command(["refresh", "--all", "--apply"]) == 1
    out, err = capsys.readouterr()
    assert (
        f"skypilot:aws: Nothing was changed: {settings.skypilot_catalog_url}/catalogs/v8/aws/vms.csv answered HTTP 404."
        in err
    )  # noqa: E501
    assert "  line 9: price must be at most 10,000,000 with 8 decimal places at most" in err
    assert "gpuhunt:lambda: Nothing was changed: the source has rows with a problem." in err
    failed = re.search(r"(\d+) of (\d+) sources refreshed; failed: (.*)\.$", out.strip().splitlines()[-1])
    assert failed and int(failed[2]) == len(EVERY_SOURCE)
    assert {"skypilot:aws", "gpuhunt:lambda", "gpuhunt:aws"} <= set(failed[3].split(", "))
    assert "skypilot:lambda" not in failed[3].split(", ")
    _, offers, known = database_now(settings.database_url)
    assert offers[H100_US_EAST].price == Decimal("31.92")
    assert known["gpuhunt:lambda"].succeeded_at is None
    assert known["gpuhunt:lambda"].failure_note == "Nothing was changed: the source has rows with a problem."
    assert known["skypilot:lambda"].failed_at is None and known["skypilot:lambda"].succeeded_at


def test_a_preview_of_every_source_applies_and_records_nothing(command_line, monkeypatch, capsys):
    monkeypatch.setattr("app.refresh.runs.EVERY_SOURCE", RECORDED_SOURCES)
    command_line(recorded_routes())
    assert admin_command(["refresh", "--all"]) == 0
    assert "Applied" not in capsys.readouterr().out
    _, _, known = database_now(settings.database_url)
    assert known == {}


def test_a_source_failing_in_an_unforeseen_way_is_reported_not_raised(session, sources_catalog, monkeypatch):
    def broken(*_):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(sources.SOURCES, "gpuhunt:aws", replace(sources.SOURCES["gpuhunt:aws"], read=broken))
    outcome = run_source(session.get_bind(), answering({}), "gpuhunt:aws", apply=True)
    assert not outcome.ok
    assert outcome.refused == ["Nothing was changed: ZeroDivisionError: division by zero."]
    assert statuses(session)["gpuhunt:aws"].failure_note == outcome.refused[0]


def test_a_second_refresh_while_one_runs_says_so_and_changes_nothing(database_url):
    """Two processes on one database: while the first holds the refresh lock, the second refresh
    ends at once, saying why; once the first has ended, the lock is free again."""
    env = os.environ | {"DATABASE_URL": database_url}

    def holder():
        process = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK], env=env, cwd=ROOT, text=True,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
        assert process.stdout is not None
        return process, process.stdout.readline().strip()

    first, said = holder()
    try:
        assert said == "holding"
        second = subprocess.run([sys.executable, "-m", "app.admin", "refresh", "--all", "--apply"], env=env,
                                cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
    finally:
        first.communicate("")
    assert second.returncode == 75, "EX_TEMPFAIL: another holds the database, not a failure"
    assert second.stderr.strip() == "A refresh is already running on this database; this one changed nothing."
    third, said = holder()
    third.communicate("")
    assert said == "holding"


def test_the_refresh_page_shows_each_sources_last_success_and_failure(client, session, sources_catalog):
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    record(session, "skypilot:lambda", True, "Applied as catalog version 3.")
    record(session, "gpuhunt:aws", False, "Nothing was changed: https://example.test/version answered HTTP 404.")
    page = html(client.get("/admin/refresh"))
    rows = {tr.select_one("th code").get_text(): tr for tr in page.select("table.refresh-runs tbody tr")}
    assert set(rows) == set(EVERY_SOURCE)
    lambda_row, aws_row = rows["skypilot:lambda"], rows["gpuhunt:aws"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC: Applied as catalog version 3\.",
                        lambda_row.select_one("td.succeeded").get_text())  # fmt: skip
    assert lambda_row.select_one("td.failed").get_text() == "never"
    assert aws_row.select_one("td.succeeded").get_text() == "never"
    assert (
        aws_row.select_one("td.failed")
        .get_text()
        .endswith("UTC: Nothing was changed: https://example.test/version answered HTTP 404.")
    )
