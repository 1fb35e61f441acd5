"""How prices moved, worked by hand: step series of dated points per tenancy, billing kind and basis."""

from dataclasses import replace
from datetime import date
from decimal import Decimal

from app.costing.history import (
    DateBasis,
    Move,
    PriceBasis,
    PricePoint,
    SeriesKey,
    cheapest_points,
    median,
    provider_line,
    series_of,
)

ON_DEMAND_LIST = SeriesKey("H100", "virtualized", "on_demand", PriceBasis.LIST, "USD")


def point(
    provider: str, day: str, price: str, billing: str = "on_demand", basis: PriceBasis = PriceBasis.LIST,
    product: str = "8x H100", tenancy: str = "virtualized",
) -> PricePoint:  # fmt: skip
    return PricePoint(
        gpu="H100", provider=provider, product=product, region="us-east-1", tenancy=tenancy, billing=billing,
        day=date.fromisoformat(day), per_gpu_hour=Decimal(price), price=Decimal(price), price_period="hour",
        gpus_per_unit=1, currency="USD", price_basis=basis, source=f"https://example.test/{provider}",
        date_basis=DateBasis.SOURCE,
    )  # fmt: skip


def steps(series) -> list[tuple[str, str, str, int]]:
    return [(str(s.day), str(s.cheapest), str(s.median), s.providers) for s in series.steps]


THREE_PROVIDERS = [
    point("a", "2025-01-01", "4.00"),
    point("b", "2025-02-01", "5.00", product="b1"),
    point("b", "2025-02-01", "6.00", product="b2"),
    point("a", "2025-03-01", "3.00"),
    point("c", "2025-03-01", "2.00"),
    point("c", "2025-04-01", "2.00"),
]


def test_three_providers_cheapest_median_and_count_at_each_step():
    """Jan: a alone at 4. Feb: a 4, b 5 (its cheaper product; b2's 6 is not b's price): cheapest 4,
    median (4 + 5) / 2 = 4.5, 2 providers. Mar: a drops to 3, c comes in at 2: {3, 5, 2}, cheapest 2,
    median 3, 3 providers. Apr: c confirms 2, nothing moves, so no step; tracking since Jan 1."""
    (series,) = series_of(THREE_PROVIDERS)
    assert series.key == ON_DEMAND_LIST
    assert steps(series) == [
        ("2025-01-01", "4.00", "4.00", 1),
        ("2025-02-01", "4.00", "4.50", 2),
        ("2025-03-01", "2.00", "3.00", 3),
    ]
    assert series.tracking_since == date(2025, 1, 1)


def test_a_price_holds_until_its_products_next_point_without_interpolation():
    """a: 4 on Jan 1, 2 on Mar 1; b's point on Feb 1 finds a still at 4 (not 3, halfway)."""
    (series,) = series_of([point("a", "2025-01-01", "4"), point("b", "2025-02-01", "9"), point("a", "2025-03-01", "2")])
    assert steps(series) == [("2025-01-01", "4", "4", 1), ("2025-02-01", "4", "6.5", 2), ("2025-03-01", "2", "5.5", 2)]


def test_a_providers_own_line_is_its_cheapest_product_from_each_day_it_changes():
    """b1 5 and b2 6 from Feb 1: b is at 5; b1 rises to 7 on May 1: b is at b2's 6."""
    points = [*THREE_PROVIDERS, point("b", "2025-05-01", "7.00", product="b1")]
    assert provider_line(points, ON_DEMAND_LIST, "b") == [
        (date(2025, 2, 1), Decimal("5.00")),
        (date(2025, 5, 1), Decimal("6.00")),
    ]


def test_spot_on_demand_and_committed_are_never_in_one_series():
    """Spot at 1 and committed at 2 are both below on demand's 4, and on demand's series never sees them."""
    points = [
        point("a", "2025-01-01", "4.00"),
        point("a", "2025-01-01", "1.00", billing="spot"),
        point("b", "2025-02-01", "2.00", billing="committed"),
        point("b", "2025-02-01", "5.00"),
    ]
    series = {s.key.billing: steps(s) for s in series_of(points)}
    assert series == {
        "committed": [("2025-02-01", "2.00", "2.00", 1)],
        "on_demand": [("2025-01-01", "4.00", "4.00", 1), ("2025-02-01", "4.00", "4.50", 2)],
        "spot": [("2025-01-01", "1.00", "1.00", 1)],
    }


