"""Moving the catalog in and out in bulk: exports, CSV imports (SkyPilot's format and our own),
a preview of what an import changes, and applying it as one catalog version."""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.catalog.changes import StaleRecord, commit_change, new_version
from app.catalog.snapshot import valid_at
from app.catalog.tables import (
    CatalogVersion,
    EgressTier,
    GpuModel,
    Offer,
    Provider,
    ProviderHeadquarters,
    StoragePrice,
)
from app.costing.terms import Billing, PricePeriod, Tenancy

OFFER_COLUMNS = [
    "key", "provider", "gpu", "product", "tenancy", "billing", "gpus_per_unit", "price_usd", "price_period",
    "min_commitment_months", "region", "region_country", "source_url", "as_of", "notes",
]  # fmt: skip
SKYPILOT_COLUMNS = ["InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "SpotPrice", "Region"]
CHANGEABLE_FIELDS = (
    "price_usd", "price_period", "gpus_per_unit", "min_commitment_months", "source_url", "as_of", "tenancy",
    "region_country", "notes",
)  # fmt: skip
"""What an import may change of an existing offer; the key's parts (provider, product, GPU, region,
billing) name the offer and cannot change."""


@dataclass(frozen=True)
class OfferRow:
    """One offer as files carry it; `key` names it across versions."""

    key: str
    provider: str
    gpu: str
    product: str
    tenancy: str
    billing: str
    gpus_per_unit: int
    price_usd: Decimal
    price_period: str
    min_commitment_months: int | None
    region: str
    region_country: str | None
    source_url: str
    as_of: date | None
    notes: str = ""

    def as_json(self) -> dict[str, Any]:
        return {k: _text(v) for k, v in asdict(self).items()}


def offer_key(provider: str, product: str, gpu: str, region: str, billing: str) -> str:
    return f"{provider}:{product}:{gpu}:{region}:{billing}"


def _current_offers(session: Session, version: int) -> list[tuple[Offer, str, str]]:
    query = (
        select(Offer, Provider.slug, GpuModel.name)
        .join(Provider, col(Offer.provider_id) == Provider.id)
        .join(GpuModel, col(Offer.gpu_model_id) == GpuModel.id)
        .where(valid_at(Offer, version))
        .order_by(col(Offer.id))
    )
    return list(session.exec(query).all())  # type: ignore[arg-type]


def _row(offer: Offer, provider: str, gpu: str) -> OfferRow:
    return OfferRow(
        key=offer.key, provider=provider, gpu=gpu, product=offer.product, tenancy=offer.tenancy,
        billing=offer.billing, gpus_per_unit=offer.gpus_per_unit, price_usd=offer.price_usd.normalize(),
        price_period=offer.price_period, min_commitment_months=offer.min_commitment_months, region=offer.region,
        region_country=offer.region_country, source_url=offer.source_url, as_of=offer.as_of, notes=offer.notes,
    )  # fmt: skip


def export_offers_csv(session: Session, version: int) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=OFFER_COLUMNS)
    writer.writeheader()
    for offer, provider, gpu in _current_offers(session, version):
        writer.writerow({k: "" if v is None else v for k, v in _row(offer, provider, gpu).as_json().items()})
    return out.getvalue()


def _text(value: Any) -> Any:
    """Decimals as plain digits (1250, not 1.25E+3) and dates as ISO text, for CSV and JSON alike."""
    if isinstance(value, Decimal):
        return f"{value.normalize():f}"
    return value.isoformat() if isinstance(value, date) else value


