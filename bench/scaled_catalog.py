"""A catalog N times the shipped one, in a real database, for benchmarks that ask how the cost of
a request grows with the number of offers.

Every provider is copied N-1 times ("lambda~x3"), each copy with its egress and storage prices
times its own factor between 0.8 and 1.2, and every current offer is copied to each copy of its
provider at its price times another such factor (seeded, so runs compare); all in one new catalog
version. So the copies are what many more providers would be: each with its own egress and
storage prices, and cheaper or dearer than the original by offer, so the cheapest offer of an
option moves among them as GPU-hours and data volumes change. (Copies under the same provider
would be easier: offers of one provider and option share their egress and storage price, and only
the cheapest of them can ever be the cheapest of the option.)
"""

from __future__ import annotations

import random
from decimal import Decimal

from sqlmodel import Session, SQLModel, col, select

from app.catalog.changes import commit_change, new_version
from app.catalog.rows import offer_key
from app.catalog.tables import EgressTierVersion, GpuModel, OfferVersion, Provider, ProviderHeadquarters, StoragePrice
from app.catalog.updates import bring_up_to_date
from app.platform.db import make_engine

CENT = Decimal("0.01")


def shipped_times(url: str, factor: int, seed: int = 12) -> int:
    """Brings the database at `url` up to date (shipped catalog) and grows it `factor`-fold;
    returns the number of current offers."""
    bring_up_to_date(url)
    engine = make_engine(url)
    with Session(engine) as session:
        if factor > 1:
            _grow(session, factor, random.Random(seed))
        count = len(session.exec(select(OfferVersion.id).where(col(OfferVersion.valid_to).is_(None))).all())
    engine.dispose()
    return count


def _grow(session: Session, factor: int, draw: random.Random) -> None:
    version = new_version(session, f"benchmark: the shipped providers and offers {factor} times", "bench")
    gpus = {g.id: g.name for g in session.exec(select(GpuModel))}
    offers = list(session.exec(select(OfferVersion).where(col(OfferVersion.valid_to).is_(None))))
    for copy in range(1, factor):
        for provider in list(session.exec(select(Provider).where(~col(Provider.slug).contains("~")))):
            twin = Provider(slug=f"{provider.slug}~x{copy}", name=f"{provider.name} (copy {copy})")
            session.add(twin)
            session.flush()
            dearer = Decimal(draw.uniform(0.8, 1.2))
            for table, price in ((EgressTierVersion, "per_gb"), (StoragePrice, "per_gb_month")):
                for row in _current(session, table, provider.id):
                    session.add(_copied(row, version, provider_id=twin.id, **{price: getattr(row, price) * dearer}))
            for hq in _current(session, ProviderHeadquarters, provider.id):
                session.add(_copied(hq, version, provider_id=twin.id))
            for o in (o for o in offers if o.provider_id == provider.id):
                region = f"{o.region}~x{copy}"
                price = max(CENT, (o.price * Decimal(draw.uniform(0.8, 1.2))).quantize(CENT))
                key = offer_key(twin.slug, o.product, gpus[o.gpu_model_id], region, o.billing, o.currency)
                session.add(_copied(o, version, provider_id=twin.id, key=key, region=region, price=price))
    commit_change(session)


def _current(session: Session, table: type[SQLModel], provider_id: int | None) -> list[SQLModel]:
    query = select(table).where(table.provider_id == provider_id, col(table.valid_to).is_(None))  # type: ignore[attr-defined]
    return list(session.exec(query))


def _copied(row: SQLModel, version: int, **changes: object) -> SQLModel:
    fields = row.model_dump(exclude={"id", "valid_from", "valid_to"}) | changes
    return type(row)(**fields, valid_from=version)
