"""A small catalog whose numbers are easy to check by hand."""

from sqlmodel import Session

from tests.factories import make_offer, make_provider

FREE_100_THEN_9_CENTS = [(0, 100, "0"), (100, None, "0.09")]


def hand_checked_catalog(session: Session) -> dict[str, int]:
    """Cloud (US, 100 GB free then 0.09/GB): on demand 2.50/GPU-h; bare-metal host (DE HQ, in
    Germany, no egress fees): one-GPU node at 1,250 a month; serverless at 0.001 USD/s."""
    cloud = make_provider(session, "cloud", "US", FREE_100_THEN_9_CENTS)
    metal = make_provider(session, "metal", "DE", [(0, None, "0")])
    fn = make_provider(session, "fn", "US", [(0, None, "0")])
    return {
        "on_demand": make_offer(session, cloud, "2.50").id,
        "node": make_offer(
            session, metal, "1250", "bare_metal", "monthly", "month", region="fra1", region_country="DE"
        ).id,
        "serverless": make_offer(
            session, fn, "0.001", "serverless", "per_second", "second", region="any", region_country=None
        ).id,
    }
