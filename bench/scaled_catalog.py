"""A catalog N times the shipped one, in a real database, for benchmarks that ask how the cost of
a request grows with the number of offers.

Every current offer is copied N-1 times into one new catalog version, each copy in a region of its
own ("us-east-1~x3") at the original's price times a factor between 0.8 and 1.2 (seeded, so runs
compare). Copies keep their provider, so they carry its egress and storage prices, as a provider's
other regions do; some copies are cheaper than the original, so the cheapest offer of an option
moves among them as GPU-hours change.
"""

from __future__ import annotations

import random
from decimal import Decimal

from sqlmodel import Session, col, select

from app.catalog.changes import commit_change, new_version
from app.catalog.rows import offer_key
from app.catalog.tables import GpuModel, OfferVersion, Provider
from app.catalog.updates import bring_up_to_date
from app.db import make_engine

CENT = Decimal("0.01")


def shipped_times(url: str, factor: int, seed: int = 12) -> int:
    """Brings the database at `url` up to date (shipped catalog) and grows it `factor`-fold;
    returns the number of current offers."""
    bring_up_to_date(url)
    if factor <= 1:
        return _current_offers(url)
    draw = random.Random(seed)
    engine = make_engine(url)
    with Session(engine) as session:
        providers = {p.id: p.slug for p in session.exec(select(Provider))}
        gpus = {g.id: g.name for g in session.exec(select(GpuModel))}
        originals = list(session.exec(select(OfferVersion).where(col(OfferVersion.valid_to).is_(None))))
        version = new_version(session, f"benchmark: the shipped offers {factor} times", "bench")
        for copy in range(1, factor):
            for o in originals:
                region = f"{o.region}~x{copy}"
                price = max(CENT, (o.price_usd * Decimal(draw.uniform(0.8, 1.2))).quantize(CENT))
                key = offer_key(providers[o.provider_id], o.product, gpus[o.gpu_model_id], region, o.billing)
                fields = o.model_dump(exclude={"id", "key", "region", "price_usd", "valid_from", "valid_to"})
                session.add(OfferVersion(**fields, key=key, region=region, price_usd=price, valid_from=version))
        commit_change(session)
    engine.dispose()
    return _current_offers(url)


def _current_offers(url: str) -> int:
    engine = make_engine(url)
    with Session(engine) as session:
        count = len(session.exec(select(OfferVersion.id).where(col(OfferVersion.valid_to).is_(None))).all())
    engine.dispose()
    return count
