"""The history page shows every change of every versioned field of an offer, old -> new: the fields
come from the one list the catalog keeps (app/catalog/rows.VERSIONED_FIELDS)."""

import csv
import io

import pytest

from app.admin.accounts import create_admin
from app.catalog.exports import export_offers_csv
from app.catalog.imports import apply_import, plan_import
from app.catalog.rows import VERSIONED_FIELDS
from tests.factories import hand_checked_catalog
from tests.web.helpers import PASSWORD, html, signed_in_as

CHANGES = {
    "tenancy": ("virtualized", "bare_metal", "virtualized → bare_metal"),
    "gpus_per_unit": ("1", "8", "1 → 8"),
    "price": ("2.5", "2.75", "2.5 → 2.75"),
    "price_period": ("hour", "month", "hour → month"),
    "min_commitment_months": ("", "12", "— → 12"),
    "setup_fee": ("", "999", "— → 999"),
    "region_country": ("US", "CA", "US → CA"),
    "source_url": (
        "https://example.test/price",
        "https://example.test/new",
        "https://example.test/price → https://example.test/new",
    ),
    "as_of": ("2026-11-01", "2026-11-20", "2026-11-01 → 2026-11-20"),
    "notes": ("", "list price from the new page", "— → list price from the new page"),
    "vcpus": ("", "26", "— → 26"),
    "ram_gib": ("", "225.5", "— → 225.5"),
}
"""The on-demand offer of the hand-checked catalog as exported, what an import changes it to, and
how the history page states the change."""


def test_every_versioned_field_has_a_change_to_try():
    assert set(CHANGES) == set(VERSIONED_FIELDS)


@pytest.mark.parametrize("field", VERSIONED_FIELDS)
def test_an_imported_change_of_any_versioned_field_reads_old_to_new_in_the_history(client, session, field):
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    exported = export_offers_csv(session, 1)
    row = next(csv.DictReader(io.StringIO(exported)))
    old, new, shown = CHANGES[field]
    assert row[field] == old
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(row))
    writer.writeheader()
    writer.writerow(row | {field: new})
    plan = plan_import(session, out.getvalue(), 1)
    assert (len(plan.change), plan.problems) == (1, [])
    apply_import(session, plan, f"new {field}", "alice")

    signed_in_as(client, session)
    newest = html(client.get("/admin/history", params={"key": row["key"]})).select_one("tbody tr")
    changed = newest.select("td")[3].get_text()
    assert " ".join(changed.split()) == f"{field}: {shown}"
