"""A GPU model's price history as the catalog holds it: the 736 shipped points with their sources, read
as the docstring of shipped_history.py says, and every price the catalog set since, read off its offer
rows, dated by the offer's as-of date or else by its version's."""

import csv
import io
from collections import Counter
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlmodel import Session, select

from app.catalog.changes import change_offer_price, retire_offer
from app.catalog.exports import export_offers_csv
from app.catalog.history import HistoryFilters, gpu_with_most_points, in_force, price_points
from app.catalog.history_tables import PricePointRow
from app.catalog.imports import apply_import, plan_import
from app.catalog.seed import SEED_DIR
from app.catalog.shipped_history import HISTORY_FILE, as_published, point_fields
from app.catalog.tables import CatalogVersion
from app.costing.history import DateBasis, PriceBasis, PricePoint, SeriesKey, cheapest_points, series_of
from app.costing.terms import per_gpu_hour
from tests.databases import BACKENDS
from tests.factories import hand_checked_catalog, make_offer, make_provider, shipped_catalogs

with open(SEED_DIR / HISTORY_FILE, newline="") as f:
    HISTORY = list(csv.DictReader(f))


@pytest.fixture(scope="module", params=BACKENDS)
def shipped(request):
    with Session(shipped_catalogs(request.param).engine) as session:
        yield session


def test_the_736_shipped_points_keep_every_rows_source_date_quote_and_price(shipped):
    stored = shipped.exec(select(PricePointRow).order_by(PricePointRow.id)).all()
    assert len(stored) == len(HISTORY) == 736
    for row, point in zip(HISTORY, stored, strict=True):
        assert (point.source, str(point.day), point.quote, point.date_basis, point.basis_as_published) == (
            row["source"], row["date"], row["quote"], row["date_basis"], row["price_basis"]
        )  # fmt: skip
        assert point.per_gpu_hour == Decimal(row["price_per_gpu_hour_usd"]) and point.currency == "USD"


def test_each_row_is_read_as_a_tenancy_billing_kind_and_basis_as_the_module_states():
    """Of 736: 18 RunPod serverless rates per second, Oracle's 2 BM shapes bare metal, Prime Intellect's
    64 minima, Vast's 1 median and Nebius's 1 announced price apart; the other 650 are on-demand list prices
    of virtualized instances."""
    read = Counter((p["tenancy"], p["billing"], p["price_basis"]) for p in map(point_fields, HISTORY))
    assert read == {
        ("serverless", "per_second", PriceBasis.LIST): 18,
        ("bare_metal", "on_demand", PriceBasis.LIST): 2,
        ("virtualized", "on_demand", PriceBasis.AGGREGATOR_MINIMUM): 64,
        ("virtualized", "on_demand", PriceBasis.MARKETPLACE_MEDIAN): 1,
        ("virtualized", "on_demand", PriceBasis.ANNOUNCED): 1,
        ("virtualized", "on_demand", PriceBasis.LIST): 650,
    }


def test_an_aggregators_minimum_belongs_to_the_provider_it_lists_and_keeps_the_words():
    row = next(r for r in HISTORY if r["provider"] == "lambda (via Prime Intellect)")
    fields = point_fields(row)
    assert (fields["provider"], fields["price_basis"]) == ("lambda", PriceBasis.AGGREGATOR_MINIMUM)
    assert fields["basis_as_published"].startswith("aggregator: minimum per-GPU price")


def test_the_price_as_published_gives_back_the_rows_price_per_gpu_hour():
    """Per instance: GCP's a2-highgpu-8g 29.983776 an hour / 8 = 3.747972; RunPod's 0.00116 a second x 3600
    = 4.176. Every row, to the 4 decimal places the research rounds to at least."""
    assert as_published("instance hour 29.983776 / 8 GPUs; instance price", Decimal("3.747972")) == (
        Decimal("29.983776"), "hour", 8
    )  # fmt: skip
    assert as_published("$0.00116/s x 3600 (per-second rate as published; hourly derived)", Decimal("4.176")) == (
        Decimal("0.00116"), "second", 1
    )  # fmt: skip
    for row in HISTORY:
        fields = point_fields(row)
        worked = per_gpu_hour(fields["price"], fields["price_period"], fields["gpus_per_unit"])
        assert abs(worked - fields["per_gpu_hour"]) < Decimal("0.00005"), row


