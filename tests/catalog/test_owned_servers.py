"""Servers a buyer may own, as the catalog holds them: the shipped purchase prices of owned-servers-2026-12,
each in the currency it was published in and with its source, and an admin's change or retirement as
a catalog version of its own that leaves earlier versions as they were."""

from datetime import date
from decimal import Decimal

import pytest

from app.catalog.changes import Change, StaleRecord
from app.catalog.server_changes import retire_server, save_server, server_changed
from app.catalog.snapshot import Catalogs
from app.catalog.tables import Provenance
from app.catalog.updates import SHIPPED_UPDATES
from tests.databases import BACKENDS
from tests.factories import hand_checked_catalog, shipped_catalogs

SHIPPED = {
    "dgx-h100/semianalysis-2023-05": ("H100", Decimal("270000"), "USD", date(2023, 5, 29)),
    "dgx-h100/delta-computer-2024-03": ("H100", Decimal("303610.20"), "EUR", date(2024, 3, 20)),
    "supermicro-8125gs-tnhr/dihuni-2024-03": ("H100", Decimal("296644"), "USD", date(2024, 3, 21)),
    "dgx-h100/viperatech-2025-03": ("H100", Decimal("375000"), "USD", date(2025, 3, 3)),
    "hgx-h100/archive-ph-mifcw-2025-01": ("H100", Decimal("255237"), "USD", date(2025, 1, 31)),
    "hgx-h200/archive-ph-txllv-2025-01": ("H200", Decimal("312667"), "USD", date(2025, 1, 31)),
    "mi300x-ubb/interpromicro-2025-02": ("MI300X", Decimal("205870"), "USD", date(2025, 2, 10)),
    "h100-node/thinkmate-2024-08": ("H100", Decimal("317000"), "USD", date(2024, 8, 1)),
}
"""The research's eight purchase prices (tco_inputs.csv), Delta Computer's newest of three."""
DGX_H100 = {"dgx-h100/semianalysis-2023-05", "dgx-h100/delta-computer-2024-03", "dgx-h100/viperatech-2025-03"}


@pytest.fixture(scope="module", params=BACKENDS)
def shipped(request):
    return shipped_catalogs(request.param).current()


def test_the_shipped_update_brings_eight_eight_gpu_servers_at_their_published_prices(shipped):
    assert "owned-servers-2026-12" in [name for name, _, _ in SHIPPED_UPDATES]
    found = {key: (s.gpu, s.price, s.currency, s.as_of) for key, s in shipped.servers.items()}
    assert found == SHIPPED
    assert {s.gpus for s in shipped.servers.values()} == {8}
    assert all(s.setup is None for s in shipped.servers.values()), "no source states a setup cost"


def test_servers_are_ordered_by_gpu_model_then_price(shipped):
    """H100: 255,237 < 270,000 < 296,644 < 303,610.20 (EUR, as published) < 317,000 < 375,000; then H200, MI300X."""
    assert [s.key for s in shipped.servers.values()] == [
        "hgx-h100/archive-ph-mifcw-2025-01", "dgx-h100/semianalysis-2023-05", "supermicro-8125gs-tnhr/dihuni-2024-03",
        "dgx-h100/delta-computer-2024-03", "h100-node/thinkmate-2024-08", "dgx-h100/viperatech-2025-03",
        "hgx-h200/archive-ph-txllv-2025-01", "mi300x-ubb/interpromicro-2025-02",
    ]  # fmt: skip


def test_only_the_dgx_h100s_carry_nvidias_10_2_kw_and_say_where_it_was_read(shipped):
    powered = {key: s.power_kw for key, s in shipped.servers.items() if s.power_kw is not None}
    assert powered == dict.fromkeys(DGX_H100, Decimal("10.2"))
    for key, s in shipped.servers.items():
        if key in DGX_H100:
            assert "Maximum input specification for the system is 10.2 kW." in s.power_source
            assert "NVIDIA DGX H100 User Guide" in s.power_source
        else:
            assert s.power_source == "" and "No source states its power." in s.notes


def test_every_shipped_server_names_its_source_quote_and_publisher(shipped):
    for s in shipped.servers.values():
        assert s.source.startswith("https://") and s.quote and s.source_kind == "third_party"
    assert shipped.servers["dgx-h100/viperatech-2025-03"].quote == "“$375,000.00 / 8 = 46 875 US$ per chip”"
    assert "web.archive.org/web/20250303201940" in shipped.servers["dgx-h100/viperatech-2025-03"].notes


def test_what_is_not_a_whole_server_or_has_no_stated_host_says_so_in_its_name_and_notes(shipped):
    servers = shipped.servers
    assert "not a full server" in servers["mi300x-ubb/interpromicro-2025-02"].name
    for key in ("hgx-h100/archive-ph-mifcw-2025-01", "hgx-h200/archive-ph-txllv-2025-01"):
        assert "host server not stated" in servers[key].name
        assert "Whether the host server (CPUs, memory, networking) is included is not stated." in servers[key].notes
    assert "gives the month only (2024-08)" in servers["h100-node/thinkmate-2024-08"].notes


@pytest.fixture
def catalogs(session):
    hand_checked_catalog(session)
    return Catalogs(session.get_bind(), ttl=0)


VIPERATECH = {"name": "NVIDIA DGX H100 P4387 system 640GB", "seller": "Viperatech", "gpu": "H100", "gpus": 8,
              "price": Decimal("375000"), "currency": "USD", "power_kw": Decimal("10.2"),
              "power_source": "NVIDIA DGX H100 User Guide", "setup": None}  # fmt: skip
READ = Provenance(source="https://example.test/dgx-h100", as_of=date(2025, 3, 3), source_kind="third_party")
KEY = "dgx-h100/viperatech-2025-03"


def test_a_server_changed_then_retired_stays_at_the_versions_that_had_it(session, catalogs):
    """375,000, then repriced to 360,000, then retired: each version keeps what it had."""
    first = save_server(session, KEY, VIPERATECH, READ, Change("listed", "alice"))
    repriced = save_server(session, KEY, VIPERATECH | {"price": Decimal("360000")}, READ,
                           Change("new list", "alice", based_on=first))  # fmt: skip
    retired = retire_server(session, KEY, Change("no longer sold", "alice", based_on=repriced))
    assert catalogs.at(first).servers[KEY].price == 375000
    assert catalogs.at(repriced).servers[KEY].price == 360000
    assert KEY not in catalogs.at(retired).servers and catalogs.at(first - 1).servers == {}
    assert server_changed(session, KEY) == retired


def test_a_server_changed_since_the_form_was_opened_is_refused(session, catalogs):
    opened = server_changed(session, KEY)
    save_server(session, KEY, VIPERATECH, READ, Change("first", "alice", based_on=opened))
    with pytest.raises(StaleRecord):
        save_server(session, KEY, VIPERATECH | {"price": Decimal("1")}, READ, Change("second", "bob", based_on=opened))
    with pytest.raises(StaleRecord):
        retire_server(session, "dgx-h100/nobody-2025-01", Change("gone", "bob", based_on=0))
    assert catalogs.current().servers[KEY].price == 375000
