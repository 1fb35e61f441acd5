"""The catalog's tables. Price records are versions: a change closes the old row and adds a new one.

A row belongs to catalog version v when valid_from <= v and (valid_to is None or v < valid_to),
so any quote can be recomputed exactly at any earlier version.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import BigInteger, Column, ColumnElement, Index, Numeric, and_, or_, text
from sqlmodel import Field, SQLModel, col

from app.catalog.rows import OfferBase, OfferRow
from app.costing.money import USD


def _now() -> datetime:
    return datetime.now(UTC)


def _numeric(scale: int = 8) -> Column[Decimal]:
    return Column(Numeric(20, scale, asdecimal=True), nullable=False)


def _optional_numeric(scale: int = 9) -> Column[Decimal]:
    return Column(Numeric(20, scale, asdecimal=True), nullable=True)


def one_current_row(table: str) -> Index:
    """At most one current row per `key` of a versioned table: two changes racing for one record cannot
    both land."""
    current = text("valid_to IS NULL")
    return Index(f"uq_{table}_current_key", "key", unique=True, sqlite_where=current, postgresql_where=current)


class SourceKind(StrEnum):
    """Who published a fact: the provider itself, a copy of its page, or someone else's model."""

    OFFICIAL = "official"
    TRANSCRIPTION = "transcription"
    THIRD_PARTY = "third_party"
    NOT_STATED = ""


class StorageKind(StrEnum):
    """Where a GPU user keeps checkpoints: a block volume on one machine or a network volume
    (shared filesystem) several can mount. Object storage is another product, not priced here."""

    BLOCK_VOLUME = "block_volume"
    SHARED_FILESYSTEM = "shared_filesystem"


# What every sourced fact of a provider carries besides its value.
class Provenance(SQLModel):
    source: str
    as_of: date | None = None
    """None where the source states no date: shown as "as of unknown", never guessed."""
    source_kind: str = SourceKind.NOT_STATED
    quote: str = ""
    """The source's own words, as read."""
    notes: str = ""


# The range of catalog versions a row belongs to, by the rule above: every table whose rows are
# versions has it (throughput_tables.py holds two, server_tables.py one).
class Versioned(SQLModel):
    valid_from: int = Field(foreign_key="catalogversion.id", index=True)
    valid_to: int | None = Field(default=None, foreign_key="catalogversion.id")


# One number per change of the catalog; quotes name the version they used. Also the audit log:
# who made the change, when, to which record, and why.
class CatalogVersion(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=_now)
    note: str
    created_by: str = Field(default="system", index=True)
    record: str = Field(default="", index=True)


# A company that rents GPUs; its headquarters, egress and storage prices are versioned rows of their own.
class Provider(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True)
    name: str
    notes: str = ""


# Where a provider is headquartered, in one range of catalog versions: the "not headquartered in
# the US" filter reads it, so a saved scenario must see the country it was quoted with.
class ProviderHeadquarters(Provenance, Versioned, table=True):
    id: int | None = Field(default=None, primary_key=True)
    provider_id: int = Field(foreign_key="provider.id", index=True)
    country: str | None = None
    source: str | None = None  # type: ignore[assignment]
    """None where no one has looked the headquarters up (the shipped rows, a provider added without a source)."""


