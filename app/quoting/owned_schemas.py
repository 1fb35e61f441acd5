"""The server owned as JSON: what it is, where its price came from, and its month by part."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from app.costing.curves import SteppedCost
from app.costing.money import Currency, cents, rate
from app.costing.owning import OWNED_OFFER_ID, busy_share, full_use_rate, owning_beats, undepreciated
from app.quoting.build import QuoteResult


class OwnedBeatsOut(BaseModel):
    against: str
    gpu_hours: float = Field(description="from these GPU-hours a month owning is the cheaper")
    busy_share: float = Field(description="of the servers' GPU-hours a month (730 a GPU) that keeps busy")
    until_gpu_hours: float | None = Field(description="where another server makes it the dearer again; null: none")


class OwnedOut(BaseModel):
    """The server owned, quoted as the option `owned/purchased`; money in the quote's currency."""

    server_key: str | None = Field(description="the catalog's server; null for a server of your own figures")
    name: str
    gpu: str
    gpus_per_server: int
    price: float = Field(description="as published (or typed), setup excluded, in `price_currency`")
    price_currency: str
    source: str
    as_of: date | None
    useful_life_months: int
    servers: int = Field(description="servers the GPU-hours and GPUs at once need")
    capex: float
    energy: float
    colocation: float
    operations: float
    busy_share: float = Field(description="of the servers' GPU-hours a month that the GPU-hours keep busy")
    full_use_per_gpu_hour: float = Field(description="a GPU-hour of work with every GPU busy all month")
    not_yet_written_off: float = Field(description="of the servers' price at the horizon's end (straight line)")
    beats: list[OwnedBeatsOut] = Field(description="where owning first becomes cheaper than each other option")


def owned_out(result: QuoteResult, name_of: dict[tuple[str, str], str]) -> OwnedOut | None:
    owned = result.owned
    found = next((o for o in result.quote.options if o.offer.offer_id == OWNED_OFFER_ID), None)
    if owned is None or found is None or not isinstance(found.curve, SteppedCost):
        return None
    cur, p, gpus = result.currency, result.params, found.offer.gpus_per_unit
    servers = found.curve.units(p.gpu_hours)
    month = owned.month.times(servers)

    def money(usd: float, currency: Currency = cur) -> float:
        return float(cents(currency.of(usd)))

    life = owned.running.life_months
    return OwnedOut(
        server_key=owned.server.key if owned.server is not None else None,
        name=owned.row.product, gpu=owned.row.gpu, gpus_per_server=gpus, price=float(owned.row.price),
        price_currency=owned.row.currency, source=owned.row.source_url, as_of=owned.row.as_of,
        useful_life_months=life, servers=servers, capex=money(month.capex), energy=money(month.energy),
        colocation=money(month.colocation), operations=money(month.operations),
        busy_share=round(busy_share(p.gpu_hours, servers, gpus), 4),
        full_use_per_gpu_hour=float(rate(cur.of(full_use_rate(owned.month.total, gpus, p.virt_tax_bare_metal / 100)))),
        not_yet_written_off=money(undepreciated(owned.price_usd, life, p.months) * servers),
        beats=[
            OwnedBeatsOut(against=name_of[b.against], gpu_hours=round(b.hours, 2), busy_share=round(b.busy, 4),
                          until_gpu_hours=None if b.until is None else round(b.until, 2))
            for b in owning_beats(result.quote.break_evens, found.curve, gpus)
        ],
    )  # fmt: skip