def export_catalog(session: Session, version: int) -> dict[str, Any]:
    """Everything a quote reads at one version: providers (headquarters, egress, storage), GPUs, offers."""

    def rows(table: Any, provider_id: int) -> list[dict[str, Any]]:
        found = session.exec(select(table).where(table.provider_id == provider_id, valid_at(table, version)))
        skip = {"id", "provider_id", "valid_from", "valid_to"}
        return [{k: _text(v) for k, v in r.model_dump().items() if k not in skip} for r in found]

    providers = []
    for p in session.exec(select(Provider).order_by(Provider.slug)):
        assert p.id is not None
        providers.append(
            {"slug": p.slug, "name": p.name, "notes": p.notes, "headquarters": rows(ProviderHeadquarters, p.id),
             "egress_tiers": sorted(rows(EgressTier, p.id), key=lambda t: Decimal(t["from_gb"])),
             "storage": rows(StoragePrice, p.id)}
        )  # fmt: skip
    return {
        "catalog_version": version,
        "providers": providers,
        "gpu_models": [{"name": g.name, "memory_gib": g.memory_gib} for g in session.exec(select(GpuModel))],
        "offers": [_row(*found).as_json() for found in _current_offers(session, version)],
    }


def load_catalog(session: Session, data: dict[str, Any], who: str = "system") -> int:
    """An export, loaded into a database without a catalog, as its first version."""
    if session.exec(select(CatalogVersion.id).limit(1)).first() is not None:
        raise ValueError("this database already has a catalog; import offers through the admin page instead")
    version = new_version(session, f"loaded an export of catalog version {data['catalog_version']}", who, "catalog")
    providers, gpus = {}, {}
    for p in data["providers"]:
        provider = Provider(slug=p["slug"], name=p["name"], notes=p["notes"])
        session.add(provider)
        session.flush()
        providers[p["slug"]] = provider.id
        for table, key in (
            (ProviderHeadquarters, "headquarters"),
            (EgressTier, "egress_tiers"),
            (StoragePrice, "storage"),
        ):
            for r in p[key]:
                session.add(table.model_validate(r | {"provider_id": provider.id, "valid_from": version}))
    for g in data["gpu_models"]:
        gpu = GpuModel(name=g["name"], memory_gib=g["memory_gib"])
        session.add(gpu)
        session.flush()
        gpus[g["name"]] = gpu.id
    for o in data["offers"]:
        session.add(_offer(OfferRow(**typed_row(o)), providers[o["provider"]], gpus[o["gpu"]], version))
    commit_change(session)
    return version


def typed_row(raw: dict[str, Any]) -> dict[str, Any]:
    return raw | {
        "price_usd": Decimal(str(raw["price_usd"])),
        "gpus_per_unit": int(raw["gpus_per_unit"]),
        "min_commitment_months": int(raw["min_commitment_months"]) if raw.get("min_commitment_months") else None,
        "as_of": date.fromisoformat(raw["as_of"]) if raw.get("as_of") else None,
        "region_country": raw.get("region_country") or None,
        "notes": raw.get("notes") or "",
    }


def _offer(row: OfferRow, provider_id: int | None, gpu_model_id: int | None, version: int) -> Offer:
    fields = asdict(row)
    del fields["provider"], fields["gpu"]
    return Offer(**fields, provider_id=provider_id, gpu_model_id=gpu_model_id, valid_from=version)


@dataclass
class ImportPlan:
    """What an import would do: new offers, changed prices (current row id, new row), the rest."""

    add: list[OfferRow] = field(default_factory=list)
    change: list[tuple[int, OfferRow]] = field(default_factory=list)
    unchanged: int = 0
    problems: list[tuple[int, str]] = field(default_factory=list)
    rows: int = 0


PRICE_MAX = Decimal(10_000_000)
"""USD per unit and period: a year of an 8-GPU server is a few hundred thousand; nothing costs more."""
FORMULA_START = ("=", "+", "-", "@")
"""A text starting so is a formula to a spreadsheet: refused, so exports open safely."""


