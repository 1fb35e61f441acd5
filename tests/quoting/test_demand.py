"""Hourly demand read whole or refused with its line (issue 24: "a clear message for a bad line,
nothing half-read")."""

from app.quoting.params.demand import read_daily, read_hourly

MONTH = ["2026-11-01T00:00,2"] * 640 + ["2026-11-27T16:00,10"] * 104


def csv(lines, header="hour,gpus", end="\n"):
    return end.join(([header] if header else []) + lines) + end


def test_a_month_of_hours_with_a_header_and_timestamps_is_read_whole():
    assert read_hourly(csv(MONTH)) == (2,) * 640 + (10,) * 104


def test_windows_and_old_mac_line_ends_blank_lines_and_a_value_alone_read_alike():
    values = [line.split(",")[1] for line in MONTH]
    assert read_hourly(csv(MONTH, end="\r\n")) == read_hourly(csv(MONTH, end="\r")) == read_hourly(csv(values, None))
    assert read_hourly(csv(MONTH[:300] + [""] + MONTH[300:])) == read_hourly(csv(MONTH))


def test_a_bad_line_is_named_with_why_and_nothing_is_read():
    """Line 1 is the header, so the 13th hour is line 14."""
    for bad, why in [("2.5", "'2.5' is not a whole number"), ("-1", "'-1' is not a whole number"), ("", "'' is not")]:
        lines = MONTH[:12] + [f"2026-11-01T12:00,{bad}"] + MONTH[13:]
        said = read_hourly(csv(lines))
        assert isinstance(said, str) and said.startswith(f"line 14: {why}"), (bad, said)
    assert (
        read_hourly(csv(MONTH[:5] + ["x,20000"] + MONTH[6:]))
        == "line 7: 20,000 GPUs at once, more than the 10,000 quoted"
    )


def test_less_than_a_month_or_more_than_a_year_is_refused_with_the_count():
    assert read_hourly(csv(MONTH[:168])) == "holds 168 hours: 672 to 8,784 are needed (a month or more, a year at most)"
    assert read_hourly(csv(MONTH[:168]), least=168, most=168) == (2,) * 168
    assert read_hourly("1\n" * 100_001).startswith("is larger than 200 KB")


def test_a_day_reads_24_amounts_in_any_unit_and_empty_is_even():
    assert read_daily("0 0.5, 1;2\n" + " ".join(["10"] * 20)) == (0.0, 0.5, 1.0, 2.0) + (10.0,) * 20
    assert read_daily("  ") == (1.0,) * 24


def test_a_bad_hour_of_a_day_is_named_and_a_day_needs_24_hours_with_some_traffic():
    assert read_daily("1 2 -3") == "hour 3: '-3' is not an amount of traffic (a number, 0 or more)"
    assert read_daily("1 " * 23) == "holds 23 hours: a day has 24"
    assert read_daily("0 " * 24) == "has no traffic in any hour"
