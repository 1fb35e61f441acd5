"""What shipped data updates share: a row's provenance, and a provider's facts (egress, storage,
headquarters), each fact in a file replacing that provider's current one."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from sqlmodel import Session, select

from app.catalog.changes import close_current
from app.catalog.provider_changes import FACT_TABLES, egress_columns, storage_columns
from app.catalog.seed import shipped_day
from app.catalog.tables import Provenance, Provider, ProviderHeadquarters
from app.catalog.tier_rows import TierRow, priced_tiers
from app.costing.money import USD
from app.costing.tiers import check_tiers


def provenance(row: dict[str, str]) -> dict[str, Any]:
    fields = Provenance(
        source=row["source"],
        as_of=shipped_day(row["as_of"]),
        source_kind=row["source_kind"],
        quote=row["quote"],
        notes=row["notes"],
    )
    return fields.model_dump()


def _tiers(lines: list[dict[str, str]], amount: str) -> list[TierRow]:
    tiers = [(Decimal(r["from_gb"]), Decimal(r["to_gb"]) if r["to_gb"] else None, Decimal(r[amount])) for r in lines]
    check_tiers(priced_tiers(tiers))
    return tiers


def replace_provider_facts(session: Session, version: int, rows: Iterable[dict[str, str]], amount: str) -> None:
    """Each fact the rows hold replaces that provider's current one; facts they do not hold stay as they
    were. `amount`: the column of a tier's price, in the row's `currency` (USD in files that have none)."""
    facts: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        facts[row["provider"], row["fact"]].append(row)
    ids = {p.slug: p.id for p in session.exec(select(Provider)) if p.id is not None}
    for (slug, fact), lines in facts.items():
        provider_id = ids[slug]
        close_current(session, FACT_TABLES[fact], "provider_id", provider_id, version)
        if fact == "headquarters":
            (row,) = lines
            session.add(
                ProviderHeadquarters(
                    provider_id=provider_id, country=row["country"] or None, valid_from=version,
                    **provenance(row) | {"source": row["source"] or None},
                )
            )  # fmt: skip
            continue
        for tier, row in zip(_tiers(lines, amount), lines, strict=True):
            currency = row.get("currency", USD.code)
            if fact == "egress":
                columns = egress_columns(tier, currency)
            else:
                columns = storage_columns(tier, currency, row["kind"], row["product"])
            session.add(FACT_TABLES[fact](provider_id=provider_id, valid_from=version, **columns, **provenance(row)))
