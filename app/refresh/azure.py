"""The Azure Retail Prices API: public JSON, no key, in pages linked by NextPageLink. Read for the
GPU VM series (NC, ND, NV) that the catalog knows, Linux, pay as you go and spot, per region."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote

from app.catalog.rows import OfferRow
from app.costing.terms import Billing
from app.refresh.fetch import Fetcher, RefreshFailed
from app.refresh.reading import SourceRows, hourly_row, keep, price

GPU_SERIES_FILTER = (
    "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and (contains(armSkuName, 'Standard_NC') "
    "or contains(armSkuName, 'Standard_ND') or contains(armSkuName, 'Standard_NV'))"
)
MAX_PAGES = 500
"""A page holds 100 prices; the GPU series are a few thousand. More pages means a link that loops."""


def first_page(base: str) -> str:
    return f"{base}?$filter={quote(GPU_SERIES_FILTER)}"


def read_azure(fetch: Fetcher, base: str, today: date, current: dict[str, OfferRow]) -> SourceRows:
    """Every page, or nothing: a page that fails fails the refresh. The machine sizes are those of
    the catalog's Azure offers, which say how many of which GPU each has."""
    sizes = {row.product: (row.gpu, row.gpus_per_unit) for row in current.values() if row.provider == "azure"}
    read = SourceRows()
    found: list[tuple[str, OfferRow]] = []
    url: str | None = first_page(base)
    for page in range(1, MAX_PAGES + 2):
        if url is None:
            break
        if page > MAX_PAGES:
            raise RefreshFailed(f"the price list ran past {MAX_PAGES} pages; nothing was read")
        body = fetch.json(url)
        items = body.get("Items") if isinstance(body, dict) else None
        if not isinstance(items, list):
            raise RefreshFailed(f"page {page} ({url}) is not a price list: it has no Items")
        for number, item in enumerate(items, start=1):
            where = f"page {page}, item {number}"
            try:
                row = _row(item, sizes, url, today, read)
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                read.problems.append((where, f"{type(e).__name__}: {e}" if not isinstance(e, ValueError) else str(e)))
                continue
            if row is not None:
                found.append((where, row))
        url = _next_page(body.get("NextPageLink"), base, page)
    keep(read, found, current)
    return read


def _next_page(link: object, base: str, page: int) -> str | None:
    """The next page, only on the price list's own address: a link elsewhere is not followed."""
    if not link:
        return None
    if not isinstance(link, str) or not link.startswith(f"{base}?"):
        raise RefreshFailed(f"page {page} links its next page to {str(link)[:200]!r}, not to {base}")
    return link


def _row(item: Any, sizes: dict[str, tuple[str, int]], url: str, today: date, read: SourceRows) -> OfferRow | None:
    """An item as an offer, or None with the reason it is left out counted."""
    sku = item["armSkuName"]
    if sku not in sizes:
        read.left_out["a machine size the catalog does not have"] += 1
        return None
    sku_name, product_name = item["skuName"], item["productName"]
    if "Windows" in product_name or "Low Priority" in sku_name:
        read.left_out["Windows or low-priority prices"] += 1
        return None
    if item["unitOfMeasure"] != "1 Hour" or item["currencyCode"] != "USD":
        raise ValueError(f"{sku}: priced per {item['unitOfMeasure']!r} in {item['currencyCode']!r}, not USD per hour")
    gpu, gpus = sizes[sku]
    billing = Billing.SPOT if sku_name.endswith(" Spot") else Billing.ON_DEMAND
    usd = price(item["retailPrice"], f"{sku} retailPrice")
    if usd == 0:
        read.left_out["a price of 0"] += 1
        return None
    return hourly_row("azure", sku, gpu, gpus, item["armRegionName"], billing, usd, url, today)
