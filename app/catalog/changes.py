"""The one way prices change: a new catalog version that closes old rows and adds new ones.

Each version records who made it, which record it touched and why: it is the audit log too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from types import EllipsisType
from typing import Any

from sqlalchemy import ColumnElement, and_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.catalog.plans import check_room, current_offer_count
from app.catalog.snapshot import catalogs_for
from app.catalog.tables import CatalogVersion, GpuModel, OfferVersion, Provenance, Versioned
from app.platform.db import lock_record, rows_touched

RETIRE_FIRST = "retire offers first"


class StaleRecord(Exception):
    """The row was already replaced or retired by another change."""


@dataclass(frozen=True)
class Change:
    """Why a record changes and who changes it, as its catalog version (the audit log's entry) says,
    and what the change was based on: the record's `last_change` when the admin's form was opened,
    None where nothing is checked (the change of a script or a test)."""

    note: str
    who: str = "system"
    based_on: int | None = None


def commit_change(session: Session) -> None:
    """Commit a new version; if another change to the same offer landed first, nothing is kept."""
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise StaleRecord("another change to the same record landed first") from None
    catalogs_for(session.get_bind().engine).forget_newest()


def new_version(session: Session, note: str, who: str = "system", record: str = "") -> int:
    version = CatalogVersion(note=note, created_by=who, record=record)
    session.add(version)
    session.flush()
    assert version.id is not None
    return version.id


Columns = str | tuple[str, ...]
"""What names a record of a table across versions: a column (a preset's key), or several (a GPU
model's peak at a precision), whose value is then a tuple of theirs."""


def _naming(column: Columns, value: object) -> dict[str, Any]:
    """The columns that name a record, with their values."""
    if isinstance(column, str):
        return {column: value}
    assert isinstance(value, tuple)
    return dict(zip(column, value, strict=True))


def _of_record(table: type[Versioned], column: Columns, value: object) -> ColumnElement[bool]:
    return and_(*(col(getattr(table, name)) == part for name, part in _naming(column, value).items()))


def last_change(session: Session, table: type[Versioned], column: Columns, value: object) -> int:
    """The last catalog version that added or closed a row of `table` whose `column` is `value`
    (a provider's fact, a currency's rate, a preset): an edit based on an earlier one is out of date."""
    changed = func.max(func.coalesce(table.valid_to, table.valid_from))
    return session.exec(select(changed).where(_of_record(table, column, value))).one() or 0


def close_current(session: Session, table: type[Versioned], column: Columns, value: object, version: int) -> int:
    """Close the current rows of a record at `version`; returns how many there were."""
    closed = session.execute(
        update(table).where(_of_record(table, column, value), col(table.valid_to).is_(None)).values(valid_to=version)
    )
    return rows_touched(closed)


def replace_current(
    session: Session, table: type[Versioned], column: Columns, value: object, record: str, change: Change
) -> tuple[int, int]:
    """Open a new version for one record and close its current rows, unless someone changed it since
    `change.based_on` (checked under the record's lock, so concurrent edits see each other). Returns
    the version and how many rows were closed."""
    lock_record(session, record)
    version = new_version(session, change.note, change.who, record)
    if change.based_on is not None and last_change(session, table, column, value) != change.based_on:
        session.rollback()
        raise StaleRecord("changed by someone else since it was opened")
    return version, close_current(session, table, column, value, version)


def replace_record(
    session: Session, table: type[Versioned], column: Columns, value: object, record: str, change: Change,
    provenance: Provenance, rows: Iterable[dict[str, Any]],
) -> int:  # fmt: skip
    """A sourced record anew from a new version on, refused as `replace_current` refuses: its current
    rows closed and a row of `table` added for each of `rows` (its columns besides those naming the
    record, the version and the provenance). Returns the version."""
    version, _ = replace_current(session, table, column, value, record, change)
    for row in rows:
        session.add(table(**_naming(column, value), **row, valid_from=version, **provenance.model_dump()))
    commit_change(session)
    return version


def _offer_row(session: Session, row_id: int) -> OfferVersion:
    row = session.get(OfferVersion, row_id)
    if row is None:
        raise StaleRecord(f"there is no offer row {row_id}")
    return row


def _replace_offer(session: Session, key: str, change: Change) -> int:
    """Open a new version for one offer and close its current row, unless it changed since `change.based_on`."""
    version, _ = replace_current(session, OfferVersion, "key", key, f"offer {key}", change)
    return version


def _copy(row: OfferVersion, version: int, **changes: object) -> OfferVersion:
    return OfferVersion.model_validate(
        row.model_dump(exclude={"id", "valid_from", "valid_to"}) | {"valid_from": version, **changes}
    )


def change_offer_price(
    session: Session,
    offer_id: int,
    price: Decimal,
    source_url: str,
    as_of: date,
    note: str,
    who: str = "system",
    setup_fee: Decimal | None | EllipsisType = ...,
) -> OfferVersion:
    """Replace an offer's price in a new version; the old row stays for quotes at earlier versions.
    The setup fee is part of the price: None for none, and left out it stays as it was.

    `offer_id` is the row the change was based on, so its version is the `based_on` of the change:
    if the offer changed since (a newer version, or retired), StaleRecord.
    """
    edited = _offer_row(session, offer_id)
    version = _replace_offer(session, edited.key, Change(note, who, based_on=edited.valid_from))
    fee = {} if isinstance(setup_fee, EllipsisType) else {"setup_fee": setup_fee}
    new = _copy(edited, version, price=price, source_url=source_url, as_of=as_of, **fee)
    session.add(new)
    commit_change(session)
    session.refresh(new)
    return new


def retire_offer(session: Session, offer_id: int, note: str, who: str = "system") -> int:
    """Take an offer out of new quotes; it stays in history. Returns the new version. Based on the
    row `offer_id`, as a price change is."""
    edited = _offer_row(session, offer_id)
    version = _replace_offer(session, edited.key, Change(note, who, based_on=edited.valid_from))
    commit_change(session)
    return version


def restore_offer(session: Session, row_id: int, note: str, who: str = "system") -> OfferVersion:
    """Bring back the values of an earlier row of an offer as a new version (closing the current one),
    unless the offer changes while this runs. CatalogFull if the offer is retired and bringing it
    back would take the catalog past CATALOG_OFFERS_MAX."""
    row = _offer_row(session, row_id)
    brought_back = 1 - current_offer_count(session, row.key)
    check_room(current_offer_count(session), brought_back, "this offer", RETIRE_FIRST)
    opened = last_change(session, OfferVersion, "key", row.key)
    version = _replace_offer(session, row.key, Change(note, who, based_on=opened))
    new = _copy(row, version)
    session.add(new)
    commit_change(session)
    session.refresh(new)
    return new


def add_gpu_model(session: Session, name: str, memory_gib: int, who: str) -> GpuModel:
    new_version(session, f"new GPU model {name} ({memory_gib} GiB)", who, f"gpu {name}")
    gpu = GpuModel(name=name, memory_gib=memory_gib)
    session.add(gpu)
    commit_change(session)
    session.refresh(gpu)
    return gpu


def add_offer(session: Session, offer: OfferVersion, note: str, who: str) -> OfferVersion:
    """A new offer (no earlier row with its key) from a new version on; CatalogFull if the catalog
    holds CATALOG_OFFERS_MAX current offers already."""
    check_room(current_offer_count(session), 1, "this offer", RETIRE_FIRST)
    offer.valid_from = new_version(session, note, who, f"offer {offer.key}")
    session.add(offer)
    commit_change(session)
    session.refresh(offer)
    return offer


def retire_offers_of(
    session: Session, who: str, note: str, provider_id: int | None = None, gpu_model_id: int | None = None
) -> int:
    """Retire every current offer of a provider or of a GPU model in one version (history stays)."""
    record = f"provider {provider_id}" if provider_id is not None else f"gpu {gpu_model_id}"
    version = new_version(session, note, who, f"{record} retired")
    query = update(OfferVersion).where(col(OfferVersion.valid_to).is_(None))
    if provider_id is not None:
        query = query.where(col(OfferVersion.provider_id) == provider_id)
    if gpu_model_id is not None:
        query = query.where(col(OfferVersion.gpu_model_id) == gpu_model_id)
    session.execute(query.values(valid_to=version))
    commit_change(session)
    return version
