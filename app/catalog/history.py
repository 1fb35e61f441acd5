"""The price points of a GPU model: the shipped history (history_tables.py) and every price the catalog
has set since, read off its offer rows. The catalog keeps every version of every offer row, so each
admin edit, new offer, import, refresh and shipped update that sets a price is a point already; none is
copied. costing/history.py makes the points into series.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy import ColumnElement, RowMapping
from sqlmodel import Session, col, select

from app.catalog.history_tables import PricePointRow
from app.catalog.tables import CatalogVersion, GpuModel, OfferVersion, Provider
from app.catalog.wording import plain_words
from app.costing.history import DateBasis, PriceBasis, PricePoint
from app.costing.terms import per_gpu_hour

EIGHT_PLACES = Decimal("0.00000001")
"""Prices per GPU-hour are kept to 8 decimal places, as the offers' prices are."""


@dataclass(frozen=True)
class HistoryFilters:
    """Which points to read of one GPU model: none of a filter is all of it."""

    tenancy: Sequence[str] = ()
    billing: Sequence[str] = ()
    provider: str | None = None
    product: str | None = None
    """With `region`, one offer's own product: its line alone."""
    region: str | None = None

    def conditions(
        self, tenancy: str, billing: str, provider: str, product: str, region: str
    ) -> list[ColumnElement[bool]]:
        """What these filters ask of the columns that hold each."""
        return [
            *([col(tenancy).in_(self.tenancy)] if self.tenancy else []),
            *([col(billing).in_(self.billing)] if self.billing else []),
            *([col(provider) == self.provider] if self.provider else []),
            *([col(product) == self.product] if self.product else []),
            *([col(region) == self.region] if self.region else []),
        ]

    @property
    def market(self) -> HistoryFilters:
        """The same, over every provider and product: what a provider's or an offer's line is drawn over."""
        return replace(self, provider=None, product=None, region=None)

    def owns(self, point: PricePoint) -> bool:
        """Whether a point is of the provider, product and region asked for (all of them where none is)."""
        asked = ((self.provider, point.provider), (self.product, point.product), (self.region, point.region))
        return all(want is None or want == have for want, have in asked)


def _shipped_points(session: Session, gpu: GpuModel, filters: HistoryFilters) -> Iterable[PricePoint]:
    """Each with its provider's name where the catalog has the provider (not Massed Compute)."""
    table = PricePointRow.__table__  # type: ignore[attr-defined]
    query = (
        sa.select(table, col(Provider.name).label("provider_name"))
        .outerjoin(Provider, col(Provider.slug) == PricePointRow.provider)
        .where(
            col(PricePointRow.gpu_model_id) == gpu.id,
            *filters.conditions(
                PricePointRow.tenancy,
                PricePointRow.billing,
                PricePointRow.provider,
                PricePointRow.product,
                PricePointRow.region,
            ),  # fmt: skip
        )
    )
    for row in session.execute(query.order_by(col(PricePointRow.id))).mappings():  # rows, not objects: 3x faster
        yield PricePoint(
            gpu=gpu.name, provider=row["provider"], product=row["product"], region=row["region"],
            tenancy=row["tenancy"], billing=row["billing"], day=row["day"], per_gpu_hour=row["per_gpu_hour"],
            price=row["price"], price_period=row["price_period"], gpus_per_unit=row["gpus_per_unit"],
            currency=row["currency"], price_basis=PriceBasis(row["price_basis"]), source=plain_words(row["source"]),
            date_basis=DateBasis.SOURCE, date_stated=row["date_basis"], basis_as_published=row["basis_as_published"],
            derivation=row["derivation"], quote=row["quote"], source_kind=plain_words(row["source_kind"]),
            catalog_version=row["catalog_version"], provider_name=row["provider_name"] or "",
        )  # fmt: skip