def _decimal(text: str, what: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{what} {text!r} is not a number") from None
    if not value.is_finite() or value < 0 or value > PRICE_MAX:
        raise ValueError(f"{what} must be between 0 and {PRICE_MAX:,}")
    if value != value.quantize(Decimal("0.00000001"), rounding="ROUND_DOWN"):
        raise ValueError(f"{what} has more than 8 decimal places")
    return value


def _text_field(value: str, what: str, longest: int, required: bool = True) -> str:
    if required and not value.strip():
        raise ValueError(f"{what} is empty")
    if len(value) > longest:
        raise ValueError(f"{what} is longer than {longest} characters")
    if value.startswith(FORMULA_START):
        raise ValueError(f"{what} may not start with =, +, - or @")
    return value


def _skypilot_rows(line: dict[str, str], provider: str, tenancy: str, source_url: str, as_of: date) -> list[OfferRow]:
    gpu = line["AcceleratorName"].strip()
    product = _text_field(line["InstanceType"].strip(), "InstanceType", 120)
    region = _text_field(line["Region"].strip(), "Region", 100)
    count = _gpu_count(line["AcceleratorCount"], "AcceleratorCount")
    if not line["Price"].strip():
        raise ValueError("Price is empty")
    prices = [
        (billing, _decimal(text.strip(), name))
        for billing, name, text in [
            (Billing.ON_DEMAND, "Price", line["Price"]),
            (Billing.SPOT, "SpotPrice", line["SpotPrice"]),
        ]
        if text.strip()
    ]
    return [
        OfferRow(offer_key(provider, product, gpu, region, billing), provider, gpu, product, tenancy, billing, count,
                 price, PricePeriod.HOUR, None, region, None, source_url, as_of)
        for billing, price in prices
        if price != 0
    ]  # fmt: skip


def _gpu_count(text: str, what: str) -> int:
    try:
        count = float(text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a number") from None
    if not count.is_integer() or not 1 <= count <= 1024:
        raise ValueError(f"{what} must be a whole number from 1 to 1,024")
    return int(count)


def _own_rows(line: dict[str, str]) -> list[OfferRow]:
    """A row of our export, checked as strictly as the admin's forms check a new offer."""
    for name, value in [("tenancy", Tenancy), ("billing", Billing), ("price_period", PricePeriod)]:
        if line[name] not in set(value):
            raise ValueError(f"{name} {line[name]!r} is not one of {', '.join(value)}")
    months = line["min_commitment_months"]
    if months and (not months.isdecimal() or int(months) > 120):
        raise ValueError("min_commitment_months must be whole months, 120 at most")
    country = line["region_country"]
    if country and not (len(country) == 2 and country.isalpha() and country.isupper()):
        raise ValueError("region_country must be a two-letter ISO code")
    try:
        as_of = date.fromisoformat(line["as_of"]) if line["as_of"] else None
    except ValueError:
        raise ValueError(f"as_of {line['as_of']!r} is not a date (YYYY-MM-DD)") from None
    if as_of and as_of > date.today():
        raise ValueError("as_of is in the future")
    source = _text_field(line["source_url"], "source_url", 500)
    if not source.startswith(("https://", "http://")):
        raise ValueError("source_url must be an http(s) address")
    row = OfferRow(
        key=line["key"],
        provider=line["provider"],
        gpu=line["gpu"],
        product=_text_field(line["product"], "product", 120),
        tenancy=line["tenancy"],
        billing=line["billing"],
        gpus_per_unit=_gpu_count(line["gpus_per_unit"], "gpus_per_unit"),
        price_usd=_decimal(line["price_usd"], "price_usd"),
        price_period=line["price_period"],
        min_commitment_months=int(months) if months else None,
        region=_text_field(line["region"], "region", 100),
        region_country=country or None,
        source_url=source,
        as_of=as_of,
        notes=_text_field(line["notes"], "notes", 2000, required=False),
    )
    if row.key != offer_key(row.provider, row.product, row.gpu, row.region, row.billing):
        raise ValueError("key does not match provider:product:gpu:region:billing")
    return [row]


def plan_import(
    session: Session, text: str, version: int, provider: str = "", tenancy: str = "virtualized",
    source_url: str = "", as_of: date | None = None,
) -> ImportPlan:  # fmt: skip
    """Read a CSV in SkyPilot's format (needs provider, source and date) or our export format."""
    plan = ImportPlan()
    reader = csv.DictReader(io.StringIO(text))
    columns = set(reader.fieldnames or [])
    skypilot = set(SKYPILOT_COLUMNS) <= columns
    if not skypilot and not set(OFFER_COLUMNS) <= columns:
        plan.problems.append((1, "the header is neither SkyPilot's catalog format nor this calculator's export"))
        return plan
    if skypilot and not (provider and source_url and as_of):
        plan.problems.append((1, "a SkyPilot file needs the provider, the source address and the as-of date"))
        return plan
    known_gpus = set(session.exec(select(GpuModel.name)).all())
    known_providers = set(session.exec(select(Provider.slug)).all())
    current = {offer.key: (offer, _row(offer, p, g)) for offer, p, g in _current_offers(session, version)}
    countries = {(r.provider, r.region): r.region_country for _, r in current.values()}
    seen: set[str] = set()
    lines = enumerate(reader, start=2)
    while True:
        try:
            line_no, line = next(lines)
        except StopIteration:
            break
        except csv.Error as e:
            plan.problems.append((reader.line_num, f"unreadable CSV: {e}"))
            break
        plan.rows += 1
        try:
            if None in line.values() or None in line:
                raise ValueError("the row has a different number of fields than the header")
            if skypilot and not line["AcceleratorName"].strip():
                raise ValueError("no accelerator: not a GPU offer")
            rows = _skypilot_rows(line, provider, tenancy, source_url, as_of) if skypilot else _own_rows(line)  # type: ignore[arg-type]
        except (ValueError, KeyError, TypeError, ArithmeticError) as e:
            plan.problems.append((line_no, str(e)))
            continue
        for row in rows:
            if row.gpu not in known_gpus:
                plan.problems.append((line_no, f"unknown GPU model {row.gpu!r}"))
            elif row.provider not in known_providers:
                plan.problems.append((line_no, f"unknown provider {row.provider!r}"))
            elif row.key in seen:
                plan.problems.append((line_no, f"offer {row.key} appears twice"))
            else:
                seen.add(row.key)
                if row.region_country is None:
                    row = OfferRow(**(asdict(row) | {"region_country": countries.get((row.provider, row.region))}))
                found = current.get(row.key)
                if found is None:
                    plan.add.append(row)
                elif any(getattr(found[1], f) != getattr(row, f) for f in CHANGEABLE_FIELDS):
                    plan.change.append((found[0].id, row))  # type: ignore[arg-type]
                else:
                    plan.unchanged += 1
    return plan


def apply_import(session: Session, plan: ImportPlan, note: str, who: str) -> int:
    """All of the plan in one transaction, as one catalog version; a row changed meanwhile spoils it all."""
    version = new_version(session, note, who, f"import of {len(plan.add)} new and {len(plan.change)} changed offers")
    ids = {name: i for i, name in session.exec(select(Provider.id, Provider.slug))}
    gpus = {name: i for i, name in session.exec(select(GpuModel.id, GpuModel.name))}
    changed_ids = [row_id for row_id, _ in plan.change]
    for start in range(0, len(changed_ids), 500):
        chunk = changed_ids[start : start + 500]
        closed = session.execute(
            update(Offer).where(col(Offer.id).in_(chunk), col(Offer.valid_to).is_(None)).values(valid_to=version)
        )
        if closed.rowcount != len(chunk):
            session.rollback()
            raise ValueError("some of these offers were changed since the preview; upload the file again")
    session.add_all(
        _offer(row, ids[row.provider], gpus[row.gpu], version) for row in [*plan.add, *(r for _, r in plan.change)]
    )
    try:
        commit_change(session)
    except StaleRecord:  # an offer to add was added meanwhile: one current row per offer
        raise ValueError("some of these offers were added since the preview; upload the file again") from None
    return version
