import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from sqlmodel import Session, func, select

from app.admin.accounts import create_admin
from app.catalog.exports import export_catalog, export_offers_csv
from app.catalog.imports import apply_import, load_catalog, plan_import
from app.catalog.seed import load_seed
from app.catalog.tables import CatalogVersion, OfferVersion
from tests.factories import hand_checked_catalog
from tests.web.helpers import PASSWORD, csrf, html, signed_in_as

SKYPILOT = """InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,GpuInfo
gpu_1x_h100,H100,1,26,200,2.49,,us-east-1,
gpu_8x_h100,H100,8,208,1800,23.92,10.00,us-east-1,
cpu_only,,,8,32,0.20,,us-east-1,
gpu_2x_h100,H100,two,52,400,4.98,,us-east-1,
gpu_1x_x9,Z9000,1,26,200,9.99,,us-east-1,
gpu_1x_h100b,H100,1,26,200,,,us-east-1,
"""


def test_a_json_export_loaded_into_an_empty_database_is_the_same_catalog(session, new_database):
    load_seed(session)
    session.commit()
    exported = export_catalog(session, 1)
    with Session(new_database()) as other:
        assert load_catalog(other, exported) == 1
        assert export_catalog(other, 1) == exported
    assert len(exported["offers"]) == 853 and len(exported["providers"]) == 25


def test_a_setup_fee_goes_out_and_comes_back_in_json_and_csv_and_a_file_from_before_fees_still_imports(
    session, new_database
):
    """999 USD to set up the on-demand offer: the JSON export loads with it, a CSV row carries it as
    typed, and a CSV without the column (exported before fees were kept) reads as no fee."""
    hand_checked_catalog(session)
    offer = session.get(OfferVersion, 1)
    offer.setup_fee = Decimal("999.00")
    session.commit()
    exported = export_catalog(session, 1)
    with Session(new_database()) as other:
        load_catalog(other, exported)
        assert [o["setup_fee"] for o in export_catalog(other, 1)["offers"]] == ["999", None, None]
    row = next(csv.DictReader(io.StringIO(export_offers_csv(session, 1))))
    assert row["setup_fee"] == "999"
    before_fees = io.StringIO()
    writer = csv.DictWriter(before_fees, fieldnames=[f for f in row if f != "setup_fee"], extrasaction="ignore")
    writer.writeheader()
    writer.writerow(row | {"price": "2.75"})
    plan = plan_import(session, before_fees.getvalue(), 1)
    assert (plan.problems, [r.setup_fee for _, r in plan.change]) == ([], [None])


def test_loading_refuses_an_export_holding_a_control_character_and_says_where(session, new_database):
    """PostgreSQL would drop the NUL and keep the formula behind it, which SQLite keeps whole."""
    hand_checked_catalog(session)
    exported = export_catalog(session, 1)
    exported["providers"][1]["name"] = '\x00=HYPERLINK("http://evil.example","x")'
    with Session(new_database()) as other:
        with pytest.raises(ValueError, match=r"^providers\[1\]\.name may not hold control characters such as NUL$"):
            load_catalog(other, exported)
        assert other.exec(select(func.count()).select_from(CatalogVersion)).one() == 0


def test_loading_refuses_a_database_that_has_a_catalog(session):
    hand_checked_catalog(session)
    with pytest.raises(ValueError):
        load_catalog(session, export_catalog(session, 1))


def plan(session, text=SKYPILOT):
    return plan_import(session, text, 1, "cloud", "virtualized", "https://example.test/vms.csv", date(2026, 11, 25))


def test_skypilot_preview_lists_new_rows_and_every_malformed_line_with_its_reason(session):
    hand_checked_catalog(session)
    result = plan(session)
    assert [(r.product, r.billing, r.gpus_per_unit, r.price) for r in result.add] == [
        ("gpu_1x_h100", "on_demand", 1, Decimal("2.49")),
        ("gpu_8x_h100", "on_demand", 8, Decimal("23.92")),
        ("gpu_8x_h100", "spot", 8, Decimal("10.00")),
    ]
    assert result.problems == [
        (4, "no accelerator: not a GPU offer"),
        (5, "AcceleratorCount must be a whole number from 1 to 1,024"),
        (6, "unknown GPU model 'Z9000'"),
        (7, "Price is empty"),
    ]


