"""Where a dead end leads: inputs one change away from ones that give nothing (an empty list of
offers, a quote with no offer, a job refused), each tried as its own page takes it, with how many
offers it gives, so that an empty or refused answer always points at the nearest inputs that work."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations
from typing import Any, TypeVar

from pydantic import BaseModel

from app.catalog.ages import age_days
from app.catalog.offer_records import OfferRecord, UnpricedRecord
from app.catalog.selection import spans_nodes
from app.catalog.snapshot import Catalogs, CatalogSnapshot
from app.catalog.throughput_rows import Scenario
from app.catalog.wording import country_name
from app.costing.memory import Precision
from app.costing.terms import RENTED
from app.quoting.build import contenders_of
from app.quoting.explorer.listing import DEFAULTS, ExplorerParams, explore
from app.quoting.explorer.rows import explorable
from app.quoting.jobs import served_benchmarks
from app.quoting.params.form import form_of
from app.quoting.params.job import Job, Latency
from app.quoting.params.quote import ANY_GPU, FieldErrors, QuoteParams
from app.quoting.sizing import size
from app.quoting.split import profiled

SWAPS = 3
"""Other values of one input (another GPU model, another tenancy) offered: those giving the most offers."""
SMALLER = 12
"""Tenfold steps down a volume too large to quote is tried at, the largest that answers offered; and
steps of a date filter widened."""

Params = TypeVar("Params", bound=BaseModel)


def _is_set(value: object) -> bool:
    """Whether a filter narrows anything: 0 days does, though falsy."""
    return value is not None and value is not False and value not in ("", [])


@dataclass(frozen=True)
class Change:
    """One step from the inputs: in words, and the inputs it sets."""

    said: str
    update: dict[str, Any]


@dataclass(frozen=True)
class Detour:
    """A change that answers: in words, the offers it gives (as the page it leads to counts them),
    and the inputs it sets."""

    said: str
    offers: int
    update: dict[str, Any]


@dataclass(frozen=True)
class DetourLink:
    """A detour as a page shows it: formatted per request, as the calculator's figures are."""

    said: str
    offers: str
    url: str


def nearest(params: Params, changes: Iterable[Change], offers: Callable[[Params], int]) -> list[Detour]:
    """The changes to `params` that give any offer, in the order given (nearest first); two changes
    that end on the same inputs are one, and one that changes nothing is none."""
    found, seen = [], {params.model_dump_json()}
    for change in sorted(changes, key=lambda c: _fields_changed(params, c)):
        changed = params.model_copy(update=change.update)
        key = changed.model_dump_json()
        if key in seen:
            continue
        seen.add(key)
        if count := offers(changed):
            found.append(Detour(change.said, count, change.update))
    return found


def first(params: Params, changes: Iterable[Change], offers: Callable[[Params], int]) -> list[Detour]:
    """The first of the changes that gives any offer, tried in order and at most SMALLER of them: a widening
    whose first steps answer, so that a long list is not counted whole."""
    for change in list(changes)[:SMALLER]:
        if found := nearest(params, [change], offers):
            return found
    return []


def _fields_changed(params: BaseModel, change: Change) -> int:
    """How far a change goes: the inputs it sets to something else (among equals, the order given)."""
    return sum(getattr(params, name) != value for name, value in change.update.items())


def most(found: list[Detour], kept: int = SWAPS) -> list[Detour]:
    """The detours giving the most offers, the nearest first among equals."""
    return sorted(found, key=lambda d: -d.offers)[:kept]


def _farther(drops: list[Change]) -> list[Change]:
    """Where no one filter dropped answers: each two of them dropped, then all."""
    joined = [
        Change(f"{a.said}, and {b.said[0].lower()}{b.said[1:]}", a.update | b.update) for a, b in combinations(drops, 2)
    ]
    every = Change("Without any of these filters", {name: v for d in drops for name, v in d.update.items()})
    return [*joined, *([every] if len(drops) > 2 else [])]


def _unlike(swaps: list[Detour], drops: list[Detour]) -> list[Detour]:
    """Less a swap that gives the very offers of dropping its filter (fewer it cannot give)."""
    return [s for s in swaps if not any(d.update.keys() == s.update.keys() and d.offers == s.offers for d in drops)]


def links(found: Iterable[Detour], url: Callable[[dict[str, Any]], str]) -> tuple[DetourLink, ...]:
    """`url`: the page at the inputs with a detour's update."""
    return tuple(DetourLink(d.said, f"{d.offers:,} offer{'s' if d.offers != 1 else ''}", url(d.update)) for d in found)


def _or(values: Iterable[object]) -> str:
    return " or ".join(str(v).replace("_", " ") for v in values)