# A GPU model and its memory per GPU.
class GpuModel(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    memory_gib: int


# One internet egress tier of a provider, in one range of catalog versions.
class EgressTierVersion(Provenance, Versioned, table=True):
    __tablename__ = "egresstier"

    id: int | None = Field(default=None, primary_key=True)
    provider_id: int = Field(foreign_key="provider.id", index=True)
    from_gb: Decimal = Field(sa_column=_numeric(9))
    to_gb: Decimal | None = Field(default=None, sa_column=_optional_numeric())
    per_gb: Decimal = Field(sa_column=_numeric())
    currency: str = USD.code


# One tier of the storage a provider's GPU users keep checkpoints on, per GB-month, in one range of
# catalog versions. A provider's current rows are the tiers of one product of one kind.
class StoragePrice(Provenance, Versioned, table=True):
    id: int | None = Field(default=None, primary_key=True)
    provider_id: int = Field(foreign_key="provider.id", index=True)
    kind: str = StorageKind.BLOCK_VOLUME
    product: str = ""
    from_gb: Decimal = Field(default=Decimal(0), sa_column=_numeric(9))
    to_gb: Decimal | None = Field(default=None, sa_column=_optional_numeric())
    per_gb_month: Decimal = Field(sa_column=_numeric())
    currency: str = USD.code


# What one unit of a display currency costs in USD, in one range of catalog versions: prices stay in
# the currency they were published in and are converted only for display, at the version's rate.
class ExchangeRate(Provenance, Versioned, table=True):
    id: int | None = Field(default=None, primary_key=True)
    currency: str = Field(index=True)
    usd_per_unit: Decimal = Field(sa_column=_numeric())


# A model's published architecture: what sizing reads to work out memory. `source` is the config file
# read; the parameter count may come from the model card. The table adds ids and versions, the record
# (presets.py) the shape sizing takes.
class PresetBase(Provenance):
    key: str = Field(index=True)
    name: str
    parameters: int = Field(sa_type=BigInteger)
    active_parameters: int | None = Field(default=None, sa_type=BigInteger)
    """For a mixture of experts: parameters used per token (memory still holds all of them)."""
    parameters_source: str = ""
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    kv_latent: int | None = None
    """Values cached per token and layer where attention compresses keys and values into one latent
    (DeepSeek's multi-head latent attention: 512 + 64); None: 2 x KV heads x head dimension."""
    default_context: int


# A model's published architecture in one range of catalog versions.
class ModelPresetVersion(PresetBase, Versioned, table=True):
    __tablename__ = "modelpreset"

    id: int | None = Field(default=None, primary_key=True)


# A data update shipped with the code, applied once to each database as a catalog version of its own.
class ShippedUpdate(SQLModel, table=True):
    name: str = Field(primary_key=True)
    catalog_version: int = Field(foreign_key="catalogversion.id")


# A previewed import waiting for the admin's confirmation; applied at most once.
class PendingImport(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    created_by: str
    created_at: datetime = Field(default_factory=_now)
    catalog_version: int
    """The version the preview was computed against; if the catalog moved on, upload again."""
    plan: str
    applied: bool = False


# One version of an offer, valid in one range of catalog versions; `key` names the offer across them.
class OfferVersion(OfferBase, Versioned, table=True):
    __tablename__ = "offer"
    __table_args__ = (one_current_row("offer"),)

    id: int | None = Field(default=None, primary_key=True)
    provider_id: int = Field(foreign_key="provider.id", index=True)
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)

    @classmethod
    def of_row(cls, row: OfferRow, provider_id: int, gpu_model_id: int, valid_from: int) -> OfferVersion:
        fields = row.model_dump(include=set(OfferBase.model_fields))
        return cls(**fields, provider_id=provider_id, gpu_model_id=gpu_model_id, valid_from=valid_from)

    def as_row(self, provider: str, gpu: str) -> OfferRow:
        """Every field given, so every such row shares one set of the fields given: pydantic's own set,
        one a row, was half of what a catalog version holds in memory (1.9 of 3.5 MB at the shipped size)."""
        row = OfferRow(**self.model_dump(include=set(OfferBase.model_fields)), provider=provider, gpu=gpu)
        object.__setattr__(row, "__pydantic_fields_set__", _EVERY_ROW_FIELD)
        return row


_EVERY_ROW_FIELD = set(OfferRow.model_fields)
"""Shared, so mutable as pydantic's own: a copy gets a set of its own, and an attribute set again adds a
field already there."""


ProviderTable = type[ProviderHeadquarters] | type[EgressTierVersion] | type[StoragePrice]
PROVIDER_TABLES: tuple[ProviderTable, ...] = (ProviderHeadquarters, EgressTierVersion, StoragePrice)
"""A provider's versioned facts: each is edited, and checked for concurrent edits, on its own."""


def valid_at(table: type[Versioned], version: int) -> ColumnElement[bool]:
    """Rows of `table` that belong to catalog version `version`."""
    return and_(col(table.valid_from) <= version, or_(col(table.valid_to).is_(None), col(table.valid_to) > version))
