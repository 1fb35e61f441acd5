"""dstack's gpuhunt catalog, as gpuhunt itself loads it: every hour each provider's prices are
published without credentials at `<base>/<provider>/<version>/catalog.zip` (one file,
`<provider>.csv`), and `<base>/<provider>/version` names the newest version, `20260818-42` being the
day and the run. Each price is dated by its version's day, with that version's zip as its source."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from app.catalog import rows as check
from app.catalog.rows import OfferRow
from app.costing.terms import Billing, Tenancy
from app.refresh.fetch import Fetcher, RefreshFailed
from app.refresh.reading import RAGGED, SourceRows, catalog_lines, hourly_row, keep, price, ragged

PROVIDERS = {
    "aws": "aws", "azure": "azure", "gcp": "gcp", "lambdalabs": "lambda", "nebius": "nebius", "oci": "oci",
    "runpod": "runpod", "verda": "verda", "cloudrift": "cloudrift",
}  # fmt: skip
"""The providers gpuhunt publishes as files (its OFFLINE_PROVIDERS), to the catalog's provider ids."""

COLUMNS = {"instance_name", "location", "price", "gpu_count", "gpu_name", "gpu_memory", "spot"}
"""The columns of its catalog file (`CATALOG_V2_FIELDS`) a price is read from; `flags`, `cpu` and
`memory` are read where the file has them."""

LEFT_OUT_FLAGS = {
    "oci-spot": "an estimate (OCI's preemptible price worked out by gpuhunt as half the on-demand one)",
    "gcp-g4-preview": "a copy of a G4 row kept for older dstack versions",
    "gcp-dws-calendar-mode": "a GCP calendar-mode reservation, not an on-demand or spot price",
    "runpod-cluster": "a node of a RunPod Instant Cluster, rented 2 to 8 at a time",
}
"""The flags of rows that are not a price of one unit on demand or spot, and why each is left out."""

GPU_NAMES = {
    ("A100", 40): "A100", ("A100", 80): "A100-80GB", ("V100", 16): "V100", ("V100", 32): "V100-32GB",
    ("RTX6000", 24): "Quadro-RTX-6000", ("RTX6000Ada", 48): "RTX-6000-Ada", ("RTXPRO6000", 96): "RTX-PRO-6000",
}  # fmt: skip
"""gpuhunt's names (with GB per GPU) that the catalog spells otherwise; any other name is the catalog's
own where it has it (H100, L40S, MI300X). A100 and V100 of another memory are not in the catalog."""

VERSION = re.compile(r"(\d{4})(\d{2})(\d{2})-\d+")
GCP_ZONE = re.compile(r"([a-z]+-[a-z]+\d+)-[a-z]")
CATALOG_MAX_BYTES = 256_000_000
"""AWS's catalog, the largest, unzips to tens of megabytes; past this the zip is not a catalog."""


class _LeftOut(Exception):
    """A row read whole that the catalog does not take, with the reason."""


def catalog_version(fetch: Fetcher, base: str, provider: str) -> tuple[str, date]:
    """The newest version of a provider's catalog and its day, which dates every price in it."""
    url = f"{base.rstrip('/')}/{provider}/version"
    text = fetch.text(url).strip()
    match = VERSION.fullmatch(text)
    if not match:
        raise RefreshFailed(f"{url} names no catalog version such as 20260818-42 ({text[:40]!r})")
    try:
        return text, check.past_day("-".join(match.groups()))
    except ValueError as e:
        raise RefreshFailed(f"{url}: version {text} {e}") from None


def catalog_url(base: str, provider: str, version: str) -> str:
    return f"{base.rstrip('/')}/{provider}/{version}/catalog.zip"


def read_gpuhunt(fetch: Fetcher, base: str, provider: str, current: dict[str, OfferRow], gpus: set[str]) -> SourceRows:
    """The newest catalog of `provider` whole, or RefreshFailed: a version, zip or header that
    cannot be read changes nothing. A row that cannot be read is a problem; one the catalog does not
    take (no GPU, a GPU it does not know, an estimate) is counted as left out."""
    version, day = catalog_version(fetch, base, provider)
    url = catalog_url(base, provider, version)
    lines = catalog_lines(_unzipped(fetch.content(url), url, provider), url, COLUMNS, "a gpuhunt catalog")
    if not lines:
        raise RefreshFailed(f"{url} holds no prices")
    read = SourceRows()
    found: list[tuple[str, OfferRow]] = []
    for line_no, line in lines:
        where = f"line {line_no}"
        if ragged(line):
            read.problems.append((where, RAGGED))
            continue
        try:
            found.append((where, _offer(line, provider, gpus, url, day)))
        except _LeftOut as e:
            read.left_out[str(e)] += 1
        except ValueError as e:
            read.problems.append((where, str(e)))
    keep(read, found, current)
    return read


def _unzipped(body: bytes, url: str, provider: str) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            member = archive.getinfo(f"{provider}.csv")
            if member.file_size > CATALOG_MAX_BYTES:
                raise RefreshFailed(f"{url} unzips to {member.file_size:,} bytes, past {CATALOG_MAX_BYTES:,}")
            return archive.read(member).decode("utf-8")
    except KeyError:
        raise RefreshFailed(f"{url} holds no {provider}.csv") from None
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        raise RefreshFailed(f"{url} is not a whole zip file ({e})") from None
    except UnicodeDecodeError:
        raise RefreshFailed(f"{url}: {provider}.csv is not UTF-8 text") from None