def explorer_detours(catalog: CatalogSnapshot, p: ExplorerParams) -> list[Detour]:
    """The explorer's filters dropped one at a time, then another tenancy or GPU model in place of those
    ticked; each counted as the explorer lists it."""
    options = explorable(catalog)
    providers = dict(options.providers)
    dropped = {
        "eu_only": "Without the EU filter",
        "exclude_us_hq": "With providers headquartered in the US too",
        "dated_within": "With prices of any date, undated too",
        "country": f"In any country, not only {_or(country_name(c) for c in p.country)}",
        "provider": f"From any provider, not only {_or(providers.get(s, s) for s in p.provider)}",
        "billing": f"Any billing, not only {_or(p.billing)}",
        "gpu_count": f"Any number of GPUs per unit, not only {_or(p.gpu_count)}",
        "tenancy": f"Any tenancy, not only {_or(p.tenancy)}",
        "gpu": f"Any GPU model, not only {_or(p.gpu)}",
        "q": f"Without the search “{p.q}”",
    }
    drops = [Change(said, {name: DEFAULTS[name]}) for name, said in dropped.items() if _is_set(getattr(p, name))]

    def offers(changed: ExplorerParams) -> int:
        return len(explore(catalog, changed).rows)

    tenancies = [Change(f"{_or([t]).capitalize()} instead of {_or(p.tenancy)}", {"tenancy": [t]}) for t in RENTED]
    gpus = [Change(f"{g} instead of {_or(p.gpu)}", {"gpu": [g]}) for g, _ in options.gpus]
    widened = first(p, _wider_dates(catalog.listed, p.dated_within, None), offers)
    found = widened + (nearest(p, drops, offers) or nearest(p, _farther(drops), offers)[:SWAPS])
    swapped = [nearest(p, tenancies if p.tenancy else [], offers), nearest(p, gpus if p.gpu else [], offers)]
    return found + [d for swaps in swapped for d in most(_unlike(swaps, found))]


def offers_left(catalogs: Catalogs, params: QuoteParams) -> int:
    """How many offers the calculator quotes these inputs among (0 where it refuses them): what its
    results count. Not kept in the memo of moves: a dead end tries many inputs, once each."""
    if params.job is Job.SPLIT:
        at_profile = profiled(params)
        if isinstance(at_profile, dict):
            return 0
        params = at_profile[0]
    catalog = catalogs.at(params.catalog_version)
    found = {} if catalog is None else contenders_of(catalogs, catalog, params)
    return 0 if isinstance(found, dict) else found.offers


def _gpus(catalogs: Catalogs, p: QuoteParams) -> list[Change]:
    catalog = catalogs.at(p.catalog_version)
    if p.gpu == ANY_GPU or catalog is None:
        return []
    return [Change(f"{g} instead of {p.gpu}", {"gpu": g}) for g in sorted(catalog.offers_by_gpu)]


def quote_detours(catalogs: Catalogs, p: QuoteParams) -> list[Detour]:
    """A quote whose filters leave no offer: each filter dropped, then another tenancy or GPU model."""
    dropped = {
        "eu_only": "Without the EU filter",
        "exclude_us_hq": "With providers headquartered in the US too",
        "region": f"In any region, not only {p.region}",
        "tenancy": f"Any tenancy, not only {_or(p.tenancy)}",
        "hide_spot": "With spot offers too",
        "dated_within": "With prices of any date, undated too",
        "offer": f"Every offer of {p.gpu}, not only the one chosen",
    }
    default = QuoteParams.model_fields
    drops = [Change(said, {name: default[name].get_default(call_default_factory=True)})
             for name, said in dropped.items() if _is_set(getattr(p, name))]  # fmt: skip
    offers = _counter(catalogs)
    rented = [t for t in RENTED if t not in p.tenancy]
    tenancies = [Change(f"{_or([t]).capitalize()} instead of {_or(p.tenancy)}", {"tenancy": [t]}) for t in rented]
    widened = first(p, _wider_dates(_gpu_offers(catalogs, p), p.dated_within, p.dated_on), offers)
    found = widened + (nearest(p, drops, offers) or nearest(p, _farther(drops), offers)[:SWAPS])
    swapped = [nearest(p, tenancies if p.tenancy else [], offers), nearest(p, _gpus(catalogs, p), offers)]
    return found + [d for swaps in swapped for d in most(_unlike(swaps, found))]


def _gpu_offers(catalogs: Catalogs, p: QuoteParams) -> list[OfferRecord]:
    """The offers of the GPU model asked for (of every one, for any GPU) at the version quoted."""
    catalog = catalogs.at(p.catalog_version)
    if catalog is None:
        return []
    return catalog.offers if p.gpu == ANY_GPU else catalog.offers_by_gpu.get(p.gpu, [])


