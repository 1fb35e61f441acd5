"""One GPU model's offers priced for a scenario's inputs, all but GPU-hours: what each move of the
GPU-hours slider reads, kept in the memo of those inputs (`move_memo`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from app.catalog.ages import dated_since
from app.catalog.rates import RateRecord
from app.catalog.selection import select_offers
from app.catalog.snapshot import CatalogSnapshot
from app.costing.contenders import contenders
from app.costing.curves import SteppedCost
from app.costing.money import Currency
from app.costing.owning import OWNED_OFFER_ID
from app.costing.providers import provider_contenders
from app.costing.quote import PricedOffer, price_offers
from app.costing.terms import HOURS_PER_MONTH, Workload
from app.quoting.equal_work import Speed
from app.quoting.jobs import JobFit, NoNumber
from app.quoting.owning import OwnedRecord
from app.quoting.params.quote import Job, QuoteParams
from app.quoting.sizing import Sizing


@dataclass(frozen=True)
class Fitted:
    """One GPU model's offers priced for the inputs, all but GPU-hours: what each move reads."""

    gpu: str
    gpus: int
    fit: dict[str, Any]
    """What the model's fit sets in the inputs (the GPU, the GPUs at once, the checkpoint); {} unsized."""
    workload: Workload
    contenders: list[PricedOffer]
    """Less the offers that cannot be cheapest of their option at any H (app/costing/contenders.py)."""
    job: JobFit | None = None
    by_provider: list[PricedOffer] = field(default_factory=list)
    """Less the offers that cannot be cheapest of their provider at any H: each provider's bill."""
    owned: OwnedRecord | None = None
    """The server the buyer would own, where it is of this GPU model and holds the workload's replica."""
    priced: list[PricedOffer] = field(default_factory=list)
    """Every offer the filters leave, priced: the hybrid split pairs any of them, whatever the peak."""
    speed: Speed | None = None
    """Where GPU-hours stated on another GPU model are converted: this one's speed."""

    @cached_property
    def reach(self) -> float:
        """GPU-hours a month the workload's own capacity runs: all its GPUs at once, 730 hours each,
        and the servers owned busy all month. The chart reaches them, break-evens are searched there."""
        owned = [p.curve for p in self.contenders if p.offer.offer_id == OWNED_OFFER_ID]
        full_use = [c.min_units * c.hours_per_unit for c in owned if isinstance(c, SteppedCost)]
        return max([self.workload.peak_gpus * HOURS_PER_MONTH, *full_use])

    @cached_property
    def offers(self) -> int:
        """How many offers the filters leave: the server owned is none."""
        return sum(p.offer.offer_id != OWNED_OFFER_ID for p in self.priced)


@dataclass(frozen=True)
class Contenders:
    """What quoting these inputs reads at any GPU-hours: the display currency, the sizing and each
    GPU model's contenders (one unsized; with "any GPU", every model that fits)."""

    currency: Currency
    rate: RateRecord | None
    sizing: Sizing | None
    fitted: tuple[Fitted, ...]
    unmatched: tuple[NoNumber, ...] = ()
    hours_of: Speed | None = None
    """Where GPU-hours are converted by speed: the speed of the GPU model they are of."""

    @cached_property
    def offers(self) -> int:
        return sum(f.offers for f in self.fitted)


def fitted_for(
    catalog: CatalogSnapshot, params: QuoteParams, gpus: int, fit: dict[str, Any], unit_gpus: int,
    job: JobFit | None = None, owned: OwnedRecord | None = None,
) -> Fitted:  # fmt: skip
    """`unit_gpus`: the GPUs one instance or node must hold (a sized model's, a replica, a run), or for a
    run across nodes, the whole nodes of one offer that spans nodes must. The owned server joins the
    offers where it holds that many of the GPU model; it is no provider's, so not in the providers'
    bills. Filters of where and by whom do not apply to it."""
    at_fit = params.model_copy(update=fit)
    across = job is not None and job.across is not None
    offers = select_offers(
        catalog,
        at_fit.gpu,
        tenancies=frozenset(at_fit.tenancy),
        region=at_fit.region or None,
        eu_only=at_fit.eu_only,
        exclude_us_hq=at_fit.exclude_us_hq,
        hide_spot=at_fit.hide_spot,
        min_gpus_per_unit=1 if across else unit_gpus,
        key=at_fit.offer,
        across_nodes=unit_gpus if across else 0,
        at_once=gpus,
        dated_since=dated_since(at_fit.dated_within, at_fit.dated_on),
    )
    batch = params.job is Job.SERVE and params.hours_up == 0
    run = job is not None and job.run is not None
    workload = replace(at_fit.workload(), replica_gpus=unit_gpus, fills_units=batch, fixed_gpus=run)
    rented = price_offers([o.priced for o in offers], workload, at_fit.assumptions())
    if owned is None or across or not owned.holds(at_fit.gpu, unit_gpus):
        return Fitted(
            at_fit.gpu, gpus, fit, workload, contenders(rented), job, provider_contenders(rented), None, rented
        )
    priced = [*rented, *price_offers([owned.priced], workload, at_fit.assumptions())]
    return Fitted(at_fit.gpu, gpus, fit, workload, contenders(priced), job, provider_contenders(rented), owned, priced)
