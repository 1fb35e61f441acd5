"""SkyPilot's public catalog, `catalogs/v8/<cloud>/vms.csv`, read as the shipped prices were
(app/catalog/seed_data/SOURCES.md): one row per instance type and region with its on-demand and
spot price per hour; GCP lists a GPU's price apart from its host VM, so the two are added."""

from __future__ import annotations

from datetime import date

from app.catalog.imports import SKYPILOT_COLUMNS, skypilot_machine
from app.catalog.rows import OFFER_CHECKS, OfferRow
from app.costing.terms import Billing, Tenancy
from app.refresh.fetch import Fetcher
from app.refresh.reading import RAGGED, SourceRows, catalog_lines, hourly_row, keep, price, ragged

CLOUDS = ("aws", "azure", "cudo", "gcp", "hyperstack", "jarvislabs", "lambda", "nebius", "oci", "primeintellect",
          "runpod", "shadeform", "vast", "verda")  # fmt: skip
"""Clouds with a v8 catalog whose provider id is ours too."""


def catalog_url(base: str, cloud: str) -> str:
    return f"{base.rstrip('/')}/catalogs/v8/{cloud}/vms.csv"


def read_cloud(
    fetch: Fetcher, base: str, cloud: str, today: date, current: dict[str, OfferRow], gpus: set[str]
) -> SourceRows:
    url = catalog_url(base, cloud)
    lines = catalog_lines(fetch.text(url), url, SKYPILOT_COLUMNS, "a SkyPilot catalog")
    read = SourceRows()
    gpu_prices = _gcp_gpu_prices(lines) if cloud == "gcp" else {}
    found: list[tuple[str, OfferRow]] = []
    for line_no, line in lines:
        where = f"line {line_no}"
        if ragged(line):
            read.problems.append((where, RAGGED))
            continue
        name, product = line["AcceleratorName"].strip(), line["InstanceType"].strip()
        if not name or not product:
            read.left_out["no GPU, or a GPU priced apart from an instance" if cloud == "gcp" else "no GPU"] += 1
            continue
        if name not in gpus:
            read.left_out[f"GPU {name} is not in the catalog"] += 1
            continue
        try:
            found += [(where, row) for row in _offers(line, cloud, url, today, gpu_prices.get(_gpu_key(line)))]
        except ValueError as e:
            read.problems.append((where, str(e)))
        except LookupError as e:
            read.left_out[str(e)] += 1
    keep(read, found, current)
    return read


def _gpu_key(line: dict[str, str]) -> tuple[str, str, str]:
    return line["AcceleratorName"].strip(), line["AcceleratorCount"].strip(), line["Region"].strip()


def _gcp_gpu_prices(lines: list[tuple[int, dict[str, str]]]) -> dict[tuple[str, str, str], tuple[str, str]]:
    """GCP's GPU rows (no instance type): on-demand and spot price by GPU, count and region."""
    return {
        _gpu_key(line): (line["Price"], line["SpotPrice"])
        for _, line in lines
        if None not in line.values() and not line["InstanceType"].strip() and line["AcceleratorName"].strip()
    }


def _offers(
    line: dict[str, str], cloud: str, url: str, today: date, gpu_price: tuple[str, str] | None
) -> list[OfferRow]:
    """The on-demand and spot offers of one line; LookupError says why a line brings none."""
    if cloud == "gcp" and gpu_price is None:
        raise LookupError("no price for its GPUs in that region")
    try:
        gpus = int(OFFER_CHECKS["gpus_per_unit"](line["AcceleratorCount"].strip()))  # type: ignore[call-overload]
    except ValueError as e:
        raise ValueError(f"AcceleratorCount {e}") from None
    product, region = line["InstanceType"].strip(), line["Region"].strip()
    machine = skypilot_machine(line)
    tenancy = Tenancy.BARE_METAL if cloud == "oci" and product.startswith("BM.") else Tenancy.VIRTUALIZED
    rows = []
    for billing, column, index in [(Billing.ON_DEMAND, "Price", 0), (Billing.SPOT, "SpotPrice", 1)]:
        text = line[column].strip()
        if not text:
            continue
        usd = price(text, column)
        if gpu_price is not None:
            if not gpu_price[index].strip():
                continue
            usd = price(usd + price(gpu_price[index], f"the GPU row's {column}"), f"{column} with its GPUs")
        if usd > 0:
            rows.append(hourly_row(cloud, product, line["AcceleratorName"].strip(), gpus, region, billing, usd, url,
                                   today, tenancy, **machine))  # fmt: skip
    if not any(r.billing == Billing.ON_DEMAND for r in rows):
        raise LookupError("no on-demand price")
    return rows
