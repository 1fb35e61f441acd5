"""The dedicated and EU side of the market (offers_2026_12.csv, with its providers, their facts and
four GPU models; read from the team's third pass, see seed_data/README.md): new providers and
offers, each in the currency it is published in, with its minimum term and setup fee."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from app.catalog import rows as check
from app.catalog.dated_offers import PUBLISHERS
from app.catalog.rows import OfferRow, check_offer_fields, offer_key
from app.catalog.seed import rows_of
from app.catalog.shipped_facts import replace_provider_facts
from app.catalog.tables import GpuModel, OfferVersion, Provider


def offer_notes(row: dict[str, str]) -> str:
    """What the offer is, then who published the price and its words: offers keep no quote of their own."""
    return f'{row["notes"]} Published by {PUBLISHERS[row["source_kind"]]}, which reads: "{row["quote"]}"'.strip()


def offers_eu_dedicated_2026_12(session: Session, version: int) -> None:
    """GPU models and providers first (an admin may have added one, or a loaded export held them: those
    stay, as does an offer already current), the earlier providers' notes in plain words (the first catalog
    shipped the research's working notes), then the providers' headquarters, egress and storage, then
    the offers, each read through the checks an admin's new offer passes."""
    known_gpus = set(session.exec(select(GpuModel.name)))
    for row in rows_of("gpus_2026_12.csv"):
        if row["gpu"] not in known_gpus:
            session.add(GpuModel(name=check.gpu_name(row["gpu"]), memory_gib=check.memory_gib(row["memory_gib"])))
    known_providers = set(session.exec(select(Provider.slug)))
    for row in rows_of("providers_2026_12.csv"):
        if row["provider"] not in known_providers:
            session.add(
                Provider(slug=check.provider_slug(row["provider"]), name=row["display_name"], notes=row["notes"])
            )
    session.flush()
    notes = {row["provider"]: row["notes"] for row in rows_of("provider_notes_2026_12.csv")}
    for provider in session.exec(select(Provider).where(col(Provider.slug).in_(notes))):
        provider.notes = check.text(notes[provider.slug], 500, required=False)
        session.add(provider)
    replace_provider_facts(session, version, rows_of("provider_facts_2026_12.csv"), amount="price")
    offers_of_rows(session, version, rows_of("offers_2026_12.csv"))


def offers_of_rows(session: Session, version: int, rows: Iterable[dict[str, str]]) -> None:
    """New offers from rows in the columns of offers_2026_12.csv, each read through the checks an admin's new
    offer passes; an offer already current stays."""
    providers = {p.slug: p.id for p in session.exec(select(Provider)) if p.id is not None}
    gpus = {g.name: g.id for g in session.exec(select(GpuModel)) if g.id is not None}
    current = set(session.exec(select(OfferVersion.key).where(col(OfferVersion.valid_to).is_(None))))
    for row in rows:
        values, errors = check_offer_fields(row | {"notes": offer_notes(row)})
        if errors:
            raise ValueError(f"{row['provider']} {row['product']}: {errors}")
        key = offer_key(row["provider"], values["product"], row["gpu"], values["region"], values["billing"],
                        values["currency"])  # fmt: skip
        if key in current:
            continue
        offer = OfferRow(key=key, provider=row["provider"], gpu=row["gpu"], **values)
        session.add(OfferVersion.of_row(offer, providers[offer.provider], gpus[offer.gpu], version))
