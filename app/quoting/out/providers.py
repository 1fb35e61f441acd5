"""A provider's sourced facts as JSON: headquarters, egress tiers and checkpoint storage, each with
where it came from."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from typing import Any

from pydantic import BaseModel, Field, model_validator

from app.catalog.provider_facts import ProviderRecord, TierRecord
from app.catalog.wording import plain_note, plain_words


class Sourced(BaseModel):
    source: str | None
    as_of: date | None = Field(description="as the source dates it; null where it states no date")
    source_kind: str = Field(
        description="official, transcription (a copy of the publisher's page), third_party or empty"
    )
    quote: str = Field(description="the source's own words, as read")
    notes: str = Field(description="what the fact means, as sentences")
    read_from: str = Field("", description="where the fact was taken from: copies, repositories and commits")

    @model_validator(mode="before")
    @classmethod
    def _trail_apart(cls, data: Any) -> Any:
        """The research's trail out of the notes a reader sees, and its words for its own steps said
        plainly (app/wording.py `plain_note`)."""
        if isinstance(data, dict) and "read_from" not in data:
            notes, trail = plain_note(data.get("notes") or "")
            source, kind = data.get("source"), data.get("source_kind") or ""
            plain = {"source": source and plain_words(source), "source_kind": plain_words(kind)}
            return data | plain | {"notes": notes, "read_from": trail}
        return data


class TierOut(Sourced):
    from_gb: float
    to_gb: float | None = Field(description="null: no end; past a tier with an end no price is published")
    usd_per_gb: float = Field(description="per GB of egress, or per GB-month of storage, in USD at the version's rate")
    per_gb: float = Field(description="the same, as published, in `currency`")
    currency: str = Field(description="the currency the tier is published in; empty where the source states none")

    @classmethod
    def of(cls, t: TierRecord) -> TierOut:
        return cls(from_gb=t.tier.from_gb, to_gb=t.tier.to_gb, usd_per_gb=t.tier.usd_per_gb, per_gb=float(t.published),
                   currency=t.currency, source=t.source, as_of=t.as_of, source_kind=t.source_kind, quote=t.quote,
                   notes=t.notes)  # fmt: skip


class StorageOut(BaseModel):
    kind: str = Field(description="block_volume or shared_filesystem: where GPU users keep checkpoints")
    product: str
    tiers: list[TierOut]


class HeadquartersOut(Sourced):
    country: str | None


class ProviderOut(BaseModel):
    slug: str
    name: str
    notes: str
    headquarters: HeadquartersOut | None
    egress_tiers: list[TierOut] = Field(description="empty: no published egress price")
    storage: StorageOut | None = Field(description="null: no published storage price")

    @classmethod
    def of(cls, p: ProviderRecord) -> ProviderOut:
        hq = p.headquarters
        return cls(
            slug=p.slug,
            name=p.name,
            notes=plain_note(p.notes)[0],
            headquarters=None if hq is None else HeadquartersOut(**asdict(hq)),
            egress_tiers=[TierOut.of(t) for t in p.egress_tiers],
            storage=None
            if p.storage is None
            else StorageOut(
                kind=p.storage.kind, product=p.storage.product, tiers=[TierOut.of(t) for t in p.storage.tiers]
            ),
        )
