"""A quote for a scenario at a catalog version: the offers that pass its filters, priced and ranked."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from app.catalog.cache import MemoEntry
from app.catalog.rates import RateRecord
from app.catalog.selection import across_nodes_refused
from app.catalog.snapshot import Catalogs, CatalogSnapshot, OfferRecord
from app.costing.curves import MeteredCost
from app.costing.memory import Fit
from app.costing.money import USD, Currency
from app.costing.owning import OWNED_OFFER_ID
from app.costing.providers import cheapest_per_provider
from app.costing.quote import OfferCost, Quote
from app.costing.terms import Offer
from app.quoting.band import quote_at
from app.quoting.choices import NOT_EQUAL_WORK, GpuChoice, quoted_first, side_by_side, table_rows
from app.quoting.currency import display_currency
from app.quoting.equal_work import EqualWork, Speed, speed_of
from app.quoting.fitted import Contenders, Fitted, fitted_for
from app.quoting.jobs import JobFit, NoNumber, job_fit, nowhere
from app.quoting.moves import move_memo
from app.quoting.owning import OwnedRecord, misfit, owned_for
from app.quoting.params.quote import ANY_GPU, FieldErrors, Job, QuoteParams
from app.quoting.sizing import Sizing, size
from app.quoting.split import SplitQuote, profiled, served, split_of

CHECKPOINT_GB_MAX = 1_000_000
"""The most a checkpoint may weigh, as typed or as sized: the checkpoint field's own limit."""


@dataclass(frozen=True)
class QuoteResult:
    params: QuoteParams
    catalog: CatalogSnapshot
    quote: Quote
    currency: Currency = USD
    rate: RateRecord | None = None
    """Where the display currency's rate came from; None for USD, the currency prices are in."""
    sizing: Sizing | None = None
    """The model's memory and fit, where one is given: it set the GPUs used at once and the checkpoint."""
    choices: tuple[GpuChoice, ...] = ()
    """Asked for any GPU that fits: each GPU model that does, in the order `quoted_first` lists them;
    `params` and `quote` are the first one's."""
    memo: MemoEntry | None = field(default=None, compare=False, repr=False)
    """What a move of the slider reuses for these inputs (`move_memo`): the page keeps its parts there."""
    job: JobFit | None = None
    """What the stated job takes on the quoted GPU model; None for GPU-hours."""
    unmatched: tuple[NoNumber, ...] = ()
    """GPU models that hold the model but that the catalog has no number for the job on, and why."""
    fitted: Fitted | None = field(default=None, compare=False, repr=False)
    """The quoted GPU model's offers priced for the inputs: what `providers` ranks."""
    owned: OwnedRecord | None = None
    """The server the buyer would own, where one is quoted."""
    split: SplitQuote | None = None
    """The hybrid split of the demand profile, where the job states one."""
    offers: int = 0
    """How many offers the filters leave, on every GPU model quoted: what the options are the cheapest of."""
    equal_work: EqualWork | None = None
    """Where the GPU-hours are of another GPU model than quoted (any GPU, or named): as stated, and of which;
    `params.gpu_hours` is then the quoted GPU model's share of the same work."""

    @property
    def stated_hours(self) -> float:
        """The GPU-hours as the buyer stated them: what the links and a saved scenario keep."""
        return self.params.gpu_hours if self.equal_work is None else self.equal_work.hours

    @property
    def as_stated(self) -> dict[str, Any]:
        """The update that makes `params`, at the GPU model quoted, mean the work as stated: the hours
        as stated and the GPU model they are of, named; {} where none were converted."""
        ew = self.equal_work
        return {} if ew is None else {"gpu_hours": ew.hours, "hours_gpu": ew.of.gpu}

    def record(self, o: OfferCost) -> OfferRecord | OwnedRecord:
        """What the catalog states of an option's offer, or of the server owned."""
        return self.record_of(o.offer)

    def record_of(self, offer: Offer) -> OfferRecord | OwnedRecord:
        if self.owned is not None and offer.offer_id == OWNED_OFFER_ID:
            return self.owned
        return self.catalog.offers_by_id[offer.offer_id]

    @cached_property
    def providers(self) -> list[OfferCost]:
        """Each provider's cheapest offer at the quoted GPU-hours, cheapest first; worked out when asked
        for (the API, the page's view of it), not on every move of the slider."""
        if self.fitted is None:
            return []
        return cheapest_per_provider(
            self.fitted.by_provider, replace(self.fitted.workload, gpu_hours=self.params.gpu_hours)
        )

    @property
    def not_ranked_why(self) -> str | None:
        """Why the GPU models listed are not ranked against each other: they rank on equal work alone (a
        job, or GPU-hours converted by speed); None where they rank or none is listed."""
        return NOT_EQUAL_WORK if self.choices and self.job is None and self.equal_work is None else None

    @cached_property
    def gpu_options(self) -> list[tuple[GpuChoice, OfferCost]]:
        return side_by_side(self.choices, self.job)

    @cached_property
    def gpu_rows(self) -> list[tuple[GpuChoice, OfferCost]]:
        return table_rows(self.choices, self.job)

    @cached_property
    def raised_by(self) -> OfferCost | None:
        """The option rented by the hour that runs the most GPUs at once, where the GPU-hours (with
        its tax) need more than asked at 730 hours a GPU a month; None where none does. A run's GPUs are
        fixed: its tax makes it longer, not wider, and by the hour the same GPU-hours cost the same."""
        if self.job is not None and self.job.run is not None:
            return None
        metered = [o for o in self.quote.options if isinstance(o.curve, MeteredCost)]
        most = max(metered, key=lambda o: o.gpus_used, default=None)
        return most if most is not None and most.gpus_used > self.params.peak_gpus else None

    @property
    def raised_at_once(self) -> int | None:
        """The GPUs at once `raised_by` runs; None where no option runs more than asked."""
        return None if self.raised_by is None else self.raised_by.gpus_used

    @cached_property
    def options(self) -> list[tuple[OfferCost, OfferRecord | OwnedRecord]]:
        """Each option's cost, cheapest first, beside the catalog's record of its offer."""
        return [(o, self.record(o)) for o in self.quote.options]