def test_aws_h100_drops_from_12_29_to_6_88_on_2025_06_05(shipped):
    """p5.48xlarge in us-east-1: 98.32 an instance-hour / 8 = 12.29 until 2025-06-04, 55.04 / 8 = 6.88 from
    2025-06-05, from a tracker of AWS's Price List API."""
    points = price_points(shipped, "H100", HistoryFilters(provider="aws"))
    by_day = {p.day: p for p in points if p.product == "p5.48xlarge"}
    before, after = by_day[date(2025, 6, 4)], by_day[date(2025, 6, 5)]
    assert (before.per_gpu_hour, before.price, after.per_gpu_hour, after.price) == (
        Decimal("12.29"), Decimal("98.32"), Decimal("6.88"), Decimal("55.04")
    )  # fmt: skip
    assert after.source == "amorton45/aws-gpu-price-tracker:gpu_prices.csv@b81b52d"
    (series,) = series_of(points)
    assert [(s.day, s.cheapest) for s in series.steps] == [
        (date(2025, 4, 23), Decimal("12.29")),
        (date(2025, 6, 5), Decimal("6.88")),
    ]


def test_h100_has_the_most_points(shipped):
    """H100: 215 shipped points and 209 from the shipped offers' rows, 424; A100, the runner-up: 326 shipped
    (GCP's monthly a2 series) and 77 from offers, 403."""
    assert gpu_with_most_points(shipped) == "H100"


def test_an_unknown_gpu_model_has_no_history(shipped):
    assert price_points(shipped, "H999") is None


def test_an_admin_price_change_today_adds_a_point_dated_today(session):
    """The on-demand offer of the hand-checked catalog, 2.50 as of 2026-11-01; changed to 2.75 today, as
    the admin's form does: a point of 2.75 dated today by its as-of date, set by the new version."""
    ids = hand_checked_catalog(session)
    new = change_offer_price(session, ids["on_demand"], Decimal("2.75"), "https://example.test/new", date.today(), "up")
    points = price_points(session, "H100", HistoryFilters(billing=["on_demand"]))
    assert [(p.day, p.per_gpu_hour, p.date_basis, p.catalog_version) for p in points] == [
        (date(2026, 11, 1), Decimal("2.50000000"), DateBasis.AS_OF, 1),
        (date.today(), Decimal("2.75000000"), DateBasis.AS_OF, new.valid_from),
    ]
    assert points[-1].source == "https://example.test/new"


def test_a_retired_offer_is_withdrawn_on_the_day_of_the_version_that_retired_it(session):
    """Retired today, the 2.50 offer leaves the on-demand series today: no provider is left."""
    ids = hand_checked_catalog(session)
    retire_offer(session, ids["on_demand"], "no longer offered")
    points = price_points(session, "H100", HistoryFilters(billing=["on_demand"]))
    today = datetime.now(UTC).date()
    assert [(p.day, p.withdrawn) for p in points] == [(date(2026, 11, 1), today)]
    (series,) = series_of(points)
    assert [(s.day, s.cheapest, s.providers) for s in series.steps] == [
        (date(2026, 11, 1), Decimal("2.5"), 1),
        (today, None, 0),
    ]


def test_an_imported_price_is_a_point_dated_by_its_as_of_date(session):
    """The on-demand offer exported, repriced to 2.40 as of 2026-11-20 and imported: a point of 2.40 on the
    20th after 2.50 on the 1st, set by the import's version, as a refresh's would be."""
    hand_checked_catalog(session)
    row = next(csv.DictReader(io.StringIO(export_offers_csv(session, 1))))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(row))
    writer.writeheader()
    writer.writerow(row | {"price": "2.40", "as_of": "2026-11-20"})
    version = apply_import(session, plan_import(session, out.getvalue(), 1), "new list", "alice")
    points = price_points(session, "H100", HistoryFilters(billing=["on_demand"]))
    assert [(p.day, p.per_gpu_hour, p.catalog_version) for p in points] == [
        (date(2026, 11, 1), Decimal("2.5"), 1),
        (date(2026, 11, 20), Decimal("2.4"), version),
    ]