def _wider_dates(offers: Sequence[OfferRecord | UnpricedRecord], within: int | None, on: date | None) -> list[Change]:
    """Where prices dated within N days leave nothing: each older price's age, the nearest first, as a wider
    filter (the first that answers is offered: the least widening that does)."""
    if within is None:
        return []
    days = sorted({d for o in offers if (d := age_days(o.row.as_of, on)) is not None and d > within})
    return [Change(f"Prices dated within {d:,} days", {"dated_within": d}) for d in days]


def _counter(catalogs: Catalogs) -> Callable[[QuoteParams], int]:
    return lambda changed: offers_left(catalogs, changed)


def refusal_detours(catalogs: Catalogs, p: QuoteParams, errors: FieldErrors) -> list[Detour]:
    """A job the catalog has no number for, as asked: the conditions its model's serving benchmarks
    ran at (on this GPU model first), a smaller volume or another run size where that was refused,
    then another GPU model."""
    offers = _counter(catalogs)
    found = nearest(p, _conditions(catalogs, p), offers)
    for name in ("output_tokens_m", "train_tokens_b"):
        if name in errors:
            found += nearest(p, _smaller(p, name), offers)[:1]
    if "run_gpus" in errors:
        found += nearest(p, _run_sizes(catalogs, p), offers)[:SWAPS]
    reached = {p.model_copy(update=d.update).model_dump_json() for d in found}
    swaps = [
        d
        for d in nearest(p, _gpus(catalogs, p), offers)
        if p.model_copy(update=d.update).model_dump_json() not in reached
    ]
    return found + most(swaps)


def _conditions(catalogs: Catalogs, p: QuoteParams) -> list[Change]:
    """Each serving benchmark of the model as the inputs that match it: its precision, lengths and
    latency (its bounds where they are tighter than the job's), and its GPU model where not this one."""
    if not p.serves or not p.sized or p.measured_tps is not None:
        return []
    sizing = size(catalogs, p)
    if isinstance(sizing, dict):
        return []
    rows = [r for r in served_benchmarks(sizing.catalog, sizing) if r.input_tokens and r.output_tokens]
    benchmarked: dict[tuple[str, tuple[tuple[str, Any], ...]], list[str]] = {}
    for r in sorted(rows, key=lambda r: (r.gpu != p.gpu, r.gpu, r.precision, r.scenario, r.key)):
        update: dict[str, Any] = {"weights": Precision(r.precision), "input_length": r.input_tokens,
                                  "output_length": r.output_tokens, "latency": Latency.OFFLINE}  # fmt: skip
        latency = "offline"
        if r.scenario == Scenario.LATENCY_BOUND:
            if r.ttft_ms is None or r.tbt_ms is None:
                continue
            update |= {"latency": Latency.INTERACTIVE, "max_ttft_ms": max(p.max_ttft_ms, r.ttft_ms),
                       "max_tbt_ms": max(p.max_tbt_ms, r.tbt_ms)}  # fmt: skip
            latency = f"interactive ({r.ttft_ms:g} ms to the first token, {r.tbt_ms:g} ms between tokens)"
        if p.gpu not in (ANY_GPU, r.gpu):
            update["gpu"] = r.gpu
        said = f"{r.precision.upper()}, {r.input_tokens:,} tokens in and {r.output_tokens:,} out, {latency}"
        gpus = benchmarked.setdefault((said, tuple(update.items())), [])
        gpus += [] if r.gpu in gpus else [r.gpu]
    return [Change(f"{', '.join(gpus)}: {said}", dict(update)) for (said, update), gpus in benchmarked.items()]


def _smaller(p: QuoteParams, name: str) -> Iterator[Change]:
    form = form_of(QuoteParams)
    for step in range(1, SMALLER + 1):
        value = getattr(p, name) / 10**step
        figure = f"{value:,.0f}" if value.is_integer() else f"{value:,.6g}"
        yield Change(f"{form.labels[name]}: {figure} {form.units[name]}", {name: value})


def _run_sizes(catalogs: Catalogs, p: QuoteParams) -> list[Change]:
    """The run on a unit each GPU model is offered in, or on the whole nodes nearest its size of an offer
    that spans nodes: this GPU model's first, the nearest size first."""
    catalog = catalogs.at(p.catalog_version)
    offers = [o for listed in (catalog.offers_by_gpu if catalog else {}).values() for o in listed]
    sizes = {(o.row.gpu, o.row.gpus_per_unit) for o in offers}
    if catalog is not None:
        nodes = {(o.row.gpu, o.row.gpus_per_unit) for o in offers if spans_nodes(catalog, o, p.run_gpus)}
        sizes |= {(g, k * n) for g, n in nodes for k in (p.run_gpus // n, -(-p.run_gpus // n)) if k > 1}
    near = sorted(sizes, key=lambda size: (size[0] != p.gpu, abs(size[1] - p.run_gpus), size))
    return [Change(f"{n} x {g} in the run", {"run_gpus": n} | ({"gpu": g} if g != p.gpu else {})) for g, n in near]
