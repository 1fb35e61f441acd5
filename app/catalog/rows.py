"""An offer's shape and the checks of every catalog field, in one place: the table, imports, exports,
the admin's forms, the API and the history page all derive from what is written here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Numeric
from sqlmodel import Field, SQLModel

from app.catalog.currencies import price_currency
from app.catalog.text_rules import FORMULA_START, plain_text
from app.costing.money import USD
from app.costing.terms import RENTAL_BILLINGS, RENTED, PricePeriod

PRICE_MAX = Decimal(10_000_000)
"""Per unit and period: a year of an 8-GPU server is a few hundred thousand; nothing costs more."""


# The fields of an offer that every version of it carries; the table adds ids, files add names.
class OfferBase(SQLModel):
    key: str = Field(index=True)
    product: str
    tenancy: str
    billing: str
    gpus_per_unit: int
    price: Decimal = Field(sa_type=Numeric(20, 8, asdecimal=True))
    currency: str = USD.code
    """The price's and the setup fee's, as published; a provider's own USD list is another offer."""
    price_period: str
    min_commitment_months: int | None = None
    setup_fee: Decimal | None = Field(default=None, sa_type=Numeric(20, 8, asdecimal=True))
    """Charged once when the unit is set up (Hetzner's dedicated servers), in the price's currency."""
    region: str
    region_country: str | None = None
    source_url: str
    as_of: date | None = None
    notes: str = ""
    vcpus: int | None = None
    ram_gib: Decimal | None = Field(default=None, sa_type=Numeric(12, 3, asdecimal=True))


# One offer as files, forms and the API carry it: provider and GPU by name.
class OfferRow(OfferBase):
    provider: str
    gpu: str


KEY_PARTS = ("provider", "product", "gpu", "region", "billing", "currency")
"""What names an offer across versions: an import that differs in one of these is another offer."""
OFFER_COLUMNS = ("key", "provider", "gpu", *(f for f in OfferBase.model_fields if f != "key"))
"""The columns of an offer in exports and imports, in this order."""
OPTIONAL_COLUMNS = ("currency", "setup_fee", "vcpus", "ram_gib")
"""The currency (USD where a file exported before has none), a setup fee, a unit's vCPUs and RAM
(not GPU memory), where stated."""
VERSIONED_FIELDS = tuple(f for f in OFFER_COLUMNS if f != "key" and f not in KEY_PARTS)
"""What a new version of an offer may change; the history page shows each change of these."""


def decimal_text(value: Decimal) -> str:
    """A stored number as typed: 1250, not 1.25E+3; 3.99, not 3.99000000 (exports, forms, pages)."""
    return f"{value.normalize():f}"


def offer_key(provider: str, product: str, gpu: str, region: str, billing: str, currency: str = "USD") -> str:
    """USD, the first catalog's one currency, adds nothing to the key, so older keys stay as they were."""
    tail = "" if currency == USD.code else f":{currency or 'unstated'}"
    return f"{provider}:{product}:{gpu}:{region}:{billing}{tail}"


DECIMAL_NUMBER = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
"""A number as files and forms write it, in ASCII digits, signed only when negative; not Python's other
spellings, which Decimal takes: 1_000, NaN, Infinity, +5, Arabic-Indic or fullwidth digits (٣, ３)."""


def number(text: str) -> Decimal:
    """InvalidOperation for anything DECIMAL_NUMBER does not match, as Decimal itself would."""
    if not DECIMAL_NUMBER.fullmatch(text):
        raise InvalidOperation
    return Decimal(text)


def price(text: str) -> Decimal:
    """0 or more, 8 decimal places at most."""
    try:
        amount = number(text)
    except InvalidOperation:
        raise ValueError("must be a number, e.g. 2.49") from None
    if not amount.is_finite() or amount.is_signed():  # -0 too: no price is written so
        raise ValueError("must be a price of 0 or more")
    if amount > PRICE_MAX or amount != amount.quantize(Decimal("0.00000001"), rounding="ROUND_DOWN"):
        raise ValueError(f"must be at most {PRICE_MAX:,} with 8 decimal places at most")
    return amount


def text(value: str, longest: int, required: bool = True) -> str:
    """A name or label: present, not too long, and no spreadsheet formula when exported."""
    value = plain_text(value).strip()
    if (required and not value) or len(value) > longest:
        raise ValueError(f"must be {'1' if required else '0'} to {longest:,} characters")
    if value.startswith(FORMULA_START):
        raise ValueError("may not start with =, +, - or @")
    return value


WHOLE_NUMBER = re.compile(r"[0-9]+(\.0*)?")
"""Digits, as SkyPilot's files write counts too (8.0); not 1e1, 8_0, +8, ² or ４, which float() takes."""


def count(value: str, least: int, most: int) -> int:
    """A whole number in a range, read as a Decimal: a float is infinite past 308 digits."""
    if not WHOLE_NUMBER.fullmatch(value) or not least <= Decimal(value) <= most:
        raise ValueError(f"must be a whole number from {least:,} to {most:,}")
    return int(Decimal(value))


PROVIDER_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
GPU_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .-]{0,39}")
PRESET_KEY = re.compile(r"[a-z0-9][a-z0-9.-]{0,59}")


def preset_key(value: str) -> str:
    """A model preset's id in URLs and saved scenarios, e.g. llama-3.1-70b."""
    if not PRESET_KEY.fullmatch(value):
        raise ValueError("lower-case letters, digits, dots and dashes, 60 at most")
    return value