def contenders_of(catalogs: Catalogs, catalog: CatalogSnapshot, params: QuoteParams) -> Contenders | FieldErrors:
    """The inputs checked against the catalog, and each GPU model's offers priced for them, the server
    to own among them where one is chosen and holds the workload (else why not, under its input)."""
    owned = owned_for(catalog, params)
    if isinstance(owned, dict):
        return owned
    found = _offered(catalogs, catalog, params, owned)
    if isinstance(found, dict) or owned is None or any(f.owned for f in found.fitted):
        return found
    return misfit(owned, params, {f.gpu: f.workload.replica_gpus for f in found.fitted})


def _offered(
    catalogs: Catalogs, catalog: CatalogSnapshot, params: QuoteParams, owned: OwnedRecord | None
) -> Contenders | FieldErrors:
    """Each GPU model's offers priced for the inputs, or the first input the catalog refuses: the GPU
    model, the offer pinned, the currency, the job, then the model's size."""
    refused = _gpu_refused(catalog, params) or _pinned_refused(catalog, params)
    if refused:
        return refused
    shown_in = display_currency(catalog, params.currency)
    if isinstance(shown_in, dict):
        return shown_in
    currency, rate = shown_in
    refused = _job_refused(params)
    if refused:
        return refused
    if not params.sized:
        return Contenders(currency, rate, None, (fitted_for(catalog, params, params.peak_gpus, {}, 1, owned=owned),))
    sizing = size(catalogs, params)
    if isinstance(sizing, dict):
        return sizing
    checkpoint_gb = round(sizing.need.checkpoint_bytes / 1e9, 3)
    if checkpoint_gb > CHECKPOINT_GB_MAX:
        return {"parameters_b": f"makes a checkpoint of {checkpoint_gb:,.0f} GB, more than {CHECKPOINT_GB_MAX:,} GB"}
    if params.job is not Job.HOURS:
        return _job_contenders(catalog, params, currency, rate, sizing, checkpoint_gb, owned)
    return _hours_contenders(catalog, params, currency, rate, sizing, checkpoint_gb, owned)


