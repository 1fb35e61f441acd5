"""The catalog in, in bulk: CSV in SkyPilot's format or our own export, previewed as a plan of new
and changed offers, and applied as one catalog version or not at all; and a JSON export loaded
into an empty database."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.catalog.changes import StaleRecord, commit_change, new_version
from app.catalog.files import csv_rows, line_count
from app.catalog.plans import ImportPlan, OfferPlanner, check_room, current_offer_count
from app.catalog.rows import OFFER_CHECKS, OFFER_COLUMNS, OPTIONAL_COLUMNS, OfferRow, check_offer_fields, offer_key
from app.catalog.tables import (
    CatalogVersion,
    EgressTierVersion,
    ExchangeRate,
    GpuModel,
    OfferVersion,
    PendingImport,
    Provider,
    ProviderHeadquarters,
    StoragePrice,
)
from app.catalog.text_rules import plain_text
from app.costing.money import USD
from app.costing.terms import Billing, PricePeriod
from app.platform.db import rows_touched
from app.platform.settings import settings

SKYPILOT_COLUMNS = frozenset({"InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "SpotPrice", "Region"})
"""The columns of a SkyPilot catalog CSV that an offer is read from (vCPUs and MemoryGiB may be absent)."""


def _checked(name: str, value: Any) -> Any:
    """A check's message prefixed with the column it is about."""
    try:
        return value()
    except ValueError as e:
        raise ValueError(f"{name} {e}") from None


def skypilot_machine(line: dict[str, str]) -> dict[str, Any]:
    """An instance's vcpus and ram_gib from SkyPilot's vCPUs and MemoryGiB columns, which a file may leave out."""
    return {
        field: _checked(
            column, lambda field=field, column=column: OFFER_CHECKS[field]((line.get(column) or "").strip())
        )
        for field, column in (("vcpus", "vCPUs"), ("ram_gib", "MemoryGiB"))
    }


def _skypilot_rows(
    line: dict[str, str], provider: str, tenancy: str, source_url: str, as_of: date | None
) -> list[OfferRow]:
    gpu = line["AcceleratorName"].strip()
    product = _checked("InstanceType", lambda: OFFER_CHECKS["product"](line["InstanceType"]))
    region = _checked("Region", lambda: OFFER_CHECKS["region"](line["Region"]))
    count = _checked("AcceleratorCount", lambda: OFFER_CHECKS["gpus_per_unit"](line["AcceleratorCount"].strip()))
    if not line["Price"].strip():
        raise ValueError("Price is empty")
    prices = [
        (billing, _checked(column, lambda text=text: OFFER_CHECKS["price"](text.strip())))
        for billing, column, text in [
            (Billing.ON_DEMAND, "Price", line["Price"]),
            (Billing.SPOT, "SpotPrice", line["SpotPrice"]),
        ]
        if text.strip()
    ]
    return [
        OfferRow(key=offer_key(provider, product, gpu, region, billing), provider=provider, gpu=gpu, product=product,
                 tenancy=tenancy, billing=billing, gpus_per_unit=count, price=price, price_period=PricePeriod.HOUR,
                 region=region, source_url=source_url, as_of=as_of, **skypilot_machine(line))
        for billing, price in prices
        if price != 0
    ]  # fmt: skip


EARLIER_NAMES = {
    "price_usd": "price",
    "setup_fee_usd": "setup_fee",
    "usd_per_gb": "per_gb",
    "usd_per_gb_month": "per_gb_month",
}
"""Our exports' names before prices carried their currency: every price in them is USD."""


def _renamed(fields: dict[str, Any]) -> dict[str, Any]:
    return {EARLIER_NAMES.get(name, name): value for name, value in fields.items()}


def _own_row(line: dict[str, str]) -> OfferRow:
    """A row of our export, checked as the admin's forms check a new offer."""
    line = {"currency": USD.code} | _renamed(line)
    values, errors = check_offer_fields(line)
    if errors:
        name, message = next(iter(errors.items()))
        raise ValueError(f"{name} {message}")
    row = OfferRow(key=line["key"], provider=line["provider"], gpu=line["gpu"], **values)
    if row.key != offer_key(row.provider, row.product, row.gpu, row.region, row.billing, row.currency):
        raise ValueError("key does not match provider:product:gpu:region:billing (and the currency, if not USD)")
    return row


