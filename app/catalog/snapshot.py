"""The catalog as it stood at one version, read once and kept in memory for the slider's hot path.

A version never changes after it is made (a change makes a new version), so a snapshot can be
cached for as long as the process lives.
"""

from __future__ import annotations

import math
import time
import weakref
from collections import defaultdict
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import Engine
from sqlmodel import Session, col, func, select

from app.catalog.cache import Derived, Kept
from app.catalog.fabric import FabricRecord, fabrics_at
from app.catalog.offer_records import OfferRecord, UnpricedRecord, offer_record
from app.catalog.presets import PresetRecord, presets_at
from app.catalog.provider_facts import ProviderRecord, providers_at
from app.catalog.rates import RateRecord, rates_at
from app.catalog.servers import ServerRecord, servers_at
from app.catalog.tables import CatalogVersion, GpuModel, OfferVersion, valid_at
from app.catalog.throughput import (
    BandwidthRecord,
    PeakRecord,
    ScalingRecord,
    ThroughputRecord,
    bandwidths_at,
    peaks_at,
    scaling_at,
    throughput_at,
)
from app.costing import terms
from app.platform.one_at_a_time import OneAtATime
from app.platform.settings import settings


@dataclass(frozen=True)
class CatalogSnapshot:
    version: int
    created_at: datetime
    providers: dict[str, ProviderRecord]
    gpus: dict[str, int]
    offers: list[OfferRecord]
    offers_by_gpu: dict[str, list[OfferRecord]]
    regions: list[str]
    offers_by_id: dict[int, OfferRecord]
    unpriced: list[UnpricedRecord]
    """Offers listed as published but never quoted: no currency stated, or no rate for it here."""
    undated: int
    """Prices whose source states no date: shown "as of unknown", never given a guessed one."""
    rates: dict[str, RateRecord]
    """USD per unit of each display currency that has a rate at this version."""
    presets: dict[str, PresetRecord]
    """Model architectures sizing can start from, smallest first."""
    throughput: tuple[ThroughputRecord, ...]
    peaks: dict[tuple[str, str], PeakRecord]
    """What turns a job into GPU-hours: benchmarks, by kind, preset, GPU and key; dense peaks by (GPU, precision)."""
    bandwidths: dict[str, BandwidthRecord] = field(default_factory=dict)
    """Memory bandwidth by GPU model: with the peaks, what the estimate of a job without a benchmark rests on."""
    servers: dict[str, ServerRecord] = field(default_factory=dict)
    """Servers a buyer may own instead of renting, by key, ordered by GPU model and price."""
    scaling: tuple[ScalingRecord, ...] = ()
    """Training runs of one series at several cluster sizes: what a run across nodes keeps per doubling."""
    fabrics: dict[tuple[str, str], FabricRecord] = field(default_factory=dict)
    """Each product's network inside and between nodes, by provider slug and product, where a source states it."""
    derived: Derived = field(default_factory=lambda: Derived(_HELD_BY_THE_VERSION), compare=False, repr=False)
    """Work derived from this version (per set of inputs, what a move of the GPU-hours slider reuses;
    the explorer's rows), counted in the bytes it keeps: given up with the version when the process stops
    keeping it, never kept apart from it."""

    @property
    def listed(self) -> list[OfferRecord | UnpricedRecord]:
        """Every offer, in offer order: those a quote can use and those whose currency is not stated."""
        return self.derived.memo("listed", lambda: sorted([*self.offers, *self.unpriced], key=lambda o: o.offer_id))

    def fabric_of(self, offer: OfferRecord | UnpricedRecord) -> FabricRecord | None:
        """The network of the offer's product, where a source states it."""
        return self.fabrics.get((offer.provider.slug, offer.row.product))

    def unquoted(self, gpu: str) -> list[UnpricedRecord]:
        """A GPU's offers when none can be quoted and some are listed: what the page says instead of nothing."""
        if gpu in self.offers_by_gpu:
            return []
        return [o for o in self.unpriced if o.row.gpu == gpu]

    @property
    def prices_of(self) -> date | None:
        """The newest as-of date among its offers: the day "the price list of" names (not the day the
        version was made, which a catalog loaded today would give whatever its prices' age); None where
        no price in it is dated."""
        return self.derived.memo("prices of", lambda: (max(_dates(self.listed), default=None),))[0]

    @property
    def price_list(self) -> str:
        """What a page calls this version: "the price list of 2026-11-30", by its newest price."""
        day = self.prices_of
        return f"the price list of {day:%Y-%m-%d}" if day else f"price list {self.version} (no price in it dated)"

    @property
    def offers_by_key(self) -> dict[str, OfferRecord]:
        return self.derived.memo("offers_by_key", lambda: {o.row.key: o for o in self.offers})

    @property
    def regions_by_country(self) -> dict[str | None, dict[str, list[str]]]:
        """Each country's regions (None: not stated) and the providers offering in each, as the region
        filter lists them; worked out once per version, on the first whole page."""
        return self.derived.memo("regions_by_country", self._regions_by_country)

    def _regions_by_country(self) -> dict[str | None, dict[str, list[str]]]:
        found: dict[str | None, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for o in self.offers:
            found[o.row.region_country][o.row.region].add(o.provider.name)
        return {
            country: {region: sorted(names) for region, names in sorted(regions.items())}
            for country, regions in found.items()
        }


def _dates(offers: list[OfferRecord | UnpricedRecord]) -> list[date]:
    return [o.row.as_of for o in offers if o.row.as_of is not None]


_HELD_BY_THE_VERSION: tuple[type, ...] = (
    CatalogSnapshot, OfferRecord, terms.Offer, ThroughputRecord, PeakRecord, BandwidthRecord, PresetRecord,
)  # fmt: skip
"""What derived work points to and the version itself holds: not counted again with the work."""

_settled: ContextVar[tuple[Catalogs, dict[int | None, CatalogSnapshot | None]] | None] = ContextVar("settled")
"""What a request found before its route ran (`Catalogs.settle`): the version it asked for, and the newest."""


class Catalogs:
    """One database's catalog: snapshots by version, the most recently used kept (a version never
    changes), and the newest version number, read again at most every `ttl` seconds, so that a
    move of the slider needs no query at all. Versions are read in a thread of their own, one at a
    time, each once however many ask for it at once; the newest number likewise, in another.

    Changes made through this process call `forget_newest`; other processes' are seen once a request
    `ttl` after the last read has started the next and it has ended."""

    def __init__(self, engine: Engine, ttl: float = 1.0, kept: int = 8, kept_bytes: int = 24_000_000) -> None:
        self.engine = engine
        self.ttl = ttl
        self._snapshots: Kept[CatalogSnapshot] = Kept(kept, kept_bytes)
        self._newest = 0
        self._newest_read_at = -math.inf
        self._newest_reads: OneAtATime[None, int] = OneAtATime("newest-catalog-version")
        self._version_reads: OneAtATime[int, CatalogSnapshot | None] = OneAtATime("catalog-version-read")

    def newest(self) -> int:
        if time.monotonic() - self._newest_read_at > self.ttl:
            self._newest_reads.run(None, self._read_newest)
        return self._newest

    def forget_newest(self) -> None:
        self._newest_read_at = -math.inf
        _settled.set(None)  # the rest of the request that made the change sees it too

    def current(self) -> CatalogSnapshot:
        """The newest catalog; there always is one once the app has started (it loads one)."""
        found = self.at()
        assert found is not None, "the app loads a catalog at start"
        return found

    def at(self, version: int | None = None) -> CatalogSnapshot | None:
        """The catalog at `version` (default: the newest), or None if there is no such version: what the
        request settled, else kept, else read (the caller waits in its thread)."""
        settled = _settled.get(None)
        if settled is not None and settled[0] is self and version in settled[1]:
            return settled[1][version]
        return self._kept_or_read(version or self.newest())

    async def settle(self, version: int | None) -> None:
        """Makes `at(version)` and `at()` answer from memory for the rest of the request, reading what
        the process does not keep off the event loop, so that it serves other requests meanwhile. The
        newest number, when due, is read again in the background (waited for only after a change made
        here): no request waits for it, so a kept version costs a lookup."""
        if self._newest_read_at == -math.inf:
            await self._newest_reads.run_off_loop(None, self._read_newest)
        elif time.monotonic() - self._newest_read_at > self.ttl:
            self._newest_reads.start(None, self._read_newest)
        newest = self._snapshots.get(self._newest) or await self._read_off_loop(self._newest)
        found = (self._snapshots.get(version) or await self._read_off_loop(version)) if version else newest
        _settled.set((self, {None: newest, version: found}))

    def _kept_or_read(self, version: int) -> CatalogSnapshot | None:
        found = self._snapshots.get(version)
        return found if found is not None else self._version_reads.run(version, lambda: self._load(version))

    async def _read_off_loop(self, version: int) -> CatalogSnapshot | None:
        return await self._version_reads.run_off_loop(version, lambda: self._load(version))

    def _read_newest(self) -> int:
        with Session(self.engine) as session:
            self._newest = session.exec(select(func.max(CatalogVersion.id))).one() or 0
        self._newest_read_at = time.monotonic()
        return self._newest

    def _load(self, version: int) -> CatalogSnapshot | None:
        """The version from the database, then kept, its derived work counted with it."""
        if (found := self._snapshots.get(version)) is not None:  # a read of it ended since the caller looked
            return found
        with Session(self.engine) as session:
            found = _read(session, version)
        if found is not None:
            held = weakref.ref(found)  # not the version itself: its meter would keep it alive once given up
            found.derived.grew.watcher = lambda nbytes: self._snapshots.grew(version, held(), nbytes, self._newest)
            self._snapshots.put(version, found, keep=self._newest)
        return found


_catalogs: weakref.WeakKeyDictionary[Engine, Catalogs] = weakref.WeakKeyDictionary()


def catalogs_for(engine: Engine) -> Catalogs:
    if engine not in _catalogs:
        _catalogs[engine] = Catalogs(
            engine, kept=settings.catalog_versions_kept, kept_bytes=settings.catalog_bytes_kept
        )
    return _catalogs[engine]


def _read(session: Session, version: int) -> CatalogSnapshot | None:
    row = session.get(CatalogVersion, version)
    if row is None:
        return None
    rates = rates_at(session, version)
    providers = providers_at(session, version, rates)
    gpus = {g.id: g for g in session.exec(select(GpuModel).order_by(GpuModel.name))}
    offers: list[OfferRecord] = []
    unpriced: list[UnpricedRecord] = []
    for o in session.exec(select(OfferVersion).where(valid_at(OfferVersion, version)).order_by(col(OfferVersion.id))):
        record = offer_record(o, providers[o.provider_id], gpus[o.gpu_model_id].name, rates)
        if isinstance(record, OfferRecord):
            offers.append(record)
        else:
            unpriced.append(record)
    by_gpu = defaultdict(list)
    for record in offers:
        by_gpu[record.row.gpu].append(record)
    return CatalogSnapshot(
        version=version,
        created_at=row.created_at,
        providers={p.slug: p for p in providers.values()},
        gpus={g.name: g.memory_gib for g in gpus.values()},
        offers=offers,
        offers_by_gpu=dict(by_gpu),
        regions=sorted({o.row.region for o in offers}),
        offers_by_id={o.priced.offer_id: o for o in offers},
        unpriced=unpriced,
        undated=sum(o.row.as_of is None for o in offers) + sum(o.row.as_of is None for o in unpriced),
        rates=rates,
        presets=presets_at(session, version),
        throughput=throughput_at(session, version),
        peaks=peaks_at(session, version),
        bandwidths=bandwidths_at(session, version),
        servers=servers_at(session, version),
        scaling=scaling_at(session, version),
        fabrics=fabrics_at(session, version),
    )