def _offer(line: dict[str, str], provider: str, gpus: set[str], url: str, day: date) -> OfferRow:
    """One row as an offer; ValueError where it cannot be read, _LeftOut where it is not taken."""
    for flag in (line.get("flags") or "").split():
        if flag in LEFT_OUT_FLAGS:
            raise _LeftOut(LEFT_OUT_FLAGS[flag])
    name, count = line["gpu_name"].strip(), line["gpu_count"].strip()
    if not name or count == "0":
        raise _LeftOut("no GPU")
    gpu = _gpu(name, line["gpu_memory"].strip(), gpus)
    gpus_per_unit = int(_checked("gpus_per_unit", count, "gpu_count"))
    billing = _billing(line["spot"].strip())
    usd = _hourly_price(line["price"].strip())
    if usd == 0:
        raise _LeftOut("a price of 0")
    location = line["location"].strip()
    product = _product(provider, line["instance_name"].strip(), gpu, gpus_per_unit, location)
    tenancy = Tenancy.BARE_METAL if provider == "oci" and product.startswith("BM.") else Tenancy.VIRTUALIZED
    row = hourly_row(PROVIDERS[provider], product, gpu, gpus_per_unit, _region(provider, location), billing, usd,
                     url, day, tenancy, **_machine(line))  # fmt: skip
    if provider == "runpod" and _community(location):
        row = row.model_copy(update={"region_country": location})
    return row


def _gpu(name: str, memory: str, gpus: set[str]) -> str:
    """The catalog's GPU model of a gpuhunt name, told apart by its GB where the name has variants."""
    if any(name == known for known, _ in GPU_NAMES):
        try:
            gb = round(float(memory))
        except ValueError:
            raise _LeftOut(f"GPU {name} of unstated memory") from None
        if (name, gb) not in GPU_NAMES:
            raise _LeftOut(f"GPU {name} {gb} GB is not in the catalog")
        name = GPU_NAMES[name, gb]
    if name not in gpus:
        raise _LeftOut(f"GPU {name} is not in the catalog")
    return name


def _checked(field: str, value: str, column: str) -> Any:
    try:
        return check.OFFER_CHECKS[field](value)
    except ValueError as e:
        raise ValueError(f"{column} {e}") from None


def _billing(spot: str) -> Billing:
    if spot.lower() not in ("true", "false"):
        raise ValueError(f"spot must be True or False, not {spot[:20]!r}")
    return Billing.SPOT if spot.lower() == "true" else Billing.ON_DEMAND


def _hourly_price(text: str) -> Decimal:
    """USD an hour, as gpuhunt writes a Python float: a product such as 3 x 0.69 is written
    2.0699999999999994, so the price is rounded to the catalog's 8 decimal places first."""
    if not check.DECIMAL_NUMBER.fullmatch(text):
        raise ValueError("price must be a number, e.g. 2.49")
    try:
        amount = Decimal(text)
        if amount.adjusted() < 10:
            amount = amount.quantize(Decimal("0.00000001"))
    except InvalidOperation:
        raise ValueError("price must be a number, e.g. 2.49") from None
    return price(amount, "price")


def _product(provider: str, instance: str, gpu: str, gpus_per_unit: int, location: str) -> str:
    """The product as the catalog names it: Nebius's `platform preset` as SkyPilot writes it
    (`gpu-h100-sxm_1gpu-16vcpu-200gb`); a RunPod pod type, which gpuhunt lists under one name for every
    GPU count, by its GPUs and cloud as SkyPilot writes it (`8x_H100_SECURE`), so both sources price
    one offer."""
    if provider == "nebius":
        return instance.replace(" ", "_")
    if provider == "runpod":
        return f"{gpus_per_unit}x_{gpu}_{'COMMUNITY' if _community(location) else 'SECURE'}"
    return instance


def _community(location: str) -> bool:
    """RunPod's Community Cloud is listed by country (`US`), its Secure Cloud by data centre (`US-KS-2`)."""
    return len(location) == 2 and location.isascii() and location.isalpha() and location.isupper()


def _region(provider: str, location: str) -> str:
    """GCP is listed by zone, priced by region: `us-central1-a` is `us-central1` (the lowest zone kept)."""
    zone = GCP_ZONE.fullmatch(location) if provider == "gcp" else None
    return zone[1] if zone else location


def _machine(line: dict[str, str]) -> dict[str, Any]:
    """The unit's vCPUs and RAM where the file states them in the catalog's terms; else unstated."""
    machine: dict[str, Any] = {}
    for field, column, places in (("vcpus", "cpu", None), ("ram_gib", "memory", Decimal("0.001"))):
        text = (line.get(column) or "").strip()
        try:
            if places is not None and check.DECIMAL_NUMBER.fullmatch(text):
                text = str(Decimal(text).quantize(places))
            machine[field] = check.OFFER_CHECKS[field](text)
        except (ValueError, InvalidOperation):
            machine[field] = None
    return machine
