"""The server a buyer would own, as the quote prices it beside the rental offers: resolved from the
catalog's servers or the buyer's own figures, every money figure converted to USD at the version's rate."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.catalog.provider_facts import ProviderRecord
from app.catalog.rates import usd_per_unit
from app.catalog.rows import OfferRow
from app.catalog.servers import ServerRecord
from app.catalog.snapshot import CatalogSnapshot
from app.costing import terms
from app.costing.owning import OwnedMonth, Running, Server, owned_offer, server_month
from app.quoting.params.owning import COLOCATION, ELECTRICITY, OWN_FIGURES
from app.quoting.params.quote import ANY_GPU, FieldErrors, QuoteParams

YOUR_FIGURES = "your own figures"


@dataclass(frozen=True)
class OwnedRecord:
    """The owned server as the quote lists it beside the offers' records: `row` and `provider` say
    what it is and where its price came from, `month` what one server costs a month, by part (USD)."""

    priced: terms.Offer
    provider: ProviderRecord
    row: OfferRow
    server: ServerRecord | None
    """None for a server of the buyer's own figures."""
    month: OwnedMonth
    price_usd: float
    running: Running
    defaults: tuple[str, ...]
    """The sourced defaults its month took, each named with its source (electricity, colocation)."""

    def holds(self, gpu: str, unit_gpus: int) -> bool:
        """Whether it is a server of this GPU model that holds one replica of the workload."""
        return self.row.gpu == gpu and self.priced.gpus_per_unit >= unit_gpus

    @property
    def field(self) -> str:
        """The input a message about the server goes under."""
        return "own_server" if self.server is not None else "own_gpus"


def owned_for(catalog: CatalogSnapshot, params: QuoteParams) -> OwnedRecord | FieldErrors | None:
    """The server to quote beside the offers; None where none is chosen, one offer is pinned, or the
    tenancy filter leaves owning out."""
    if not params.own_server or params.offer or (params.tenancy and terms.Tenancy.OWNED not in params.tenancy):
        return None
    server = catalog.servers.get(params.own_server)
    own, power, colocation = (
        usd_per_unit(params.own_currency, catalog.rates),
        _power(params, server),
        _colocation(params),
    )
    if errors := _refused(catalog, params, server):
        return errors
    assert own is not None and power is not None and colocation is not None, "_refused says why any is missing"
    price = _price_usd(catalog, params, server, own)
    running = _running(params, own, colocation)
    gpus = server.gpus if server is not None else params.own_gpus
    seller = server.seller if server is not None else YOUR_FIGURES
    bought = Server(gpus=gpus, price_usd=price, power_kw=power)
    return OwnedRecord(
        owned_offer(bought, running, seller),
        ProviderRecord("owned", seller if server is None else f"bought from {seller}", "", None, (), None),
        _row(params, server, gpus, price / own),
        server,
        server_month(bought, running),
        price,
        running,
        _defaults_taken(params),
    )


def _price_usd(catalog: CatalogSnapshot, params: QuoteParams, server: ServerRecord | None, own: float) -> float:
    """What the server costs to buy and set up, in USD: the catalog's at its currency's rate, else as
    typed in the buyer's currency (`own` USD per unit of it)."""
    if server is None:
        return (params.own_price or 0.0) * own
    return float(server.price + (server.setup or Decimal(0))) * (usd_per_unit(server.currency, catalog.rates) or 0)


def _running(params: QuoteParams, own: float, colocation: float) -> Running:
    """What running the server costs, in USD (`own` USD per unit of the buyer's currency): electricity
    as typed, else the sourced price in the buyer's currency."""
    kwh = params.own_kwh if params.own_kwh is not None else ELECTRICITY[params.own_currency][0]
    return Running(
        life_months=params.own_life_months, usd_per_kwh=kwh * own, colocation_usd_per_kw_month=colocation * own,
        draw=params.own_draw_pct / 100, pue=params.own_pue, capital_rate=params.own_capital_pct / 100,
        operations_usd=params.own_operations * own,
    )  # fmt: skip


