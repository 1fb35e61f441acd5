import itertools
from dataclasses import replace

from app.costing.quote import quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier
from app.web.calculator.charts import cost_chart, overlay_chart
from app.web.chart_kit import BADGE_R, END_LABEL_GAP, NARROW, WIDE, path_below, spread, text_width

FREE = (Tier(0, None, 0.0),)
OFFERS = [
    Offer(1, "a", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR, None, FREE, FREE),
    Offer(2, "b", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 1250, PricePeriod.MONTH, None, FREE, FREE),
]


def chart_at(hours):
    return cost_chart(quote(OFFERS, Workload(hours), Assumptions(virt_tax={}), 1000), hours)


def test_moving_within_a_band_moves_only_the_current_hours_line():
    """On a 0-1,000 h axis from x = 80 to 696 px: 200 h at 80 + 616 x 0.2 = 203.2, 400 h at 326.4."""
    at_200, at_400 = chart_at(200), chart_at(400)
    assert ([line.x for line in at_200.current], [line.x for line in at_400.current]) == ([203.2], [326.4])
    assert at_200.current[0].label == "yours: 200 GPU-h"
    assert at_200.series == at_400.series and at_200.break_evens == at_400.break_evens
    assert (at_200.y_ticks, at_200.plot_top) == (at_400.y_ticks, at_400.plot_top), "the axis stays put"


def test_break_even_is_numbered_with_its_two_options_above_the_plot():
    """2.50 H = 1,250 at H = 500: x = 80 + 616 x 0.5 = 388; its one badge sits above the plot's top."""
    mark = chart_at(200).break_evens[0]
    assert (mark.number, {mark.a, mark.b}) == (
        1,
        {(Tenancy.VIRTUALIZED, Billing.ON_DEMAND), (Tenancy.BARE_METAL, Billing.MONTHLY)},
    )
    assert mark.crossings[0][:2] == (500.0, 388.0)  # and again where a second node is needed, at 730 h
    assert mark.badge_x == 388.0 and mark.badge_y + BADGE_R < chart_at(200).plot_top


def test_labels_pushed_apart_keep_their_order_and_stay_inside():
    """Three 20-wide labels wanted at 10, 12 and 95 within [0, 100] with 4 apart: the first two
    collide (10 needs 10 -> 10, then 12 -> 34); the last is pulled back to 90."""
    assert spread([10, 12, 95], [20, 20, 20], 0, 100, gap=4) == [10.0, 34.0, 90.0]


def test_current_labels_of_an_overlay_clear_each_other_and_the_edges():
    quotes = [quote(OFFERS, Workload(h), Assumptions(virt_tax={}), 1000) for h in (990, 1000)]
    for frame in (WIDE, NARROW):
        chart = overlay_chart(quotes, [990, 1000], frame=frame, layer_names=["1", "2"])
        first, second = chart.current
        width = text_width(first.label, frame.text)
        assert first.label == "1: 990 GPU-h" and second.label_x - first.label_x >= width
        assert second.label_x + width / 2 <= frame.width


def end_label_boxes(chart):
    """Each end label's box: from the gap after the plot, its text's width across, a line of text high."""
    start, size = chart.plot_right + END_LABEL_GAP, chart.frame.text
    return [
        (start, label.y - size / 2, start + text_width(label.text, size), label.y + size / 2)
        for label in chart.end_labels
    ]


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_lines_that_end_together_share_one_label_that_covers_no_other():
    """Four scenarios with the same offers draw the same two lines four times over (at 1,000 h on
    demand 2,500, two 1-GPU nodes 2,500): one label "1, 2, 3, 4" where they end, not a pile of numbers."""
    quotes = [quote(OFFERS, Workload(h), Assumptions(virt_tax={}), 1000) for h in (100, 300, 600, 900)]
    for frame in (WIDE, NARROW):
        chart = overlay_chart(quotes, [100, 300, 600, 900], frame=frame, layer_names=["1", "2", "3", "4"])
        assert [label.text for label in chart.end_labels] == ["1, 2, 3, 4"]
        ((left, top, right, bottom),) = end_label_boxes(chart)
        assert right <= frame.width and top >= chart.plot_top - frame.text, "the label stays inside the frame"


def test_lines_ending_apart_keep_their_own_numbers_each_clear_of_the_others():
    """At 1,000 h: scenario 1's on demand at 2.00 ends at 2,000, scenario 2's at 3.00 at 3,000; both
    pay 2,500 for two 1-GPU nodes, so those lines end together and share "1, 2"."""
    dearer = [replace(OFFERS[0], price_usd=3.00), OFFERS[1]]
    cheaper = [replace(OFFERS[0], price_usd=2.00), OFFERS[1]]
    quotes = [quote(offers, Workload(500), Assumptions(virt_tax={}), 1000) for offers in (cheaper, dearer)]
    for frame in (WIDE, NARROW):
        chart = overlay_chart(quotes, [500, 500], frame=frame, layer_names=["1", "2"])
        assert sorted(label.text for label in chart.end_labels) == ["1", "1, 2", "2"]
        boxes = end_label_boxes(chart)
        assert not any(overlap(a, b) for a, b in itertools.combinations(boxes, 2))


def test_a_line_off_the_chart_leaves_through_the_top_and_comes_back():
    """Top at y = 50: (0,100)-(10,0) crosses it at x = 5; (20,0)-(30,100) comes back at x = 25."""
    assert path_below([(0, 100), (10, 0), (20, 0), (30, 100)], 50) == "M0,100 L5.0,50 M25.0,50 L30,100"


def test_the_money_axis_ends_near_four_times_the_cheapest_line():
    """At 1,000 h: on demand 2,500, the 1-GPU node 2 x 1,250 = 2,500; a dear option at 100/h would
    end at 100,000 but the axis stops at nice_ceiling(4 x 2,500) = 10,000: its line leaves at the top."""
    dear = Offer(3, "c", Tenancy.BARE_METAL, Billing.ON_DEMAND, 1, 100, PricePeriod.HOUR, None, FREE, FREE)
    chart = cost_chart(quote([*OFFERS, dear], Workload(500), Assumptions(virt_tax={}), 1000), 500)
    assert chart.y_ticks[-1][1] == "$10k"