def plan_import(
    session: Session, text: str, version: int, provider: str = "", tenancy: str = "virtualized",
    source_url: str = "", as_of: date | None = None,
) -> ImportPlan:  # fmt: skip
    """Read a CSV in SkyPilot's format (needs provider, source and date) or our export format, up to
    the line that would bring the catalog past CATALOG_OFFERS_MAX, if any."""
    plan = ImportPlan()
    if (rows := line_count(text) - 1) > max(settings.catalog_offers_max, current_offer_count(session)):
        plan.problems.append((1, _too_many_rows(rows)))
        return plan
    reader = csv_rows(text)
    try:
        skypilot = _header_says_skypilot(reader, bool(provider and source_url and as_of))
    except ValueError as e:
        plan.problems.append((1, str(e)))
        return plan
    planner = OfferPlanner(session, version, plan)
    for line_no, line in _numbered_lines(reader, plan):
        plan.rows += 1
        try:
            found = _line_offers(line, skypilot, provider, tenancy, source_url, as_of)
        except (ValueError, KeyError, TypeError, ArithmeticError) as e:
            plan.problems.append((line_no, str(e)))
            continue
        for row in found:
            planner.add(line_no, row)
        if planner.full:
            break
    return plan


def _too_many_rows(rows: int) -> str:
    """A file refused before it is read: each of its rows names an offer of its own (or is a problem),
    so more rows than the catalog holds offers add some, and more than a version may hold could never
    apply; reading them would cost a process tens of MB (bench/bench_budget.py)."""
    return (
        f"the file has {rows:,} rows, more offers than one catalog version may hold "
        f"({settings.catalog_offers_max:,}, CATALOG_OFFERS_MAX): import fewer rows"
    )


def _header_says_skypilot(reader: csv.DictReader[str], told_source: bool) -> bool:
    """Whether the header is SkyPilot's catalog format rather than our export's. ValueError, saying
    why, where it is unreadable, names a column by both its earlier and its present name, or is
    neither; or where it is SkyPilot's and the provider, source and date it lacks were not told."""
    try:
        columns = set(reader.fieldnames or [])
    except csv.Error as e:
        raise ValueError(f"unreadable CSV: {e}") from None
    if both := sorted(old for old, new in EARLIER_NAMES.items() if {old, new} <= columns):
        raise ValueError(f"the header names both {both[0]} and {EARLIER_NAMES[both[0]]}: keep one")
    columns = {EARLIER_NAMES.get(name, name) for name in columns}
    skypilot = SKYPILOT_COLUMNS <= columns
    if not skypilot and not set(OFFER_COLUMNS) - set(OPTIONAL_COLUMNS) <= columns:
        raise ValueError("the header is neither SkyPilot's catalog format nor this calculator's export")
    if skypilot and not told_source:
        raise ValueError("a SkyPilot file needs the provider, the source address and the as-of date")
    return skypilot


def _numbered_lines(reader: csv.DictReader[str], plan: ImportPlan) -> Iterator[tuple[int, dict[str, str]]]:
    """Each line after the header, by its number in the file, up to the first the CSV reader cannot
    read: that one is a problem of the plan, and the lines after it are not read."""
    lines = enumerate(reader, start=2)
    while True:
        try:
            numbered = next(lines)
        except StopIteration:
            return
        except csv.Error as e:
            plan.problems.append((reader.line_num, f"unreadable CSV: {e}"))
            return
        yield numbered


def _line_offers(
    line: dict[str, str], skypilot: bool, provider: str, tenancy: str, source_url: str, as_of: date | None
) -> list[OfferRow]:
    """The offers one line states; a ValueError (or a bad cell's KeyError, TypeError or
    ArithmeticError) saying why where it states none."""
    if None in line.values() or None in line:
        raise ValueError("the row has a different number of fields than the header")
    if not skypilot:
        return [_own_row(line)]
    if not line["AcceleratorName"].strip():
        raise ValueError("no accelerator: not a GPU offer")
    return _skypilot_rows(line, provider, tenancy, source_url, as_of)


def save_pending_import(session: Session, plan: ImportPlan, version: int, who: str) -> PendingImport:
    """Keep a previewed plan until its admin confirms it."""
    pending = PendingImport(created_by=who, catalog_version=version, plan=plan.dump())
    session.add(pending)
    session.commit()
    session.refresh(pending)
    return pending