def _gpu_refused(catalog: CatalogSnapshot, params: QuoteParams) -> FieldErrors | None:
    """Why the GPU model asked for cannot be quoted: any GPU is chosen by the model's size, so it needs one."""
    if params.gpu == ANY_GPU and not params.sized:
        return {"gpu": "any GPU that fits needs a model: choose a preset or give a parameter count"}
    if params.gpu != ANY_GPU and params.gpu not in catalog.gpus:
        return {"gpu": "is not a GPU model in the catalog"}
    if params.job is Job.HOURS and params.hours_gpu and params.hours_gpu not in catalog.gpus:
        return {"hours_gpu": "is not a GPU model in the catalog"}
    if params.job is Job.HOURS and params.hours_gpu not in ("", params.gpu) and not params.sized:
        return {"hours_gpu": "converts GPU-hours by how fast each GPU model runs a model: choose a preset or give "
                "a parameter count"}  # fmt: skip
    return None


def _pinned_refused(catalog: CatalogSnapshot, params: QuoteParams) -> FieldErrors | None:
    """Why the offer pinned cannot be priced: it is not in this price list (or has no price), or it is
    of another GPU model than the one asked for."""
    if not params.offer:
        return None
    pinned = catalog.offers_by_key.get(params.offer)
    if pinned is None:
        why = next((f"cannot be quoted: {o.why}" for o in catalog.unpriced if o.row.key == params.offer), None)
        return {"offer": why or f"is not an offer in {catalog.price_list}: it may have been retired"}
    if params.gpu not in (pinned.row.gpu, ANY_GPU):
        return {"gpu": f"the offer you are pricing is of {pinned.row.gpu}: choose it, or price every offer"}
    return None


def _job_refused(params: QuoteParams) -> FieldErrors | None:
    """Why the job cannot be quoted as stated: a demand profile counts GPUs unless it serves a model,
    on one GPU model; every other job needs its model; a measured rate is of one GPU model."""
    serving_split = params.job is Job.SPLIT and params.serves
    if params.sized and params.job is Job.SPLIT and not serving_split:
        return {"preset": "a demand profile counts GPUs: leave the model out (none), or state it as a serving job"}
    if serving_split and params.gpu == ANY_GPU:
        return {"gpu": "the split prices one GPU model's offers: choose one"}
    if not params.sized and (params.job not in (Job.HOURS, Job.SPLIT) or serving_split):
        return {"preset": "a job needs its model: choose a preset or give a parameter count"}
    if params.sized and params.measured_tps is not None and params.serves and params.gpu == ANY_GPU:
        return {"measured_tps": "is measured on one GPU model: choose it rather than any GPU"}
    return None


def _hours_contenders(
    catalog: CatalogSnapshot, params: QuoteParams, currency: Currency, rate: RateRecord | None, sizing: Sizing,
    checkpoint_gb: float, owned: OwnedRecord | None,
) -> Contenders | FieldErrors:  # fmt: skip
    """Each GPU model of which an offered instance or node holds the model, at the GPUs that hold it; where
    the GPU-hours are of another GPU model, only those with a speed to convert them by, the others apart."""
    wanted = [f for f in sizing.fits if f.fits_a_unit and params.gpu in (f.gpu, ANY_GPU)]
    if not wanted:
        where = "any GPU model in the catalog" if params.gpu == ANY_GPU else f"the catalog's {params.gpu}"
        return {"gpu": f"no offered instance or node of {where} holds this model: choose another GPU or model"}

    def fitted(f: Fit, speed: Speed | None = None) -> Fitted:
        fit = {"gpu": f.gpu, "peak_gpus": f.quoted, "checkpoint_gb": checkpoint_gb}
        return replace(fitted_for(catalog, params, f.quoted, fit, f.quoted, owned=owned), speed=speed)

    found = _speeds(catalog, params, sizing, wanted)
    if isinstance(found, dict):
        return found
    hours_of, speeds = found
    if hours_of is None:
        return Contenders(currency, rate, sizing, tuple(fitted(f) for f in wanted))
    unmatched = tuple(s for s in speeds if isinstance(s, NoNumber))
    converted = tuple(fitted(f, s) for f, s in zip(wanted, speeds, strict=True) if isinstance(s, Speed))
    return Contenders(currency, rate, sizing, converted, unmatched, hours_of) if converted else nowhere(unmatched)


