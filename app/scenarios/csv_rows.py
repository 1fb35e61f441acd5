"""A saved scenario's quote as CSV rows: each option's cheapest offer and, for a hybrid split, its base,
its burst and its total, then bursting all of it and reserving the peak, in the options' columns."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from app.catalog.wording import option_label
from app.quoting.out.owned import OwnedOut
from app.quoting.out.quote import OptionOut, QuoteOut
from app.quoting.out.split import AloneOut, SplitOfferOut, SplitOut

CSV_COLUMNS = [
    "option", "provider", "product", "region", "compute_{cur}", "egress_{cur}", "storage_{cur}", "total_{cur}",
    "horizon_total_{cur}", "term_months_billed_whole", "{cur}_per_useful_gpu_hour", "{cur}_per_million_output_tokens",
    "job_gpu_hours", "job_gpus_at_once", "benchmark", "source_url", "as_of", "catalog_version",
    "usd_per_unit_of_currency", "rate_as_of", "rate_source",
]  # fmt: skip
"""Money columns name their currency, totals a month of the horizon (a minimum term longer than it
billed whole, its months in `term_months_billed_whole`); the job's are empty for GPU-hours and the
split; the last three name the rate where it is not USD."""

Row = list[object]


def csv_header(quote: QuoteOut) -> list[str]:
    return [column.format(cur=quote.currency.lower()) for column in CSV_COLUMNS]


def csv_rows(quote: QuoteOut) -> Iterator[Row]:
    found = quote.exchange_rate
    rate = ["", "", ""] if found is None else [found.usd_per_unit, found.as_of, found.source]
    job = quote.job
    done = ["", "", ""] if job is None else [job.gpu_hours, job.gpus_at_once, job.benchmark or ""]
    for o in quote.options:
        provider, product, region, source, as_of = _offer_of(o, quote.owned)
        yield [option_label((o.tenancy, o.billing)), provider, product, region, o.compute, o.egress, o.storage,
               o.total, o.horizon_total, o.term_months or "", o.effective_per_gpu_hour, o.per_million_output_tokens,
               *done, source, as_of, quote.catalog_version, *rate]  # fmt: skip
    for label, offer, money in [] if quote.split is None else _split_rows(quote.split):
        provider, product, region, source, as_of = _offer_of(offer, quote.owned) if offer else ("", "", "", "", None)
        yield [label, provider, product, region, *money, "", "", "", "", "", "", source, as_of, quote.catalog_version,
               *rate]  # fmt: skip


SplitRow = tuple[str, SplitOfferOut | None, tuple[float | str | None, ...]]
"""The option column, the offer, and compute, egress, storage, total and horizon total ("": left out)."""


def _split_rows(split: SplitOut) -> Iterator[SplitRow]:
    """The best split's base and burst, each with its month's compute alone, and its total; then each
    way beside it. A best split on one offer alone is the way it names."""
    best = split.best
    if best is not None and best.base_offer is not None and best.burst_offer is not None:
        if best.units:
            label = f"split: base of {best.base_gpus} GPUs ({_kind(best.base_offer)})"
            yield label, best.base_offer, (best.base, "", "", "", "")
        if best.burst_gpu_hours:
            label = f"split: burst of {best.burst_gpu_hours:,g} GPU-hours ({_kind(best.burst_offer)})"
            yield label, best.burst_offer, (best.burst, "", "", "", "")
        yield "split: total", None, ("", best.egress, best.storage, best.total, best.horizon_total)
    if split.all_burst is not None:
        yield _way(f"all burst: {split.all_burst.burst_gpu_hours:,g} GPU-hours", split.all_burst)
    if split.all_reserved is not None:
        yield _way(f"all reserved: {split.all_reserved.base_gpus} GPUs", split.all_reserved)


def _way(name: str, alone: AloneOut) -> SplitRow:
    """One offer carrying it all: its compute is its base or its burst, the other none."""
    money = (alone.base + alone.burst, alone.egress, alone.storage, alone.total, alone.horizon_total)
    return f"{name} ({_kind(alone.offer)})", alone.offer, money


def _kind(offer: SplitOfferOut) -> str:
    return option_label((offer.tenancy, offer.billing))


def _offer_of(o: OptionOut | SplitOfferOut, owned: OwnedOut | None) -> tuple[str, str, str, str, date | None]:
    """Provider, product, region, source and as-of date of an option's offer, or of the server owned."""
    if o.offer is not None:
        return o.offer.provider_name, o.offer.product, o.offer.region, o.offer.source_url, o.offer.as_of
    assert owned is not None, "an option without an offer is the server owned"
    return o.provider, owned.name, "your data centre", owned.source, owned.as_of
