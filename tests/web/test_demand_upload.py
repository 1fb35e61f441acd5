"""Hourly GPU demand uploaded for the hybrid split (issue 24): kept once under the key of its hours,
carried by that key in the page's URL, refused whole with its first bad line."""

import threading
from urllib.parse import parse_qs, urlsplit

from sqlalchemy.exc import OperationalError
from sqlmodel import Session, SQLModel, delete, func, select

from app.platform.db import make_engine
from app.platform.settings import settings
from app.quoting.params.split import WEEK_EXAMPLE
from app.scenarios import service
from app.scenarios.profiles import DemandProfile, keep_profile, profile_key
from app.scenarios.tables import Scenario
from tests.factories import hand_checked_catalog
from tests.web.helpers import QUERY, html, soup

MONTH = [2 if hour % 24 < 8 else 6 for hour in range(744)]
"""January: two GPUs at night, six from 08:00, every day."""
MONTH_CSV = "hour,gpus\n" + "\n".join(f"2026-01-{1 + h // 24:02}T{h % 24:02}:00,{gpus}" for h, gpus in enumerate(MONTH))


def upload(client, query=QUERY, csv=MONTH_CSV, text=None, token=True):
    """The page's "Upload and split": a file chosen (or the hours pasted), from the page at `query`."""
    page = soup(client.get(f"/?{query}"))
    form = {"inputs": page.select_one("input[form=demand-upload][name=inputs]")["value"]}
    if token:
        form["csrf_token"] = page.select_one("#demand-upload input[name=csrf_token]")["value"]
    if text is not None:
        return client.post("/demand", data=form | {"text": text}, follow_redirects=False)
    files = {"file": ("january.csv", csv.encode(), "text/csv")}
    return client.post("/demand", data=form, files=files, follow_redirects=False)


def kept(session):
    return session.exec(select(func.count()).select_from(DemandProfile)).one()


def message(page):
    """What the page says under the upload."""
    return page.select_one(".upload #hourly_key-error").get_text(strip=True)


def test_an_uploaded_month_of_744_hours_is_kept_under_its_key_and_quoted(client, session):
    hand_checked_catalog(session)
    response = upload(client)
    assert response.status_code == 303
    address = urlsplit(response.headers["location"])
    query = parse_qs(address.query)
    key = profile_key(MONTH)
    assert (address.path, query["job"], query["demand"], query["hourly_key"]) == ("/", ["split"], ["hourly"], [key])
    assert query["virt_tax"] == ["0"] and "hourly" not in query, "the page's other inputs kept, never the hours"
    assert session.get(DemandProfile, key).hours == "\n".join(map(str, MONTH))
    page = soup(client.get(response.headers["location"]))
    assert page.select_one("#results-problem").get_text(strip=True) == ""
    assert page.select_one("#calculator input[name=hourly_key]")["value"] == key
    assert page.select_one("#job option[selected]")["value"] == "split"
    assert page.select_one("#demand option[selected]")["value"] == "hourly"
    assert page.select_one(".upload .uploaded").get_text(strip=True) == "Uploaded: 744 hours, peak 6 GPUs"
    assert not page.select("#calculator [name=hourly]"), "the hours are never in the form"
    assert not [a["href"] for a in page.select("a[href]") if "hourly=" in a["href"]], "nor in a link"
    assert key in page.select_one("input[form=demand-upload][name=inputs]")["value"]
    moved = client.get(f"{response.headers['location']}&virt_tax=5", headers={"HX-Request": "true"})
    assert moved.status_code == 200 and "hourly_key=" + key in moved.text, "a live update finds the hours by the key"


def test_hours_pasted_are_kept_as_the_same_profile_as_the_file(client, session):
    """The hours alone, one a line, are the CSV's profile: one key, one row, whichever way it came."""
    hand_checked_catalog(session)
    from_file, pasted = upload(client), upload(client, text="\n".join(map(str, MONTH)))
    assert from_file.headers["location"] == pasted.headers["location"]
    assert kept(session) == 1


def test_a_csv_with_a_bad_line_14_is_refused_with_its_line_and_nothing_is_kept(client, session):
    hand_checked_catalog(session)
    lines = MONTH_CSV.splitlines()
    lines[13] = "2026-01-01T12:00,six"
    response = upload(client, csv="\n".join(lines))
    page = html(response)
    assert response.status_code == 422
    assert message(page) == "line 14: 'six' is not a whole number of GPUs in use"
    assert page.select_one("#virt_tax")["value"] == "0", "the other inputs are kept"
    assert page.select_one("#demand option[selected]")["value"] == "hourly"
    assert kept(session) == 0


def test_a_file_over_200_kb_is_refused_and_nothing_is_kept(client, session):
    hand_checked_catalog(session)
    response = upload(client, csv=MONTH_CSV + "\n" + "2026-02-01T00:00,2\n" * 12_000)
    assert response.status_code == 422
    assert message(html(response)) == "is larger than 200 KB: one hour a line, a year at most"
    assert kept(session) == 0


def test_an_upload_without_its_csrf_token_is_refused_and_nothing_is_kept(client, session):
    hand_checked_catalog(session)
    response = upload(client, token=False)
    assert response.status_code == 403
    assert message(html(response)) == "This form has expired or came from another site. Upload again from this page."
    assert kept(session) == 0