def test_an_import_with_a_bad_row_cannot_be_applied_and_changes_nothing(client, session):
    """Through the admin page: the preview shows the problems and offers no way to apply."""
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    files = {"file": ("vms.csv", SKYPILOT.encode(), "text/csv")}
    data = {
        "csrf_token": csrf(client, "/admin/import"),
        "provider": "cloud",
        "tenancy": "virtualized",
        "source_url": "https://example.test/vms.csv",
        "as_of": "2026-11-25",
    }
    preview = html(client.post("/admin/import", data=data, files=files))
    assert "4 with a problem" in preview.get_text() and not preview.select("form[action$='/apply']")
    assert session.exec(select(func.count()).select_from(CatalogVersion)).one() == 1


def test_a_clean_import_applies_as_one_version_with_old_to_new_prices(client, session):
    """Our own export with the on-demand price raised 2.50 -> 2.75 and one new offer."""
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    exported = client.get("/admin/api/export.csv").text
    lines = exported.splitlines()
    changed = [line.replace(",2.5,USD,hour,", ",2.75,USD,hour,") for line in lines]
    added = changed[1].replace("us-east-1", "us-west-2")
    text = "\n".join([*changed, added]) + "\n"
    files = {"file": ("offers.csv", text.encode(), "text/csv")}
    preview = html(client.post("/admin/import", data={"csrf_token": csrf(client, "/admin/import")}, files=files))
    summary = " ".join(preview.select_one("h1 + p").get_text().split())
    assert summary == "4 rows read: 1 offers to add, 1 to change, 2 unchanged, 0 with a problem."
    assert preview.select_one("table tbody tr").get_text("|", strip=True).startswith("cloud:")
    apply_url = preview.select_one("form[action$='/apply']")["action"]
    response = client.post(
        apply_url, data={"csrf_token": csrf(client, "/admin/import"), "note": "new list"}, follow_redirects=False
    )
    assert response.status_code == 303
    assert session.exec(select(func.count()).select_from(CatalogVersion)).one() == 2
    current = session.exec(
        select(OfferVersion).where(OfferVersion.valid_to.is_(None), OfferVersion.price == Decimal("2.75"))
    ).all()
    assert len(current) == 2
    assert client.post(apply_url, data={"csrf_token": csrf(client, "/admin/import")}).status_code == 404


def test_an_import_is_refused_if_the_catalog_moved_since_its_preview(session):
    """Two previews of the same change: the first applies, the second finds its rows replaced and
    applies nothing."""
    hand_checked_catalog(session)
    lines = export_offers_csv(session, 1).splitlines()
    text = "\n".join([lines[0], lines[1].replace(",2.5,USD,hour,", ",9.99,USD,hour,")]) + "\n"
    first, second = plan_import(session, text, 1), plan_import(session, text, 1)
    assert len(first.change) == 1 and not first.problems
    apply_import(session, first, "first", "alice")
    with pytest.raises(ValueError, match="changed since the preview"):
        apply_import(session, second, "again", "bob")
    assert session.exec(select(func.count()).select_from(CatalogVersion)).one() == 2


