"""How the calculator shows each provider's cheapest offer: folded away (the default), or listed
and sorted by a column the buyer picks, in the order the API lists them too.

Read from the page's query beside the inputs, never one of them: the API lists the providers only
when asked the same way (`providers=`), a saved scenario keeps inputs alone, and the memo of a
slider move is keyed by inputs. The results block carries it (inputs tied to the form), so that a
change of the form keeps it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from app.catalog.offer_records import OfferRecord
from app.costing.quote import OfferCost
from app.quoting.build import QuoteResult
from app.quoting.params.quote import FieldErrors

Column = Literal["provider", "offer", "compute", "egress", "storage", "total"]
COLUMNS: dict[str, str] = {
    "provider": "Provider",
    "offer": "Offer",
    "compute": "Compute",
    "egress": "Egress",
    "storage": "Storage",
    "total": "Total / month",
}
"""The provider table's columns as their headings read; the keys are the `providers=` values."""
LABELS = {"providers": "Each provider's cheapest, sorted by", "providers_dir": "Each provider's cheapest, order"}
"""Each parameter as the page's messages name it."""

Bill = tuple[OfferCost, OfferRecord]
_SORT: dict[str, Callable[[Bill], str | float | None]] = {
    "provider": lambda b: b[1].provider.name.casefold(),
    "offer": lambda b: b[1].row.product.casefold(),
    "compute": lambda b: b[0].compute,
    "egress": lambda b: b[0].egress,
    "storage": lambda b: b[0].storage,
    "total": lambda b: b[0].total if b[0].complete else None,
}
"""What each column sorts by; None (a price nobody published, a total leaving one out) sorts last."""


class ProviderView(BaseModel):
    """The provider table's state, as the page's query states it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    providers: Column | Literal[""] = ""
    """The column the table is sorted by; empty: the table is folded away."""
    providers_dir: Literal["asc", "desc"] = "asc"

    @property
    def shown(self) -> bool:
        return bool(self.providers)

    def next_dir(self, column: str) -> str:
        """Lowest first, and the sorted column's heading turns the order round."""
        return "desc" if column == self.providers and self.providers_dir == "asc" else "asc"

    def sorted(self, bills: list[Bill]) -> list[Bill]:
        """`bills` (cheapest first) by the column, unknown last either way; ties keep their order."""
        key = _SORT[self.providers or "total"]
        known = [b for b in bills if key(b) is not None]
        ordered = sorted(known, key=key, reverse=self.providers_dir == "desc")  # type: ignore[arg-type]
        return ordered + [b for b in bills if key(b) is None]


def provider_bills(result: QuoteResult, view: ProviderView) -> list[Bill]:
    """Each provider's cheapest offer for the quote beside its record, in the view's order: the rows the
    page's table (web/calculator/results.py) and the API (out/quote.py) list alike."""
    return view.sorted([(o, result.catalog.offers_by_id[o.offer.offer_id]) for o in result.providers])


def parse_view(query: dict[str, object]) -> ProviderView | FieldErrors:
    """The view the query asks for, or a plain message per bad parameter."""
    data = {k: v for k, v in query.items() if k in ProviderView.model_fields and v not in ("", [""])}
    try:
        return ProviderView.model_validate(data)
    except ValidationError as e:
        return {
            str(err["loc"][0]): f"must be one of {', '.join(COLUMNS) if err['loc'][0] == 'providers' else 'asc, desc'}"
            for err in e.errors()
        }
