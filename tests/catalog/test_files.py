from datetime import date
from decimal import Decimal

from app.catalog.files import csv_rows, csv_text, spreadsheet_cell


def test_text_a_spreadsheet_would_run_is_kept_as_text_and_numbers_stay_numbers():
    """A leading NUL is dropped before the test, as PostgreSQL drops it on write and a spreadsheet
    may skip it; -2.5 and -12.50 are figures, "-2" is text."""
    written = ["=1+1", "@SUM(A1)", "-2", "+3", "\t=1", "\r=1", "\x00=1+1", "a\x1bb", "H100", "two\nlines"]
    assert [spreadsheet_cell(v) for v in written] == [
        "'=1+1", "'@SUM(A1)", "'-2", "'+3", "'\t=1", "'\r=1", "'=1+1", "ab", "H100", "two\nlines"
    ]  # fmt: skip
    figures = [5, -2.5, Decimal("-12.50"), Decimal("1.25E+3"), date(2026, 11, 1), None]
    assert [spreadsheet_cell(v) for v in figures] == [5, -2.5, "-12.5", "1250", "2026-11-01", ""]
    assert csv_text(["usd", "note"], [[Decimal("-3"), "-3"]]) == "usd,note\r\n-3,'-3\r\n"


def test_a_file_is_read_alike_whatever_ends_its_lines():
    lf = 'a,b\n1,"x\ny"\n2,z\n'
    rows = [dict(r) for r in csv_rows(lf)]
    assert rows == [{"a": "1", "b": "x\ny"}, {"a": "2", "b": "z"}]
    assert [dict(r) for r in csv_rows(lf.replace("\n", "\r\n"))] == [
        {"a": "1", "b": "x\r\ny"}, {"a": "2", "b": "z"}
    ]  # fmt: skip
    assert [dict(r) for r in csv_rows(lf.replace("\n", "\r"))] == [{"a": "1", "b": "x\ry"}, {"a": "2", "b": "z"}]
