"""The page reads the workload's inputs, then the answer, then the other groups folded under summaries
that say what in them differs from the defaults; a group opens where an input in it is wrong."""

from tests.factories import hand_checked_catalog
from tests.web.helpers import QUERY, soup


def _summary(page, group: str) -> str:
    return " ".join(page.select_one(f"#fold-{group} > summary .changes").get_text().split())


def test_the_page_reads_the_workload_then_the_answer_then_the_folded_groups(client, session):
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}"))
    form = page.select_one("form#calculator")
    workload = form.select_one("fieldset.main")
    shown = [field["name"] for field in workload.select("input[type=number], select")]
    assert shown == ["gpu", "gpu_hours", "hours_gpu", "peak_gpus", "checkpoint_gb", "checkpoints_out", "egress_gb"]
    sliders = [slider["data-pair"] for slider in workload.select("input[type=range]")]
    assert sliders == ["gpu_hours", "peak_gpus", "checkpoint_gb", "checkpoints_out", "egress_gb"]
    in_order = [element.get("id") for element in form.select("fieldset.main, #results, details.fold")]
    assert in_order == [
        None, "results", "fold-job", "fold-data", "fold-model", "fold-owning", "fold-filters", "fold-assumptions"
    ]  # fmt: skip
    assert [fold.has_attr("open") for fold in form.select("details.fold")] == [False] * 6
    assumed = "Virtualization tax, virtualized: 0 % of throughput lost; Serverless invocations: 0 per month"
    assert _summary(page, "assumptions") == assumed


def test_a_summary_names_what_its_group_holds_otherwise_than_by_default(client, session):
    hand_checked_catalog(session)
    query = "months=12&currency=EUR&tenancy=bare_metal&tenancy=serverless&eu_only=on&virt_tax=0"
    page = soup(client.get(f"/?{query}"))
    assert _summary(page, "data") == "Horizon: 12 months; Show money in: euros (converted)"
    assert _summary(page, "filters") == "Tenancy: Bare metal, Serverless; Processing in the EU"
    assert _summary(page, "assumptions") == "Virtualization tax, virtualized: 0 % of throughput lost"
    assert _summary(page, "job") == "" and _summary(page, "model") == ""


def test_a_group_holding_a_wrong_input_is_open_and_a_stated_job_opens_its_group(client, session):
    hand_checked_catalog(session)
    page = soup(client.get("/?months=0&stored_gb=500"))
    assert page.select_one("#fold-data").has_attr("open")
    assert page.select_one("#months-error").get_text() == "must be at least 1"
    assert _summary(page, "data") == "Stored data: 500 GB", "the wrong input is named under its field, not here"
    assert not page.select_one("#fold-filters").has_attr("open")
    within = soup(client.get("/?layers=0"))
    assert within.select_one("#fold-model").has_attr("open")
    assert within.select_one("#layers").find_parent("details").has_attr("open"), "and the fold within it"
    assert soup(client.get("/?job=serve")).select_one("#fold-job").has_attr("open")


def test_a_live_change_in_a_group_sends_that_groups_summary_alone(client, session):
    hand_checked_catalog(session)
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver/?{QUERY}"}
    page = soup(client.get(f"/?{QUERY}&months=6", headers=headers))
    [sent] = page.select("[hx-swap-oob]")
    assert (sent["id"], sent.get_text()) == ("data-changes", "Horizon: 6 months")
