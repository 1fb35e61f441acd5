"""The currencies prices are published in. A price keeps its own; the snapshot converts it to USD at
its version's rate for the cost model, and a price whose source states no currency is never guessed."""

from app.costing.money import CODES

NOT_STATED = ""
"""The source gives a number without a currency: listed in the explorer as published, never quoted."""
PUBLISHED_IN = (*CODES, NOT_STATED)
"""What an offer's currency may be: one of the cost model's currencies, or none stated."""


def price_currency(value: str) -> str:
    """USD or EUR, or empty where the source states none (shipped research, imports)."""
    if value not in PUBLISHED_IN:
        raise ValueError(f"must be {' or '.join(CODES)}, or empty where the source states no currency")
    return value


def stated_currency(value: str) -> str:
    """A currency an admin types a price in: only shipped research may leave it unstated."""
    if value not in CODES:
        raise ValueError("choose the currency the price is published in")
    return value


STATED = [(code, code) for code in CODES]
"""The choices of an admin's currency menu."""


def currency_words(currency: str) -> str:
    return currency or "currency not stated"


def beside_a_number(currency: str) -> str:
    """A price's currency after its number: the code, or "(currency not stated)"."""
    return currency or f"({currency_words(currency)})"
