"""Dated copies of offers the first catalog shipped undated or older (dated_offers_2026_12.csv, read from
the team's dated_offers.csv; see seed_data/README.md): each dates or reprices the current version of
one on-demand offer, as a new version, so the older one stays in history with its old price."""

from __future__ import annotations

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.catalog.rows import OFFER_CHECKS
from app.catalog.seed import rows_of
from app.catalog.tables import OfferVersion

PUBLISHERS = {
    "official": "the provider",
    "transcription": "a copy of the provider's page or price list",
    "third_party": "a third party",
}
"""Who published a dated copy, in the words of an offer's notes (offers keep no source kind of their own)."""


def dated_notes(row: dict[str, str]) -> str:
    """What the copy says and who published it, then the research's trail (`Read from:`), which the
    page keeps out of the notes a reader sees (app/wording.py `plain_note`)."""
    published = f'Published by {PUBLISHERS[row["source_kind"]]}, which reads: "{row["quote"]}"'
    return f"{row['notes']} {published} Read from: {row['read_from']}."


def dated_offers_2026_12(session: Session, version: int) -> None:
    """Each line replaces its offer's current version with one of the line's price, as-of, source and
    notes; every other field is kept. An offer the line names must be in the catalog."""
    for row in rows_of("dated_offers_2026_12.csv"):
        current = session.exec(
            select(OfferVersion).where(OfferVersion.key == row["key"], col(OfferVersion.valid_to).is_(None))
        ).one()
        changes = {name: OFFER_CHECKS[name](row[name]) for name in ("as_of", "source_url")}
        changes["price"] = OFFER_CHECKS["price"](row["price_usd"])
        changes["notes"] = OFFER_CHECKS["notes"](dated_notes(row))
        fields = current.model_dump(exclude={"id", "valid_from", "valid_to"})
        session.execute(update(OfferVersion).where(col(OfferVersion.id) == current.id).values(valid_to=version))
        session.add(OfferVersion.model_validate(fields | changes | {"valid_from": version}))