def billions(text: str) -> int:
    """Parameters typed in billions (70.6) as a whole count."""
    try:
        amount = number(text)
    except InvalidOperation:
        raise ValueError("must be a number of billions, e.g. 70.6") from None
    if not Decimal("0.001") <= amount <= Decimal(100_000):
        raise ValueError("must be between 0.001 and 100,000 billion")
    return int(amount * 1_000_000_000)


def provider_slug(value: str) -> str:
    """A provider's id in offer keys and URLs."""
    if not PROVIDER_SLUG.fullmatch(value):
        raise ValueError("lower-case letters, digits and dashes, 40 at most")
    return value


def gpu_name(value: str) -> str:
    """A GPU model's name, as offers and the calculator's menu name it: never one a spreadsheet, a
    JSON reader or a query's parser would take for a number (4090, 1e308, NaN, inf)."""
    if not GPU_NAME.fullmatch(value):
        raise ValueError("letters, digits, spaces, dots and dashes, 40 at most")
    if _reads_as_number(value):
        raise ValueError("must be a name, not a number: add the maker's letters (RTX 4090, not 4090)")
    return value


def _reads_as_number(value: str) -> bool:
    try:
        Decimal(value)
    except InvalidOperation:
        return False
    return True


def memory_gib(value: str) -> int:
    """GiB per GPU: the largest today is a few hundred."""
    return count(value, 1, 4096)


def ram_gib(text: str) -> Decimal:
    """A unit's RAM in GiB: more than 0, 1,000,000 at most, 3 decimal places at most."""
    amount = number(text) if DECIMAL_NUMBER.fullmatch(text) else Decimal(0)
    if not 0 < amount <= 1_000_000 or amount != amount.quantize(Decimal("0.001"), rounding="ROUND_DOWN"):
        raise ValueError("must be a number of GiB above 0, at most 1,000,000, with 3 decimal places at most")
    return amount


def country(value: str) -> str | None:
    """A two-letter ISO code, or None where the source does not say."""
    if not value:
        return None
    if not (len(value) == 2 and value.isascii() and value.isalpha() and value.isupper()):
        raise ValueError("must be a two-letter ISO country code, e.g. DE, or empty if not known")
    return value


def web_address(value: str) -> str:
    """Where a fact was read: an http(s) address naming a host, never a script."""
    if not plain_text(value).startswith(("https://", "http://")) or len(value) > 500 or not _host_of(value):
        raise ValueError("must be the http(s) address of the page the price was read from")
    return value


def _host_of(address: str) -> str | None:
    """The host an address names: None for `http://`, `http:///page` or a bracket left open."""
    try:
        return urlsplit(address).hostname
    except ValueError:
        return None


ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A day as the form shows it; not the other ISO spellings date.fromisoformat takes (20261120, 2026-W48-5)."""
EARLIEST_DAY = date(2000, 1, 1)
"""No price, rate or figure of this catalog is dated earlier: a day before it is a slip (0001-01-01)."""


def past_day(value: str) -> date:
    """A day a source states, from EARLIEST_DAY to today."""
    try:
        day = date.fromisoformat(value) if ISO_DAY.fullmatch(value) else None
    except ValueError:
        day = None
    if day is None:
        raise ValueError("must be a date, YYYY-MM-DD")
    if day > date.today():
        raise ValueError("cannot be in the future")
    if day < EARLIEST_DAY:
        raise ValueError(f"must be {EARLIEST_DAY.isoformat()} or later")
    return day


def optional_past_day(value: str) -> date | None:
    """A date, or None where the source gives none (an empty field)."""
    return past_day(value) if value else None


def change_note(value: str) -> str:
    if not value.strip() or len(value) > 500:
        raise ValueError("say in a few words why (500 characters at most)")
    return plain_text(value).strip()


def one_of(value: str, allowed: type[StrEnum] | Iterable[StrEnum]) -> str:
    if value not in set(allowed):
        raise ValueError(f"must be one of {', '.join(allowed)}")
    return value


def publisher(value: str) -> str:
    """Who published a fact an admin enters: always stated (only shipped rows may leave it empty)."""
    if value not in ("official", "transcription", "third_party"):
        raise ValueError("say who published it: the provider, a copy of its page, or a third party")
    return value


OFFER_CHECKS: dict[str, Callable[[str], object]] = {
    "product": lambda v: text(v, 120),
    "tenancy": lambda v: one_of(v, RENTED),
    "billing": lambda v: one_of(v, RENTAL_BILLINGS),
    "gpus_per_unit": lambda v: count(v, 1, 1024),
    "price": price,
    "currency": price_currency,
    "price_period": lambda v: one_of(v, PricePeriod),
    "min_commitment_months": lambda v: count(v, 0, 120) if v else None,
    "setup_fee": lambda v: price(v) if v else None,
    "region": lambda v: text(v, 100),
    "region_country": country,
    "source_url": web_address,
    "as_of": optional_past_day,
    "notes": lambda v: text(v, 2000, required=False),
    "vcpus": lambda v: count(v, 1, 100_000) if v else None,
    "ram_gib": lambda v: ram_gib(v) if v else None,
}
"""How each field of an offer, typed as text, is checked; provider and GPU are checked against the catalog."""


def check_offer_fields(typed: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each field's value, or the reason it is refused, by field name."""
    values, errors = {}, {}
    for name, check in OFFER_CHECKS.items():
        try:
            values[name] = check(typed.get(name) or "")
        except ValueError as e:
            errors[name] = str(e)
    return values, errors