def test_an_offer_without_an_as_of_date_is_undated_and_says_which_catalog_version_listed_it(session):
    """The catalog version's day is when the catalog recorded the price (the install day, for the shipped
    catalog), not a day the price held: the point has no day, and its date basis says so."""
    offer = make_offer(session, make_provider(session, "cloud"), "16", gpus_per_unit=8)
    offer.as_of = None
    session.add(offer)
    session.commit()
    made = session.get(CatalogVersion, offer.valid_from).created_at
    (point,) = price_points(session, "H100")
    assert (point.day, point.per_gpu_hour, point.date_basis) == (None, Decimal("2"), DateBasis.UNDATED)
    assert point.date_stated == f"no date; listed in catalog version {offer.valid_from} of {made:%Y-%m-%d}"


def test_a_monthly_and_a_per_second_price_per_gpu_hour(session):
    """The node: 1,250 a month / 730 hours = 1.71232877 a GPU-hour; serverless 0.001 a second x 3,600 = 3.6."""
    hand_checked_catalog(session)
    found = {p.billing: p.per_gpu_hour for p in price_points(session, "H100")}
    assert found == {"on_demand": Decimal("2.5"), "monthly": Decimal("1.71232877"), "per_second": Decimal("3.6")}


def _offer_point(day: str | None, price: str, version: int, basis: DateBasis) -> PricePoint:
    return PricePoint(
        gpu="H100", provider="gcp", product="a3-highgpu-8g", region="us-east4", tenancy="virtualized",
        billing="on_demand", day=date.fromisoformat(day) if day else None, per_gpu_hour=Decimal(price),
        price=Decimal(price), price_period="hour", gpus_per_unit=1, currency="USD", price_basis=PriceBasis.LIST,
        source="https://example.test", date_basis=basis, catalog_version=version,
    )  # fmt: skip


def test_an_undated_price_a_later_version_dates_is_no_point_and_an_undated_last_one_stays_undated():
    """Version 1 ships 5.38 undated; version 6 a dated copy of 11.07 as of 2026-07-30: the offer's price
    is 11.07 from July on, and the undated 5.38, of some unknown earlier day, is no point at all. A later
    version as of a later day stays. An undated last version (an edit without an as-of date) is the
    offer's price now, of no known day: kept, undated, after the dated ones."""
    undated = _offer_point(None, "5.38", 1, DateBasis.UNDATED)
    dated = _offer_point("2026-07-30", "11.07", 6, DateBasis.AS_OF)
    later = _offer_point("2026-12-10", "10.50", 9, DateBasis.AS_OF)
    assert in_force([undated, dated, later]) == [dated, later]
    assert in_force([dated, later]) == [dated, later]
    edited = _offer_point(None, "9.90", 12, DateBasis.UNDATED)
    assert in_force([undated, dated, edited]) == [dated, edited]


def test_no_undated_price_of_the_shipped_catalog_is_on_a_step_line(shipped):
    """H100's 427 points: 215 shipped, 101 offer rows with an as-of date (3 of them Lambda's clusters), and 111
    offer rows whose source gives none. Those 111 have no day (not the install's), so not one is on a step,
    sets a step's cheapest or dates one: each step's day is a dated point's. Virtualized on-demand list prices in USD
    end at Azure's first dated price on 2026-11-09, 14 providers, Hyperstack's 2.50 the cheapest; its 83
    undated prices are apart, CUDO Compute's 1.8214 the lowest."""
    points = price_points(shipped, "H100")
    undated = [p for p in points if p.day is None]
    assert (len(points), len(undated)) == (427, 111)
    assert {p.date_basis for p in undated} == {DateBasis.UNDATED}
    dated_days = {p.day for p in points if p.day is not None}
    for series in series_of(points):
        on_steps = [p for p in cheapest_points(points, series) if p is not None and p.day is None]
        assert len(on_steps) == 0 and {s.day for s in series.steps} <= dated_days
    on_demand = next(
        s for s in series_of(points) if s.key == SeriesKey("H100", "virtualized", "on_demand", "list", "USD")
    )
    last = on_demand.steps[-1]
    assert (last.day, last.cheapest, last.providers, last.entered) == (
        date(2026, 11, 9),
        Decimal("2.5"),
        14,
        ("azure",),
    )
    assert len(on_demand.undated) == 83
    assert (on_demand.undated[0].provider_name, on_demand.undated[0].per_gpu_hour) == (
        "CUDO Compute",
        Decimal("1.8214"),
    )