def own_row(session, **changes):
    lines = export_offers_csv(session, 1).splitlines()
    header = lines[0].split(",")
    values = dict(zip(header, next(csv.reader([lines[1]])), strict=True)) | changes
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header)
    writer.writeheader()
    writer.writerow(values)
    return out.getvalue()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        (
            {"provider": "metal"},
            "key does not match provider:product:gpu:region:billing (and the currency, if not USD)",
        ),
        ({"price": "1e999999"}, "price must be at most 10,000,000 with 8 decimal places at most"),
        ({"price": "abc"}, "price must be a number, e.g. 2.49"),
        ({"price": "2.123456789"}, "price must be at most 10,000,000 with 8 decimal places at most"),
        ({"as_of": "2099-01-01"}, "as_of cannot be in the future"),
        ({"gpus_per_unit": "99999999999999999999999"}, "gpus_per_unit must be a whole number from 1 to 1,024"),
        ({"min_commitment_months": "-5"}, "min_commitment_months must be a whole number from 0 to 120"),
        ({"setup_fee": "-1"}, "setup_fee must be a price of 0 or more"),
        (
            {"region_country": "<b>x</b>"},
            "region_country must be a two-letter ISO country code, e.g. DE, or empty if not known",
        ),
        ({"notes": '=HYPERLINK("http://evil.example","x")'}, "notes may not start with =, +, - or @"),
        ({"notes": ' =HYPERLINK("http://evil.example","x")'}, "notes may not start with =, +, - or @"),
        ({"gpus_per_unit": "1e1"}, "gpus_per_unit must be a whole number from 1 to 1,024"),
        (
            {"source_url": "javascript:alert(1)"},
            "source_url must be the http(s) address of the page the price was read from",
        ),
    ],
)
def test_an_imported_row_is_checked_like_a_form_and_never_renames_an_offer(session, changes, reason):
    hand_checked_catalog(session)
    assert plan_import(session, own_row(session, **changes), 1).problems == [(2, reason)]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("gpu_1x_h100,H100,1,26,200,2.49,abc,us-east-1,", "SpotPrice must be a number, e.g. 2.49"),
        ("gpu_1x_h100,H100,inf,26,200,2.49,,us-east-1,", "AcceleratorCount must be a whole number from 1 to 1,024"),
        ("=cmd,H100,1,26,200,2.49,,us-east-1,", "InstanceType may not start with =, +, - or @"),
    ],
)
def test_odd_skypilot_rows_are_reported_not_crashed_on(session, line, reason):
    hand_checked_catalog(session)
    assert plan(session, SKYPILOT.splitlines()[0] + "\n" + line + "\n").problems == [(2, reason)]


def test_an_unreadable_csv_is_reported(session):
    hand_checked_catalog(session)
    huge = SKYPILOT.splitlines()[0] + "\n" + "x" * 200_000 + ",H100,1,1,1,1,,r,\n"
    assert plan(session, huge).problems[0][1].startswith("unreadable CSV")


def test_files_exported_before_prices_carried_a_currency_read_as_usd(session, new_database):
    """The CSV and JSON of an earlier export name `price_usd`, `setup_fee_usd` and `usd_per_gb`:
    every price in them is USD, so they import as USD offers and tiers."""
    hand_checked_catalog(session)
    earlier = {"price": "price_usd", "setup_fee": "setup_fee_usd", "per_gb": "usd_per_gb"}
    row = next(csv.DictReader(io.StringIO(export_offers_csv(session, 1))))
    old = {earlier.get(name, name): value for name, value in row.items() if name != "currency"}
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(old))
    writer.writeheader()
    writer.writerow(old | {"price_usd": "2.75"})
    plan = plan_import(session, text.getvalue(), 1)
    assert (plan.problems, [(r.price, r.currency) for _, r in plan.change]) == ([], [(Decimal("2.75"), "USD")])
    exported = export_catalog(session, 1)
    for offer in exported["offers"]:
        offer["price_usd"] = offer.pop("price")
        del offer["currency"]
    for provider in exported["providers"]:
        for tier in provider["egress_tiers"]:
            tier["usd_per_gb"] = tier.pop("per_gb")
    with Session(new_database()) as other:
        load_catalog(other, exported)
        assert export_catalog(other, 1)["offers"] == export_catalog(session, 1)["offers"]
        assert [p["egress_tiers"] for p in export_catalog(other, 1)["providers"]] == [
            p["egress_tiers"] for p in export_catalog(session, 1)["providers"]
        ]


def test_a_header_naming_a_price_twice_is_refused_rather_than_read_one_way(session):
    hand_checked_catalog(session)
    lines = export_offers_csv(session, 1).splitlines()
    text = "\n".join([lines[0] + ",price_usd", lines[1] + ",1"]) + "\n"
    plan = plan_import(session, text, 1)
    assert (plan.problems, plan.change, plan.add) == (
        [(1, "the header names both price_usd and price: keep one")],
        [],
        [],
    )
