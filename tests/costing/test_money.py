from decimal import Context, Decimal

from app.costing.money import cents, rate


def test_cents_round_half_away_from_zero_as_invoices_do():
    assert cents(0.125) == Decimal("0.13")
    assert cents(2.675) == Decimal("2.68")
    assert cents(1038.6) == Decimal("1038.60")


def test_rates_keep_a_hundredth_of_a_cent():
    """0.001097 USD/s x 3600 = 3.9492 USD/h."""
    assert rate(0.001097 * 3600) == Decimal("3.9492")


def test_a_rate_at_a_vanishing_workload_is_a_number_not_an_error():
    """1e23 USD per GPU-hour (1,000 USD over 1e-20 GPU-hours): absurd, and still a number."""
    assert rate(1e23) == Decimal("100000000000000000000000.0000")
    assert cents(1.7e308) == Decimal(repr(1.7e308)).quantize(Decimal("0.01"), context=Context(prec=400))


def test_a_price_per_gpu_hour_reads_in_cents_and_to_three_significant_figures_below_a_dollar():
    """1.8235 -> 1.82 and 11.06125 -> 11.06 (cents); 0.8015 -> 0.802 (three figures, half up); 0.123 stays;
    0.05 reads 0.05, not 0.0500; 0.9996 rounds to three figures as 1.00, a dollar, so to the cent."""
    from app.costing.money import price_shown

    shown = {v: str(price_shown(Decimal(v))) for v in ("1.8235", "11.06125", "0.8015", "0.123", "0.05", "0.9996")}
    assert shown == {
        "1.8235": "1.82",
        "11.06125": "11.06",
        "0.8015": "0.802",
        "0.123": "0.123",
        "0.05": "0.05",
        "0.9996": "1.00",
    }


def test_every_currency_has_its_symbol_and_name_in_one_order():
    """The form's choices, the catalog's checks and the amounts shown all read these: USD, then EUR."""
    from app.costing.money import CODES, NAMES, SYMBOLS

    assert CODES == ("USD", "EUR")
    assert tuple(SYMBOLS) == tuple(NAMES) == CODES


def test_a_currency_rounds_what_it_converts_once():
    """USD 10.01 at 1.08 USD a euro: 9.268518... -> EUR 9.27; a rate of USD 3.9492 an hour: 3.656666... -> 3.6567."""
    from app.costing.money import Currency

    eur = Currency("EUR", "€", 1.08)
    assert (eur.cents(10.01), eur.rate(3.9492)) == (Decimal("9.27"), Decimal("3.6567"))
