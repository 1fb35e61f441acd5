"""A saved quote next to today's: what the same choice costs now, option by option."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.costing.money import USD, Currency
from app.costing.quote import OfferCost, OptionKey, Quote


@dataclass(frozen=True)
class ThenAndNow:
    option: OptionKey
    saved: OfferCost | None
    today: OfferCost | None

    def difference(self, saved_in: Currency = USD, today_in: Currency = USD) -> Decimal | None:
        """A month, today less as saved, between the cent-rounded totals the page shows, each in the
        display currency at its own version's rate."""
        if self.saved is None or self.today is None:
            return None
        return today_in.cents(self.today.total) - saved_in.cents(self.saved.total)


def then_and_now(saved: Quote, today: Quote) -> list[ThenAndNow]:
    """Every option of either quote, in the saved order, then options that are new today."""
    saved_by_option = {o.option: o for o in saved.options}
    today_by_option = {o.option: o for o in today.options}
    order = [o.option for o in saved.options] + [o for o in today_by_option if o not in saved_by_option]
    return [ThenAndNow(option, saved_by_option.get(option), today_by_option.get(option)) for option in order]
