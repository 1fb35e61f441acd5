"""A product's fabric added or changed: a catalog version of its own (which is also the audit log's entry),
refused if the fabric changed since the admin's form was opened, or if no offer of the provider is the
product it is stated for."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app.catalog.changes import Change, last_change, replace_record
from app.catalog.fabric import OfferFabricVersion
from app.catalog.queries import provider_by_slug
from app.catalog.tables import OfferVersion, Provenance

FABRIC_RECORD = ("provider_id", "product")
"""What names a fabric across versions: a provider's product."""


def offered_product(session: Session, provider: str, product: str) -> str:
    """`product`, if a current offer of the provider (by slug) is of it: a fabric of nothing on sale would
    quote nothing, and a misspelt one would leave the offer it meant without its fabric."""
    found = provider_by_slug(session, provider)
    current = col(OfferVersion.valid_to).is_(None)
    of_it = select(OfferVersion.id).where(current, OfferVersion.product == product)
    if found is None or session.exec(of_it.where(OfferVersion.provider_id == found.id)).first() is None:
        raise ValueError(f"no offer of {provider} is of this product: add the offer first (New offer), as its product")
    return product


def fabric_changed(session: Session, provider: str, product: str) -> int:
    """The last version that added or changed the fabric of a provider's (by slug) product (0: none): an
    edit's `based_on`."""
    found = provider_by_slug(session, provider)
    return last_change(session, OfferFabricVersion, FABRIC_RECORD, (found.id, product)) if found else 0


def save_fabric(
    session: Session, provider: str, product: str, fabric: dict[str, Any], provenance: Provenance, change: Change
) -> int:
    """`fabric`: every field of FABRIC_CHECKS but the product, checked (`fabric_refused` and `offered_product`
    too). The provider's (by slug) product's one current fabric from a new version on; StaleRecord if it
    changed since `change.based_on`. Returns the version."""
    found = provider_by_slug(session, provider)
    assert found is not None and found.id is not None, "the form checks the provider is in the catalog"
    return replace_record(session, OfferFabricVersion, FABRIC_RECORD, (found.id, product),
                          f"fabric {provider} {product}", change, provenance, [fabric])  # fmt: skip
