"""The inputs of owning the hardware: which server, and what running it costs, each with its sourced
default where one exists (../shared/data/tco_inputs.csv) and none where none does."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from app.costing.money import CODES, NAMES, CurrencyCode
from app.quoting.params.inputs import Fieldset, Input, MaybeNumber, Number, Whole, Widget

OWN_FIGURES = "custom"
"""The server choice that prices a server from the buyer's own figures (GPUs, price, power)."""
OWNING_CURRENCIES = tuple((code, NAMES[code]) for code in CODES)

ELECTRICITY = {
    "USD": (0.0806, "EIA, US industrial average, 2023"),
    "EUR": (0.1902, "Eurostat, EU non-household average, first half of 2025"),
}
"""Per kWh, in the currency the source publishes it: the EIA's 8.06 US cents ("Industrial consumers
of electricity in the United States paid an average of 8.06 U.S. dollar cents per kilowatt-hour in
2023", statista.com/statistics/190680), Eurostat's EUR 19.02 per 100 kWh, before VAT and recoverable
taxes (release of 2025-10-29, as quoted by eubusiness.com)."""
COLOCATION = {"USD": (184.06, "CBRE, North American primary markets, 250-500 kW, H2 2024")}
"""Per kW-month: CBRE's North America Data Center Trends H2 2024 (2025-02-26): "average monthly asking
rate for a 250-to-500-kilowatt (kW) requirement across primary markets ... $184.06 per kW". No
sourced European figure was found: in EUR the buyer types one."""


class OwningParams(BaseModel):
    """A server the buyer would own, quoted beside the rental options: off until one is chosen."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    own_server: str = Input(
        "Server to own", Fieldset.OWNING, widget=Widget.SERVER, placeholder="none: rent only",
        help=f"a server's key in the catalog, or {OWN_FIGURES} (the GPUs, price and power below)",
    ).field("", max_length=120)  # fmt: skip
    own_gpus: Whole = Input(
        "GPUs in your server", Fieldset.OWNING, unit="of the GPU model quoted", help="for a server of your own figures",
    ).field(8, ge=1, le=1024)  # fmt: skip
    own_price: MaybeNumber = Input(
        "Its price", Fieldset.OWNING, unit="in the currency below", placeholder="needed for your own server",
        help="for a server of your own figures: what it costs bought, setup included",
    ).field(None, gt=0, le=100_000_000)  # fmt: skip
    own_power_kw: MaybeNumber = Input(
        "Its maximum power", Fieldset.OWNING, unit="kW", placeholder="as published",
        help="the server's maximum input power (default: the catalog's, where a source states it)",
    ).field(None, gt=0, le=1000)  # fmt: skip
    own_life_months: Whole = Input(
        "Useful life", Fieldset.OWNING, unit="months",
        help="what the purchase is spread over; filings say 4 to 6 years (60: Epoch AI's model since 2023)",
    ).field(60, ge=1, le=240)  # fmt: skip
    own_currency: CurrencyCode = Input(
        "Currency of your figures", Fieldset.OWNING, widget=Widget.CHOICE, options=OWNING_CURRENCIES,
        help="of your server's price, electricity, colocation and operations",
    ).field("USD")  # fmt: skip
    own_kwh: MaybeNumber = Input(
        "Electricity", Fieldset.OWNING, unit="per kWh", placeholder="the average",
        help="default: the EIA's US industrial average in USD, Eurostat's EU non-household average in EUR",
    ).field(None, ge=0, le=10)  # fmt: skip
    own_colocation: MaybeNumber = Input(
        "Colocation", Fieldset.OWNING, unit="per kW-month of maximum power", placeholder="CBRE's, in USD",
        help="default in USD: CBRE's North American asking rate; no sourced EU figure: type yours in EUR",
    ).field(None, ge=0, le=100_000)  # fmt: skip
    own_operations: Number = Input(
        "Operations", Fieldset.OWNING, unit="per server a month",
        help="support, staff, spares, bandwidth, egress and storage: none is priced otherwise",
    ).field(0, ge=0, le=10_000_000)  # fmt: skip
    own_capital_pct: Number = Input(
        "Cost of capital", Fieldset.OWNING, unit="% a year", folded=True,
        help="the purchase paid back like a loan over its life (0: spread evenly)",
    ).field(0, ge=0, le=100)  # fmt: skip
    own_draw_pct: Number = Input(
        "Average power draw", Fieldset.OWNING, unit="% of the maximum", folded=True,
        help="75: Epoch AI's share of a server's power drawn in training",
    ).field(75, gt=0, le=100)  # fmt: skip
    own_pue: Number = Input(
        "Power usage effectiveness", Fieldset.OWNING, unit="PUE", folded=True,
        help="the data centre's power per watt the server draws; 1.54: Uptime Institute's 2025 average",
    ).field(1.54, ge=1, le=5)  # fmt: skip
