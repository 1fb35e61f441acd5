"""Price refresh from the admin page and the command line: preview first, one version on apply,
and a source that fails changes nothing."""

from decimal import Decimal

import httpx
import pytest
from sqlmodel import Session, create_engine

from app.admin.__main__ import main as admin_command
from app.admin.accounts import create_admin
from app.catalog.exports import current_offers
from app.catalog.rates import rates_at
from app.deps import public_sources
from app.main import app
from app.platform.settings import settings
from tests.refresh.conftest import LAMBDA_URL, answering, recorded
from tests.web.helpers import PASSWORD, csrf, html, signed_in_as, versions

H100_US_EAST = "lambda:gpu_8x_h100_sxm5:H100:us-east-1:on_demand"


@pytest.fixture
def signed_in(client, session, sources_catalog):
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    return client


def serve(answer):
    app.dependency_overrides[public_sources] = lambda: answering({LAMBDA_URL: answer})


def price_now(session, key):
    return {row.key: row.price for _, row in current_offers(session, versions(session))}[key]


def test_an_admin_previews_a_refresh_then_applies_it_as_one_version(signed_in, session):
    """The preview lists 8x H100 us-east-1 at 23.92 now and 31.92 new; nothing changes until applied."""
    serve(recorded("skypilot_lambda_vms.csv"))
    before = versions(session)
    preview = signed_in.post("/admin/refresh", data={"csrf_token": csrf(signed_in, "/admin/refresh"),
                                                     "source": "skypilot:lambda"})  # fmt: skip
    page = html(preview)
    assert preview.status_code == 200 and versions(session) == before
    assert "Refresh preview: SkyPilot catalog, lambda" in page.select_one("h1").get_text()
    row = next(tr for tr in page.select("tr") if H100_US_EAST in tr.get_text())
    assert [td.get_text() for td in row.select("td.num")] == ["23.92 USD / hour", "31.92 USD / hour"]
    assert "1 left out: GPU A6000 is not in the catalog" in page.select_one("ul.left-out").get_text()
    form = page.select_one("form[action$='/apply']")
    applied = signed_in.post(form["action"], data={"csrf_token": form.select_one("input[name=csrf_token]")["value"],
                                                   "note": form.select_one("#note")["value"]})  # fmt: skip
    assert applied.status_code == 200 and versions(session) == before + 1
    assert price_now(session, H100_US_EAST) == Decimal("31.92")


def test_a_source_that_fails_shows_why_and_changes_nothing(signed_in, session):
    serve(httpx.Response(502))
    before = versions(session)
    response = signed_in.post("/admin/refresh", data={"csrf_token": csrf(signed_in, "/admin/refresh"),
                                                      "source": "skypilot:lambda"})  # fmt: skip
    assert response.status_code == 502 and versions(session) == before
    assert html(response).select_one(".problem").get_text() == f"Nothing was changed: {LAMBDA_URL} answered HTTP 502."


def test_a_refresh_needs_the_forms_csrf_token(signed_in, session):
    serve(recorded("skypilot_lambda_vms.csv"))
    response = signed_in.post("/admin/refresh", data={"source": "skypilot:lambda"})
    assert response.status_code == 403


def test_the_command_line_previews_and_applies_with_apply(database_url, monkeypatch, capsys):
    """`python -m app.admin refresh skypilot:lambda` on the shipped catalog: Lambda's offers in the
    file are repriced; only --apply makes a version."""
    monkeypatch.setattr(settings, "database_url", database_url)
    monkeypatch.setattr(
        "app.admin.__main__.http_client", lambda: answering({LAMBDA_URL: recorded("skypilot_lambda_vms.csv")})
    )
    assert admin_command(["refresh", "skypilot:lambda"]) == 0
    assert "Preview only: add --apply to apply it." in capsys.readouterr().out
    assert admin_command(["refresh", "skypilot:lambda", "--apply"]) == 0
    out = capsys.readouterr().out
    with Session(create_engine(settings.database_url)) as session:
        newest = versions(session)
        rows = {row.key: row for _, row in current_offers(session, newest)}
    assert f"Applied as catalog version {newest}." in out
    assert (rows[H100_US_EAST].price, rows[H100_US_EAST].source_url) == (Decimal("31.92"), LAMBDA_URL)


def test_the_command_line_saves_the_ecb_rate_as_a_version_with_its_date(database_url, monkeypatch, capsys):
    ecb = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
    monkeypatch.setattr(settings, "database_url", database_url)
    monkeypatch.setattr("app.admin.__main__.http_client", lambda: answering({ecb: recorded("ecb_eurofxref_daily.xml")}))
    assert admin_command(["refresh", "ecb", "--apply"]) == 0
    assert "ECB reference rate of 2026-11-27: 1 EUR = 1.2500 USD." in capsys.readouterr().out
    with Session(create_engine(settings.database_url)) as session:
        rate = rates_at(session, versions(session))["EUR"]
    assert (rate.usd_per_unit, rate.as_of.isoformat(), rate.source) == (Decimal("1.25"), "2026-11-27", ecb)