def _defaults_taken(params: QuoteParams) -> tuple[str, ...]:
    """The sourced defaults the month takes where the buyer typed no figure, each named with its source."""
    return tuple(
        f"{name}: {source}"
        for name, typed, (_, source) in (
            ("electricity", params.own_kwh, ELECTRICITY[params.own_currency]),
            ("colocation", params.own_colocation, COLOCATION.get(params.own_currency, (0, ""))),
        )
        if typed is None
    )


def _power(params: QuoteParams, server: ServerRecord | None) -> float | None:
    """The server's maximum kW: as typed, else as its source states it."""
    if params.own_power_kw is not None:
        return params.own_power_kw
    return None if server is None or server.power_kw is None else float(server.power_kw)


def _colocation(params: QuoteParams) -> float | None:
    """Per kW-month in the buyer's currency: as typed, else the sourced figure, where one exists."""
    sourced = COLOCATION.get(params.own_currency)
    return params.own_colocation if params.own_colocation is not None else sourced and sourced[0]


def _refused(catalog: CatalogSnapshot, params: QuoteParams, server: ServerRecord | None) -> FieldErrors:
    """Why the server cannot be quoted, under each input at fault."""
    listed = catalog.price_list
    errors: FieldErrors = {}
    if usd_per_unit(params.own_currency, catalog.rates) is None:
        errors["own_currency"] = f"has no exchange rate in {listed} yet (an admin adds the ECB's)"
    if params.own_server == OWN_FIGURES:
        if params.gpu == ANY_GPU:
            errors["own_gpus"] = "a server of your own figures holds one GPU model: choose it above, not any GPU"
        if params.own_price is None:
            errors["own_price"] = "a server of your own figures needs its price"
    elif server is None:
        errors["own_server"] = f"is not a server in {listed}"
    elif usd_per_unit(server.currency, catalog.rates) is None:
        errors["own_server"] = f"is priced in {server.currency}, which {listed} holds no rate for"
    if _power(params, server) is None and (server is not None or params.own_server == OWN_FIGURES):
        errors["own_power_kw"] = "type the server's maximum power in kW (its datasheet's): no source here states it"
    if _colocation(params) is None:
        errors["own_colocation"] = f"no sourced colocation price in {params.own_currency} was found: type yours"
    return errors


def _row(params: QuoteParams, server: ServerRecord | None, gpus: int, own_price: float) -> OfferRow:
    """The server as the options' table lists an offer: its price as published, and where from."""
    stated = (
        {"key": OWN_FIGURES, "product": "the server you priced", "gpu": params.gpu,
         "price": Decimal(repr(own_price)), "currency": params.own_currency, "source_url": YOUR_FIGURES}
        if server is None
        else {"key": server.key, "product": server.name, "gpu": server.gpu, "price": server.price,
              "currency": server.currency, "source_url": server.source, "as_of": server.as_of,
              "notes": server.notes, "setup_fee": server.setup}
    )  # fmt: skip
    return OfferRow.model_validate(
        stated
        | {"key": f"owned:{stated['key']}", "provider": "owned", "tenancy": terms.Tenancy.OWNED,
           "billing": terms.Billing.PURCHASED, "gpus_per_unit": gpus, "price_period": "purchase",
           "region": "your data centre"}
    )  # fmt: skip


def misfit(owned: OwnedRecord, params: QuoteParams, unit_gpus: dict[str, int]) -> FieldErrors:
    """Why the server is quoted for none of the GPU models quoted (`unit_gpus`: the GPUs one server
    must hold for each), under its input."""
    gpu, gpus = owned.row.gpu, owned.priced.gpus_per_unit
    if gpu not in unit_gpus:
        if params.gpu == ANY_GPU:
            return {owned.field: f"holds {gpu}, which cannot hold the model: choose another server"}
        return {owned.field: f"holds {gpu}; the quote is for {params.gpu}: choose {gpu} above, or another server"}
    return {owned.field: f"{gpus} {gpu} in one server cannot hold the model: it needs {unit_gpus[gpu]} in one"}
