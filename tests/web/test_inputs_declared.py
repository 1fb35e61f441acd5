"""An input is declared once, on its field: one field more on a copy of the calculator's request model
shows in the form, is named by its label in the messages, and is described in the OpenAPI schema,
with nothing else edited."""

from typing import Annotated

from fastapi import FastAPI, Query, Request
from fastapi.responses import Response
from fastapi.testclient import TestClient

from app.catalog.snapshot import catalogs_for
from app.deps import CatalogsDep, Fragment, get_catalogs
from app.quoting.params.form import form_of
from app.quoting.params.inputs import Fieldset, Input, Number
from app.quoting.params.quote import QuoteParams
from app.web.calculator.page import calculator_page
from tests.factories import hand_checked_catalog
from tests.web.helpers import html


class WithPower(QuoteParams):
    """The calculator's inputs and one more, declared as every other is."""

    power_kw: Number = Input(
        "Power drawn", Fieldset.ASSUMPTIONS, unit="kW per GPU", slider=3, help="what one GPU draws at the wall"
    ).field(0.7, ge=0.1, le=5)


def _app_taking(model: type[QuoteParams], session) -> TestClient:
    """The calculator page and an API route, both on `model`, over the test's catalog."""
    app = FastAPI()

    @app.get("/")
    def page(request: Request, catalogs: CatalogsDep, fragment: Fragment) -> Response:
        return calculator_page(request, catalogs, dict(request.query_params), fragment, model=model)

    @app.get("/api/power")
    def power(params: Annotated[model, Query()]) -> float:
        return params.power_kw

    app.dependency_overrides[get_catalogs] = lambda: catalogs_for(session.get_bind())
    return TestClient(app)


def test_a_field_added_to_the_model_shows_in_the_form_where_its_fieldset_is(session):
    hand_checked_catalog(session)
    page = html(_app_taking(WithPower, session).get("/"))
    label = page.select_one('label[for="power_kw"]')
    assert " ".join(label.get_text().split()) == "Power drawn kW per GPU"
    number = page.select_one("input#power_kw")
    assert (number["type"], number["value"], number["min"], number["step"]) == ("number", "0.7", "0.1", "any")
    slider = page.select_one("input#power_kw-slider")
    assert (slider["max"], slider["aria-label"], slider["data-unit"]) == ("3", "Power drawn", "kW per GPU")
    fieldset = number.find_parent("fieldset")
    assert fieldset.legend.get_text() == "Assumptions"
    assert fieldset.select("input[type=number]")[-1] is number, "declared last, shown last"


def test_a_bad_value_of_the_added_field_is_named_by_its_label(session):
    hand_checked_catalog(session)
    client = _app_taking(WithPower, session)
    page = html(client.get("/?power_kw=9"))
    assert page.select_one("#power_kw-error").get_text() == "must be at most 5"
    assert page.select_one("input#power_kw")["aria-invalid"] == "true"
    summary = " ".join(page.select_one("#results .problem").get_text().split())
    assert summary.startswith("Some inputs need fixing: Power drawn must be at most 5.")
    live = html(client.get("/?power_kw=", headers={"HX-Request": "true"}))
    assert live.select_one("#power_kw-error[hx-swap-oob]").get_text() == "must be a number"


def test_the_added_field_is_described_in_the_openapi_schema_of_a_route_taking_it(session):
    client = _app_taking(WithPower, session)
    parameters = {p["name"]: p for p in client.get("/openapi.json").json()["paths"]["/api/power"]["get"]["parameters"]}
    assert parameters["power_kw"]["description"] == "Power drawn (kW per GPU); what one GPU draws at the wall"
    assert (parameters["power_kw"]["schema"]["minimum"], parameters["power_kw"]["schema"]["maximum"]) == (0.1, 5)
    assert parameters["virt_tax"]["description"].startswith("Virtualization tax, virtualized (% of throughput lost)")
    assert client.get("/api/power?power_kw=2.5").json() == 2.5


def test_every_input_of_the_calculator_is_in_its_form(client, session):
    """The template lays out each fieldset an input can name; the hidden ones are carried while set,
    the stored ones (an upload's hours) never."""
    hand_checked_catalog(session)
    form = html(client.get("/?catalog_version=1&offer=some-offer&dated_on=2026-11-30&hourly_key=9c1185a5")).select_one(
        "form#calculator"
    )
    stored = form_of(QuoteParams).stored
    assert [n for n in QuoteParams.model_fields if n not in stored and not form.select(f'[name="{n}"]')] == []
    assert stored == {"hourly"} and not form.select('[name="hourly"]')
