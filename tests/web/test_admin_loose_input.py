"""What Python reads as a number, a date or an address but a person would not type as one is refused
under its field, and nothing is saved: digits of other scripts, a `+` sign, a price of -0, an address
with no host, a date before any rented GPU or after today, a GPU model named as a number."""

from datetime import date, timedelta

import pytest

from tests.web.helpers import NEW_OFFER, csrf, html, versions
from tests.web.test_admin_throughput import post_peak
from tests.web.test_currency import set_rate

ARABIC_INDIC_3 = "\u0663"
FULLWIDTH_3 = "\uff13"
TOMORROW = (date.today() + timedelta(days=1)).isoformat()


def refused_under(response, field):
    """The message under `field` of a form answered 422."""
    assert response.status_code == 422, response.status_code
    message = html(response).select_one(f"#{field}-error")
    assert message is not None and message.get_text().strip(), f"no message under {field}"
    return message.get_text()


@pytest.mark.parametrize(
    ("field", "typed"),
    [
        ("price", ARABIC_INDIC_3),
        ("price", FULLWIDTH_3),
        ("price", "+5"),
        ("price", "-0"),
        ("price", "-0.00"),
        ("setup_fee", "+5"),
        ("setup_fee", "-0"),
        ("ram_gib", f"1{FULLWIDTH_3}"),
        ("gpus_per_unit", ARABIC_INDIC_3),
        ("vcpus", "+8"),
        ("source_url", "http://"),
        ("source_url", "https://"),
        ("source_url", "http:///prices"),
        ("source_url", "http://:443/prices"),
        ("source_url", "http://[::1/prices"),
        ("as_of", "0001-01-01"),
        ("as_of", "1999-12-31"),
        ("as_of", "2026-W48-5"),
        ("as_of", TOMORROW),
    ],
)
def test_a_new_offer_with_a_loose_field_is_refused_under_it(signed_in, session, field, typed):
    before = versions(session)
    data = NEW_OFFER | {"csrf_token": csrf(signed_in, "/admin/new-offer"), field: typed}
    refused_under(signed_in.post("/admin/new-offer", data=data), field)
    assert versions(session) == before


def test_an_offer_priced_0_as_of_the_first_day_accepted_is_saved(signed_in, session):
    before = versions(session)
    data = NEW_OFFER | {"csrf_token": csrf(signed_in, "/admin/new-offer"), "price": "0", "as_of": "2000-01-01"}
    assert signed_in.post("/admin/new-offer", data=data, follow_redirects=False).status_code == 303
    assert versions(session) == before + 1


@pytest.mark.parametrize("name", ["NaN", "nan", "inf", "Infinity", "1e308", "1E5", "4090", "sNaN"])
def test_a_gpu_model_named_as_a_number_is_refused_under_its_name(signed_in, session, name):
    before = versions(session)
    data = {"csrf_token": csrf(signed_in, "/admin/gpus"), "name": name, "memory_gib": "80"}
    assert "number" in refused_under(signed_in.post("/admin/gpus", data=data), "name")
    assert versions(session) == before


@pytest.mark.parametrize("typed", [f"8{ARABIC_INDIC_3}", f"{FULLWIDTH_3}2", "+80"])
def test_a_gpu_models_memory_in_other_digits_or_signed_is_refused(signed_in, session, typed):
    before = versions(session)
    data = {"csrf_token": csrf(signed_in, "/admin/gpus"), "name": "X1", "memory_gib": typed}
    refused_under(signed_in.post("/admin/gpus", data=data), "memory_gib")
    assert versions(session) == before


@pytest.mark.parametrize("typed", ["+989.4", f"98{FULLWIDTH_3}", f"{ARABIC_INDIC_3}.5"])
def test_a_peak_in_other_digits_or_signed_is_refused(signed_in_with_presets, session, typed):
    before = versions(session)
    refused_under(post_peak(signed_in_with_presets, dense_tflops=typed), "peak_dense_tflops")
    assert versions(session) == before


@pytest.mark.parametrize(("field", "typed"), [("usd_per_unit", "+1.1"), ("usd_per_unit", f"1.{ARABIC_INDIC_3}")])
def test_an_exchange_rate_in_other_digits_or_signed_is_refused(signed_in, session, field, typed):
    before = versions(session)
    refused_under(set_rate(signed_in, typed), field)
    assert versions(session) == before


def test_an_exchange_rate_dated_before_any_rented_gpu_is_refused(signed_in, session):
    before = versions(session)
    refused_under(set_rate(signed_in, "1.1", as_of="0001-01-01"), "as_of")
    assert versions(session) == before
