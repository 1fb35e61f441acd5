"""Moves of the GPU-hours slider: what the memo of the inputs hands each move is what a page rendered
afresh shows, across bands of the axis and changes of the cheapest offers."""

import pytest
from bs4 import BeautifulSoup

from app.catalog.changes import new_version
from app.catalog.snapshot import Catalogs
from app.catalog.updates import model_presets_2026_11
from app.deps import get_catalogs
from app.main import app
from app.quoting.build import build_quote
from app.quoting.params.quote import QuoteParams
from app.web.calculator.charts import NUMBERED, cost_chart, overlay_chart
from app.web.calculator.result_charts import options_drawn
from app.web.chart_kit import FRAMES
from tests.factories import hand_checked_catalog
from tests.web.helpers import QUERY, totals


def quoted_at(catalogs, hours):
    return build_quote(catalogs, QuoteParams(gpu="H100", gpu_hours=hours, checkpoints_out=1, virt_tax=0, invocations=0))


def drawn(result):
    return options_drawn(result.memo, result)


def test_a_remembered_chart_is_the_one_drawn_afresh(session):
    hand_checked_catalog(session)
    catalogs = Catalogs(session.get_bind())
    drawn(quoted_at(catalogs, 250))
    result = quoted_at(catalogs, 321.0)
    charts = drawn(result)
    assert charts == tuple(cost_chart(result.quote, 321.0, frame=frame) for frame in FRAMES)
    assert charts[0] == overlay_chart([result.quote], [321.0], break_evens=True, numbered=NUMBERED)


def test_a_chart_is_drawn_once_per_band_and_offers_chosen(session):
    hand_checked_catalog(session)
    catalogs = Catalogs(session.get_bind())
    first = drawn(quoted_at(catalogs, 250))
    assert drawn(quoted_at(catalogs, 260))[0].series is first[0].series, "reused within a band"


@pytest.fixture
def fragment(client, session):
    """The results block at some GPU-hours, from the catalogs given (their memo kept between calls)."""

    def at(query, catalogs):
        app.dependency_overrides[get_catalogs] = lambda: catalogs
        return client.get(f"/?{query}", headers={"HX-Request": "true"}).text

    return at


def test_each_move_shows_what_a_page_rendered_afresh_shows(fragment, session):
    """400 and 450 h are charted up to 1,000 h, 600, 800 and 999 h up to 2,000; past 730 h the node
    takes a second unit: 800 h cost 2,003.60 on demand (2.50 x 800 + 3.60 egress), 2,500.00 for two
    nodes and 2,880.00 serverless (3.60 x 800). Each move, also back to where the slider was, is the
    page a process that never saw the inputs renders."""
    hand_checked_catalog(session)
    moved = Catalogs(session.get_bind())
    for hours in (400, 450, 600, 800, 999, 2400, 400):
        at = f"{QUERY}&gpu_hours={hours}"
        assert fragment(at, moved) == fragment(at, Catalogs(session.get_bind())), hours
    at_800 = BeautifulSoup(fragment(f"{QUERY}&gpu_hours=800", moved), "lxml")
    assert totals(at_800) == {
        "virtualized-on_demand": "$2,003.60",
        "bare_metal-monthly": "$2,500.00",
        "serverless-per_second": "$2,880.00",
    }
    assert at_800.select("svg.frame-wide .grid text")[-3].get_text() == "2,000", "the axis of the 2,000 h band"


def test_each_move_of_a_sized_any_gpu_quote_shows_what_a_page_rendered_afresh_shows(fragment, session):
    hand_checked_catalog(session)
    model_presets_2026_11(session, new_version(session, "presets"))
    session.commit()
    moved = Catalogs(session.get_bind())
    for hours in (100, 700, 3000, 100):
        at = f"gpu=any&preset=llama-3.1-8b&months=3&gpu_hours={hours}"
        assert fragment(at, moved) == fragment(at, Catalogs(session.get_bind())), hours
    page = BeautifulSoup(fragment(at, moved), "lxml")
    assert page.select_one("figure.gpu-chart") and page.select_one("table.any-gpu"), "quoted for any GPU"


def test_each_move_with_a_server_owned_shows_what_a_page_rendered_afresh_shows(fragment, session):
    """Across a second server (past 8 x 730 = 5,840 GPU-hours) and back, with a horizon shorter than
    the server's life: its parts, how busy it is and its bars are each move's own."""
    hand_checked_catalog(session)
    moved = Catalogs(session.get_bind())
    owning = "own_server=custom&own_price=296644&own_power_kw=10.2&peak_gpus=8&months=12"
    for hours in (1000, 3000, 5840, 6000, 9000, 1000):
        at = f"{QUERY}&{owning}&gpu_hours={hours}"
        assert fragment(at, moved) == fragment(at, Catalogs(session.get_bind())), hours