def test_monthly_bare_metal_is_a_series_apart_from_hourly_virtualized():
    points = [point("a", "2025-01-01", "4.00"), point("m", "2025-01-01", "1.50", "monthly", tenancy="bare_metal")]
    assert [(s.key.tenancy, s.key.billing) for s in series_of(points)] == [
        ("bare_metal", "monthly"),
        ("virtualized", "on_demand"),
    ]


def test_an_aggregator_minimum_is_never_joined_to_a_list_price():
    """a lists 4; an aggregator finds a's configurations from 2 a week later. The list series and a's
    list line stay at 4; the minimum is a series of its own."""
    points = [point("a", "2025-01-01", "4.00"), point("a", "2025-01-08", "2.00", basis=PriceBasis.AGGREGATOR_MINIMUM)]
    by_basis = {s.key.price_basis: steps(s) for s in series_of(points)}
    assert by_basis == {
        PriceBasis.LIST: [("2025-01-01", "4.00", "4.00", 1)],
        PriceBasis.AGGREGATOR_MINIMUM: [("2025-01-08", "2.00", "2.00", 1)],
    }
    assert provider_line(points, ON_DEMAND_LIST, "a") == [(date(2025, 1, 1), Decimal("4.00"))]


def test_prices_in_another_currency_are_a_series_of_their_own():
    eur = PricePoint(**{**point("e", "2025-01-01", "3.00").__dict__, "currency": "EUR"})
    assert [s.key.currency for s in series_of([point("a", "2025-01-01", "4.00"), eur])] == ["EUR", "USD"]


def test_a_withdrawn_product_leaves_the_series_on_the_day_it_was_retired():
    """a 4 from Jan; b 3 from Feb, retired Mar 1: Feb cheapest 3, median 3.5, 2 providers; from Mar a
    alone at 4 again; a retired Apr 1: no provider left, no price."""
    a = PricePoint(**{**point("a", "2025-01-01", "4").__dict__, "withdrawn": date(2025, 4, 1)})
    b = PricePoint(**{**point("b", "2025-02-01", "3").__dict__, "withdrawn": date(2025, 3, 1)})
    (series,) = series_of([a, b])
    assert [(str(s.day), s.cheapest, s.median, s.providers) for s in series.steps] == [
        ("2025-01-01", 4, 4, 1),
        ("2025-02-01", 3, Decimal("3.5"), 2),
        ("2025-03-01", 4, 4, 1),
        ("2025-04-01", None, None, 0),
    ]
    assert provider_line([a, b], ON_DEMAND_LIST, "b") == [(date(2025, 2, 1), 3), (date(2025, 3, 1), None)]


def test_the_median_of_an_even_count_is_the_mean_of_the_middle_two():
    assert median([Decimal(5), Decimal(1), Decimal(3)]) == 3
    assert median([Decimal(5), Decimal(1), Decimal(3), Decimal(4)]) == Decimal("3.5")


def test_each_step_names_the_product_that_sets_its_cheapest():
    """Jan and Feb: a's 4 (b's 5 is dearer); Mar: c's 2. With c withdrawn on May 1, the cheapest is a's 3
    again from then on, set by a's point of Mar 1."""
    (series,) = series_of(THREE_PROVIDERS)
    assert [(p.provider, str(p.day)) for p in cheapest_points(THREE_PROVIDERS, series)] == [
        ("a", "2025-01-01"),
        ("a", "2025-01-01"),
        ("c", "2025-03-01"),
    ]
    withdrawn = [*THREE_PROVIDERS[:-1], replace(THREE_PROVIDERS[-1], withdrawn=date(2025, 5, 1))]
    (series,) = series_of(withdrawn)
    assert [str(s.day) for s in series.steps][-1] == "2025-05-01"
    last = cheapest_points(withdrawn, series)[-1]
    assert last is not None and (last.provider, str(last.day), last.per_gpu_hour) == (
        "a",
        "2025-03-01",
        Decimal("3.00"),
    )


