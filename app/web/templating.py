"""The Jinja environment (autoescaping) and the display filters: how money, rates, dates and options read."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from jinja2_fragments.fastapi import Jinja2Blocks

from app.catalog.ages import age_days, age_said
from app.catalog.currencies import beside_a_number
from app.catalog.rows import decimal_text
from app.catalog.wording import (
    BILLING_LABELS,
    TENANCY_LABELS,
    by_country,
    country_name,
    option_label,
    plain_note,
    source_word,
)
from app.costing.jobs import DEFAULT_UTILISATION
from app.costing.money import SYMBOLS, USD, Currency
from app.costing.owning import OWNED_OFFER_ID
from app.costing.quote import OfferCost
from app.costing.terms import RENTAL_BILLINGS, RENTED, Tenancy
from app.platform.assets import asset_url
from app.platform.settings import ROOT
from app.quoting.explorer.listing import explorer_url
from app.quoting.params.form import query_string
from app.quoting.params.quote import MODES, QuoteParams
from app.quoting.provider_view import COLUMNS as PROVIDER_COLUMNS
from app.web.chart_kit import BADGE_R, END_LABEL_GAP
from app.web.option_styles import option_class


def month_said(o: OfferCost) -> str:
    """What an option's total is a month of: a month, or, where a term longer than the horizon is
    billed whole, a month of the horizon (the whole horizon, for one month) with the term named."""
    term = o.term_past_horizon
    if term is None:
        return "a month"
    if o.months == 1:
        return f"over your 1-month horizon, a {term}-month term billed whole"
    return f"a month of your {o.months}-month horizon, a {term}-month term billed whole"


def money(usd: float | None, currency: Currency = USD) -> str:
    """USD in the display currency, to the cent: $1,234.56, €1,057.35, −$200.00; None is a price
    nobody published."""
    if usd is None:
        return "not published"
    return amount(currency.cents(usd), currency)


def amount(value: Decimal, currency: Currency = USD) -> str:
    """An amount already in the display currency and rounded: €11,111.16."""
    return f"−{currency.symbol}{-value:,}" if value < 0 else f"{currency.symbol}{value:,}"


def money_gap(more_usd: float, less_usd: float, currency: Currency = USD) -> str:
    """How much more one total is than another, between the cent-rounded figures the page shows."""
    return amount(currency.cents(more_usd) - currency.cents(less_usd), currency)


def money_change(difference: Decimal | None, currency: Currency = USD) -> str:
    """A difference already in the display currency: +$12.00, −€3.50, $0.00; "—" where one side
    has no offer."""
    if difference is None:
        return "—"
    return f"+{amount(difference, currency)}" if difference > 0 else amount(difference, currency)


def web_link(url: str) -> str | None:
    """Only http(s) links become hrefs: a stored `javascript:` URL must never be clickable."""
    return url if url.startswith(("https://", "http://")) else None


def published(value: Decimal | float, currency: str = "USD") -> str:
    """A price as its source printed it, in its currency: cents where it has no more digits, else up
    to 6 places; a number whose source states no currency says so."""
    number = f"{value:,.2f}" if round(value, 2) == value else f"{value:,.6f}".rstrip("0")
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{number}" if symbol else f"{number} {beside_a_number(currency)}"


def when(moment: datetime) -> str:
    """A change's time as the admin pages and saved links state it: 2026-11-29 14:05 UTC."""
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def filters_said(p: QuoteParams) -> str:
    """The filters a quote passed its offers through, as the headline names them: ", among virtualized
    offers in the EU, ..." ("" with none), so that an answer never reads as the whole market's."""
    kinds = " or ".join(TENANCY_LABELS[t].lower() for t in p.tenancy) if set(p.tenancy) != set(Tenancy) else ""
    where = [
        f"in region {p.region}" if p.region else "",
        "with the data centre in the EU" if p.eu_only else "",
        "from providers not headquartered in the US" if p.exclude_us_hq else "",
        "leaving out spot" if p.hide_spot else "",
        _dated_said(p),
    ]
    said = [w for w in where if w]
    if not kinds and not said:
        return ""
    return ", among " + " ".join(filter(None, [kinds, "offers"])) + (" " + ", ".join(said) if said else "")


def _dated_said(p: QuoteParams) -> str:
    if p.dated_within is None:
        return ""
    return f"with prices dated within {p.dated_within:,} days" + (f" of {p.dated_on:%Y-%m-%d}" if p.dated_on else "")


def day(value: date | datetime | None) -> str:
    """A price's as-of date, or "unknown" where its source gives none."""
    return "unknown" if value is None else f"{value:%Y-%m-%d}"


def hours(value: float, places: int = 1) -> str:
    """GPU-hours with thousands separated: 1,234.5."""
    return f"{value:,.{places}f}"


HOURS_A_YEAR = 8766
"""365.25 days: a year of wall clock, as long runs are said."""


def duration(hours: float) -> str:
    """A run's wall-clock time as a person says it: under a minute, 12 minutes, 4.2 hours, 3.5 days, 9.2 years."""
    if hours < 1:
        minutes = round(hours * 60)
        return "under a minute" if minutes < 1 else f"{minutes} minute{'s' if minutes != 1 else ''}"
    if hours < 48:
        return f"{hours:,.1f} hours"
    return f"{hours / 24:,.1f} days" if hours < HOURS_A_YEAR else f"{hours / HOURS_A_YEAR:,.1f} years"


def plain(value: object) -> object:
    """A stored Decimal as typed: 3.99, not 3.99000000; nothing stated (None or "") as "—"."""
    if value is None or value == "":
        return "—"
    return decimal_text(value) if isinstance(value, Decimal) else value


def quantity(value: float) -> str:
    """1,234.5 GPU-hours as typed: thousands separated, no exponent, at most two decimals."""
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def money_rate(usd: float | None, currency: Currency = USD) -> str:
    return "—" if usd is None else f"{currency.symbol}{currency.rate(usd):,}"


templates = Jinja2Blocks(directory=str(ROOT / "templates"))
templates.env.trim_blocks = templates.env.lstrip_blocks = True
templates.env.auto_reload = False  # no stat() of every template on every request; restart to see edits
templates.env.filters.update(
    money=money,
    amount=amount,
    money_rate=money_rate,
    money_change=money_change,
    published=published,
    option_label=option_label,
    month_said=month_said,
    option_class=option_class,
    web_link=web_link,
    quantity=quantity,
    age_days=age_days,
    price_age=age_said,
    when=when,
    day=day,
    filters_said=filters_said,
    hours=hours,
    duration=duration,
    plain=plain,
    plain_note=plain_note,
    source_word=source_word,
    country_name=country_name,
    by_country=by_country,
)
templates.env.globals.update(
    money_gap=money_gap,
    query_string=query_string,
    tenancy_labels=TENANCY_LABELS,
    mode_labels_by_value=dict(MODES),
    default_utilisation_pct=DEFAULT_UTILISATION * 100,
    provider_columns=PROVIDER_COLUMNS,
    owned_id=OWNED_OFFER_ID,
)


templates.env.globals.update(asset_url=asset_url, badge_r=BADGE_R, end_label_gap=END_LABEL_GAP)
templates.env.globals.update(explorer_url=explorer_url, billing_labels=BILLING_LABELS)
templates.env.globals.update(
    rented_labels={t: TENANCY_LABELS[t] for t in RENTED},
    rental_billing_labels={b: BILLING_LABELS[b] for b in RENTAL_BILLINGS},
)
