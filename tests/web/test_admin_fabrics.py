"""Admins add and change a product's network fabric as new catalog versions: a cluster product's offer is
added first, then its fabric with its GPUs from-to; a bad value is refused under its field with nothing
saved, a stale form with the change that came first."""

from dataclasses import replace

import pytest
from sqlmodel import col, select

from app.catalog.fabric import OfferFabricVersion
from app.catalog.snapshot import catalogs_for
from app.catalog.tables import CatalogVersion, Provider
from tests.factories import make_offer
from tests.web.helpers import csrf, html, versions

CLUSTER = ("cloud", "h100-cluster")
FABRIC = {"provider": "cloud", "product": "h100-cluster", "gpus_per_node": "8",
          "intra_node": "NVLink 4 with NVSwitch, 450 GB/s per GPU each way",
          "inter_node": "InfiniBand NDR, 8 x 400 Gb/s per node", "inter_node_kind": "infiniband",
          "inter_node_gbps": "3200", "min_cluster_gpus": "16", "max_cluster_gpus": "1024",
          "source": "https://example.test/cloud/clusters", "as_of": "2026-11-20", "source_kind": "official",
          "quote": "Clusters of 16 to 1,024 H100 GPUs on 3.2 Tb/s InfiniBand", "notes": "per-node rate from 8 NICs",
          "note": "the cluster's product page"}  # fmt: skip
"""A cluster product of 16 to 1,024 H100 on InfiniBand, filled in well (its csrf_token and based_on aside)."""
PAGE = "/admin/fabrics?provider=cloud&product=h100-cluster"


@pytest.fixture
def admin(signed_in, session):
    """Alice on the hand-checked catalog, with Cloud's cluster product added as an offer (the offer form's
    part): 8 GPUs a unit at 3.00 a GPU-hour, committed for a month at least."""
    cloud = session.exec(select(Provider).where(Provider.slug == "cloud")).one()
    make_offer(session, cloud, "24.00", "virtualized", "committed", gpus_per_unit=8, min_commitment_months=1,
               product="h100-cluster")  # fmt: skip
    return signed_in


def post(client, page="/admin/fabrics", **changes):
    """The fabric form of `page` as opened, filled in with FABRIC and `changes`."""
    form = html(client.get(page)).select_one("form[action='/admin/fabrics']")
    data = FABRIC | {name: form.select_one(f"input[name={name}]")["value"] for name in ("csrf_token", "based_on")}
    return client.post("/admin/fabrics", data=data | changes, follow_redirects=False)


def catalogs(session):
    return catalogs_for(session.get_bind())


def test_a_cluster_product_s_fabric_added_is_in_the_new_version_with_its_gpus_from_to(admin, session):
    before = catalogs(session).current().version
    added = post(admin)
    assert (added.status_code, added.headers["location"]) == (303, PAGE)
    now = catalogs(session).current()
    assert now.version == before + 1 and CLUSTER not in catalogs(session).at(before).fabrics
    fabric = now.fabrics[CLUSTER]
    assert (fabric.gpus_per_node, fabric.inter_node_kind, fabric.inter_node_gbps, fabric.rdma) == (
        8, "infiniband", 3200, True,
    )  # fmt: skip
    assert (fabric.min_cluster_gpus, fabric.max_cluster_gpus) == (16, 1024)
    assert (fabric.source, fabric.source_kind, fabric.notes) == (FABRIC["source"], "official", FABRIC["notes"])
    change = session.get(CatalogVersion, now.version)
    assert (change.created_by, change.record, change.note) == ("alice", "fabric cloud h100-cluster", FABRIC["note"])
    row = html(admin.get("/admin/fabrics")).select_one("tr[data-fabric='cloud h100-cluster']")
    shown = [td.get_text(" ", strip=True) for td in row.select("td")]
    assert shown[:8] == ["Cloud", "h100-cluster", "8", FABRIC["intra_node"], FABRIC["inter_node"], "InfiniBand",
                         "3,200", "16 to 1,024"]  # fmt: skip
    assert shown[8].startswith("source (official), as of 2026-11-20")
    assert row.select_one("a[href='https://example.test/cloud/clusters']")


def test_a_fabric_changed_is_a_new_version_and_closes_the_one_before(admin, session):
    """The cluster grows to 2,048 GPUs: one current fabric, the first row closed at the change's version."""
    post(admin)
    first = catalogs(session).current().version
    changed = post(admin, PAGE, max_cluster_gpus="2048", note="clusters of 2,048 now")
    assert (changed.status_code, changed.headers["location"]) == (303, PAGE)
    second = catalogs(session).current().version
    rows = session.exec(select(OfferFabricVersion).order_by(col(OfferFabricVersion.id))).all()
    assert [(r.valid_from, r.valid_to, r.max_cluster_gpus) for r in rows] == [
        (first, second, 1024), (second, None, 2048),
    ]  # fmt: skip
    assert catalogs(session).current().fabrics[CLUSTER].max_cluster_gpus == 2048
    assert catalogs(session).at(first).fabrics[CLUSTER].max_cluster_gpus == 1024