def claim_pending_import(session: Session, pending_id: int) -> ImportPlan:
    """Mark a waiting import as applied, in the transaction that applies it: two clicks apply it once.
    StaleRecord if there is no such import waiting."""
    claimed = session.execute(
        update(PendingImport)
        .where(col(PendingImport.id) == pending_id, col(PendingImport.applied).is_(False))
        .values(applied=True)
    )
    if rows_touched(claimed) != 1:
        session.rollback()
        raise StaleRecord("this import is applied already, or was never previewed")
    pending = session.get(PendingImport, pending_id)
    assert pending is not None
    return ImportPlan.load(pending.plan)


def apply_import(session: Session, plan: ImportPlan, note: str, who: str) -> int:
    """All of the plan in one transaction, as one catalog version; a row changed meanwhile spoils it all."""
    version = new_version(session, note, who, f"import of {len(plan.add)} new and {len(plan.change)} changed offers")
    ids = {name: i for i, name in session.exec(select(Provider.id, Provider.slug)) if i is not None}
    gpus = {name: i for i, name in session.exec(select(GpuModel.id, GpuModel.name)) if i is not None}
    changed_ids = [row_id for row_id, _ in plan.change]
    for start in range(0, len(changed_ids), 500):
        chunk = changed_ids[start : start + 500]
        closed = session.execute(
            update(OfferVersion)
            .where(col(OfferVersion.id).in_(chunk), col(OfferVersion.valid_to).is_(None))
            .values(valid_to=version)
        )
        if rows_touched(closed) != len(chunk):
            session.rollback()
            raise ValueError("some of these offers were changed since the preview; upload the file again")
    session.add_all(
        OfferVersion.of_row(row, ids[row.provider], gpus[row.gpu], version)
        for row in [*plan.add, *(r for _, r in plan.change)]
    )
    try:
        commit_change(session)
    except StaleRecord:  # an offer to add was added meanwhile: one current row per offer
        raise ValueError("some of these offers were added since the preview; upload the file again") from None
    return version


def load_catalog(session: Session, data: dict[str, Any], who: str = "system") -> int:
    """An export, loaded into a database without a catalog, as its first version; CatalogFull (a
    ValueError) if it holds more offers than CATALOG_OFFERS_MAX."""
    if session.exec(select(CatalogVersion.id).limit(1)).first() is not None:
        raise ValueError("this database already has a catalog; import offers through the admin page instead")
    check_room(0, len(data["offers"]), "this export", "load an export of fewer offers, or raise CATALOG_OFFERS_MAX")
    _check_texts(data)
    version = new_version(session, f"loaded an export of catalog version {data['catalog_version']}", who, "catalog")
    providers, gpus = {}, {}
    for p in data["providers"]:
        provider = Provider(slug=p["slug"], name=p["name"], notes=p["notes"])
        session.add(provider)
        session.flush()
        assert provider.id is not None
        providers[p["slug"]] = provider.id
        tables = (ProviderHeadquarters, "headquarters"), (EgressTierVersion, "egress_tiers"), (StoragePrice, "storage")
        for table, key in tables:
            for r in p[key]:
                session.add(table.model_validate(_renamed(r) | {"provider_id": provider.id, "valid_from": version}))
    for g in data["gpu_models"]:
        gpu = GpuModel(name=g["name"], memory_gib=g["memory_gib"])
        session.add(gpu)
        session.flush()
        assert gpu.id is not None
        gpus[g["name"]] = gpu.id
    for r in data.get("exchange_rates", []):
        session.add(ExchangeRate.model_validate(r | {"valid_from": version}))
    for o in data["offers"]:
        row = OfferRow.model_validate(_renamed(o))
        session.add(OfferVersion.of_row(row, providers[row.provider], gpus[row.gpu], version))
    commit_change(session)
    return version


def _check_texts(data: Any, where: str = "") -> None:
    """Every text of an export, refused as the forms refuse text (a NUL, say); the message says where."""
    if isinstance(data, str):
        _checked(where, lambda: plain_text(data))
    elif isinstance(data, dict):
        for key, value in data.items():
            _check_texts(value, f"{where}.{key}" if where else key)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            _check_texts(value, f"{where}[{i}]")
