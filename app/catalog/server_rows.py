"""What a server a buyer may own states, and its checks, in one place: the shipped update and the
admin's form read them here (the checks every catalog field shares are rows.py's)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation

from app.catalog.currencies import stated_currency
from app.catalog.rows import count, gpu_name, number, price, text

SERVER_KEY = re.compile(r"[a-z0-9][a-z0-9._/-]{0,119}")
POWER_KW_MAX = 1_000
"""The most one server is taken to draw, far above any published figure (a DGX H100 states 10.2 kW)."""


def server_key(value: str) -> str:
    """A server configuration's id across versions, e.g. dgx-h100/viperatech-2025-03."""
    if not SERVER_KEY.fullmatch(value):
        raise ValueError("lower-case letters, digits, dots, dashes, underscores and slashes, 120 at most")
    return value


def power_kw(typed: str) -> Decimal | None:
    """kW the system draws at most (10.2 for a DGX H100), or None where no source states it."""
    if not typed:
        return None
    try:
        amount = number(typed)
    except InvalidOperation:
        raise ValueError("must be a number of kW, e.g. 10.2") from None
    if not 0 < amount <= POWER_KW_MAX or amount != amount.quantize(Decimal("0.001"), rounding="ROUND_DOWN"):
        raise ValueError(f"must be above 0 kW, at most {POWER_KW_MAX:,}, with 3 decimal places at most")
    return amount


def purchase_price(typed: str) -> Decimal:
    """The price of one server: more than 0 (a server is not given away)."""
    amount = price(typed)
    if amount == 0:
        raise ValueError("must be the price of one server, above 0")
    return amount


SERVER_CHECKS: dict[str, Callable[[str], object]] = {
    "name": lambda v: text(v, 200),
    "seller": lambda v: text(v, 100),
    "gpu": gpu_name,
    "gpus": lambda v: count(v, 1, 1024),
    "price": purchase_price,
    "currency": stated_currency,
    "power_kw": power_kw,
    "power_source": lambda v: text(v, 2000, required=False),
    "setup": lambda v: price(v) if v else None,
}
"""How each field of a server, typed as text, is checked (its key aside); the GPU model is checked
against the catalog too. A price is in `currency`, which must be stated: a price whose source
states no currency is not a server a buyer can be quoted."""


def power_refused(server: Mapping[str, object]) -> dict[str, str]:
    """A power figure needs its source, and a source needs a figure: by field, why not."""
    if server["power_kw"] is not None and not server["power_source"]:
        return {"power_source": "say where the power figure was read"}
    if server["power_kw"] is None and server["power_source"]:
        return {"power_kw": "give the figure its source states, or leave the source empty"}
    return {}
