"""The shipped price history (seed_data/price_history_2026_12.csv, the team's price_history.csv copied
unchanged; see seed_data/README.md) read into price points, every row with its source, date and quote.

The file states each row's price per GPU-hour in USD and, in words, what the price is and how it was
worked out; it does not name a tenancy or billing kind. How each is read, stated here rather than guessed:

- Tenancy: Oracle's `BM.` shapes are bare metal and RunPod's "Serverless" workers serverless, as the
  catalog reads them (seed.py, seed_data/README.md); every other row is a virtualized instance, as the
  catalog has each of those providers' hourly GPU instances (AWS, Azure, CoreWeave, Crusoe, GCP,
  Hyperstack, Jarvislabs, Lambda, Lyceum, Nebius, RunPod Pods, Vast) and as Prime Intellect lists them.
- Billing: per second for the serverless workers (the rate is published per second); on demand for every
  other row. Most say so ("on-demand list"); Prime Intellect's minima "may include spot/community" and
  Vast's median is of rentable offers: their billing is not known, so they are on demand under a price
  basis of their own (aggregator minimum, marketplace median), never in a series with a list price.
- Price basis: "aggregator: ..." is an aggregator minimum, "announced ..." announced, "marketplace median
  ..." a marketplace median, every other (on-demand and serverless list rates) a list price; the words
  themselves are kept.
- Provider: "lambda (via Prime Intellect)" is Lambda's minimum as Prime Intellect lists it: provider
  `lambda`, basis aggregator minimum.
- As published: the `derivation` names the instance's price and GPUs ("instance hour 29.983776 / 8 GPUs",
  "instance 55.04 / 8 GPUs") or the per-second rate ("$0.00116/s x 3600"); otherwise the per-GPU-hour
  figure is the one published.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

from sqlmodel import Session, select

from app.catalog.history_tables import PricePointRow
from app.catalog.seed import rows_of
from app.catalog.tables import GpuModel
from app.costing.history import PriceBasis
from app.costing.terms import Billing, PricePeriod, Tenancy

HISTORY_FILE = "price_history_2026_12.csv"
VIA_AGGREGATOR = " (via Prime Intellect)"
INSTANCE_PRICE = re.compile(r"instance (?:hour )?([0-9.]+) / ([0-9]+) GPUs")
PER_SECOND = re.compile(r"\$([0-9.]+)/s x 3600")
BASES = (
    ("aggregator:", PriceBasis.AGGREGATOR_MINIMUM),
    ("announced", PriceBasis.ANNOUNCED),
    ("marketplace median", PriceBasis.MARKETPLACE_MEDIAN),
)


def price_basis(words: str) -> PriceBasis:
    """What a row's `price_basis` words say the price is (module docstring)."""
    return next((basis for start, basis in BASES if words.startswith(start)), PriceBasis.LIST)


def tenancy_and_billing(provider: str, product: str) -> tuple[Tenancy, Billing]:
    """The catalog's tenancy and billing kind of a row (module docstring)."""
    if provider == "oci" and product.startswith("BM."):
        return Tenancy.BARE_METAL, Billing.ON_DEMAND
    if provider == "runpod" and product.startswith("Serverless "):
        return Tenancy.SERVERLESS, Billing.PER_SECOND
    return Tenancy.VIRTUALIZED, Billing.ON_DEMAND


def as_published(derivation: str, per_gpu_hour: Decimal) -> tuple[Decimal, PricePeriod, int]:
    """The price as published, its period and the GPUs it is for, read off the row's derivation."""
    if instance := INSTANCE_PRICE.match(derivation):
        return Decimal(instance[1]), PricePeriod.HOUR, int(instance[2])
    if per_second := PER_SECOND.match(derivation):
        return Decimal(per_second[1]), PricePeriod.SECOND, 1
    return per_gpu_hour, PricePeriod.HOUR, 1


def point_fields(row: dict[str, str]) -> dict[str, Any]:
    """A row of the shipped history as a price point's fields, GPU model by name."""
    provider = row["provider"].removesuffix(VIA_AGGREGATOR)
    tenancy, billing = tenancy_and_billing(provider, row["instance_type"])
    per_gpu_hour = Decimal(row["price_per_gpu_hour_usd"])
    price, period, gpus = as_published(row["derivation"], per_gpu_hour)
    return dict(
        gpu=row["gpu_model"], provider=provider, product=row["instance_type"], region=row["region"],
        tenancy=tenancy, billing=billing, day=date.fromisoformat(row["date"]), per_gpu_hour=per_gpu_hour,
        price=price, price_period=period, gpus_per_unit=gpus, currency="USD",
        price_basis=price_basis(row["price_basis"]), basis_as_published=row["price_basis"],
        derivation=row["derivation"], source=row["source"], source_kind=row["source_kind"],
        date_basis=row["date_basis"], quote=row["quote"],
    )  # fmt: skip


def price_history_2026_12(session: Session, version: int) -> None:
    """The 736 dated points of H100, A100, A100-80GB and H200 from before the catalog kept prices."""
    gpus = {g.name: g.id for g in session.exec(select(GpuModel)) if g.id is not None}
    for row in rows_of(HISTORY_FILE):
        fields = point_fields(row)
        session.add(PricePointRow(gpu_model_id=gpus[fields.pop("gpu")], catalog_version=version, **fields))
