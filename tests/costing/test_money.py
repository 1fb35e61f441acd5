from decimal import Decimal

from app.costing.money import cents, rate


def test_cents_round_half_away_from_zero_as_invoices_do():
    assert cents(0.125) == Decimal("0.13")
    assert cents(2.675) == Decimal("2.68")
    assert cents(1038.6) == Decimal("1038.60")


def test_rates_keep_a_hundredth_of_a_cent():
    """0.001097 USD/s x 3600 = 3.9492 USD/h."""
    assert rate(0.001097 * 3600) == Decimal("3.9492")
