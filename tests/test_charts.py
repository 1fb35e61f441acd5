from app.charts import cost_chart, overlay_chart
from app.costing.quote import quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

FREE = (Tier(0, None, 0.0),)
OFFERS = [
    Offer(1, "a", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR, None, FREE, FREE),
    Offer(2, "b", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 1250, PricePeriod.MONTH, None, FREE, FREE),
]


def chart_at(hours):
    return cost_chart(quote(OFFERS, Workload(hours), Assumptions(virt_tax={}), 1000), hours)


def test_moving_within_a_band_moves_only_the_current_hours_line():
    """On a 0-1,000 h axis from x = 72 to 700 px: 200 h at 72 + 628 x 0.2 = 197.6, 400 h at 323.2."""
    at_200, at_400 = chart_at(200), chart_at(400)
    assert (at_200.current_xs, at_400.current_xs) == ([197.6], [323.2])
    assert at_200.series == at_400.series and at_200.break_evens == at_400.break_evens


def test_a_remembered_chart_is_the_one_drawn_afresh():
    hours = 321.0
    result = quote(OFFERS, Workload(hours), Assumptions(virt_tax={}), 1000)
    assert cost_chart(result, hours) == overlay_chart([result], [hours], break_evens=True)


def test_a_remembered_chart_body_is_the_markup_rendered_afresh():
    from app.templating import chart_body, templates

    first = chart_body(chart_at(250))
    assert chart_body(chart_at(260)) is first, "the same drawing is reused within a band"
    assert str(first) == templates.env.get_template("_chart_body.html").render(chart=chart_at(250))
