"""The workload the explorer was opened from: each offer's egress, storage and month for it.

The calculator's links carry its inputs as one value (`workload=`, the calculator's query), so that
the explorer's own filters (GPU, tenancy, ...) never mix with the calculator's. Egress and storage
go through each provider's tiers at the version's prices, as the calculator prices them; a provider
that publishes none shows "not published", never a zero. The month is the offer's at the stated
GPU-hours and GPUs at once, its setup fee apart, as the calculator's tables show a month."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import parse_qs

from app.catalog.snapshot import CatalogSnapshot
from app.costing.money import Currency, cents
from app.costing.quote import OfferCost, breakdown, price_offers
from app.quoting.build import display_currency
from app.quoting.explorer_rows import ExplorerRow
from app.quoting.form import form_of, parse_params, query_string
from app.quoting.params import FieldErrors, QuoteParams

COLUMNS = ("Egress a month", "Storage a month", "Total a month")
"""After the chosen columns, in the page and the CSV (which names the currency beside each)."""
LIST_INPUTS = frozenset({"tenancy"})


@dataclass(frozen=True)
class ExplorerWorkload:
    """The calculator's inputs the explorer was opened with, checked, and the currency they ask for."""

    params: QuoteParams
    currency: Currency

    @classmethod
    def read(cls, text: str, catalog: CatalogSnapshot) -> ExplorerWorkload | FieldErrors:
        """The inputs in `text` (a calculator query), or what is wrong with them, named as the calculator names them."""
        raw = parse_qs(text, keep_blank_values=True)
        query: dict[str, str | list[str]] = {k: v if k in LIST_INPUTS else v[-1] for k, v in raw.items()}
        parsed = parse_params(query)
        shown_in = parsed if isinstance(parsed, dict) else display_currency(catalog, parsed.currency)
        if isinstance(shown_in, dict):
            labels = form_of(QuoteParams).labels
            wrong = "; ".join(f"{labels.get(k, k)} {message}" for k, message in shown_in.items())
            return {"workload": f"needs fixing: {wrong}"}
        assert not isinstance(parsed, dict)
        return cls(parsed, shown_in[0])

    def costs(self, rows: list[ExplorerRow]) -> dict[int, OfferCost]:
        """Each quotable row's month for the workload, by offer id; egress and storage priced once per provider."""
        workload = self.params.workload()
        offers = [r.record.priced for r in rows if r.record.priced is not None]
        priced = price_offers(offers, workload, self.params.assumptions())
        return {p.offer.offer_id: breakdown(p, workload) for p in priced}

    def figures(self, cost: OfferCost | None) -> tuple[Decimal | str, ...]:
        """Egress, storage and the month in the workload's currency, to the cent, or why not: the
        same in the page and the CSV."""
        if cost is None:
            return ("not quoted",) * 3
        missing = " and ".join(cost.unpublished)
        total = cost.total if cost.complete else f"unknown (no {missing} price)"
        return tuple(
            "not published" if usd is None else usd if isinstance(usd, str) else cents(self.currency.of(usd))
            for usd in (cost.egress, cost.storage, total)
        )

    def calculator_url(self, row: ExplorerRow) -> str:
        """The calculator with every input of the workload and this offer pinned (its GPU with it)."""
        pinned = self.params.model_copy(update={"gpu": row.record.row.gpu, "offer": row.record.row.key})
        return "/?" + query_string(pinned, changed_only=True)