def _speeds(
    catalog: CatalogSnapshot, params: QuoteParams, sizing: Sizing, wanted: list[Fit]
) -> tuple[Speed | None, list[Speed | NoNumber]] | FieldErrors:
    """Where the GPU-hours are quoted on other GPU models than theirs: the speed of the GPU model they are of
    (the one named, else with any GPU the first that fits with a speed; None where none has one) and each
    wanted GPU model's; (None, []) where they are quoted as they stand."""
    if params.gpu != ANY_GPU and params.hours_gpu in ("", params.gpu):
        return None, []
    speeds = [speed_of(catalog, params, sizing, f) for f in wanted]
    if params.hours_gpu in ("", params.gpu):
        return next((s for s in speeds if isinstance(s, Speed)), None), speeds
    named = next((s for f, s in zip(wanted, speeds, strict=True) if f.gpu == params.hours_gpu), None)
    found = named or speed_of(catalog, params, sizing, next(f for f in sizing.fits if f.gpu == params.hours_gpu))
    return {"hours_gpu": f"cannot be converted: {found.reason}"} if isinstance(found, NoNumber) else (found, speeds)


def _job_contenders(
    catalog: CatalogSnapshot, params: QuoteParams, currency: Currency, rate: RateRecord | None, sizing: Sizing,
    checkpoint_gb: float, owned: OwnedRecord | None,
) -> Contenders | FieldErrors:  # fmt: skip
    """Each GPU model at what the job takes on it, from its own benchmark or peak; those the catalog
    has no number for, apart with the reason (for one GPU model, the reason under its input)."""
    offered = [f for f in sizing.fits if f.largest_unit is not None and params.gpu in (f.gpu, ANY_GPU)]
    if not offered:
        return {"gpu": f"the catalog offers no {params.gpu}"}
    found = [job_fit(catalog, params, sizing, f) for f in offered]
    jobs = [j for j in found if isinstance(j, JobFit)]
    unmatched = tuple(j for j in found if isinstance(j, NoNumber))
    if not jobs:
        if params.gpu != ANY_GPU:
            return {unmatched[0].field: unmatched[0].reason}
        return nowhere(unmatched)
    refused = _pinned_across_refused(catalog, params, jobs)
    if refused:
        return refused
    fitted = []
    for j in jobs:
        fit = {"gpu": j.gpu, "peak_gpus": j.gpus_at_once, "checkpoint_gb": checkpoint_gb, "gpu_hours": j.gpu_hours}
        fitted.append(fitted_for(catalog, params, j.gpus_at_once, fit | ({"months": j.months} if j.months else {}),
                              j.unit_gpus, j, owned))  # fmt: skip
    return Contenders(currency, rate, sizing, tuple(fitted), unmatched)


def _pinned_across_refused(catalog: CatalogSnapshot, params: QuoteParams, jobs: list[JobFit]) -> FieldErrors | None:
    """Why the offer pinned cannot carry a run or a serving replica across nodes: its nodes may not run it
    together, or are not a whole part of it."""
    across = [j for j in jobs if j.across is not None]
    pinned = catalog.offers_by_key.get(params.offer) if params.offer else None
    if pinned is None or not across:
        return None
    gpus, unit = across[0].unit_gpus, pinned.priced.gpus_per_unit
    why = across_nodes_refused(catalog, pinned, gpus)
    if why is None and gpus % unit:
        why = f"its nodes of {unit} GPUs are not a whole part of {gpus:,}"
    what = "a run" if across[0].run else "a replica"
    return None if why is None else {"offer": f"cannot carry {what} of {gpus:,} GPUs across nodes: {why}"}


