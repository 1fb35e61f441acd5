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
    """Each on-demand OCI offer of a GPU the list prices, at its price per GPU-hour times the shape's
    GPUs; every other item is counted as left out, and an item that cannot be read is a problem."""
    items = _items(fetch.json(url), url)
    read = SourceRows()
    offers = [row for row in current.values() if row.provider == "oci" and row.billing == Billing.ON_DEMAND]
    for number, item in enumerate(items, start=1):
        part = item.get("partNumber") if isinstance(item, dict) else None
        if not isinstance(part, str) or part not in GPU_PARTS:
            read.left_out["not a GPU-hour price"] += 1
            continue
        where = f"item {number} ({part})"
        try:
            gpu, per_gpu_hour = _gpu_hour_price(item, part)
        except ValueError as e:
            read.problems.append((where, str(e)))
            continue
        shapes = [row for row in offers if row.gpu == gpu]
        if not shapes:
            read.left_out["a GPU the catalog has no OCI offer of"] += 1
        note = f"{per_gpu_hour} USD per GPU-hour (part {part}, {item.get('displayName', '')!s}) x GPUs per shape"
        _refresh_shapes(read, where, shapes, per_gpu_hour, {"source_url": url, "as_of": today, "notes": note})
    return read


def _items(body: Any, url: str) -> list[Any]:
    """The price list's items; RefreshFailed where the address answered something else."""
    items = body.get("items") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise RefreshFailed(f"{url} is not Oracle's price list: it has no items")
    return items


def _gpu_hour_price(item: dict[str, Any], part: str) -> tuple[str, Decimal]:
    """The GPU a part bills and its USD pay-as-you-go price per GPU-hour. ValueError, saying why,
    where the item has no such price or its name is not of that GPU (the part may have been reused)."""
    try:
        per_gpu_hour = _pay_as_you_go(item)
    except (ValueError, KeyError, TypeError, StopIteration) as e:
        raise ValueError(str(e) or "no USD pay-as-you-go price") from None
    gpu = GPU_PARTS[part]
    if gpu.split("-")[0] not in str(item.get("displayName", "")):
        raise ValueError(f"named {item.get('displayName')!r}, not a {gpu} price")
    return gpu, per_gpu_hour


def _refresh_shapes(
    read: SourceRows, where: str, shapes: list[OfferRow], per_gpu_hour: Decimal, facts: dict[str, Any]
) -> None:
    """Each shape of the GPU at the GPU-hour price times its GPUs, with the source's `facts`; a shape
    whose price the catalog's check refuses is a problem, the others are still read."""
    for row in shapes:
        try:
            shape_price = price(per_gpu_hour * row.gpus_per_unit, f"{row.product} price")
        except ValueError as e:
            read.problems.append((where, str(e)))
            continue
        read.rows.append((where, row.model_copy(update={"price": shape_price} | facts)))


def _pay_as_you_go(item: dict[str, Any]) -> Decimal:
    usd = next(c for c in item["currencyCodeLocalizations"] if c["currencyCode"] == "USD")
    value = next(p["value"] for p in usd["prices"] if p["model"] == "PAY_AS_YOU_GO")
    return price(value, "PAY_AS_YOU_GO value")
