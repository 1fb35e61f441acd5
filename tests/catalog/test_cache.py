"""The memo that keeps derived work with a catalog version (app/catalog/cache.py): bounded by count
and by bytes, every byte told as it comes and goes."""

from app.catalog.cache import Memo


def weigh(thing):
    """10 bytes for a key, 40 for a part, 200 for a part named "big"."""
    if isinstance(thing, str):
        return 10
    return 200 if thing[0] == "big" else 40


def test_a_memo_keeps_to_its_count_and_bytes_and_never_gives_up_the_entry_in_use():
    """Room for two entries and 100 bytes: a (10 + 40) and b (10 + 40) fit; b's second part (140 in
    all) gives a up; c makes two again; c's big part (250 with b) gives b up, but c stays, in use."""
    told = []
    memo = Memo(2, 100, weigh, told.append)
    memo.entry("a").part("p", lambda: "made")
    b = memo.entry("b")
    b.part("p", lambda: "made")
    assert sum(told) == 100
    b.part("q", lambda: "made")
    assert list(memo._entries) == ["b"] and sum(told) == 90
    c = memo.entry("c")
    assert c.part("big", lambda: "large") == "large" and c.part("big", lambda: "again") == "large"
    assert list(memo._entries) == ["c"] and sum(told) == 210 == sum(memo._bytes.values())


def test_a_part_made_for_an_entry_given_up_meanwhile_is_not_counted():
    told = []
    memo = Memo(1, 1000, weigh, told.append)
    a = memo.entry("a")
    memo.entry("b")
    assert a.part("p", lambda: "made") == "made"
    assert list(memo._entries) == ["b"] and sum(told) == 10
