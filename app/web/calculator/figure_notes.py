"""What the results say beside a figure, where an assumption or a term changes it: the GPU time and
what the tax and cold starts add, the hours a tax makes the work take, the horizon a term asks for."""

from __future__ import annotations

from app.catalog.cache import MemoEntry
from app.costing.billing import RESERVED
from app.costing.jobs import RunPlan
from app.costing.money import Currency
from app.costing.quote import OfferCost
from app.quoting.build import QuoteResult
from app.quoting.moves import MOVED
from app.quoting.params.form import query_string
from app.web.calculator.result_rows import hours_param
from app.web.templating import duration, money, quantity


def billed_hours(result: QuoteResult) -> str | None:
    """H / (1 - t) of the option that runs more GPUs at once than asked, where it has a tax t: the
    hours its GPUs must run, which a sentence compares with the GPUs at once x 730."""
    raised = result.raised_by
    if raised is None or not raised.tax:
        return None
    return quantity(round(result.params.gpu_hours / (1 - raised.tax), 1))


def compute_parts(o: OfferCost, cur: Currency, run: RunPlan | None = None) -> str | None:
    """The compute as what the work's GPU time costs and what each assumption adds to it, so that a
    figure an assumption changes says so: the tax of an offer billed by the hour (always, where there
    is one), the units it adds to reserved ones (where it adds any), serverless cold starts. A run's
    GPUs are fixed, so its tax makes it longer, which every option with a tax says: reserved nodes are
    billed the months more it takes, if any."""
    pct = f"{quantity(o.tax * 100)}\u00a0%"
    added = []
    longer = f", the run taking {duration(run.wall_clock_hours / (1 - o.tax))}" if run and o.tax else ""
    if o.tax_units:
        more = f"{o.tax_units} more unit{'s' if o.tax_units != 1 else ''}"
        added.append(f"{money(o.tax_usd, cur)} for {more} the {pct} virtualization tax needs")
    elif o.tax_months:
        more = f"{o.tax_months} more month{'s' if o.tax_months != 1 else ''}"
        added.append(f"{money(o.tax_usd, cur)} for {more} of the nodes the {pct} virtualization tax needs{longer}")
    elif o.tax and (run or o.offer.billing not in RESERVED):
        added.append(f"{money(o.tax_usd, cur)} for the {pct} virtualization tax{longer}")
    if o.cold_start_usd:
        added.append(f"{money(o.cold_start_usd, cur)} of cold starts")
    return " + ".join([f"{money(o.gpu_time_usd, cur)} of GPU time", *added]) if added else None


def term_horizon(result: QuoteResult, memo: MemoEntry) -> str | None:
    """The calculator's query at a horizon as long as the longest term of the options billed past the
    horizon, where one is: there the terms are compared a month at a time, on the GPU model quoted (with
    GPU-hours converted to it, the one they are of named). All but GPU-hours made once per memo for each
    GPU model quoted (which, on equal work, the GPU-hours choose), as `inputs_query` does."""
    longest = max((o.term_past_horizon or 0 for o in result.quote.options), default=0)
    if not longest:
        return None
    at_term = result.params.model_copy(update={"months": longest} | result.as_stated)
    key = ("term horizon", longest, result.params.gpu)
    rest = memo.part(key, lambda: query_string(at_term, frozenset(MOVED), changed_only=True))
    return f"{hours_param(result.stated_hours)}&{rest}" if rest else hours_param(result.stated_hours)