def test_the_same_csv_uploaded_twice_is_kept_once(client, session):
    hand_checked_catalog(session)
    first, again = upload(client), upload(client)
    assert first.headers["location"] == again.headers["location"]
    assert kept(session) == 1


def test_the_same_hours_kept_by_eight_requests_at_once_land_once(database_url):
    """Each in a session of its own, all released together: none fails on the primary key."""
    engine = make_engine(database_url)
    SQLModel.metadata.create_all(engine)
    ready = threading.Barrier(8)
    keys: list[str] = []

    def keep() -> None:
        with Session(engine) as session:
            ready.wait()
            keys.append(keep_profile(session, MONTH, "a client"))

    threads = [threading.Thread(target=keep) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Session(engine) as session:
        assert (keys, kept(session)) == ([profile_key(MONTH)] * 8, 1)
    engine.dispose()


def test_uploads_beyond_a_clients_limit_are_refused_but_one_kept_already_is_not_counted(client, session, monkeypatch):
    hand_checked_catalog(session)
    monkeypatch.setattr(settings, "uploads_per_client_per_10_min", 1)
    assert upload(client).status_code == 303
    refused = upload(client, text="\n".join(["3"] * 744))
    assert refused.status_code == 429 and "uploaded many profiles" in message(html(refused))
    assert 590 <= int(refused.headers["Retry-After"]) <= 600
    assert upload(client).status_code == 303
    assert kept(session) == 1


def test_a_key_not_kept_here_asks_for_the_csv_again_without_failing(client, session):
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}&job=split&demand=hourly&hourly_key=0123456789abcdef"))
    assert message(page) == "is not an upload kept here: upload the CSV again"
    hours = soup(client.get(f"/?{QUERY}&hourly_key=0123456789abcdef"))
    assert hours.select_one("#results-problem").get_text(strip=True) == "", "GPU-hours need no upload"


def test_a_week_typed_in_its_grid_comes_back_in_the_form(client, session):
    hand_checked_catalog(session)
    response = client.get("/", params={"job": "split", "demand": "weekly", "weekly": WEEK_EXAMPLE, "base_gpus": 3})
    page = soup(response)
    grid = page.select_one("#calculator textarea#weekly")
    assert grid.get_text() == WEEK_EXAMPLE and grid["rows"] == "7"
    assert "for-demand-weekly" in grid.parent["class"]
    assert page.select_one("label[for=weekly]").get_text(strip=True) == "A week, hour by hour"
    assert page.select_one("#results-problem").get_text(strip=True) == ""
    summary = page.select_one("#job-changes").get_text()
    assert "A week, hour by hour" in summary and "GPUs in use all month" not in summary, "simple demand's unused"


def test_a_saved_hourly_scenario_keeps_its_profile_and_opens_exports_and_compares(client, session):
    """The scenario holds the hours whole; its page and links carry the key alone, and importing its
    export keeps the profile again where this calculator no longer has it."""
    hand_checked_catalog(session)
    split = upload(client).headers["location"][2:]
    page = soup(client.get(f"/?{split}"))
    form = {
        "csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
        "inputs": page.select_one("input[form=save-form][name=inputs]")["value"],
    }
    slug = client.post("/s", data=form, follow_redirects=False).headers["location"].removeprefix("/s/")
    hours = soup(client.get(f"/?{QUERY}")).select_one("input[form=save-form][name=inputs]")["value"]
    other = client.post("/s", data=form | {"inputs": hours}, follow_redirects=False).headers["location"][3:]
    saved = soup(client.get(f"/s/{slug}"))
    assert saved.select_one(".upload .uploaded").get_text(strip=True) == "Uploaded: 744 hours, peak 6 GPUs"
    assert not [a["href"] for a in saved.select("a[href]") if "hourly=" in a["href"]]
    exported = client.get(f"/s/{slug}.json")
    assert exported.json()["params"]["hourly_key"] == profile_key(MONTH)
    assert client.get(f"/s/{slug}.csv").status_code == 200
    compared = soup(client.get(f"/compare?s={slug},{other}"))
    uploads = compared.find("th", string="Hourly demand").find_next_siblings("td")
    assert [td.get_text(strip=True) for td in uploads] == ["744 hours, peak 6 GPUs", "none"]
    session.exec(delete(DemandProfile))
    session.commit()
    files = {"file": ("scenario.json", exported.content, "application/json")}
    assert client.post("/s/import", data=form, files=files, follow_redirects=False).status_code == 303
    assert kept(session) == 1


def test_a_saved_split_whose_hours_cannot_be_kept_stores_no_scenario(client, session, monkeypatch):
    """The scenario and its hours are one transaction: a database that fails between them leaves no
    link its client was told had failed (a retry would have saved it twice)."""
    hand_checked_catalog(session)

    def database_gone(*_: object) -> None:
        raise OperationalError("INSERT INTO demandprofile", {}, Exception("database is locked"))

    monkeypatch.setattr(service, "add_profile", database_gone)
    params = {"job": "split", "gpu": "H100", "demand": "hourly", "hourly": "\n".join(WEEK_EXAMPLE.split() * 5)}
    answered = client.post("/api/scenarios", json={"params": params})
    assert answered.status_code == 503, answered.text
    assert answered.headers["Retry-After"] == "5"
    session.rollback()
    assert session.exec(select(func.count()).select_from(Scenario)).one() == 0
    assert session.exec(select(func.count()).select_from(DemandProfile)).one() == 0
