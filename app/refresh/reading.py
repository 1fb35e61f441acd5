"""What every source's reader shares: the rows it read, the rows it could not read, what it leaves
out and why, and the rules that keep a refresh to the offers the catalog is about."""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from app.catalog.files import csv_rows
from app.catalog.rows import OFFER_CHECKS, OPTIONAL_COLUMNS, OfferRow, offer_key
from app.costing.terms import Billing, PricePeriod, Tenancy
from app.refresh.fetch import RefreshFailed

REGIONS_FOR_A_NEW_PRODUCT = 3
"""A product new to the catalog comes in at its cheapest regions, as the shipped catalog did."""


@dataclass
class SourceRows:
    rows: list[tuple[str, OfferRow]] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    left_out: Counter[str] = field(default_factory=Counter)


def catalog_lines(text: str, url: str, columns: AbstractSet[str], kind: str) -> list[tuple[int, dict[str, str]]]:
    """A catalog's rows by line number (the header is line 1), or RefreshFailed where it is not CSV or
    lacks a column it must have: `kind` names what it should have been ("a SkyPilot catalog")."""
    reader = csv_rows(text)
    try:
        missing = columns - set(reader.fieldnames or [])
        lines = list(enumerate(reader, start=2))
    except csv.Error as e:
        raise RefreshFailed(f"{url} is not readable CSV: {e}") from None
    if missing:
        raise RefreshFailed(f"{url} is not {kind}: no {', '.join(sorted(missing))} column")
    return lines


def ragged(line: dict[str, str]) -> bool:
    """A row with more or fewer fields than the header, which csv reads with None keys or values."""
    return None in line or None in line.values()


RAGGED = "the row has a different number of fields than the header"


def checked(field: str, value: object, where: str) -> object:
    """A value read with the catalog's own check of `field`, as an import reads it; the message
    names where it was read."""
    try:
        return OFFER_CHECKS[field](str(value).strip())
    except ValueError as e:
        raise ValueError(f"{where} {e}") from None


def price(value: object, where: str) -> Decimal:
    usd = checked("price", value, where)
    assert isinstance(usd, Decimal)
    return usd


def hourly_row(
    provider: str, product: str, gpu: str, gpus: int, region: str, billing: Billing, usd: Decimal,
    source_url: str, today: date, tenancy: Tenancy = Tenancy.VIRTUALIZED, notes: str = "", **machine: Any,
) -> OfferRow:  # fmt: skip
    """`machine`: the unit's vcpus and ram_gib, where the source states them."""
    product, region = str(checked("product", product, "the product")), str(checked("region", region, "the region"))
    return OfferRow(
        key=offer_key(provider, product, gpu, region, billing), provider=provider, gpu=gpu, product=product,
        tenancy=tenancy, billing=billing, gpus_per_unit=gpus, price=usd, price_period=PricePeriod.HOUR,
        region=region, source_url=source_url, as_of=today, notes=notes, **machine,
    )  # fmt: skip


def keep(read: SourceRows, found: list[tuple[str, OfferRow]], current: dict[str, OfferRow]) -> None:
    """Offers the catalog holds are refreshed; a product new to it comes in at its cheapest
    regions; a new region of a product the catalog has is left out. One price per offer: where a
    source lists several (availability zones), the lowest; a spot price equal to the on-demand one
    is not a spot price."""
    lowest: dict[str, tuple[str, OfferRow]] = {}
    for where, row in found:
        if row.key in lowest:
            read.left_out["a second price for the same offer (another zone): the lowest kept"] += 1
            if row.price >= lowest[row.key][1].price:
                continue
        lowest[row.key] = where, row
    on_demand = {_unit(r): r.price for _, r in lowest.values() if r.billing == Billing.ON_DEMAND}
    products = {(r.provider, r.product) for r in current.values()}
    new: dict[tuple[str, str, str], list[tuple[str, OfferRow]]] = defaultdict(list)
    for where, row in lowest.values():
        if row.billing == Billing.SPOT and on_demand.get(_unit(row)) == row.price:
            read.left_out["a spot price equal to the on-demand price"] += 1
        elif row.key in current:
            read.rows.append((where, _with_machine_of(row, current[row.key])))
        elif (row.provider, row.product) in products:
            read.left_out["a region the catalog does not list for this product"] += 1
        else:
            new[row.provider, row.product, row.billing].append((where, row))
    for offers in new.values():
        offers.sort(key=lambda found: (found[1].price, found[1].region))
        read.rows += offers[:REGIONS_FOR_A_NEW_PRODUCT]
        if len(offers) > REGIONS_FOR_A_NEW_PRODUCT:
            read.left_out[f"regions of a new product past its {REGIONS_FOR_A_NEW_PRODUCT} cheapest"] += (
                len(offers) - REGIONS_FOR_A_NEW_PRODUCT
            )


def _with_machine_of(row: OfferRow, held: OfferRow) -> OfferRow:
    """A source that states no vCPUs or RAM (Azure's prices), or no setup fee (none of them does),
    leaves what the catalog holds."""
    unstated = {f: getattr(held, f) for f in OPTIONAL_COLUMNS if getattr(row, f) is None}
    return row.model_copy(update=unstated) if unstated else row


def _unit(row: OfferRow) -> tuple[str, str, str]:
    return row.provider, row.product, row.region
