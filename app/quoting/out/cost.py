"""One offer's cost for the workload as JSON, part by part: an option's, and a provider's bill."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.catalog.ages import age_days
from app.catalog.snapshot import CatalogSnapshot, OfferRecord
from app.costing.money import Currency
from app.costing.owning import OWNED_OFFER_ID
from app.costing.quote import OfferCost, OptionKey
from app.costing.terms import Billing, Offer, Tenancy
from app.quoting.out.offers import OfferOut, option_name


def _money(usd: float | None, currency: Currency) -> float | None:
    """USD in the display currency, rounded to the cent once."""
    return None if usd is None else float(currency.cents(usd))


def money_rate(usd: float | None, currency: Currency) -> float | None:
    """USD in the display currency to a rate's precision (a price per unit, not a bill's cents)."""
    return None if usd is None else float(currency.rate(usd))


CatalogOffer = Annotated[
    OfferOut | None, Field(description="the catalog's offer; null for the server owned (`owned` says what it is)")
]
PerMillionOutputTokens = Annotated[
    float | None, Field(description="a serving job's month divided by its millions of output tokens; null otherwise")
]


def catalog_offer(catalog: CatalogSnapshot, offer_id: int) -> OfferOut | None:
    """An option's offer as the catalog states it; None for the server owned, which is no offer of the catalog."""
    return None if offer_id == OWNED_OFFER_ID else OfferOut.at(catalog, offer_id)


class OfferNameOut(BaseModel):
    """Which offer an option runs on, named as the quote's options name theirs."""

    option: str
    offer_id: int
    provider: str
    tenancy: Tenancy
    billing: Billing

    @staticmethod
    def names(option: OptionKey, offer: Offer) -> dict[str, Any]:
        return {
            "option": option_name(option),
            "offer_id": offer.offer_id,
            "provider": offer.provider,
            "tenancy": offer.tenancy,
            "billing": offer.billing,
        }


class CostOut(OfferNameOut):
    """One offer's cost for the workload a month of the horizon, part by part, in the display currency."""

    compute: float = Field(description="a month of the horizon: a minimum term longer than the horizon billed whole")
    egress: float | None = Field(description="null: the provider publishes no price for it, and none is assumed")
    storage: float | None = Field(description="null: the provider publishes no price for it, and none is assumed")
    total: float = Field(
        description="a month of the horizon (what options are ranked by), a minimum term longer than the horizon "
        "billed whole, without the setup fee; without egress or storage where null"
    )
    term_months: int | None = Field(
        description="the months of a minimum term longer than the horizon, billed whole; null where it fits"
    )
    month_as_billed: float = Field(description="a month of compute as the offer bills it: the term's monthly share")
    virtualization_tax: float = Field(
        description="of compute, what the virtualization tax assumed adds: hours lost, whole units more, or a run's "
        "months more on its reserved nodes (virtualization_tax_months)"
    )
    virtualization_tax_months: int = Field(
        description="a run on reserved nodes: the months more the tax makes it take, billed on the same nodes"
    )
    cold_starts: float = Field(description="of compute, what the serverless cold starts assumed add")
    setup_fee: float = Field(description="charged once: in horizon_total, not in the month's total")
    horizon_total: float = Field(
        description="the months of the horizon (all of a minimum commitment's compute) plus the setup fee once"
    )
    effective_per_gpu_hour: float | None
    complete: bool = Field(description="false where egress or storage is left out of the total (null above)")
    assumed: list[str] = Field(description="egress and/or storage priced in part at the assumed price you set")

    @staticmethod
    def figures(o: OfferCost, currency: Currency) -> dict[str, Any]:
        return OfferNameOut.names(o.option, o.offer) | {
            "compute": float(currency.cents(o.compute)),
            "egress": _money(o.egress, currency),
            "storage": _money(o.storage, currency),
            "total": float(currency.cents(o.total)),
            "term_months": o.term_past_horizon,
            "month_as_billed": float(currency.cents(o.billed_month)),
            "virtualization_tax": float(currency.cents(o.tax_usd)),
            "virtualization_tax_months": o.tax_months,
            "cold_starts": float(currency.cents(o.cold_start_usd)),
            "setup_fee": float(currency.cents(o.offer.setup_fee_usd)),
            "horizon_total": float(o.horizon_in(currency)),
            "effective_per_gpu_hour": money_rate(o.effective_per_gpu_hour, currency),
            "complete": o.complete,
            "assumed": list(o.assumed),
        }


class OptionOut(CostOut):
    per_million_output_tokens: PerMillionOutputTokens = None
    offer: CatalogOffer

    @classmethod
    def of(
        cls, o: OfferCost, catalog: CatalogSnapshot, currency: Currency, per_million: float | None = None
    ) -> OptionOut:
        """`per_million`: a serving job's USD per million output tokens on this option (app/quoting/per_output.py)."""
        return cls(
            **cls.figures(o, currency),
            per_million_output_tokens=money_rate(per_million, currency),
            offer=catalog_offer(catalog, o.offer.offer_id),
        )


class ProviderBillOut(CostOut):
    """A provider's cheapest offer for the workload: its product and key (`offer=` prices it alone)."""

    product: str
    offer_key: str
    as_of: date | None = Field(description="the price's date, as its source gives it; null where it gives none")
    age_days: int | None = Field(description="days from `as_of` to today; null where undated")

    @classmethod
    def of(cls, o: OfferCost, record: OfferRecord, currency: Currency) -> ProviderBillOut:
        row = record.row
        return cls(**cls.figures(o, currency), product=row.product, offer_key=row.key, as_of=row.as_of,
                   age_days=age_days(row.as_of))  # fmt: skip
