"""Refresh from dstack's gpuhunt catalogs, answered from recorded samples of its catalog file: prices
dated by the catalog version, GPU names mapped to the catalog's, estimates and unknown GPUs left out,
and a version, zip or file that cannot be read whole planning nothing."""

import re
from datetime import date
from decimal import Decimal

import httpx
import pytest

from app.refresh.fetch import RefreshFailed
from app.refresh.sources import plan_refresh
from tests.factories import make_gpu, make_provider
from tests.refresh.conftest import GPUHUNT, RECORDED, answering, gpuhunt_routes, zipped

CATALOG_DAY = date(2026, 11, 30)
LAMBDA_ZIP = f"{GPUHUNT}/lambdalabs/20261130-412/catalog.zip"
HEADER = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,provider_data\n"  # noqa: E501


def lambda_plan(db, csv_text=None, **routes):
    return plan_refresh(db, 1, "gpuhunt:lambda", answering(gpuhunt_routes("lambdalabs", csv_text) | routes))


def test_gpuhunt_reprices_the_catalogs_offers_dated_by_the_catalog_version(db, sources_catalog):
    """Lambda's 8x H100 in us-east-1: 23.92 -> 27.92 an hour; 8x V100 keeps 6.32 and is dated by the
    version (20261130-412: 2026-11-30), with that version's zip as its source. gpuhunt's A100 of
    80 GB is the catalog's A100-80GB, new to it; its A100 of 40 GB and its GH200 are not in this
    catalog, and a CPU instance has no GPU."""
    plan = lambda_plan(db)
    assert plan.problems == []
    assert {row.key: (row.price, row.as_of, row.source_url) for _, row in plan.change} == {
        "lambda:gpu_8x_h100_sxm5:H100:us-east-1:on_demand": (Decimal("27.92"), CATALOG_DAY, LAMBDA_ZIP),
        "lambda:gpu_8x_v100:V100:us-east-1:on_demand": (Decimal("6.32"), CATALOG_DAY, LAMBDA_ZIP),
    }
    assert [(row.product, row.gpu, row.gpus_per_unit, row.price, row.vcpus) for row in plan.add] == [
        ("gpu_8x_a100_80gb_sxm4", "A100-80GB", 8, Decimal("14.32"), 240)
    ]
    assert plan.left_out == [
        "1 left out: GPU A100 is not in the catalog",
        "1 left out: GPU GH200 is not in the catalog",
        "1 left out: a region the catalog does not list for this product",
        "1 left out: no GPU",
    ]


def test_gpuhunts_estimated_oci_spot_prices_stay_out(db, sources_catalog):
    """gpuhunt makes OCI's preemptible prices up as half the on-demand ones (flag oci-spot): only the
    on-demand prices come in, the H100 shape staying bare metal."""
    plan = plan_refresh(db, 1, "gpuhunt:oci", answering(gpuhunt_routes("oci")))
    assert {row.key: (row.price, row.tenancy) for _, row in plan.change} == {
        "oci:BM.GPU.H100.8:H100:us-ashburn-1:on_demand": (Decimal(80), "bare_metal"),
        "oci:VM.GPU.A10.1:A10:us-ashburn-1:on_demand": (Decimal(2), "virtualized"),
    }
    assert plan.add == [] and plan.problems == []
    assert plan.left_out == [
        "2 left out: an estimate (OCI's preemptible price worked out by gpuhunt as half the on-demand one)"
    ]


def test_runpod_pods_are_named_by_their_gpus_and_cloud_and_community_ones_by_country(db, session, sources_catalog):
    """gpuhunt lists RunPod's pod types under one name for every GPU count: each count is a product, named as
    SkyPilot's catalog names it (8x_H100_SECURE), so both price one offer. Community Cloud is listed by
    country (CA), its price 3 x 0.69 as Python writes it (2.0699999999999994) read as 2.07. An Instant
    Cluster node and a CPU pod stay out."""
    make_provider(session, "runpod")
    session.commit()
    plan = plan_refresh(db, 1, "gpuhunt:runpod", answering(gpuhunt_routes("runpod")))
    assert plan.problems == []
    assert sorted((row.product, row.region, row.region_country, row.price) for row in plan.add) == [
        ("1x_H100_COMMUNITY", "CA", "CA", Decimal("2.07")),
        ("1x_H100_SECURE", "US-KS-2", None, Decimal("2.99")),
        ("8x_H100_SECURE", "US-KS-2", None, Decimal("23.92")),
    ]
    assert plan.left_out == ["1 left out: a node of a RunPod Instant Cluster, rented 2 to 8 at a time",
                             "1 left out: no GPU"]  # fmt: skip


