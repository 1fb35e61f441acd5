"""The sources a refresh can read, by name, and a refresh planned as an import of what was read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import httpx
from sqlmodel import Session, select

from app.catalog.exports import current_offers
from app.catalog.plans import ImportPlan, OfferPlanner
from app.catalog.rows import OfferRow
from app.catalog.tables import GpuModel, Provider
from app.platform.settings import settings
from app.refresh.azure import read_azure
from app.refresh.fetch import Fetcher, RefreshFailed
from app.refresh.gpuhunt import PROVIDERS as GPUHUNT_PROVIDERS
from app.refresh.gpuhunt import read_gpuhunt
from app.refresh.oci import read_oci
from app.refresh.reading import SourceRows
from app.refresh.skypilot import CLOUDS, read_cloud

Reader = Callable[[Fetcher, date, dict[str, OfferRow], set[str]], SourceRows]


@dataclass(frozen=True)
class Source:
    name: str
    title: str
    read: Reader


def _skypilot(cloud: str) -> Source:
    def read(fetch: Fetcher, today: date, current: dict[str, OfferRow], gpus: set[str]) -> SourceRows:
        return read_cloud(fetch, settings.skypilot_catalog_url, cloud, today, current, gpus)

    return Source(f"skypilot:{cloud}", f"SkyPilot catalog, {cloud} (catalogs/v8/{cloud}/vms.csv)", read)


def _gpuhunt(provider: str) -> Source:
    def read(fetch: Fetcher, today: date, current: dict[str, OfferRow], gpus: set[str]) -> SourceRows:
        return read_gpuhunt(fetch, settings.gpuhunt_catalog_url, provider, current, gpus)

    name = f"gpuhunt:{GPUHUNT_PROVIDERS[provider]}"
    return Source(name, f"dstack gpuhunt catalog, {provider} (<version>/catalog.zip)", read)


SOURCES = {
    source.name: source
    for source in [
        *(_skypilot(cloud) for cloud in CLOUDS),
        *(_gpuhunt(provider) for provider in GPUHUNT_PROVIDERS),
        Source(
            "azure",
            "Azure Retail Prices API (GPU VM series)",
            lambda fetch, today, current, _: read_azure(fetch, settings.azure_prices_url, today, current),
        ),
        Source(
            "oci",
            "Oracle Cloud price list (GPU per hour)",
            lambda fetch, today, current, _: read_oci(fetch, settings.oci_prices_url, today, current),
        ),
    ]
}


def http_client() -> httpx.Client:
    """Public sources only: no credentials, a bounded wait, and no redirects (a source that moved
    answers with its status, and the address in the settings is changed by hand)."""
    return httpx.Client(timeout=settings.refresh_timeout_s, headers={"User-Agent": "gpucost-refresh"})


def plan_refresh(db: Callable[[], Session], version: int, name: str, client: httpx.Client) -> ImportPlan:
    """Fetch `name` and plan its prices against catalog `version`, dated today. RefreshFailed if the
    source cannot be read whole; then nothing is planned. Planning stops at the offer that would
    bring the catalog past CATALOG_OFFERS_MAX, a problem of the plan. The database is read before
    the fetch and after it, each time in a session of its own, never held while the source answers."""
    with db() as session:
        current = {row.key: row for _, row in current_offers(session, version)}
        gpus = set(session.exec(select(GpuModel.name)).all())
        providers = set(session.exec(select(Provider.slug)).all())
    try:
        read = SOURCES[name].read(Fetcher(client), date.today(), current, gpus)
    except (LookupError, TypeError, AttributeError, ValueError) as e:
        raise RefreshFailed(f"{SOURCES[name].title} answered in a shape it does not publish ({e!r:.200})") from None
    _leave_out_unknown_providers(read, providers)
    plan = ImportPlan(problems=list(read.problems))
    with db() as session:
        planner = OfferPlanner(session, version, plan, "this source")
    for where, row in read.rows:
        plan.rows += 1
        planner.add(where, row)
        if planner.full:
            break
    by_count = sorted(read.left_out.items(), key=lambda reason_count: (-reason_count[1], reason_count[0]))
    plan.left_out = [f"{count} left out: {reason}" for reason, count in by_count]
    return plan


def _leave_out_unknown_providers(read: SourceRows, providers: set[str]) -> None:
    """A provider the catalog does not have yet (gpuhunt's CloudRift) is left out, not refused: its
    facts are an admin's to add, and its prices come in with the refresh after."""
    for _, row in read.rows:
        if row.provider not in providers:
            read.left_out[f"provider {row.provider} is not in the catalog"] += 1
    read.rows = [(where, row) for where, row in read.rows if row.provider in providers]
