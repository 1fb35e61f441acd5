"""The server owned as JSON: what it is, where its price came from, and its month by part."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from app.quoting.build import QuoteResult
from app.quoting.owned_quote import owned_at, owned_beats


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
    at = owned_at(result)
    if at is None:
        return None
    cur, owned = result.currency, at.record

    def money(usd: float) -> float:
        return float(cur.cents(usd))

    return OwnedOut(
        server_key=owned.server.key if owned.server is not None else None,
        name=owned.row.product, gpu=owned.row.gpu, gpus_per_server=at.cost.offer.gpus_per_unit,
        price=float(owned.row.price), price_currency=owned.row.currency, source=owned.row.source_url,
        as_of=owned.row.as_of, useful_life_months=owned.running.life_months, servers=at.servers,
        capex=money(at.month.capex), energy=money(at.month.energy), colocation=money(at.month.colocation),
        operations=money(at.month.operations), busy_share=round(at.busy, 4),
        full_use_per_gpu_hour=float(cur.rate(at.full_use)), not_yet_written_off=money(at.left),
        beats=[
            OwnedBeatsOut(against=name_of[b.against], gpu_hours=round(b.hours, 2), busy_share=round(b.busy, 4),
                          until_gpu_hours=None if b.until is None else round(b.until, 2))
            for b in owned_beats(result, at)
        ],
    )  # fmt: skip
