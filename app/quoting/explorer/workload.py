"""The workload the explorer was opened from: each offer's egress, storage and month for it.

The calculator's links carry its inputs as one value (`workload=`, the calculator's query), so that
the explorer's own filters (GPU, tenancy, ...) never mix with the calculator's. Egress and storage
go through each provider's tiers at the version's prices, as the calculator prices them; a provider
that publishes none shows "not published", never a zero. The month is the offer's at the GPU-hours
and GPUs at once its GPU model is quoted at (a model's or a job's, as the calculator works them out),
its setup fee apart, as the calculator's tables show a month."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import parse_qsl

from app.catalog.snapshot import Catalogs, CatalogSnapshot
from app.costing.money import Currency
from app.costing.quote import OfferCost, breakdown, price_offers
from app.costing.terms import Offer, Workload
from app.quoting.build import quoted_contenders
from app.quoting.currency import display_currency
from app.quoting.explorer.rows import ExplorerRow
from app.quoting.moves import heavy
from app.quoting.params.form import form_of, parse_params, query_of, query_string
from app.quoting.params.quote import FieldErrors, QuoteParams

COLUMNS = ("Egress a month", "Storage a month", "Total a month")
"""After the chosen columns, in the page and the CSV (which names the currency beside each)."""


@dataclass(frozen=True)
class ExplorerWorkload:
    """The calculator's inputs the explorer was opened with, checked, and the currency they ask for."""

    params: QuoteParams
    currency: Currency
    quoted: dict[str, Workload]
    """Each GPU model's workload as its quote prices it, with a model or a job; {} for GPU-hours as typed."""
    hours_of: str = ""
    """Where the GPU-hours are converted to each GPU model by speed: the GPU model they are of."""

    @classmethod
    def read(cls, text: str, catalogs: Catalogs, catalog: CatalogSnapshot) -> ExplorerWorkload | FieldErrors:
        """The inputs in `text` (a calculator query), or what is wrong with them, named as the calculator names them."""
        parsed = parse_params(query_of(parse_qsl(text, keep_blank_values=True)))
        found = parsed if isinstance(parsed, dict) else _quoted(catalogs, catalog, parsed)
        if isinstance(found, dict):
            labels = form_of(QuoteParams).labels
            wrong = "; ".join(f"{labels.get(k, k)} {message}" for k, message in found.items())
            return {"workload": f"needs fixing: {wrong}"}
        return found

    @staticmethod
    def heavy(text: str, catalogs: Catalogs, catalog: CatalogSnapshot) -> bool:
        """Whether reading the inputs in `text` is heavy work, to run in its lane: the quote that sizes
        them per GPU model, as app/quoting/moves.py decides for it."""
        parsed = parse_params(query_of(parse_qsl(text, keep_blank_values=True)))
        return not isinstance(parsed, dict) and parsed.sized and heavy(catalogs, _as_quoted(parsed, catalog))

    @property
    def typed(self) -> Workload | None:
        """The workload as typed, the same on every GPU model; None where a model or a job sets it per GPU model."""
        return None if self.params.sized else self.params.workload()

    def costs(self, rows: list[ExplorerRow]) -> dict[int, OfferCost]:
        """Each quotable row's month for the workload, by offer id (none for a GPU model the model or
        job is not quoted on); egress and storage priced once per provider."""
        by_workload: dict[Workload, list[Offer]] = {}
        for r in rows:
            workload = self.typed or self.quoted.get(r.record.row.gpu)
            if r.record.priced is not None and workload is not None:
                by_workload.setdefault(workload, []).append(r.record.priced)
        assumptions = self.params.assumptions()
        return {
            p.offer.offer_id: breakdown(p, workload)
            for workload, offers in by_workload.items()
            for p in price_offers(offers, workload, assumptions)
        }

    def figures(self, cost: OfferCost | None) -> tuple[Decimal | str, ...]:
        """Egress, storage and the month in the workload's currency, to the cent, or why not: the
        same in the page and the CSV."""
        if cost is None:
            return ("not quoted",) * 3
        missing = " and ".join(cost.unpublished)
        total = cost.total if cost.complete else f"unknown (no {missing} price)"
        return tuple(
            "not published" if usd is None else usd if isinstance(usd, str) else self.currency.cents(usd)
            for usd in (cost.egress, cost.storage, total)
        )

    def calculator_url(self, row: ExplorerRow) -> str:
        """The calculator with every input of the workload and this offer pinned (its GPU with it), and
        the GPU model that converted GPU-hours are of, so that they stay the same work on the offer's."""
        of = {"hours_gpu": self.hours_of} if self.hours_of else {}
        pinned = self.params.model_copy(update={"gpu": row.record.row.gpu, "offer": row.record.row.key} | of)
        return "/?" + query_string(pinned, changed_only=True)


def _quoted(catalogs: Catalogs, catalog: CatalogSnapshot, params: QuoteParams) -> ExplorerWorkload | FieldErrors:
    shown_in = display_currency(catalog, params.currency)
    if isinstance(shown_in, dict):
        return shown_in
    if not params.sized:
        return ExplorerWorkload(params, shown_in[0], {})
    found = quoted_contenders(catalogs, _as_quoted(params, catalog))
    if isinstance(found, dict):
        return found
    hours_of = "" if found.hours_of is None else found.hours_of.gpu
    return ExplorerWorkload(params, shown_in[0], {f.gpu: f.workload for f in found.fitted}, hours_of)


def _as_quoted(params: QuoteParams, catalog: CatalogSnapshot) -> QuoteParams:
    """The inputs as the explorer quotes them: at its version, on every offer."""
    return params.model_copy(update={"offer": "", "catalog_version": catalog.version})
