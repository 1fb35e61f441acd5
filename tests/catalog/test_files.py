from app.catalog.files import csv_rows


def test_a_file_is_read_alike_whatever_ends_its_lines():
    lf = 'a,b\n1,"x\ny"\n2,z\n'
    rows = [dict(r) for r in csv_rows(lf)]
    assert rows == [{"a": "1", "b": "x\ny"}, {"a": "2", "b": "z"}]
    assert [dict(r) for r in csv_rows(lf.replace("\n", "\r\n"))] == [
        {"a": "1", "b": "x\r\ny"}, {"a": "2", "b": "z"}
    ]  # fmt: skip
    assert [dict(r) for r in csv_rows(lf.replace("\n", "\r"))] == [{"a": "1", "b": "x\ry"}, {"a": "2", "b": "z"}]