def test_a_provider_the_catalog_does_not_have_is_left_out_not_refused(db, session, sources_catalog):
    """CloudRift is published by gpuhunt but is no provider of this catalog: nothing to apply, nothing malformed."""
    make_gpu(session, "RTX-PRO-6000", 96)
    session.commit()
    plan = plan_refresh(db, 1, "gpuhunt:cloudrift", answering(gpuhunt_routes("cloudrift")))
    assert (plan.add, plan.change, plan.problems) == ([], [], [])
    assert plan.left_out == ["1 left out: provider cloudrift is not in the catalog"]


def test_a_gcp_zone_is_priced_as_its_region_at_its_lowest_price(db, session, sources_catalog):
    """gpuhunt lists GCP by zone; the catalog prices it by region, at its zones' lowest price."""
    make_provider(session, "gcp")
    session.commit()
    rows = (
        "a3-highgpu-1g,us-central1-a,11.2,26,234.0,1,H100,80.0,False,,nvidia,,x86,{}\n"
        "a3-highgpu-1g,us-central1-b,11.0,26,234.0,1,H100,80.0,False,,nvidia,,x86,{}\n"
    )
    plan = plan_refresh(db, 1, "gpuhunt:gcp", answering(gpuhunt_routes("gcp", HEADER + rows)))
    assert [(row.region, row.price) for row in plan.add] == [("us-central1", Decimal("11.0"))]


@pytest.mark.parametrize(
    ("routes", "reason"),
    [
        ({f"{GPUHUNT}/lambdalabs/version": httpx.Response(200, text="<html>denied</html>")},
         "names no catalog version such as 20260818-42"),
        (gpuhunt_routes("lambdalabs", version="29990101-1"), "version 29990101-1 cannot be in the future"),
        ({LAMBDA_ZIP: httpx.Response(200, text="<html>rate limited</html>")}, "is not a whole zip file"),
        ({LAMBDA_ZIP: httpx.Response(200, content=zipped("lambdalabs", HEADER * 200)[:300])},
         "is not a whole zip file"),
        ({LAMBDA_ZIP: httpx.Response(200, content=zipped("aws", HEADER))}, "holds no lambdalabs.csv"),
        ({LAMBDA_ZIP: httpx.Response(200, content=zipped("lambdalabs", "name,price\nx,1\n"))},
         "is not a gpuhunt catalog: no gpu_count, gpu_memory, gpu_name, instance_name, location, spot column"),
        ({LAMBDA_ZIP: httpx.Response(200, content=zipped("lambdalabs", HEADER))}, "holds no prices"),
        ({LAMBDA_ZIP: httpx.Response(503)}, "answered HTTP 503"),
    ],
    ids=["no version", "a future version", "not a zip", "truncated zip", "another provider's file",
         "not a gpuhunt file", "no rows", "HTTP error"],
)  # fmt: skip
def test_a_catalog_that_cannot_be_read_whole_plans_nothing_and_says_why(db, sources_catalog, routes, reason):
    client = answering(gpuhunt_routes("lambdalabs") | routes)
    with pytest.raises(RefreshFailed, match=re.escape(reason)):
        plan_refresh(db, 1, "gpuhunt:lambda", client)


def test_refused_rows_are_reported_by_line_and_block_the_apply(db, sources_catalog):
    """A file cut short mid-row, a price of 1e9 (past the 10,000,000 any price may be), NaN, a
    negative price and a spot flag that is no boolean are refused with their line; a price of 0 is
    left out. The rows read well are still shown, but the plan cannot be applied."""
    recorded = (RECORDED / "gpuhunt_lambdalabs.csv").read_text()
    bad = (
        "gpu_8x_h100_sxm5,us-west-1,1e9,208,1800.0,8,H100,80.0,False,,nvidia,,x86,{}\n"
        "gpu_8x_h100_sxm5,us-west-2,NaN,208,1800.0,8,H100,80.0,False,,nvidia,,x86,{}\n"
        "gpu_8x_h100_sxm5,us-west-3,-1,208,1800.0,8,H100,80.0,False,,nvidia,,x86,{}\n"
        "gpu_8x_h100_sxm5,us-west-4,0,208,1800.0,8,H100,80.0,False,,nvidia,,x86,{}\n"
        "gpu_8x_h100_sxm5,us-west-5,1.0,208,1800.0,8,H100,80.0,maybe,,nvidia,,x86,{}\n"
        "gpu_8x_h100_sxm5,us-west-6,27.9"
    )
    plan = lambda_plan(db, recorded + bad)
    assert plan.problems == [
        ("line 9", "price must be at most 10,000,000 with 8 decimal places at most"),
        ("line 10", "price must be a number, e.g. 2.49"),
        ("line 11", "price must be a price of 0 or more"),
        ("line 13", "spot must be True or False, not 'maybe'"),
        ("line 14", "the row has a different number of fields than the header"),
    ]
    assert "1 left out: a price of 0" in plan.left_out
    assert not plan.applicable
