"""What the web tests share: a query worked by hand, reading pages, and signing in as an admin."""

import csv
import io

from bs4 import BeautifulSoup
from sqlmodel import func, select

from app.admin.accounts import start_session
from app.admin.tables import AdminUser
from app.catalog.tables import CatalogVersion
from app.deps import ADMIN_COOKIE

QUERY = "gpu=H100&gpu_hours=400&checkpoint_gb=140&checkpoints_out=1&virt_tax=0&invocations=0"
"""400 GPU-hours, one 140 GB checkpoint out, no tax, no cold starts: the hand-checked catalog's numbers."""
PASSWORD = "correct horse battery"
NEW_OFFER = {"provider": "cloud", "gpu": "H100", "product": "new", "tenancy": "virtualized", "billing": "on_demand",
             "gpus_per_unit": "1", "price": "5.00", "currency": "USD", "price_period": "hour", "region": "r",
             "source_url": "https://example.test/x", "as_of": "2026-11-20", "note": "n"}  # fmt: skip
"""The new-offer form, filled in well for the hand-checked catalog (its csrf_token aside)."""
PRESET = {"key": "llama-3.1-70b", "name": "Llama 3.1 70B", "parameters_b": "70.6", "active_parameters_b": "",
          "parameters_source": "https://huggingface.co/meta-llama/Llama-3.1-70B", "layers": "80",
          "hidden_size": "8192", "attention_heads": "64", "kv_heads": "8", "head_dim": "128",
          "default_context": "131072", "source": "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json",
          "as_of": "2026-11-20", "source_kind": "official", "note": "exact count"}  # fmt: skip
"""The preset form for Llama 3.1 70B, filled in well (its csrf_token and based_on aside)."""


def html(response):
    """Any page, whatever its status, parsed as a browser would (lxml: several times html.parser's speed)."""
    return BeautifulSoup(response.text, "lxml")


def soup(response):
    """A page that answered 200, parsed."""
    assert response.status_code == 200
    return html(response)


def totals(page):
    """The options table's monthly totals by option, as the page prints them."""
    return {
        row["data-option"]: row.select_one("td.total").get_text(strip=True).rstrip("*")
        for row in page.select("table.options tbody tr")
    }


def sign_in(client, username="alice", password=PASSWORD):
    token = html(client.get("/admin/login")).select_one("input[name=csrf_token]")["value"]
    return client.post(
        "/admin/login", data={"csrf_token": token, "username": username, "password": password}, follow_redirects=False
    )


def signed_in_as(client, session, username="alice"):
    """Signed in without the sign-in form (its own tests drive it): a server-side session and its cookie."""
    user = session.exec(select(AdminUser).where(AdminUser.username == username)).one()
    client.cookies.set(ADMIN_COOKIE, start_session(session, user))


def csrf(client, path="/admin"):
    return html(client.get(path)).select_one("input[name=csrf_token]")["value"]


def versions(session):
    return session.exec(select(func.count()).select_from(CatalogVersion)).one()


def import_file(client, text, **fields):
    """An admin's CSV import of `text`, previewed (the import page's other `fields` beside it)."""
    files = {"file": ("offers.csv", text.encode(), "text/csv")}
    return client.post("/admin/import", data={"csrf_token": csrf(client, "/admin/import"), **fields}, files=files)


def edited_export(client, first_row, lineterminator="\r\n"):
    """The catalog's own CSV export with the first offer's cells changed to `first_row`."""
    rows = list(csv.DictReader(io.StringIO(client.get("/admin/api/export.csv").text)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator=lineterminator)
    writer.writeheader()
    writer.writerows([rows[0] | first_row, *rows[1:]])
    return out.getvalue()