def test_a_retired_product_with_a_later_shipped_point_no_longer_sets_the_cheapest():
    """a's product: the catalog's 5 from Jan 1, retired on Mar 1, and a shipped point of 5 on Feb 1 (its
    latest point, with no retirement of its own); b at 7. From Mar 1 the cheapest is b's 7, set by b."""
    points = [
        replace(point("a", "2025-01-01", "5"), withdrawn=date(2025, 3, 1)),
        point("a", "2025-02-01", "5"),
        point("b", "2025-01-01", "7"),
    ]
    (series,) = series_of(points)
    assert steps(series)[-1] == ("2025-03-01", "7", "7", 1)
    assert [p.provider if p else None for p in cheapest_points(points, series)] == ["a", "b"]


def test_an_undated_price_is_on_no_step_and_is_listed_apart():
    """a 4 from Jan 1, b 3 from Feb 1, and c at 1.50 whose source gives no date. The steps hold a and b
    alone: Jan 4 (1 provider), Feb cheapest 3, median 3.5 (2 providers); none of them is c's, and the
    series lists c apart. A series of undated prices alone has no step and no tracking-since day."""
    undated = replace(point("c", "2025-01-01", "1.50"), day=None, date_basis=DateBasis.UNDATED)
    points = [point("a", "2025-01-01", "4"), point("b", "2025-02-01", "3"), undated]
    (series,) = series_of(points)
    assert steps(series) == [("2025-01-01", "4", "4", 1), ("2025-02-01", "3", "3.5", 2)]
    assert series.undated == (undated,)
    assert [p.provider for p in cheapest_points(points, series) if p] == ["a", "b"]
    (alone,) = series_of([undated])
    assert (alone.steps, alone.undated, alone.tracking_since) == ((), (undated,), None)


def test_a_step_the_cheapest_took_as_a_provider_entered_or_left_is_marked_so():
    """Of THREE_PROVIDERS: Jan a alone (the first step, no move); Feb b enters at 5 above a's 4 (entered,
    the cheapest stays); Mar a cuts to 3 and c enters at 2: the cheapest falls 4 -> 2, set by c, which had
    no price before: an entry by c, not a price cut. With c withdrawn on May 1 the cheapest rises 2 -> 3
    as c, its setter, leaves: an exit. a's own cut from 4 to 3 alone would be a price move."""
    withdrawn = [*THREE_PROVIDERS[:-1], replace(THREE_PROVIDERS[-1], withdrawn=date(2025, 5, 1))]
    (series,) = series_of(withdrawn)
    assert [(str(s.day), s.entered, s.left, s.moved_by, s.mover) for s in series.steps] == [
        ("2025-01-01", ("a",), (), None, None),
        ("2025-02-01", ("b",), (), None, None),
        ("2025-03-01", ("c",), (), Move.ENTRY, "c"),
        ("2025-05-01", (), ("c",), Move.EXIT, "c"),
    ]
    (cut,) = series_of([point("a", "2025-01-01", "4"), point("a", "2025-03-01", "3")])
    assert [(s.moved_by, s.mover) for s in cut.steps] == [(None, None), (Move.PRICE, None)]


def test_a_price_after_every_product_was_withdrawn_is_an_entry():
    """a alone from January, withdrawn on 1 March: no price is left. b's first price on 1 April is the
    cheapest entering the tracked set, not a price change."""
    a = PricePoint(**{**point("a", "2025-01-01", "4").__dict__, "withdrawn": date(2025, 3, 1)})
    (series,) = series_of([a, point("b", "2025-04-01", "5")])
    last = series.steps[-1]
    assert (str(last.day), str(last.cheapest), last.moved_by, last.mover) == ("2025-04-01", "5", Move.ENTRY, "b")
