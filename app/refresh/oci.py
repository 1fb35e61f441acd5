"""Oracle's public price list (the cost estimator's products API): GPU shapes are billed per GPU
per hour, one price in every region, so each OCI offer of a GPU is refreshed at that price times
its GPUs."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from app.catalog.rows import OfferRow
from app.costing.terms import Billing
from app.refresh.fetch import Fetcher, RefreshFailed
from app.refresh.reading import SourceRows, price

GPU_PARTS = {
    "B88518": "P100",
    "B89734": "V100",
    "B92740": "A100",
    "B95907": "A100-80GB",
    "B95909": "A10",
    "B98415": "H100",
    "B109479": "L40S",
    "B109485": "MI300X",
    "B110519": "H200",
    "B110978": "B200",
}
"""The part numbers of Oracle's GPU-hour prices, by the GPU they bill. Each part's name in the list
must name that GPU ("Compute - GPU - H100"), or the refresh reports it and cannot be applied."""


def read_oci(fetch: Fetcher, url: str, today: date, current: dict[str, OfferRow]) -> SourceRows:
    body = fetch.json(url)
    items = body.get("items") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise RefreshFailed(f"{url} is not Oracle's price list: it has no items")
    read = SourceRows()
    offers = [row for row in current.values() if row.provider == "oci" and row.billing == Billing.ON_DEMAND]
    for number, item in enumerate(items, start=1):
        part = item.get("partNumber") if isinstance(item, dict) else None
        if not isinstance(part, str) or part not in GPU_PARTS:
            read.left_out["not a GPU-hour price"] += 1
            continue
        try:
            per_gpu_hour = _pay_as_you_go(item)
        except (ValueError, KeyError, TypeError, StopIteration) as e:
            read.problems.append((f"item {number} ({part})", str(e) or "no USD pay-as-you-go price"))
            continue
        gpu = GPU_PARTS[part]
        if gpu.split("-")[0] not in str(item.get("displayName", "")):
            read.problems.append((f"item {number} ({part})", f"named {item.get('displayName')!r}, not a {gpu} price"))
            continue
        shapes = [row for row in offers if row.gpu == gpu]
        if not shapes:
            read.left_out["a GPU the catalog has no OCI offer of"] += 1
        note = f"{per_gpu_hour} USD per GPU-hour (part {part}, {item.get('displayName', '')!s}) x GPUs per shape"
        for row in shapes:
            try:
                shape_price = price(per_gpu_hour * row.gpus_per_unit, f"{row.product} price")
            except ValueError as e:
                read.problems.append((f"item {number} ({part})", str(e)))
                continue
            update = {"price": shape_price, "source_url": url, "as_of": today, "notes": note}
            read.rows.append((f"item {number} ({part})", row.model_copy(update=update)))
    return read


def _pay_as_you_go(item: dict[str, Any]) -> Decimal:
    usd = next(c for c in item["currencyCodeLocalizations"] if c["currencyCode"] == "USD")
    value = next(p["value"] for p in usd["prices"] if p["model"] == "PAY_AS_YOU_GO")
    return price(value, "PAY_AS_YOU_GO value")
