"""Checks of the admin forms' fields: each returns the parsed value, or notes a plain message under
the field's key (shown next to the field) and returns None."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Annotated

from fastapi import Path, Query

from app.catalog.transfer import FORMULA_START, PRICE_MAX

Errors = dict[str, str]
Id = Annotated[int, Path(ge=1, le=2**62)]
"""A record id in a path: larger numbers name no row (and overflow the database's integers)."""
Days = Annotated[int, Query(ge=0, le=36_500)]


def price(errors: Errors, key: str, text: str, optional: bool = False) -> Decimal | None:
    """USD, 0 or more; an empty field is None when the price is optional (none published)."""
    if optional and not text.strip():
        return None
    try:
        amount = Decimal(text)
    except InvalidOperation:
        errors[key] = "must be a number, e.g. 2.49"
        return None
    if not amount.is_finite() or amount < 0:
        errors[key] = "must be a price of 0 or more"
        return None
    if amount > PRICE_MAX or amount != amount.quantize(Decimal("0.00000001"), rounding="ROUND_DOWN"):
        errors[key] = f"must be at most {PRICE_MAX:,} with 8 decimal places at most"
        return None
    return amount


def plain_text(errors: Errors, key: str, text: str, longest: int) -> str:
    """A name or label: present, not too long, and no spreadsheet formula when exported."""
    if not text.strip() or len(text) > longest:
        errors[key] = f"1 to {longest} characters"
    elif text.startswith(FORMULA_START):
        errors[key] = "may not start with =, +, - or @"
    return text.strip()


def count(errors: Errors, key: str, text: str, least: int, most: int) -> int | None:
    """A whole number in a range; '²' and the like are not digits here."""
    if not (text.isascii() and text.isdigit()) or not least <= int(text) <= most:
        errors[key] = f"a whole number from {least:,} to {most:,}"
        return None
    return int(text)


def web_address(errors: Errors, key: str, text: str) -> str:
    """Where a fact was read: an http(s) address, never a script."""
    if not text.startswith(("https://", "http://")) or len(text) > 500:
        errors[key] = "must be the http(s) address of the page the price was read from"
    return text


def past_day(errors: Errors, key: str, text: str) -> date | None:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        errors[key] = "must be a date, YYYY-MM-DD"
        return None
    if day > date.today():
        errors[key] = "cannot be in the future"
        return None
    return day


def change_note(errors: Errors, key: str, text: str) -> str:
    if not text.strip() or len(text) > 500:
        errors[key] = "say in a few words why (500 characters at most)"
    return text.strip()