def _found(catalogs: Catalogs, params: QuoteParams) -> tuple[CatalogSnapshot, MemoEntry, Contenders] | FieldErrors:
    """The catalog asked for, the memo of these inputs, and each GPU model's offers priced for them."""
    catalog = catalogs.at(params.catalog_version)
    if catalog is None:
        return {"catalog_version": f"there is no catalog version {params.catalog_version}"}
    memo = move_memo(catalog, params)
    found = memo.part("contenders", lambda: contenders_of(catalogs, catalog, params))
    return found if isinstance(found, dict) else (catalog, memo, found)


def quoted_contenders(catalogs: Catalogs, params: QuoteParams) -> Contenders | FieldErrors:
    """Each GPU model's offers and workload as its quote prices them: with a model or a job, that
    model's own GPU-hours (GPU-hours of another GPU model converted to it), GPUs at once and replica
    (what the explorer prices each offer for)."""
    found = _found(catalogs, params)
    if isinstance(found, dict):
        return found
    contenders = found[2]
    if contenders.hours_of is None:
        return contenders
    equal = EqualWork(params.gpu_hours, contenders.hours_of)
    converted = tuple(
        replace(f, workload=replace(f.workload, gpu_hours=_hours(f, params, equal))) for f in contenders.fitted
    )
    return replace(contenders, fitted=converted)


def build_quote(catalogs: Catalogs, params: QuoteParams) -> QuoteResult | FieldErrors:
    profile = None
    if params.job is Job.SPLIT:
        at_profile = profiled(params)
        if isinstance(at_profile, dict):
            return at_profile
        params, profile = at_profile
    found_at = _found(catalogs, params)
    if isinstance(found_at, dict):
        return found_at
    catalog, memo, found = found_at
    currency, rate, sizing = found.currency, found.rate, found.sizing
    if sizing is None:
        (fitted,) = found.fitted
        quote = quote_at(memo, fitted, params.gpu_hours)
        split = None if profile is None else memo.part("split", lambda: split_of(fitted, params, profile))
        return QuoteResult(params, catalog, quote, currency, rate, memo=memo, fitted=fitted, owned=fitted.owned,
                           split=split, offers=found.offers)  # fmt: skip
    equal = None if found.hours_of is None else EqualWork(params.gpu_hours, found.hours_of)
    (best_fit, best), *others = quoted_first([(f, _choice(memo, f, _hours(f, params, equal))) for f in found.fitted])
    listed = (best, *(choice for _, choice in others)) if params.gpu == ANY_GPU else ()
    converted = {} if equal is None else {"gpu_hours": best.hours}
    best_params = params.model_copy(update=best_fit.fit | converted)
    split, job = None, best_fit.job
    if params.job is Job.SPLIT and job is not None:
        split = memo.part("split", lambda: split_of(best_fit, best_params, served(job)))
    return QuoteResult(
        best_params, catalog, best.quote, currency, rate, sizing, listed, memo=memo, job=best.job,
        unmatched=found.unmatched, fitted=best_fit, owned=next((f.owned for f in found.fitted if f.owned), None),
        split=split, offers=found.offers, equal_work=equal,
    )  # fmt: skip


def _choice(memo: MemoEntry, f: Fitted, hours: float) -> GpuChoice:
    return GpuChoice(f.gpu, f.gpus, hours, quote_at(memo, f, hours), f.job, f.speed)


def _hours(fitted: Fitted, params: QuoteParams, equal: EqualWork | None) -> float:
    """The GPU-hours to quote at: the job's on this GPU model, the slider's converted to it, or the slider's."""
    if fitted.job is not None:
        return fitted.workload.gpu_hours
    if equal is not None and fitted.speed is not None:
        return equal.hours_on(fitted.speed)
    return params.gpu_hours
