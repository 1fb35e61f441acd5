"""Every option that can exist has a colour and a dash pattern of its own, readable on white and without
colour, and the stylesheet the pages load says exactly what the table says."""

import itertools
import re

import pytest

from app.costing.terms import Billing, Tenancy
from app.platform.settings import ROOT
from app.web.option_styles import EVERY_OPTION, LOOKS, STYLESHEET, option_class, stylesheet


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _rgb(colour: str) -> list[float]:
    return [_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]


def contrast_on_white(colour: str) -> float:
    """WCAG 2.1's contrast ratio against white (relative luminance 1)."""
    r, g, b = _rgb(colour)
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def oklab(colour: str) -> tuple[float, float, float]:
    """Björn Ottosson's OKLab, where a distance of 0.02 is about the least difference one sees."""
    r, g, b = _rgb(colour)
    lms = [
        (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3),
        (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3),
        (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3),
    ]
    matrix = [
        (0.2104542553, 0.7936177850, -0.0040720468),
        (1.9779984951, -2.4285922050, 0.4505937099),
        (0.0259040371, 0.7827717662, -0.8086757660),
    ]
    lightness, a, b_ = (sum(m * x for m, x in zip(row, lms, strict=True)) for row in matrix)
    return lightness, a, b_


def test_every_option_that_can_exist_has_a_look():
    """Three rented tenancies, each with any of five rental billings (what the catalog takes), and
    owning, bought: 3 x 5 + 1 = 16 options. A new tenancy or billing kind has no look until given one."""
    assert len(EVERY_OPTION) == 16
    assert set(LOOKS) == set(EVERY_OPTION)
    assert {tenancy for tenancy, _ in LOOKS} == set(Tenancy)
    assert {billing for _, billing in LOOKS} == set(Billing)
    assert (Tenancy.BARE_METAL, Billing.COMMITTED) in LOOKS and (Tenancy.VIRTUALIZED, Billing.MONTHLY) in LOOKS


def test_no_two_options_share_a_colour_or_a_dash_pattern():
    """Told apart without colour by their dashes alone, and by colours well apart (0.1 in OKLab, five
    times the least difference one sees)."""
    assert len({look.dashes for look in LOOKS.values()}) == len(LOOKS)
    for (one, a), (other, b) in itertools.combinations(LOOKS.items(), 2):
        distance = sum((x - y) ** 2 for x, y in zip(oklab(a.colour), oklab(b.colour), strict=True)) ** 0.5
        assert distance >= 0.1, (one, other, round(distance, 3))


def test_the_contrast_of_a_colour_on_white_is_worked_out_as_wcag_says():
    """#7a944f, the palest: channels 122, 148, 79 of 255 -> linear 0.1946, 0.2961, 0.0782; luminance
    0.2126 x 0.1946 + 0.7152 x 0.2961 + 0.0722 x 0.0782 = 0.2589; contrast (1 + 0.05) / (0.2589 + 0.05)
    = 3.40. Black on white is 21."""
    assert contrast_on_white("#7a944f") == pytest.approx(3.40, abs=0.005)
    assert contrast_on_white("#000000") == pytest.approx(21)


@pytest.mark.parametrize("option", EVERY_OPTION, ids=option_class)
def test_every_colour_stands_out_on_white_as_graphics_must(option):
    """WCAG 2.1, 1.4.11: at least 3:1 against the chart's white."""
    assert contrast_on_white(LOOKS[option].colour) >= 3


def test_the_stylesheet_the_pages_load_is_the_one_the_table_makes():
    assert STYLESHEET.read_text() == stylesheet(), "run `python -m app.web.option_styles` after changing the table"


def test_no_other_stylesheet_gives_an_option_its_look():
    """One table, so that no hand-written list can forget an option."""
    others = [p for p in (ROOT / "static").glob("*.css") if p != STYLESHEET]
    assert others
    assert [p.name for p in others if re.search(r"\.s-[a-z_]+-[a-z_]+", p.read_text())] == []


def test_an_option_class_names_its_tenancy_and_billing():
    assert option_class((Tenancy.BARE_METAL, Billing.COMMITTED)) == "s-bare_metal-committed"
