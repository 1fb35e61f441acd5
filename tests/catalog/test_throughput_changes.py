"""A benchmark or a peak changed by an admin is a catalog version of its own; the record it changes
is one benchmark (its key) or one GPU model's peak at one precision."""

from datetime import date
from decimal import Decimal

import pytest

from app.catalog.changes import Change, StaleRecord
from app.catalog.snapshot import Catalogs
from app.catalog.tables import Provenance
from app.catalog.throughput_changes import peak_changed, save_peak
from tests.factories import READ_ON, hand_checked_catalog, make_benchmark

SOURCE = Provenance(source="https://example.test/datasheet", as_of=date(2026, 11, 20), source_kind="official")


@pytest.fixture
def catalogs(session):
    hand_checked_catalog(session)
    return Catalogs(session.get_bind(), ttl=0)


def test_a_peak_is_one_gpu_model_at_one_precision(session, catalogs):
    """H100 BF16 989.4, then FP8 1978.9, then BF16 corrected to 990: FP8 stays; the first save's version keeps 989.4."""
    first = save_peak(session, "H100", "bf16", Decimal("989.4"), SOURCE, Change("datasheet", "alice"))
    save_peak(session, "H100", "fp8", Decimal("1978.9"), SOURCE, Change("datasheet", "alice"))
    save_peak(session, "H100", "bf16", Decimal("990"), SOURCE, Change("typo", "alice", based_on=first))
    peaks = catalogs.current().peaks
    assert {k: p.dense_tflops for k, p in peaks.items()} == {("H100", "bf16"): 990, ("H100", "fp8"): 1978.9}
    assert catalogs.at(first).peaks["H100", "bf16"].dense_tflops == 989.4


def test_a_peak_changed_since_the_form_was_opened_is_refused(session, catalogs):
    opened = peak_changed(session, "H100", "bf16")
    save_peak(session, "H100", "bf16", Decimal("989.4"), SOURCE, Change("first", "alice", based_on=opened))
    with pytest.raises(StaleRecord):
        save_peak(session, "H100", "bf16", Decimal("312"), SOURCE, Change("second", "bob", based_on=opened))
    assert catalogs.current().peaks["H100", "bf16"].dense_tflops == 989.4


def test_a_benchmark_changed_keeps_its_earlier_figure_at_the_earlier_version(session, catalogs):
    """15,220 output tokens/s, re-measured at 15,220.5: the first version keeps 15,220."""
    first = make_benchmark(session)
    make_benchmark(session, based_on=first, tokens_per_s=Decimal("15220.5"))
    (now,) = catalogs.current().throughput
    assert (now.key, now.gpu, now.tokens_per_s, now.source) == (
        "llama-3.1-8b/h100x1/fp8/trt-llm-1.0/offline/1000-1000", "H100", 15220.5, READ_ON.source,
    )  # fmt: skip
    assert [t.tokens_per_s for t in catalogs.at(first).throughput] == [15220]
