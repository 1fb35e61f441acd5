"""Rounding of what the user reads: once, here, half away from zero as invoices do."""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Literal, get_args

CENT = Decimal("0.01")
TENTH_OF_A_CENT = Decimal("0.0001")
_ANY_FLOAT = Context(prec=330)
"""Digits enough to quantize the largest finite float (10^308) to 1/100 of a cent: a rate at a
workload of 1e-20 GPU-hours is absurd, but it is a number, not an error."""


def cents(usd: float) -> Decimal:
    """USD rounded to the cent (the float is read through its shortest repr, so 0.125 -> 0.13)."""
    return Decimal(repr(usd)).quantize(CENT, rounding=ROUND_HALF_UP, context=_ANY_FLOAT)


def rate(usd: float) -> Decimal:
    """A per-hour rate to 1/100 of a cent, where a cent would hide the difference between offers."""
    return Decimal(repr(usd)).quantize(TENTH_OF_A_CENT, rounding=ROUND_HALF_UP, context=_ANY_FLOAT)


def price_shown(amount: Decimal) -> Decimal:
    """A price per GPU-hour as a history reads it: to the cent from 1 (1.82, not 1.8235), to three
    significant figures below 1 (0.123), where a cent is a large part of the price; no zeros past the
    cents (0.05, not 0.0500)."""
    places = CENT if amount == 0 or abs(amount) >= 1 else Decimal(1).scaleb(amount.adjusted() - 2)
    rounded = amount.quantize(places, rounding=ROUND_HALF_UP)
    if abs(rounded) >= 1:
        rounded = rounded.quantize(CENT)
    as_cents = rounded.quantize(CENT)
    return as_cents if as_cents == rounded else rounded.normalize()


@dataclass(frozen=True)
class Currency:
    """A display currency: the cost model adds USD (prices published in another currency are
    converted at their catalog version's rate) and converts to this one only to be read."""

    code: str
    symbol: str
    usd_per_unit: float = 1.0

    def of(self, usd: float) -> float:
        return usd / self.usd_per_unit

    def cents(self, usd: float) -> Decimal:
        """USD in this currency, rounded to the cent: as every amount is read."""
        return cents(self.of(usd))

    def rate(self, usd: float) -> Decimal:
        """A per-hour rate in USD in this currency, to 1/100 of a cent."""
        return rate(self.of(usd))


CurrencyCode = Literal["USD", "EUR"]
"""The currencies a price is published in and money is shown in: USD, which the cost model adds, and EUR."""
CODES: tuple[CurrencyCode, ...] = get_args(CurrencyCode)
SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€"}
NAMES: dict[str, str] = {"USD": "US dollars", "EUR": "euros"}
"""Each currency's symbol and name, in the order of CODES."""
USD = Currency("USD", SYMBOLS["USD"])
