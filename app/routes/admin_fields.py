"""Checks of the admin forms' fields: each returns the parsed value, or notes a plain message under
the field's key (shown next to the field) and returns None."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

Errors = dict[str, str]


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
    return amount


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