def test_the_form_of_a_fabric_shows_it_as_typed_and_saves_it_unchanged(admin, session):
    """3,200 Gb/s reads 3200, not 3200.0; only the day read and the note are new."""
    post(admin)
    before = catalogs(session).current().fabrics[CLUSTER]
    form = html(admin.get(PAGE)).select_one("form[action='/admin/fabrics']")
    shown = {field["name"]: field.get("value", "") for field in form.select("input")}
    shown |= {field["name"]: field.select_one("option[selected]")["value"] for field in form.select("select")}
    assert (shown["inter_node_gbps"], shown["min_cluster_gpus"], shown["provider"]) == ("3200", "16", "cloud")
    shown |= {"as_of": "2026-11-21", "note": "checked"}
    saved = admin.post("/admin/fabrics", data=shown, follow_redirects=False)
    assert saved.status_code == 303, html(saved).select(".error")
    after = catalogs(session).current().fabrics[CLUSTER]
    assert after == replace(before, as_of=after.as_of)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("provider", "nobody", "choose a provider of the catalog"),
        ("product", "h100-clustre", "no offer of cloud is of this product: add the offer first"),
        ("gpus_per_node", "0", "must be a whole number from 1 to 1,000"),
        ("inter_node_kind", "nvlink", "must be one of infiniband, roce, efa, tcpx"),
        ("inter_node_gbps", "fast", "must be a number of Gb/s"),
        ("min_cluster_gpus", "0", "must be a whole number from 1 to 10,000,000"),
        ("max_cluster_gpus", "1.5", "must be a whole number"),
        ("source", "javascript:alert(1)", "must be the http(s) address"),
        ("source", "", "must be the http(s) address"),
        ("as_of", "2999-01-01", "cannot be in the future"),
        ("source_kind", "", "say who published it"),
        ("note", "", "say in a few words why"),
    ],
)
def test_a_bad_fabric_is_refused_under_its_field_and_saves_nothing(admin, session, field, value, message):
    before = versions(session)
    response = post(admin, **{field: value})
    assert response.status_code == 422 and message in html(response).select_one(f"#{field}-error").get_text()
    assert html(response).select_one("#inter_node")["value"] == FABRIC["inter_node"]
    assert versions(session) == before and catalogs(session).current().fabrics == {}


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"inter_node": ""}, "inter_node", "describe the fabric between nodes as its source states it"),
        ({"inter_node_kind": ""}, "inter_node_kind", "choose the kind of the fabric between nodes described"),
        ({"inter_node": "", "inter_node_kind": ""}, "inter_node_gbps", "leave it empty unless a fabric between"),
        ({"min_cluster_gpus": "2048"}, "min_cluster_gpus", "must be at most the most GPUs of a cluster, 1,024"),
    ],
)
def test_a_fabric_whose_fields_disagree_is_refused_under_the_field_to_mend(admin, session, changes, field, message):
    """A kind without the source's words for it or the reverse, Gb/s of no fabric, a cluster from more than it holds."""
    before = versions(session)
    response = post(admin, **changes)
    assert response.status_code == 422 and message in html(response).select_one(f"#{field}-error").get_text()
    assert html(response).select_one("#product")["value"] == "h100-cluster"
    assert versions(session) == before


def test_a_stale_fabric_edit_is_refused_naming_the_change_that_came_first(admin, session):
    """Two admins open the cluster's fabric; the first saves 2,048 GPUs at most, the second's 512 gets a 409."""
    post(admin)
    stale = html(admin.get(PAGE)).select_one("form[action='/admin/fabrics'] input[name=based_on]")["value"]
    assert post(admin, PAGE, max_cluster_gpus="2048", note="grown, by alice").status_code == 303
    refused = post(admin, PAGE, max_cluster_gpus="512", based_on=stale)
    assert refused.status_code == 409
    problem = html(refused).select_one(".problem").get_text()
    assert "Someone changed this fabric" in problem and "grown, by alice" in problem
    assert html(refused).select_one("#max_cluster_gpus")["value"] == "512"
    assert catalogs(session).current().fabrics[CLUSTER].max_cluster_gpus == 2048


def test_two_admins_adding_the_same_product_s_fabric_the_second_is_refused(admin, session):
    opened = html(admin.get("/admin/fabrics")).select_one("form[action='/admin/fabrics'] input[name=based_on]")
    assert opened["value"] == "0" and post(admin).status_code == 303
    assert post(admin, max_cluster_gpus="512", based_on="0").status_code == 409
    assert catalogs(session).current().fabrics[CLUSTER].max_cluster_gpus == 1024


def test_a_fabric_s_words_are_shown_as_text_never_as_markup(admin, session):
    post(admin, intra_node='<script>alert("x")</script> NVLink')
    page = html(admin.get("/admin/fabrics"))
    row = page.select_one("tr[data-fabric='cloud h100-cluster']")
    assert not row.select("script") and '<script>alert("x")</script> NVLink' in row.get_text()


def test_the_fabrics_page_needs_a_signed_in_admin_and_its_form_its_csrf_token(admin, session):
    before = versions(session)
    assert admin.post("/admin/fabrics", data=FABRIC).status_code == 403
    assert versions(session) == before and catalogs(session).current().fabrics == {}
    assert csrf(admin, "/admin/fabrics")
    assert html(admin.get("/admin")).select_one("nav.admin a[href='/admin/fabrics']")
    token = csrf(admin, "/admin/fabrics")
    admin.cookies.clear()
    assert admin.get("/admin/fabrics", follow_redirects=False).headers["location"].startswith("/admin/login")
    signed_out = admin.post("/admin/fabrics", data=FABRIC | {"csrf_token": token}, follow_redirects=False)
    assert signed_out.headers["location"].startswith("/admin/login") and versions(session) == before