def _offer_point(gpu: str, row: RowMapping) -> PricePoint:
    """An offer row (with its provider's slug and name and its version's time) as the point of its
    price: dated by its as-of date, else undated. The day its version was made is when the catalog
    recorded the price (for the shipped catalog, the day it was installed), not a day the price held."""
    as_of, made, version = row["as_of"], row["version_at"], row["valid_from"]
    return PricePoint(
        gpu=gpu, provider=row["provider_slug"], product=row["product"], region=row["region"], tenancy=row["tenancy"],
        billing=row["billing"], day=as_of, provider_name=row["provider_name"],
        per_gpu_hour=per_gpu_hour(row["price"], row["price_period"], row["gpus_per_unit"]).quantize(EIGHT_PLACES),
        price=row["price"], price_period=row["price_period"], gpus_per_unit=row["gpus_per_unit"],
        currency=row["currency"], price_basis=PriceBasis.LIST, source=row["source_url"],
        date_basis=DateBasis.AS_OF if as_of is not None else DateBasis.UNDATED,
        date_stated=f"as of {as_of}" if as_of is not None else f"no date; listed in catalog version {version} of "
        f"{made:%Y-%m-%d}",
        catalog_version=version,
    )  # fmt: skip


def in_force(points: list[PricePoint]) -> list[PricePoint]:
    """The points of one offer's rows, oldest version first, less those a later version dates as early
    or earlier (a later version is the catalog's newer word), and an undated one unless it is the
    offer's last: an undated price the shipped catalog set, and a dated copy of that offer shipped the
    same day as of July, is July's price from July on, and the undated one, of some unknown earlier
    day, is no point at all. An undated last version is the offer's price now, of no known day."""
    dated = [(p.day, p) for p in points if p.day is not None]
    kept: list[tuple[date, PricePoint]] = []
    for day, point in reversed(dated):
        if not kept or day < kept[-1][0]:
            kept.append((day, point))
    return [*(point for _, point in kept[::-1]), *([points[-1]] if points[-1].day is None else [])]


def _catalog_points(session: Session, gpu: GpuModel, filters: HistoryFilters) -> Iterable[PricePoint]:
    """Each offer's rows in force, its last (and its last dated) withdrawn on the day of the version
    that retired the offer, if one did (its last row closed with no row after it)."""
    offers = OfferVersion.__table__  # type: ignore[attr-defined]
    query = (
        sa.select(
            offers,
            col(CatalogVersion.created_at).label("version_at"),
            col(Provider.slug).label("provider_slug"),
            col(Provider.name).label("provider_name"),
        )
        .join(CatalogVersion, col(CatalogVersion.id) == OfferVersion.valid_from)
        .join(Provider, col(Provider.id) == OfferVersion.provider_id)
        .where(
            col(OfferVersion.gpu_model_id) == gpu.id,
            *filters.conditions(
                OfferVersion.tenancy, OfferVersion.billing, Provider.slug, OfferVersion.product, OfferVersion.region
            ),
        )
    )
    by_offer: dict[str, list[PricePoint]] = {}
    closed_by: dict[str, int | None] = {}
    for row in session.execute(query.order_by(col(OfferVersion.valid_from), col(OfferVersion.id))).mappings():
        by_offer.setdefault(row["key"], []).append(_offer_point(gpu.name, row))
        closed_by[row["key"]] = row["valid_to"]
    retired = {v for v in closed_by.values() if v is not None}
    made = select(CatalogVersion.id, CatalogVersion.created_at).where(col(CatalogVersion.id).in_(retired))
    retired_on = {number: at.date() for number, at in session.exec(made)} if retired else {}
    for key, points in by_offer.items():
        kept = in_force(points)
        if (closing := closed_by[key]) is not None:
            last_dated = max((i for i, p in enumerate(kept) if p.day is not None), default=None)
            for i in {len(kept) - 1, *([last_dated] if last_dated is not None else [])}:
                kept[i] = replace(kept[i], withdrawn=retired_on[closing])
        yield from kept


def price_points(session: Session, gpu: str, filters: HistoryFilters = HistoryFilters()) -> list[PricePoint] | None:
    """Every point of a GPU model that the filters let through, oldest first (shipped before catalog on
    one day), the undated last; None if the catalog has no such GPU model."""
    model = session.exec(select(GpuModel).where(GpuModel.name == gpu)).first()
    if model is None:
        return None
    points = [*_shipped_points(session, model, filters), *_catalog_points(session, model, filters)]
    return sorted(points, key=lambda p: (p.day is None, p.day or date.min))


def gpu_with_most_points(session: Session) -> str | None:
    """The GPU model whose history is longest: what a benchmark of the history page renders."""
    counts = {name: len(price_points(session, name) or []) for name in session.exec(select(GpuModel.name))}
    return max(counts, key=lambda name: (counts[name], name), default=None)
