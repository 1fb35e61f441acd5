"""The calculator's inputs as the page and the API take them, checked at the edge, and the quote."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.catalog.snapshot import Catalogs, CatalogSnapshot, select_offers
from app.charts import hours_axis_max
from app.costing.quote import PricedOffer, Quote, price_offers, quote_priced
from app.costing.terms import Assumptions, Tenancy, Workload
from app.lru import Lru

GPU_HOURS_MAX = 1_000_000
VERSION_MAX = 2**31 - 1
"""Catalog versions are database integers; a larger number can name no version."""


class QuoteParams(BaseModel):
    """One scenario; every field is a query parameter of `/` and `/api/quote`."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    gpu: str = Field("H100", max_length=40, description="GPU model, e.g. H100")
    gpu_hours: float = Field(500, ge=0, le=GPU_HOURS_MAX, description="GPU-hours per month")
    peak_gpus: int = Field(1, ge=1, le=10_000, description="GPUs needed at once")
    checkpoint_gb: float = Field(140, ge=0, le=1_000_000, description="checkpoint size, GB")
    checkpoints_out: int = Field(1, ge=0, le=10_000, description="checkpoints moved out per month")
    egress_gb: float = Field(0, ge=0, le=10_000_000, description="other egress, GB per month")
    stored_gb: float = Field(0, ge=0, le=10_000_000, description="stored GB")
    months: int = Field(1, ge=1, le=120, description="horizon in months")
    tenancy: list[Tenancy] = Field(default_factory=list, description="tenancies to include (none = all)")
    region: str = Field("", max_length=100, description="only offers in this region")
    eu_only: bool = Field(False, description="only offers processed in an EU member state")
    exclude_us_hq: bool = Field(False, description="only providers known to be headquartered outside the US")
    virt_tax: float = Field(5, ge=0, le=50, description="virtualization tax of virtualized offers, percent")
    virt_tax_bare_metal: float = Field(0, ge=0, le=50, description="throughput lost on bare metal, percent")
    virt_tax_serverless: float = Field(0, ge=0, le=50, description="throughput lost on serverless, percent")
    invocations: int = Field(1000, ge=0, le=100_000_000, description="serverless invocations per month")
    cold_start_s: float = Field(20, ge=0, le=3600, description="cold-start seconds per invocation")
    catalog_version: int | None = Field(
        None, ge=1, le=VERSION_MAX, description="catalog version to quote at (default: newest)"
    )

    def workload(self) -> Workload:
        return Workload(
            gpu_hours=self.gpu_hours,
            peak_gpus=self.peak_gpus,
            checkpoint_gb=self.checkpoint_gb,
            checkpoints_out=self.checkpoints_out,
            egress_gb=self.egress_gb,
            stored_gb=self.stored_gb,
            months=self.months,
        )

    def assumptions(self) -> Assumptions:
        return Assumptions(
            virt_tax={
                Tenancy.BARE_METAL: self.virt_tax_bare_metal / 100,
                Tenancy.VIRTUALIZED: self.virt_tax / 100,
                Tenancy.SERVERLESS: self.virt_tax_serverless / 100,
            },
            invocations=self.invocations,
            cold_start_s=self.cold_start_s,
        )


FieldErrors = dict[str, str]

_MESSAGES = {
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "finite_number": "must be a finite number",
    "bool_parsing": "must be on or off",
    "enum": "must be one of bare_metal, virtualized, serverless",
    "string_too_long": "is too long",
}


_MAY_BE_EMPTY = {"region", "tenancy", "catalog_version"}


def _number(value: object) -> object:
    """1000000 -> '1,000,000' and 0.0 -> '0' in messages; anything else as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,}"
    return value


def parse_params(query: dict[str, str | list[str]]) -> QuoteParams | FieldErrors:
    """Read a query string into params, or a plain message per bad field.

    A parameter left out takes its default (a short shared URL); a number field sent empty is an
    error, so that a cleared input never quietly shows the default's numbers.
    """
    data = {k: v for k, v in query.items() if not (v in ("", [], [""]) and k in _MAY_BE_EMPTY)}
    try:
        return QuoteParams.model_validate(data)
    except ValidationError as e:
        errors: FieldErrors = {}
        for err in e.errors():
            field = str(err["loc"][0])
            template = _MESSAGES.get(err["type"], err["msg"])
            errors.setdefault(field, template.format(**{k: _number(v) for k, v in err.get("ctx", {}).items()}))
        return errors


@dataclass(frozen=True)
class QuoteResult:
    params: QuoteParams
    catalog: CatalogSnapshot
    quote: Quote


_priced: Lru[tuple[int, str], tuple[CatalogSnapshot, list[PricedOffer]]] = Lru()


def _priced_offers(catalog: CatalogSnapshot, params: QuoteParams) -> list[PricedOffer]:
    """The slider's shortcut: offers priced for everything but GPU-hours, by catalog and inputs.

    Moving the GPU-hours slider changes only H, so the curves are remembered and each move only
    reads them at the new H. The snapshot itself must match: another database may have a version
    of the same number.
    """
    key = catalog.version, params.model_dump_json(exclude={"gpu_hours", "catalog_version"})
    hit = _priced.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    offers = select_offers(
        catalog,
        params.gpu,
        tenancies=frozenset(params.tenancy),
        region=params.region or None,
        eu_only=params.eu_only,
        exclude_us_hq=params.exclude_us_hq,
    )
    priced = price_offers([o.priced for o in offers], params.workload(), params.assumptions())
    return _priced.put(key, (catalog, priced))[1]


def build_quote(catalogs: Catalogs, params: QuoteParams) -> QuoteResult | FieldErrors:
    catalog = catalogs.at(params.catalog_version)
    if catalog is None:
        return {"catalog_version": f"there is no catalog version {params.catalog_version}"}
    if params.gpu not in catalog.gpus:
        return {"gpu": "is not a GPU model in the catalog"}
    result = quote_priced(_priced_offers(catalog, params), params.workload(), hours_axis_max(params.gpu_hours))
    return QuoteResult(params, catalog, result)
